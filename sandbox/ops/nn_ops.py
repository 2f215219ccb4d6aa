"""Neural-network ops -- mirrors TensorFlow's nn_ops (python/ops/nn_ops.py) and the kernels
behind them (core/kernels/relu_op.cc, softmax_op.cc, xent_op.cc, bias_op.cc ...).

These are the building blocks of a network layer: activations (relu, elu, softplus ...),
softmax, the softmax cross-entropy losses, bias_add and dropout. Students reach them as
`tf.nn.relu`, `tf.nn.softmax` ... (see sandbox/nn.py), as they reach the rest of tf.nn: what
TF's nn_impl.py builds from these (moments, batch_normalization ...) and the evaluation ops
top_k and in_top_k in ops/nn_impl.py, conv2d and pooling in ops/conv_ops.py.

Many of them have a *fused* gradient op, as in TensorFlow: the backward pass of Relu is one
ReluGrad op (`grad * (features > 0)`), not a chain of comparisons and multiplications. The
cross-entropy ops go further: their kernel computes the loss *and* its gradient (`softmax -
labels`) in one pass, and the gradient function only multiplies that by the incoming gradient.

Softmax and the losses are numerically stable: they subtract each row's maximum before taking
exp(), so logits of 1e4 give finite results instead of inf / nan.
"""
import numbers

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from . import array_ops, basic_math_ops, math_ops, matmul_ops, reduction_ops

__all__ = []   # no tf.* names: these are reached as tf.nn.* (sandbox/nn.py)


# -- helpers --------------------------------------------------------------------------

def _float_tensor(x, arg, op_type, name=None):
    """x as a Tensor, which must be floating point (TF's 'allowed values' TypeError)."""
    x = convert_to_tensor(x, name=name)
    if not x.dtype.base_dtype.is_floating:
        raise TypeError(f"Value passed to parameter '{arg}' has DataType "
                        f"{x.dtype.base_dtype.name} not in list of allowed values: float16, "
                        f"float32, float64 (op {op_type}). Use tf.cast to make it a float.")
    return x


def _merged_shape(op):
    """Output has the shape of inputs 0 and 1 (which must agree): elementwise binary ops."""
    return op.inputs[0].get_shape().merge_with(op.inputs[1].get_shape())


def _at_least_rank_1(shape):
    if shape.ndims == 0:
        raise ValueError("Shape must be at least rank 1 but is rank 0")
    return shape


def _grad_op(op_type, grad, x, **attrs):
    """A fused gradient op: op_type(gradients, x) -> dL/dinput."""
    return apply_op(op_type, [grad, x], {"T": x.dtype.base_dtype, **attrs}, name=op_type)


def _unary(op_type, x, name, arg="features", **attrs):
    """Adds a one-input float op (Elu, Softplus ...) named `name`, or op_type by default."""
    x = _float_tensor(x, arg, op_type)
    return apply_op(op_type, [x], {"T": x.dtype.base_dtype, **attrs}, name=name or op_type)


# -- activations ----------------------------------------------------------------------

class Relu(OpDef):
    """y = max(x, 0)"""
    shape = unchanged_shape

    def kernel(x, T=None):
        return np.maximum(x, 0)

    def gradient(op, grad):
        return [_grad_op("ReluGrad", grad, op.outputs[0])]


class ReluGrad(OpDef):
    """dx = gradients where features > 0, else 0 (features may be Relu's input or output)."""
    shape = _merged_shape

    def kernel(gradients, features, T=None):
        return gradients * (features > 0)

    def gradient(op, grad):
        # features only pick where gradients pass: zero derivative (almost everywhere)
        return [_grad_op("ReluGrad", grad, op.inputs[1]), array_ops.zeros_like(op.inputs[1])]


class Relu6(OpDef):
    """y = min(max(x, 0), 6)"""
    shape = unchanged_shape

    def kernel(x, T=None):
        return np.clip(x, 0, 6)

    def gradient(op, grad):
        return [_grad_op("Relu6Grad", grad, op.inputs[0])]


class Relu6Grad(OpDef):
    """dx = gradients where 0 < features < 6, else 0."""
    shape = _merged_shape

    def kernel(gradients, features, T=None):
        return gradients * ((features > 0) & (features < 6))

    def gradient(op, grad):
        # features only pick where gradients pass: zero derivative (almost everywhere)
        return [_grad_op("Relu6Grad", grad, op.inputs[1]), array_ops.zeros_like(op.inputs[1])]


