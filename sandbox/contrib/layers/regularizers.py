"""Regularizers of tf.contrib.layers -- mirrors TensorFlow 1.15's
contrib/layers/python/layers/regularizers.py.

A regularizer is a function from a weight tensor to a scalar loss. Given to tf.get_variable or
to a layer (kernel_regularizer=...), the loss of each new variable lands in
tf.GraphKeys.REGULARIZATION_LOSSES; add it to the training loss yourself:

    h = tf.layers.dense(x, 100, kernel_regularizer=tf.contrib.layers.l2_regularizer(1e-4))
    loss = data_loss + tf.add_n(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))

l2_regularizer(scale)(w) = scale * sum(w ** 2) / 2 (tf.nn.l2_loss); l1_regularizer(scale)(w)
= scale * sum(|w|). A scale of 0.0 disables the regularizer (it returns None); an integer
scale is an error, as in TF (write 1e-4, not 0).
"""
import numbers

from ...framework import dtypes as _dtypes
from ...framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from ...framework.tensor import convert_to_tensor
from ...ops import basic_math_ops, math_ops, nn_ops, reduction_ops
from ...ops.constant_op import constant
from ...platform import tf_logging as logging

__all__ = ["l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
           "apply_regularization"]

WEIGHTS = "weights"          # tf.GraphKeys.WEIGHTS, the default of apply_regularization


def _check_scale(scale, what="scale"):
    """None when `scale` is fine; raises for an integer or a negative number; True for 0."""
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"{what} cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}.")
        if scale == 0.:
            logging.info("Scale of 0 disables regularizer.")
            return True
    return False


def l1_regularizer(scale, scope=None):
    """A function l1(weights) = scale * sum(|weights|), named 'l1_regularizer'."""
    if _check_scale(scale):
        return lambda _: None

    def l1(weights, name=None):
        with name_scope(scope, "l1_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return math_ops.multiply(
                my_scale, reduction_ops.reduce_sum(basic_math_ops.abs(weights)), name=name)
    return l1


def l2_regularizer(scale, scope=None):
    """A function l2(weights) = scale * sum(weights ** 2) / 2, named 'l2_regularizer'."""
    if _check_scale(scale):
        return lambda _: None

    def l2(weights):
        with name_scope(scope, "l2_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return math_ops.multiply(my_scale, nn_ops.l2_loss(weights), name=name)
    return l2


def l1_l2_regularizer(scale_l1=1.0, scale_l2=1.0, scope=None):
    """The sum of an L1 and an L2 regularizer, named 'l1_l2_regularizer'."""
    if isinstance(scale_l1, numbers.Integral):
        raise ValueError(f"scale_l1 cannot be an integer: {scale_l1}")
    if isinstance(scale_l2, numbers.Integral):
        raise ValueError(f"scale_l2 cannot be an integer: {scale_l2}")
    scope = scope or "l1_l2_regularizer"
    if scale_l1 == 0.:
        return l2_regularizer(scale_l2, scope)
    if scale_l2 == 0.:
        return l1_regularizer(scale_l1, scope)
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def sum_regularizer(regularizer_list, scope=None):
    """A regularizer adding up the losses of `regularizer_list` (None if it is empty)."""
    regularizer_list = [reg for reg in regularizer_list if reg is not None]
    if not regularizer_list:
        return None

    def sum_reg(weights):
        with name_scope(scope, "sum_regularizer", [weights]) as name:
            tensors = [t for t in (reg(weights) for reg in regularizer_list) if t is not None]
            return math_ops.add_n(tensors, name=name) if tensors else None
    return sum_reg


def apply_regularization(regularizer, weights_list=None):
    """The sum of `regularizer` over `weights_list` (default: the 'weights' collection), a
    scalar named 'get_regularization_penalty', also added to REGULARIZATION_LOSSES."""
    if not weights_list:
        weights_list = get_collection(WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize: pass weights_list=[...] (the default, the "
                         "tf.GraphKeys.WEIGHTS collection, is empty).")
    with name_scope("get_regularization_penalty", values=weights_list) as scope:
        penalties = [regularizer(w) for w in weights_list]
        penalties = [p if p is not None else constant(0.0, dtype=_dtypes.float32)
                     for p in penalties]
        for p in penalties:
            if p.get_shape().ndims != 0:
                raise ValueError("regularizer must return a scalar Tensor instead of a Tensor "
                                 f"with rank {p.get_shape().ndims}.")
        summed_penalty = math_ops.add_n(penalties, name=scope)
        add_to_collection(GraphKeys.REGULARIZATION_LOSSES, summed_penalty)
        return summed_penalty
