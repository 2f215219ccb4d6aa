"""fused_batch_norm, batch_norm_with_global_normalization -- mirrors TensorFlow's
nn_impl.fused_batch_norm and nn_impl.batch_norm_with_global_normalization.

TF runs fused_batch_norm as one kernel (FusedBatchNormV3); here it is built from existing
ops (moments and batch_normalization, sandbox/ops/nn_impl.py), NHWC only. As in TF:

* is_training=True: y is normalized with the batch mean and the biased batch variance, but
  the third output is the Bessel-corrected variance (times n / (n - 1), n = the number of
  values per channel); with exponential_avg_factor != 1 the second and third outputs are
  (1 - f) * mean + f * batch_mean and likewise for the variance.
* is_training=False: y uses the given mean and variance, which are returned unchanged.
* TF's gradient (FusedBatchNormGrad) flows only from y: the mean and variance outputs pass
  no gradient back (stop_gradient here), and with is_training=False neither do the mean and
  variance inputs.
"""
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import array_ops, basic_math_ops, math_ops
from .nn_impl import batch_normalization, moments
from .control_flow_ops import identity, stop_gradient

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


def fused_batch_norm(x, scale, offset, mean=None, variance=None, epsilon=0.001,
                     data_format="NHWC", is_training=True, name=None,
                     exponential_avg_factor=1.0):
    """Batch normalization of a 4-D NHWC x over its batch, height and width axes: returns
    (y, batch_mean, batch_variance) as TF 1's tf.nn.fused_batch_norm."""
    if data_format not in ("NHWC", None):
        raise ValueError(f"fused_batch_norm: the sandbox supports data_format='NHWC' only. "
                         f"Received: data_format={data_format}")
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or
                                                                variance is None):
        raise ValueError("Both 'mean' and 'variance' must be a 1D tensor when is_training is "
                         f"False or exponential_avg_factor != 1.0. Received: 'mean' {mean!r} "
                         f"and 'variance' {variance!r}")
    with name_scope(name, "FusedBatchNormV3", [x, scale, offset]):
        x = convert_to_tensor(x, name="input")
        x.get_shape().with_rank(4)
        scale = convert_to_tensor(scale, dtype=x.dtype.base_dtype, name="scale")
        offset = convert_to_tensor(offset, dtype=x.dtype.base_dtype, name="offset")
        if not is_training:
            mean = stop_gradient(convert_to_tensor(mean, dtype=x.dtype.base_dtype))
            variance = stop_gradient(convert_to_tensor(variance, dtype=x.dtype.base_dtype))
            y = batch_normalization(x, mean, variance, offset, scale, epsilon)
            return y, identity(mean), identity(variance)
        batch_mean, batch_var = moments(x, [0, 1, 2])
        y = batch_normalization(x, batch_mean, batch_var, offset, scale, epsilon)
        shape = array_ops.shape(x)
        n = math_ops.cast(shape[0] * shape[1] * shape[2], x.dtype.base_dtype)
        corrected = batch_var * n / basic_math_ops.maximum(n - 1.0, 1.0)
        out_mean, out_var = stop_gradient(batch_mean), stop_gradient(corrected)
        if exponential_avg_factor != 1.0:
            f = exponential_avg_factor
            old_m = convert_to_tensor(mean, dtype=x.dtype.base_dtype)
            old_v = convert_to_tensor(variance, dtype=x.dtype.base_dtype)
            out_mean = stop_gradient((1.0 - f) * old_m + f * out_mean)
            out_var = stop_gradient((1.0 - f) * old_v + f * out_var)
        return y, out_mean, out_var


def batch_norm_with_global_normalization(t=None, m=None, v=None, beta=None, gamma=None,
                                         variance_epsilon=None, scale_after_normalization=None,
                                         name=None, input=None, mean=None,  # noqa: A002
                                         variance=None):
    """(t - m) / sqrt(v + variance_epsilon) * gamma + beta (gamma only if
    scale_after_normalization) -- TF's deprecated batch_norm_with_global_normalization."""
    t = input if input is not None else t
    m = mean if mean is not None else m
    v = variance if variance is not None else v
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name=name or "BatchNormWithGlobalNormalization")