class Elu(OpDef):
    """y = x if x > 0 else exp(x) - 1"""
    shape = unchanged_shape

    def kernel(x, T=None):
        return np.where(x > 0, x, np.expm1(np.minimum(x, 0)))

    def gradient(op, grad):
        return [_grad_op("EluGrad", grad, op.outputs[0])]


class EluGrad(OpDef):
    """dx = gradients if y > 0 else gradients * (y + 1), from Elu's output y."""
    shape = _merged_shape

    def kernel(gradients, outputs, T=None):
        return np.where(outputs > 0, gradients, gradients * (outputs + 1))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


class Selu(OpDef):
    """y = scale * (x if x > 0 else alpha * (exp(x) - 1)), the self-normalizing ELU."""
    shape = unchanged_shape

    def kernel(x, T=None):
        return _SELU_SCALE * np.where(x > 0, x, _SELU_ALPHA * np.expm1(np.minimum(x, 0)))

    def gradient(op, grad):
        return [_grad_op("SeluGrad", grad, op.outputs[0])]


class SeluGrad(OpDef):
    """dx = gradients * scale if y > 0 else gradients * (y + scale * alpha)."""
    shape = _merged_shape

    def kernel(gradients, outputs, T=None):
        return np.where(outputs > 0, gradients * _SELU_SCALE,
                        gradients * (outputs + _SELU_SCALE * _SELU_ALPHA))


class LeakyRelu(OpDef):
    """y = x if x > 0 else alpha * x"""
    shape = unchanged_shape

    def kernel(x, alpha=0.2, T=None):
        return np.where(x > 0, x, x * alpha)

    def gradient(op, grad):
        return [_grad_op("LeakyReluGrad", grad, op.inputs[0], alpha=op.get_attr("alpha"))]


class LeakyReluGrad(OpDef):
    """dx = gradients if features > 0 else alpha * gradients."""
    shape = _merged_shape

    def kernel(gradients, features, alpha=0.2, T=None):
        return np.where(features > 0, gradients, gradients * alpha)


class Softplus(OpDef):
    """y = log(1 + exp(x)), computed without overflow."""
    shape = unchanged_shape

    def kernel(x, T=None):
        return np.logaddexp(x, 0)

    def gradient(op, grad):
        return [_grad_op("SoftplusGrad", grad, op.inputs[0])]


class SoftplusGrad(OpDef):
    """dx = gradients * sigmoid(features)."""
    shape = _merged_shape

    def kernel(gradients, features, T=None):
        return gradients / (1 + np.exp(-features))


class Softsign(OpDef):
    """y = x / (1 + |x|)"""
    shape = unchanged_shape

    def kernel(x, T=None):
        return x / (1 + np.abs(x))

    def gradient(op, grad):
        return [_grad_op("SoftsignGrad", grad, op.inputs[0])]


class SoftsignGrad(OpDef):
    """dx = gradients / (1 + |features|)**2."""
    shape = _merged_shape

    def kernel(gradients, features, T=None):
        return gradients / np.square(1 + np.abs(features))


def relu(features, name=None):
    """max(features, 0)."""
    x = convert_to_tensor(features)
    return apply_op("Relu", [x], {"T": x.dtype.base_dtype}, name=name or "Relu")


def relu6(features, name=None):
    """min(max(features, 0), 6)."""
    return _unary("Relu6", features, name)


def elu(features, name=None):
    """Exponential linear unit: features if > 0 else exp(features) - 1."""
    return _unary("Elu", features, name)


def selu(features, name=None):
    """Scaled exponential linear unit."""
    return _unary("Selu", features, name)


def leaky_relu(features, alpha=0.2, name=None):
    """features if > 0 else alpha * features (integer features are cast to float32)."""
    with name_scope(name, "LeakyRelu", [features]) as scope:
        x = convert_to_tensor(features, name="features")
        if x.dtype.base_dtype.is_integer:
            x = math_ops.cast(x, _dtypes.float32)
        return _unary("LeakyRelu", x, scope, alpha=float(alpha))


