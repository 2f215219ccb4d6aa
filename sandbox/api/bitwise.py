"""`tf.bitwise` -- the names of TensorFlow 1.15's tf.bitwise namespace (TF's generated
api/_v1/bitwise/__init__.py): the bitwise ops of sandbox/ops/bitwise_ops.py.

    mask = tf.bitwise.left_shift(tf.ones([], tf.int32), 4) - 1     # 0b1111
    low_bits = tf.bitwise.bitwise_and(x, mask)
"""
from ..ops.bitwise_ops import (  # noqa: F401
    bitwise_and, bitwise_or, bitwise_xor, invert, left_shift, right_shift,
)

__all__ = ["bitwise_and", "bitwise_or", "bitwise_xor", "invert", "left_shift", "right_shift"]
