"""`tf.quantization` -- the names of TensorFlow 1.15's tf.quantization namespace (TF's
generated api/_v1/quantization/__init__.py): the quantization functions of
sandbox/ops/quantize_ops.py, the same functions as the top-level tf.quantize,
tf.dequantize, tf.quantized_concat and tf.fake_quant_* (see that module for the modes and
the arithmetic):

    q, q_min, q_max = tf.quantization.quantize(x, -1.0, 1.0, tf.quint8)
    x_again = tf.quantization.dequantize(q, q_min, q_max)
    y = tf.quantization.fake_quant_with_min_max_args(x, min=-6.0, max=6.0)

quantize_and_dequantize (the QuantizeAndDequantizeV2 op, TF 1.15 has it only here) is
sandbox/ops/quantize_dequantize_ops.py's. Not here: TF 2's quantize_and_dequantize_v2 and
experimental.* (saved-model quantization).
"""
from ..ops.quantize_ops import (  # noqa: F401
    dequantize, fake_quant_with_min_max_args, fake_quant_with_min_max_args_gradient,
    fake_quant_with_min_max_vars, fake_quant_with_min_max_vars_gradient,
    fake_quant_with_min_max_vars_per_channel, fake_quant_with_min_max_vars_per_channel_gradient,
    quantize, quantized_concat,
)
from ..ops.quantize_dequantize_ops import quantize_and_dequantize  # noqa: F401

__all__ = ["dequantize", "fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient", "quantize",
           "quantize_and_dequantize", "quantized_concat"]