def softplus(features, name=None):
    """log(exp(features) + 1)."""
    return _unary("Softplus", features, name)


def softsign(features, name=None):
    """features / (abs(features) + 1)."""
    return _unary("Softsign", features, name)


# -- softmax --------------------------------------------------------------------------

class Softmax(OpDef):
    """y = exp(x) / sum(exp(x)) along the last axis (the row max is subtracted first)."""

    def shape(op):
        return _at_least_rank_1(op.inputs[0].get_shape())

    def kernel(logits, T=None):
        e = logits - logits.max(axis=-1, keepdims=True)
        np.exp(e, out=e)
        e /= e.sum(axis=-1, keepdims=True)
        return e

    def gradient(op, grad):
        return [softmax_grad(grad, op.outputs[0])]


class SoftmaxGrad(OpDef):
    """dx = (grad - sum(grad * y, last axis)) * y, from Softmax's output y. (Fused here; TF
    builds it from Mul, Sum and Sub.)"""
    shape = _merged_shape

    def kernel(grad, softmax, T=None):
        return (grad - (grad * softmax).sum(axis=-1, keepdims=True)) * softmax

    def gradient(op, grad):
        # With s = sum(g * y): d/dg = SoftmaxGrad(grad, y); d/dy = grad*(g - s) - g*sum(grad*y)
        g, y = op.inputs
        s = reduction_ops.reduce_sum(g * y, axis=-1, keepdims=True)
        gy = reduction_ops.reduce_sum(grad * y, axis=-1, keepdims=True)
        return [softmax_grad(grad, y), grad * (g - s) - g * gy]


def softmax_grad(grad, softmax):
    return _grad_op("SoftmaxGrad", grad, softmax)


class LogSoftmax(OpDef):
    """y = x - log(sum(exp(x))) along the last axis (the row max is subtracted first)."""

    def shape(op):
        return _at_least_rank_1(op.inputs[0].get_shape())

    def kernel(logits, T=None):
        z = logits - logits.max(axis=-1, keepdims=True)
        return z - np.log(np.exp(z).sum(axis=-1, keepdims=True))

    def gradient(op, grad):
        return [_grad_op("LogSoftmaxGrad", grad, op.outputs[0])]


class LogSoftmaxGrad(OpDef):
    """dx = grad - sum(grad, last axis) * exp(y), from LogSoftmax's output y. (Fused here.)"""
    shape = _merged_shape

    def kernel(grad, logsoftmax, T=None):
        return grad - grad.sum(axis=-1, keepdims=True) * np.exp(logsoftmax)

    def gradient(op, grad):
        # With p = exp(y): d/dg = grad - sum(grad * p); d/dy = -sum(g) * grad * p
        g, y = op.inputs
        p = basic_math_ops.exp(y)
        return [grad - reduction_ops.reduce_sum(grad * p, axis=-1, keepdims=True),
                -reduction_ops.reduce_sum(g, axis=-1, keepdims=True) * grad * p]


def _softmax(op_type, logits, axis, name, dim):
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    axis = -1 if axis is None else axis
    logits = _float_tensor(logits, "logits", op_type)
    ndims = logits.get_shape().ndims
    if axis == -1 or (ndims is not None and axis == ndims - 1):
        return apply_op(op_type, [logits], {"T": logits.dtype.base_dtype},
                        name=name or op_type)
    if ndims is None:
        raise ValueError(f"{op_type} along axis {axis} needs the rank of the logits to be known "
                         "when the graph is built.")
    if not -ndims <= axis < ndims:
        raise errors.InvalidArgumentError(None, None, f"`dim` must be in the range [{-ndims}, "
                                          f"{ndims}) where {ndims} is the number of dimensions "
                                          "in the input.")
    # Like TF: swap `axis` with the last axis, apply the op, swap back.
    perm = list(range(ndims))
    perm[axis % ndims], perm[-1] = perm[-1], perm[axis % ndims]
    y = apply_op(op_type, [array_ops.transpose(logits, perm)], {"T": logits.dtype.base_dtype},
                 name=op_type)
    return array_ops.transpose(y, perm, name=name)


def softmax(logits, axis=None, name=None, dim=None):
    """exp(logits) / reduce_sum(exp(logits), axis); axis defaults to the last one."""
    return _softmax("Softmax", logits, axis, name, dim)


