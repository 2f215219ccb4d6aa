"""`tf.dtypes` -- the names of TensorFlow 1.15's tf.dtypes namespace (TF's generated
api/_v1/dtypes/__init__.py): the DType objects of framework/dtypes.py, and the four ops TF
files under it -- cast, saturate_cast, complex and as_string.

    tf.dtypes.as_dtype("float32") is tf.float32
    tf.dtypes.saturate_cast(tf.constant([300.0, -5.0]), tf.uint8)     # [255, 0]
"""
from ..framework.dtypes import *  # noqa: F401,F403
from ..framework.dtypes import __all__ as _dtype_names
from ..ops.complex_ops import complex  # noqa: F401,A004
from ..ops.math_ops import cast, saturate_cast  # noqa: F401
from ..ops.string_ops import as_string  # noqa: F401

__all__ = [n for n in _dtype_names if not n.endswith("_ref")] + [
    "as_string", "cast", "complex", "saturate_cast"]
