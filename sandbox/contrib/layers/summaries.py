"""Summaries of tf.contrib.layers -- mirrors TensorFlow 1.15's
contrib/layers/python/layers/summaries.py.

    tf.contrib.layers.summarize_activation(h)     # histogram '<op>/activation'; for a
                                                  # Relu/Softplus/Relu6 also the scalar
                                                  # '<op>/zeros' (fraction below 0), for
                                                  # Relu6 '<op>/sixes' (fraction above 6)
    tf.contrib.layers.summarize_tensors([loss, w])    # scalar or histogram '<op>_summary'
    tf.contrib.layers.summarize_collection(tf.GraphKeys.TRAINABLE_VARIABLES, 'conv.*')
"""
import functools
import re

from ...framework.graph import GraphKeys, get_collection
from ...ops import comparison_ops, math_ops, reduction_ops
from ...ops import summary_ops as summary

__all__ = ["summarize_tensor", "summarize_activation", "summarize_tensors",
           "summarize_collection", "summarize_variables", "summarize_weights",
           "summarize_biases", "summarize_activations"]

_WEIGHTS, _BIASES, _ACTIVATIONS = "weights", "biases", "activations"   # tf.GraphKeys' values


def _add_scalar_summary(tensor, tag=None):
    if tensor.get_shape().ndims != 0:
        raise ValueError(f"Expected scalar tensor, got {tensor}")
    return summary.scalar(tag or f"{tensor.op.name}_summary", tensor)


def _add_histogram_summary(tensor, tag=None):
    return summary.histogram(tag or f"{tensor.op.name}_summary", tensor)


def _fraction(compare, op, threshold):
    """The fraction of the activation's inputs for which compare(input, threshold) holds."""
    inputs = op.op.inputs[0]
    return reduction_ops.reduce_mean(math_ops.to_float(
        compare(inputs, math_ops.cast(threshold, inputs.dtype))))


def summarize_activation(op):
    """A histogram of the activation `op` (and for rectifiers, the fraction clipped)."""
    if op.op.type in ("Relu", "Softplus", "Relu6"):
        _add_scalar_summary(_fraction(comparison_ops.less, op, 0.0), f"{op.op.name}/zeros")
    if op.op.type == "Relu6":
        _add_scalar_summary(_fraction(comparison_ops.greater, op, 6.0), f"{op.op.name}/sixes")
    return _add_histogram_summary(op, f"{op.op.name}/activation")


def summarize_tensor(tensor, tag=None):
    """A scalar summary of a scalar tensor, else a histogram."""
    if tensor.get_shape().ndims == 0:
        return _add_scalar_summary(tensor, tag)
    return _add_histogram_summary(tensor, tag)


def summarize_tensors(tensors, summarizer=summarize_tensor):
    """summarizer(tensor) for each of `tensors`."""
    return [summarizer(tensor) for tensor in tensors]


def summarize_collection(collection, name_filter=None, summarizer=summarize_tensor):
    """Summaries of the tensors of `collection` whose op names match name_filter."""
    tensors = [t for t in get_collection(collection)
               if name_filter is None or re.match(name_filter, t.op.name)]
    return summarize_tensors(tensors, summarizer)


summarize_variables = functools.partial(summarize_collection, GraphKeys.GLOBAL_VARIABLES)
summarize_weights = functools.partial(summarize_collection, _WEIGHTS)
summarize_biases = functools.partial(summarize_collection, _BIASES)


def summarize_activations(name_filter=None, summarizer=summarize_activation):
    """summarize_activation for each tensor of the 'activations' collection."""
    return summarize_collection(_ACTIVATIONS, name_filter, summarizer)