def log_softmax(logits, axis=None, name=None, dim=None):
    """logits - log(reduce_sum(exp(logits), axis)); axis defaults to the last one."""
    return _softmax("LogSoftmax", logits, axis, name, dim)


# -- cross-entropy losses -------------------------------------------------------------

def _is_zeros(t):
    """True for the zeros tf.gradients fills in for an unused output (skip the work)."""
    return t is None or t.op.type == "ZerosLike"


def _broadcast_mul(vec, mat):
    """vec[..., None] * mat: scales each row of mat by one entry of vec."""
    return array_ops.expand_dims(vec, -1) * mat


class SoftmaxCrossEntropyWithLogits(OpDef):
    """loss = -sum(labels * log_softmax(features)) per row and backprop = softmax(features) -
    labels, the gradient of loss w.r.t. features, in one pass. (TF's kernel takes 2-D inputs
    and its Python wrapper reshapes; this kernel takes any rank along the last axis.)"""
    multi_output = True

    def shape(op):
        logits = _at_least_rank_1(op.inputs[0].get_shape())
        labels = op.inputs[1].get_shape()
        if logits.ndims is not None and labels.ndims is not None:
            if logits.ndims != labels.ndims:
                raise ValueError(f"Shapes must be equal rank, but are {logits.ndims} and "
                                 f"{labels.ndims}")
            for i, (a, b) in enumerate(zip(logits, labels)):
                if not a.is_compatible_with(b):
                    raise ValueError(f"Dimension {i} in both shapes must be equal, but are {a} "
                                     f"and {b}. Shapes are {shape_text(logits)} and "
                                     f"{shape_text(labels)}.")
        both = logits.merge_with(labels)
        return [both[:-1], both]

    def kernel(features, labels, T=None):
        if features.shape != labels.shape:
            raise errors.InvalidArgumentError(
                None, None, f"logits and labels must be the same size: logits_size="
                f"{shape_text(features.shape)} labels_size={shape_text(labels.shape)}")
        z = features - features.max(axis=-1, keepdims=True)
        e = np.exp(z)
        total = e.sum(axis=-1, keepdims=True)
        loss = (labels * (np.log(total) - z)).sum(axis=-1)    # -sum(labels * log_softmax)
        e /= total                                             # softmax
        return loss, e - labels

    def gradient(op, grad_loss, grad_backprop):
        logits = op.inputs[0]
        grad_logits = _broadcast_mul(grad_loss, op.outputs[1])
        grad_labels = _broadcast_mul(grad_loss, -log_softmax(logits))
        if not _is_zeros(grad_backprop):   # only for second derivatives
            grad_logits += softmax_grad(grad_backprop, softmax(logits))
            grad_labels -= grad_backprop
        return [grad_logits, grad_labels]


class SparseSoftmaxCrossEntropyWithLogits(OpDef):
    """Like SoftmaxCrossEntropyWithLogits, but labels are class indices: loss =
    -log_softmax(features)[label] per row, backprop = softmax(features) - one_hot(label)."""
    multi_output = True

    def shape(op):
        logits = _at_least_rank_1(op.inputs[0].get_shape())
        labels = op.inputs[1].get_shape()
        batch = logits[:-1].merge_with(labels)
        return [batch, batch.concatenate(logits[-1:])]

    def kernel(features, labels, T=None, Tlabels=None):
        n = features.shape[-1]
        if labels.shape != features.shape[:-1]:
            raise errors.InvalidArgumentError(
                None, None, f"logits and labels must have the same first dimension, got logits "
                f"shape {shape_text(features.shape)} and labels shape {shape_text(labels.shape)}")
        bad = (labels < 0) | (labels >= n)
        if bad.any():
            shown = " ".join(str(v) for v in labels.reshape(-1)[:10]) + \
                (" ..." if labels.size > 10 else "")
            raise errors.InvalidArgumentError(
                None, None, f"Received a label value of {labels[bad][0]} which is outside the "
                f"valid range of [0, {n}).  Label values: {shown}")
        z = features.reshape(-1, n)
        z = z - z.max(axis=-1, keepdims=True)
        backprop = np.exp(z)
        total = backprop.sum(axis=-1, keepdims=True)
        rows, cols = np.arange(z.shape[0]), labels.reshape(-1)
        loss = np.log(total[:, 0]) - z[rows, cols]             # -log_softmax[label]
        backprop /= total                                      # softmax ...
        backprop[rows, cols] -= 1                              # ... - one_hot(label)
        return loss.reshape(labels.shape), backprop.reshape(features.shape)

    def gradient(op, grad_loss, grad_backprop):
        grad_logits = _broadcast_mul(grad_loss, op.outputs[1])
        if not _is_zeros(grad_backprop):   # only for second derivatives
            grad_logits += softmax_grad(grad_backprop, softmax(op.inputs[0]))
        return [grad_logits, None]


def _ensure_xent_args(name, sentinel, labels, logits):
    if sentinel is not None:
        raise ValueError(f"Only call `{name}` with named arguments (labels=..., logits=..., ...)")
    if labels is None or logits is None:
        raise ValueError("Both labels and logits must be provided.")


def softmax_cross_entropy_with_logits_v2(labels, logits, axis=None, name=None, dim=None):
    """Cross entropy between softmax(logits) and labels (a probability distribution along
    `axis`), one value per row. Gradients flow into both logits and labels."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    axis = -1 if axis is None else axis
    with name_scope(name, "softmax_cross_entropy_with_logits", [logits, labels]) as scope:
        logits = _float_tensor(logits, "logits", "SoftmaxCrossEntropyWithLogits", name="logits")
        labels = convert_to_tensor(labels, name="labels",
                                   preferred_dtype=logits.dtype.base_dtype)
        if labels.dtype.base_dtype != logits.dtype.base_dtype:
            labels = math_ops.cast(labels, logits.dtype.base_dtype)
        ndims = logits.get_shape().ndims
        if axis != -1 and not (ndims is not None and axis == ndims - 1):
            if ndims is None:
                raise ValueError("softmax_cross_entropy_with_logits along an axis other than "
                                 "the last needs the rank of the logits to be known.")
            perm = list(range(ndims))
            perm[axis % ndims], perm[-1] = perm[-1], perm[axis % ndims]
            logits = array_ops.transpose(logits, perm)
            labels = array_ops.transpose(labels, perm)
        loss, _ = apply_op("SoftmaxCrossEntropyWithLogits", [logits, labels],
                           {"T": logits.dtype.base_dtype}, name=scope,
                           output_dtypes=[logits.dtype.base_dtype] * 2)
        return loss


def softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, dim=-1,
                                      name=None, axis=None):
    """TF-1's version: like _v2, but no gradient flows into labels (they are wrapped in
    tf.stop_gradient). Arguments must be named: labels=..., logits=...."""
    _ensure_xent_args("softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    if axis is not None:
        dim = axis
    from .control_flow_ops import stop_gradient
    with name_scope(name, "softmax_cross_entropy_with_logits_sg", [logits, labels]) as scope:
        labels = stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits, axis=dim,
                                                name=scope)


def sparse_softmax_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None,
                                             name=None):
    """Cross entropy between softmax(logits) and integer class labels (shape: logits' shape
    without its last axis). A label outside [0, num_classes) fails when the graph runs."""
    _ensure_xent_args("sparse_softmax_cross_entropy_with_logits", _sentinel, labels, logits)
    with name_scope(name, "SparseSoftmaxCrossEntropyWithLogits", [labels, logits]):
        labels = convert_to_tensor(labels)
        logits = _float_tensor(logits, "features", "SparseSoftmaxCrossEntropyWithLogits")
        if labels.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'labels' has DataType "
                            f"{labels.dtype.base_dtype.name} not in list of allowed values: "
                            "int32, int64. Sparse labels are class indices; use "
                            "softmax_cross_entropy_with_logits for one-hot or float labels.")
        logits_shape, labels_shape = logits.get_shape(), labels.get_shape()
        if logits_shape.ndims == 0:
            raise ValueError(f"Logits cannot be scalars - received shape {logits_shape}.")
        if logits_shape.ndims is not None and labels_shape.ndims is not None and \
                labels_shape.ndims != logits_shape.ndims - 1:
            raise ValueError(f"Rank mismatch: Rank of labels (received {labels_shape.ndims}) "
                             "should equal rank of logits minus 1 (received "
                             f"{logits_shape.ndims}).")
        if labels_shape.is_fully_defined() and logits_shape[:-1].is_fully_defined() and \
                labels_shape != logits_shape[:-1]:
            raise ValueError(f"Shape mismatch: The shape of labels (received {labels_shape}) "
                             "should equal the shape of logits except for the last dimension "
                             f"(received {logits_shape}).")
        loss, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels],
                           {"T": logits.dtype.base_dtype, "Tlabels": labels.dtype.base_dtype},
                           name=name or "SparseSoftmaxCrossEntropyWithLogits",
                           output_dtypes=[logits.dtype.base_dtype] * 2)
        return loss


# -- l2_loss, bias_add ----------------------------------------------------------------

class L2Loss(OpDef):
    """sum(t ** 2) / 2, a scalar (half the squared L2 norm)."""

    def shape(op):
        return TensorShape([])

    def kernel(t, T=None):
        flat = t.reshape(-1)
        return np.asarray(np.dot(flat, flat) / 2, dtype=t.dtype)

    def gradient(op, grad):
        return [op.inputs[0] * grad]


def l2_loss(t, name=None):
    """sum(t ** 2) / 2 -- the usual weight-decay penalty."""
    return _unary("L2Loss", t, name, arg="t")


def _bias_axis(data_format):
    return 1 if data_format == "NCHW" else -1


class BiasAdd(OpDef):
    """value + bias, the 1-D bias added along the channel axis (last, or NCHW's second)."""

    def shape(op):
        value, bias = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        if value.ndims is not None and value.ndims < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {value.ndims}")
        if bias.ndims is not None and bias.ndims != 1:
            raise ValueError(f"Shape must be rank 1 but is rank {bias.ndims}")
        if value.ndims is not None and bias.ndims is not None:
            channels = value[_bias_axis(op.get_attr("data_format"))]
            if not channels.is_compatible_with(bias[0]):
                raise ValueError(f"Dimensions must be equal, but are {channels} and {bias[0]}")
        return value

    def kernel(value, bias, data_format="NHWC", T=None):
        axis = _bias_axis(data_format)
        if bias.ndim != 1 or value.ndim < 2 or bias.shape[0] != value.shape[axis]:
            raise errors.InvalidArgumentError(
                None, None, f"Must provide as many biases as the channel dimension of the "
                f"input tensor: {shape_text(bias.shape)} vs. {shape_text(value.shape)}")
        if axis == 1:
            return value + bias.reshape((-1,) + (1,) * (value.ndim - 2))
        return value + bias

    def gradient(op, grad):
        return [grad, bias_add_grad(grad, op.get_attr("data_format"))]


class BiasAddGrad(OpDef):
    """dbias = out_backprop summed over every axis but the channel axis."""

    def shape(op):
        g = op.inputs[0].get_shape()
        if g.ndims is None:
            return TensorShape([None])
        return TensorShape([g[_bias_axis(op.get_attr("data_format"))]])

    def kernel(out_backprop, data_format="NHWC", T=None):
        if data_format == "NCHW":
            axes = (0,) + tuple(range(2, out_backprop.ndim))
            return out_backprop.sum(axis=axes)
        return out_backprop.reshape(-1, out_backprop.shape[-1]).sum(axis=0)

    def gradient(op, grad):   # the sum's gradient broadcasts grad back over the summed axes
        g = op.inputs[0]
        return [bias_add(array_ops.zeros_like(g), grad, data_format=op.get_attr("data_format"))]


def bias_add_grad(out_backprop, data_format="NHWC", name=None):
    return apply_op("BiasAddGrad", [out_backprop], {"T": out_backprop.dtype.base_dtype,
                                                    "data_format": data_format},
                    name=name or "BiasAddGrad")


def bias_add(value, bias, data_format=None, name=None):
    """value + bias, where bias is 1-D and matches value's last (channel) dimension."""
    if data_format is None or data_format.startswith("N") and data_format.endswith("C"):
        data_format = "NHWC"
    elif data_format.startswith("NC"):
        data_format = "NCHW"
    else:
        raise ValueError("data_format must be of the form `N...C` or `NC...`")
    with name_scope(name, "BiasAdd", [value, bias]) as scope:
        value = convert_to_tensor(value, name="input")
        bias = convert_to_tensor(bias, dtype=value.dtype.base_dtype, name="bias")
        return apply_op("BiasAdd", [value, bias], {"T": value.dtype.base_dtype,
                                                   "data_format": data_format}, name=scope)


def xw_plus_b(x, weights, biases, name=None):
    """matmul(x, weights) + biases."""
    with name_scope(name, "xw_plus_b", [x, weights, biases]) as scope:
        return bias_add(matmul_ops.matmul(x, weights), biases, name=scope)


# -- dropout --------------------------------------------------------------------------

class Dropout(OpDef):
    """Keeps each entry of x with probability 1 - rate and scales it by 1 / (1 - rate), else 0:
    y = x * mask, mask = (u >= rate) / (1 - rate) for uniform u in [0, 1). Outputs y and mask
    (the gradient is grad * mask). TF builds this from RandomUniform, GreaterEqual, Cast and
    Mul ops; the sandbox fuses them. Its random numbers follow random_ops' seeding rules."""
    uses_context = True
    stateful = True
    multi_output = True

    def shape(op):
        x = op.inputs[0].get_shape()
        has_noise_shape = len(op.inputs) > 2 or op.get_attr("noise_shape") is not None
        return [x, None if has_noise_shape else x]

    def kernel(ctx, step, x, rate, noise=None, seed=0, seed2=0, noise_shape=None, T=None):
        from .random_ops import generator_for
        if np.ndim(rate) != 0 or not 0 <= rate < 1:
            raise errors.InvalidArgumentError(None, None, f"rate must be a scalar in the range "
                                              f"[0, 1) (keep_prob in (0, 1]), got {rate}")
        if noise is not None:
            shape = tuple(int(d) for d in noise)
        elif noise_shape is not None:
            shape = tuple(x.shape[i] if d is None else d for i, d in enumerate(noise_shape))
        else:
            shape = x.shape
        u = generator_for(ctx, seed, seed2).random(
            shape, dtype=np.float64 if x.dtype == np.float64 else np.float32)
        mask = (u >= rate) * np.reciprocal(1 - rate)      # 0 or 1/keep_prob, in x's dtype
        return x * mask, mask

    def gradient(op, grad, grad_mask):
        return [grad * op.outputs[1]] + [None] * (len(op.inputs) - 1)


def dropout(x, keep_prob=None, noise_shape=None, seed=None, name=None, rate=None):
    """With probability keep_prob, outputs x scaled up by 1 / keep_prob, otherwise 0 (so the
    expected sum is unchanged). Each sess.run draws a new mask; feed keep_prob=1.0 to test."""
    try:
        keep = 1. - keep_prob if keep_prob is not None else None
    except TypeError:
        raise ValueError(f"keep_prob must be a floating point number or Tensor (got "
                         f"{keep_prob!r})") from None
    if keep is not None and rate is not None:
        raise ValueError("Cannot specify both 'rate' and 'keep_prob'")
    rate = keep if rate is None else rate
    if rate is None:
        raise ValueError("You must provide a rate to dropout.")
    with name_scope(name, "dropout", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if not x.dtype.base_dtype.is_floating:
            raise ValueError("x has to be a floating point tensor since it's going to be "
                             f"scaled. Got a {x.dtype.base_dtype.name} tensor instead.")
        if isinstance(rate, numbers.Real):
            if not 0 <= rate < 1:
                raise ValueError(f"rate must be a scalar tensor or a float in the range [0, 1), "
                                 f"got {rate:g}")
            if rate == 0:
                return x
        rate = convert_to_tensor(rate, dtype=x.dtype.base_dtype, name="rate")
        rate.get_shape().assert_has_rank(0)
        inputs, attrs = [x, rate], {"T": x.dtype.base_dtype, "noise_shape": None}
        if isinstance(noise_shape, Tensor):
            inputs.append(noise_shape)
        elif noise_shape is not None:
            noise_shape = [None if d is None else int(d) for d in TensorShape(noise_shape)
                           .as_list()]
            attrs["noise_shape"] = noise_shape
        from .random_ops import get_seed
        seed1, seed2 = get_seed(seed)
        attrs.update(seed=seed1 or 0, seed2=seed2 or 0)
        y, _ = apply_op("Dropout", inputs, attrs, name=scope,
                        output_dtypes=[x.dtype.base_dtype] * 2)
        return y
