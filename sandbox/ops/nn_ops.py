"""Neural-network ops -- mirrors TensorFlow's nn_ops (python/ops/nn_ops.py, nn_impl.py) and the
kernels behind them (core/kernels/relu_op.cc, softmax_op.cc, xent_op.cc, bias_op.cc ...).

These are the building blocks of a network layer: activations (relu, elu, softplus ...),
softmax, the cross-entropy losses, bias_add, dropout, and the convolution and pooling of image
models. Students reach them as `tf.nn.relu`, `tf.nn.softmax` ... (see sandbox/nn.py).

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
from . import (array_ops, basic_math_ops, comparison_ops, indexing_ops, math_ops, matmul_ops,
               reduction_ops)

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

def _dims_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


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
                                     f"and {b}. Shapes are {_dims_text(logits)} and "
                                     f"{_dims_text(labels)}.")
        both = logits.merge_with(labels)
        return [both[:-1], both]

    def kernel(features, labels, T=None):
        if features.shape != labels.shape:
            raise errors.InvalidArgumentError(
                None, None, f"logits and labels must be the same size: logits_size="
                f"{_dims_text(features.shape)} labels_size={_dims_text(labels.shape)}")
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
                f"shape {_dims_text(features.shape)} and labels shape {_dims_text(labels.shape)}")
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


class SigmoidCrossEntropyWithLogits(OpDef):
    """loss = max(x, 0) - x * z + log(1 + exp(-|x|)) for logits x and labels z: the stable
    form of -z * log(sigmoid(x)) - (1 - z) * log(1 - sigmoid(x)). (TF builds it from six ops;
    the sandbox fuses it.)"""
    shape = _merged_shape

    def kernel(logits, labels, T=None):
        return np.maximum(logits, 0) - logits * labels + np.log1p(np.exp(-np.abs(logits)))

    def gradient(op, grad):
        logits, labels = op.inputs
        grad_logits = apply_op("SigmoidCrossEntropyWithLogitsGrad", [grad, logits, labels],
                               {"T": logits.dtype.base_dtype},
                               name="SigmoidCrossEntropyWithLogitsGrad")
        return [grad_logits, -grad * logits]


class SigmoidCrossEntropyWithLogitsGrad(OpDef):
    """dlogits = grad * (sigmoid(logits) - labels)."""
    shape = unchanged_shape

    def kernel(grad, logits, labels, T=None):
        return grad * (1 / (1 + np.exp(-logits)) - labels)


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


def sigmoid_cross_entropy_with_logits(_sentinel=None, labels=None, logits=None, name=None):
    """Elementwise logistic loss for independent binary labels in [0, 1]:
    labels * -log(sigmoid(logits)) + (1 - labels) * -log(1 - sigmoid(logits))."""
    _ensure_xent_args("sigmoid_cross_entropy_with_logits", _sentinel, labels, logits)
    with name_scope(name, "logistic_loss", [logits, labels]) as scope:
        logits = _float_tensor(logits, "logits", "SigmoidCrossEntropyWithLogits", name="logits")
        labels = convert_to_tensor(labels, name="labels",
                                   preferred_dtype=logits.dtype.base_dtype)
        if labels.dtype.base_dtype != logits.dtype.base_dtype:
            raise TypeError(f"labels has type {labels.dtype.base_dtype.name} that does not "
                            f"match type {logits.dtype.base_dtype.name} of logits. Use tf.cast.")
        try:
            labels.get_shape().merge_with(logits.get_shape())
        except ValueError:
            raise ValueError(f"logits and labels must have the same shape "
                             f"({logits.get_shape()} vs {labels.get_shape()})") from None
        return apply_op("SigmoidCrossEntropyWithLogits", [logits, labels],
                        {"T": logits.dtype.base_dtype}, name=scope)


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
                f"input tensor: {_dims_text(bias.shape)} vs. {_dims_text(value.shape)}")
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


def relu_layer(x, weights, biases, name=None):
    """relu(matmul(x, weights) + biases)."""
    with name_scope(name, "relu_layer", [x, weights, biases]) as scope:
        return relu(bias_add(matmul_ops.matmul(x, weights), biases), name=scope)


# -- evaluation helpers: in_top_k, top_k ----------------------------------------------

class InTopKV2(OpDef):
    """out[i] = True when targets[i] is among the k largest predictions[i] (ties count as
    in; a row with a non-finite prediction or an out-of-range target gives False)."""
    differentiable = False

    def shape(op):
        predictions = op.inputs[0].get_shape().with_rank(2)
        return TensorShape([predictions[0].merge_with(op.inputs[1].get_shape().with_rank(1)[0])])

    def kernel(predictions, targets, k, T=None):
        if predictions.ndim != 2 or targets.shape != predictions.shape[:1]:
            raise errors.InvalidArgumentError(
                None, None, f"predictions must be 2-D and targets 1-D with one entry per row of "
                f"predictions, got {_dims_text(predictions.shape)} and "
                f"{_dims_text(targets.shape)}")
        n = predictions.shape[1]
        valid = (targets >= 0) & (targets < n)
        target_pred = predictions[np.arange(len(targets)), np.where(valid, targets, 0)]
        valid &= np.isfinite(predictions).all(axis=1)
        larger = (predictions > target_pred[:, None]).sum(axis=1)
        return valid & (larger < k)


def in_top_k(predictions, targets, k, name=None):
    """Whether each target is in the top k predictions of its row (a bool vector)."""
    predictions = _float_tensor(predictions, "predictions", "InTopKV2")
    targets = convert_to_tensor(targets)
    k = convert_to_tensor(k, dtype=targets.dtype.base_dtype)
    return apply_op("InTopKV2", [predictions, targets, k], {"T": targets.dtype.base_dtype},
                    name=name or "in_top_k", output_dtypes=[_dtypes.bool])


def _constant_int(t):
    """The Python int held by a Const tensor, or None."""
    if t.op.type == "Const":
        return int(t.op.get_attr("value"))
    return None


class TopKV2(OpDef):
    """values, indices of the k largest entries along the last axis, largest first (equal
    values: the lower index first)."""
    multi_output = True

    def shape(op):
        shape = _at_least_rank_1(op.inputs[0].get_shape())
        k = _constant_int(op.inputs[1])
        if shape.ndims is None:
            return [shape, shape]
        if k is not None and shape[-1].value is not None and shape[-1].value < k:
            raise ValueError(f"input must have last dimension >= k = {k} but is {shape[-1]}")
        out = shape[:-1].concatenate([k])
        return [out, out]

    def kernel(input, k, sorted=True, T=None):  # noqa: A002 -- TF's name
        k = int(k)
        if k < 0 or input.ndim < 1 or input.shape[-1] < k:
            raise errors.InvalidArgumentError(
                None, None, f"input must have at least k={k} columns (and k must be >= 0); "
                f"input shape is {_dims_text(input.shape)}")
        keys = -input if input.dtype.kind in "fi" else -input.astype(np.int64)
        indices = np.argsort(keys, axis=-1, kind="stable")[..., :k]
        return np.take_along_axis(input, indices, axis=-1), indices.astype(np.int32)

    def gradient(op, grad_values, grad_indices):
        grad = apply_op("TopKGrad", [op.inputs[0], op.outputs[1], grad_values],
                        {"T": grad_values.dtype.base_dtype}, name="TopKGrad",
                        output_dtypes=[grad_values.dtype.base_dtype])
        return [grad, None]


class TopKGrad(OpDef):
    """dinput = grad_values scattered back to the positions top_k picked, zeros elsewhere."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, indices, grad, T=None):  # noqa: A002 -- TF's name
        out = np.zeros(input.shape, dtype=grad.dtype)
        np.put_along_axis(out, indices.astype(np.intp), grad, axis=-1)
        return out


def top_k(input, k=1, sorted=True, name=None):  # noqa: A002 -- TF's name
    """(values, indices) of the k largest entries of the last axis, largest first."""
    x = convert_to_tensor(input)
    k = convert_to_tensor(k, dtype=_dtypes.int32)
    values, indices = apply_op("TopKV2", [x, k], {"T": x.dtype.base_dtype, "sorted": sorted},
                               name=name or "TopKV2",
                               output_dtypes=[x.dtype.base_dtype, _dtypes.int32])
    return values, indices


# -- statistics: moments, l2_normalize, zero_fraction ---------------------------------

def moments(x, axes, shift=None, name=None, keep_dims=None, keepdims=None):
    """(mean, variance) of x over `axes` (e.g. [0] for per-feature batch statistics)."""
    if keepdims is not None and keep_dims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    keep = bool(keepdims if keepdims is not None else keep_dims)
    from .control_flow_ops import stop_gradient
    with name_scope(name, "moments", [x, axes]):
        y = convert_to_tensor(x)
        half = y.dtype.base_dtype == _dtypes.float16
        if half:
            y = math_ops.cast(y, _dtypes.float32)
        mean = reduction_ops.reduce_mean(y, axes, keepdims=True, name="mean")
        squared = basic_math_ops.squared_difference(y, stop_gradient(mean))
        variance = reduction_ops.reduce_mean(squared, axes, keepdims=True, name="variance")
        if not keep:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if half:
            mean = math_ops.cast(mean, _dtypes.float16)
            variance = math_ops.cast(variance, _dtypes.float16)
        return mean, variance


def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if dim is not None:
        if axis is not None:
            raise ValueError("Cannot specify both 'axis' and 'dim'")
        axis = dim
    with name_scope(name, "l2_normalize", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        square_sum = reduction_ops.reduce_sum(basic_math_ops.square(x), axis, keepdims=True)
        x_inv_norm = basic_math_ops.rsqrt(basic_math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, x_inv_norm, name=scope)


def zero_fraction(value, name=None):
    """The fraction of entries of value that are zero (a float32 scalar)."""
    with name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        zero = array_ops.zeros_like(value)
        is_zero = math_ops.cast(comparison_ops.equal(value, zero), _dtypes.float32)
        return reduction_ops.reduce_mean(is_zero, name="fraction")



def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """(x - mean) / sqrt(variance + variance_epsilon) * scale + offset (offset and scale may
    be None), usually with the mean and variance of tf.nn.moments."""
    with name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        inv = basic_math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        return x * inv + (offset - mean * inv if offset is not None else -mean * inv)


def _depth_window_sum(a, radius):
    """sum(a[..., d - radius : d + radius + 1]) for every d of the last axis (zero-padded)."""
    padded = np.pad(a, [(0, 0)] * (a.ndim - 1) + [(radius, radius)])
    depth = a.shape[-1]
    total = padded[..., :depth].copy()
    for k in range(1, 2 * radius + 1):
        total += padded[..., k:k + depth]
    return total


class LRN(OpDef):
    """Local response normalization: y = x / (bias + alpha * sqr_sum) ** beta, where sqr_sum
    sums x**2 over the depth_radius neighbouring channels on each side (last axis)."""
    shape = unchanged_shape

    def kernel(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5, T=None):  # noqa: A002
        norm = bias + alpha * _depth_window_sum(np.square(input), depth_radius)
        return input * norm ** -beta

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("depth_radius", "bias", "alpha", "beta")}
        return [apply_op("LRNGrad", [grad, op.inputs[0], op.outputs[0]],
                         {"T": grad.dtype.base_dtype, **attrs}, name="LRNGrad")]


class LRNGrad(OpDef):
    """dx_j = g_j * N_j**-beta - 2 * alpha * beta * x_j * sum over the channels d near j of
    g_d * y_d / N_d, with N = bias + alpha * sqr_sum as in LRN."""
    shape = unchanged_shape

    def kernel(input_grads, input_image, output_image, depth_radius=5, bias=1.0, alpha=1.0,
               beta=0.5, T=None):
        norm = bias + alpha * _depth_window_sum(np.square(input_image), depth_radius)
        near = _depth_window_sum(input_grads * output_image / norm, depth_radius)
        return input_grads * norm ** -beta - (2 * alpha * beta) * input_image * near


def local_response_normalization(input, depth_radius=5, bias=1, alpha=1, beta=0.5,  # noqa: A002
                                 name=None):
    """Normalizes each entry of a 4-D tensor by the activity of its neighbouring channels
    (AlexNet's and the CIFAR-10 tutorial's `norm1` layer)."""
    x = _float_tensor(input, "input", "LRN")
    x.get_shape().with_rank(4)
    return apply_op("LRN", [x], {"T": x.dtype.base_dtype, "depth_radius": int(depth_radius),
                                 "bias": float(bias), "alpha": float(alpha),
                                 "beta": float(beta)}, name=name or "LRN")


lrn = local_response_normalization


def embedding_lookup(params, ids, partition_strategy="mod", name=None, validate_indices=True,
                     max_norm=None):
    """The rows of `params` (an embedding matrix) picked by `ids`: tf.gather(params, ids).
    The sandbox supports one params tensor (or a list of one), not sharded embeddings."""
    if isinstance(params, (list, tuple)):
        if len(params) != 1:
            raise NotImplementedError("The sandbox's embedding_lookup takes a single params "
                                      f"tensor, not {len(params)} shards.")
        params = params[0]
    if max_norm is not None:
        raise NotImplementedError("embedding_lookup(max_norm=...) is not supported.")
    with name_scope(name, "embedding_lookup", [params, ids]) as scope:
        return indexing_ops.gather(params, ids, name=scope)


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


# -- convolution and pooling ----------------------------------------------------------
#
# A 2-D convolution slides a [kh, kw, in_channels, out_channels] filter over an NHWC image.
# The kernels below use "im2col": a strided *view* of the (padded) input lists every window,
# shape [N, out_h, out_w, kh, kw, C], without copying. Flattened to a matrix with one row per
# output position (the one copy), a single matrix multiplication with the filter computes every
# output at once. The gradients run the same machinery backwards: "col2im" adds each window's
# gradient back onto the input positions it came from (a loop over the kh * kw filter taps, not
# over pixels). Pooling loops over the taps too: max_pool is kh * kw np.maximum calls.

def _out_size(in_size, k, stride, dilation, padding):
    """(output size, padding before, padding after) along one spatial axis -- TF's rule:
    VALID uses whole windows only, SAME pads so that output = ceil(input / stride)."""
    eff = (k - 1) * dilation + 1
    if padding == "VALID":
        if in_size - eff + stride < 0:
            raise ValueError(f"Computed output size would be negative: "
                             f"{(in_size - eff) // stride + 1} [input_size: {in_size}, "
                             f"effective_filter_size: {eff}, stride: {stride}]")
        out = (in_size - eff + stride) // stride
        before = after = 0
    else:
        out = -(-in_size // stride)
        total = max((out - 1) * stride + eff - in_size, 0)
        before, after = total // 2, total - total // 2
    return out, before, after


class _Window:
    """The geometry of one sliding window over NHWC input of height h and width w."""

    def __init__(self, h, w, kh, kw, strides, padding, dilations=(1, 1, 1, 1)):
        self.h, self.w, self.kh, self.kw = h, w, kh, kw
        self.sh, self.sw = strides[1], strides[2]
        self.dh, self.dw = dilations[1], dilations[2]
        try:
            self.oh, top, bottom = _out_size(h, kh, self.sh, self.dh, padding)
            self.ow, left, right = _out_size(w, kw, self.sw, self.dw, padding)
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None, str(e)) from None
        self.top, self.left = top, left
        self.pads = ((0, 0), (top, bottom), (left, right), (0, 0))
        self.padded = bool(top or bottom or left or right)

    def pad(self, x, value=0):
        return np.pad(x, self.pads, constant_values=value) if self.padded else x

    def windows(self, xp):
        """View of padded input [N, H', W', C] as [N, out_h, out_w, kh, kw, C] (no copy)."""
        n, _, _, c = xp.shape
        s0, s1, s2, s3 = xp.strides
        return np.lib.stride_tricks.as_strided(
            xp, (n, self.oh, self.ow, self.kh, self.kw, c),
            (s0, s1 * self.sh, s2 * self.sw, s1 * self.dh, s2 * self.dw, s3), writeable=False)

    def taps(self, xp):
        """For each filter tap (i, j), row by row: the [N, out_h, out_w, C] view of the padded
        input that the tap reads at every output position. (Pooling loops over these.)"""
        return [xp[self._tap(i, j)] for i in range(self.kh) for j in range(self.kw)]

    def _tap(self, i, j):
        """The slice of padded positions that filter tap (i, j) touches, one per output."""
        return (slice(None), slice(i * self.dh, i * self.dh + self.sh * (self.oh - 1) + 1, self.sh),
                slice(j * self.dw, j * self.dw + self.sw * (self.ow - 1) + 1, self.sw))

    def add_windows(self, tap_values, n, c, dtype):
        """col2im: sums tap_values(i, j) -> [N, out_h, out_w, C] back onto the input
        positions of each tap; returns the unpadded [N, h, w, C] result."""
        out = np.zeros((n, self.h + self.pads[1][0] + self.pads[1][1],
                        self.w + self.pads[2][0] + self.pads[2][1], c), dtype=dtype)
        for i in range(self.kh):
            for j in range(self.kw):
                out[self._tap(i, j)] += tap_values(i, j)
        return out[:, self.top:self.top + self.h, self.left:self.left + self.w]


def _get_sequence(value, name, channel_index=3):
    """strides / dilations / ksize as a 4-list: an int or a 1-, 2- or 4-list, as TF allows."""
    if isinstance(value, Tensor):
        raise TypeError(f"{name} must be a Python int or list of ints, not a Tensor")
    value = [value] if isinstance(value, numbers.Integral) else list(value)
    if len(value) == 1:
        value = value * 2
    if len(value) == 2:
        value = [1] + value + [1] if channel_index == 3 else [1, 1] + value
    if len(value) != 4:
        raise ValueError(f"{name} should be of length 1, 2 or 4 but was {len(value)}")
    return [int(v) for v in value]


def _check_conv_args(padding, data_format, strides, what):
    if padding not in ("SAME", "VALID"):
        raise ValueError(f"padding must be 'SAME' or 'VALID', got {padding!r}")
    if data_format != "NHWC":
        raise ValueError(f"The sandbox's {what} supports data_format='NHWC' only (as "
                         f"TensorFlow's CPU kernels), got {data_format!r}")
    if strides[0] != 1 or strides[3] != 1:
        raise ValueError(f"Current implementation does not yet support strides in the batch "
                         f"and depth dimensions (strides={strides}).")


def _spatial_shape(op, x_shape, kh, kw, out_c, dilations=(1, 1, 1, 1)):
    """The static NHWC output shape of a conv / pool op (None where unknown)."""
    x_shape = x_shape.with_rank(4)
    strides, padding = op.get_attr("strides"), op.get_attr("padding")
    dims = [x_shape[0].value]
    for axis, k in ((1, kh), (2, kw)):
        size = x_shape[axis].value
        dims.append(None if size is None or k is None else
                    _out_size(size, k, strides[axis], dilations[axis], padding)[0])
    return TensorShape(dims + [out_c])


def _known_shape(t, rank):
    """What the graph knows of the shape that the 1-D int tensor t holds (Const or Shape op)."""
    if t.op.type == "Const":
        return TensorShape([int(d) for d in t.op.get_attr("value")])
    if t.op.type == "Shape":
        return t.op.inputs[0].get_shape().merge_with(TensorShape([None] * rank))
    return TensorShape([None] * rank)


class Conv2D(OpDef):
    """2-D convolution of NHWC input with a [kh, kw, in_channels, out_channels] filter."""

    def shape(op):
        x, f = op.inputs[0].get_shape().with_rank(4), op.inputs[1].get_shape().with_rank(4)
        if not x[3].is_compatible_with(f[2]):
            raise ValueError(f"Dimensions must be equal, but are {x[3]} and {f[2]}")
        return _spatial_shape(op, x, f[0].value, f[1].value, f[3].value,
                              op.get_attr("dilations"))

    def kernel(input, filter, strides, padding, dilations=(1, 1, 1, 1),  # noqa: A002
               data_format="NHWC", use_cudnn_on_gpu=True, T=None):
        kh, kw, c, _ = filter.shape
        if input.ndim != 4 or input.shape[3] != c:
            raise errors.InvalidArgumentError(
                None, None, f"input depth must match the filter's in_channels: input shape "
                f"{_dims_text(input.shape)}, filter shape {_dims_text(filter.shape)}")
        n, o = input.shape[0], filter.shape[3]
        win = _Window(input.shape[1], input.shape[2], kh, kw, strides, padding, dilations)
        cols = win.windows(win.pad(input)).reshape(-1, kh * kw * c)   # im2col: the one copy
        return (cols @ filter.reshape(-1, o)).reshape(n, win.oh, win.ow, o)

    def gradient(op, grad):
        x, f = op.inputs
        attrs = _conv_attrs(op)
        return [conv2d_backprop_input(array_ops.shape(x), f, grad, **attrs),
                conv2d_backprop_filter(x, array_ops.shape(f), grad, **attrs)]


class Conv2DBackpropInput(OpDef):
    """dinput of Conv2D: each output gradient, times the filter, added back onto the input
    window it came from (col2im)."""

    def shape(op):
        return _known_shape(op.inputs[0], 4)

    def kernel(input_sizes, filter, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1), data_format="NHWC", use_cudnn_on_gpu=True, T=None):
        n, h, w, c = (int(d) for d in input_sizes)
        kh, kw = filter.shape[:2]
        win = _Window(h, w, kh, kw, strides, padding, dilations)
        # [N*oh*ow, O] x [O, kh*kw*C] -> the gradient of every window: [N, oh, ow, kh, kw, C]
        o = filter.shape[3]
        cols = (out_backprop.reshape(-1, o) @ filter.reshape(-1, o).T).reshape(
            n, win.oh, win.ow, kh, kw, c)
        return win.add_windows(lambda i, j: cols[:, :, :, i, j], n, c, out_backprop.dtype)

    def gradient(op, grad):
        _, f, dy = op.inputs
        attrs = _conv_attrs(op)
        return [None, conv2d_backprop_filter(grad, array_ops.shape(f), dy, **attrs),
                conv2d(grad, f, **attrs)]


class Conv2DBackpropFilter(OpDef):
    """dfilter of Conv2D: every input window times its output gradient, summed."""

    def shape(op):
        return _known_shape(op.inputs[1], 4)

    def kernel(input, filter_sizes, out_backprop, strides, padding,  # noqa: A002
               dilations=(1, 1, 1, 1), data_format="NHWC", use_cudnn_on_gpu=True, T=None):
        kh, kw, c, o = (int(d) for d in filter_sizes)
        win = _Window(input.shape[1], input.shape[2], kh, kw, strides, padding, dilations)
        cols = win.windows(win.pad(input)).reshape(-1, kh * kw * c)   # im2col, as forward
        return (cols.T @ out_backprop.reshape(-1, o)).reshape(kh, kw, c, o)

    def gradient(op, grad):
        x, _, dy = op.inputs
        attrs = _conv_attrs(op)
        return [conv2d_backprop_input(array_ops.shape(x), grad, dy, **attrs), None,
                conv2d(x, grad, **attrs)]


def _conv_attrs(op):
    return {k: op.get_attr(k) for k in ("strides", "padding", "dilations", "data_format")}


def _conv_op(op_type, inputs, strides, padding, data_format, dilations, name):
    strides = _get_sequence(strides, "strides")
    dilations = _get_sequence(dilations, "dilations")
    _check_conv_args(padding, data_format, strides, "conv2d")
    dtype = next(t.dtype.base_dtype for t in inputs if t.dtype.base_dtype.is_floating)
    return apply_op(op_type, inputs, {"T": dtype, "strides": strides, "padding": padding,
                                      "dilations": dilations, "data_format": data_format,
                                      "use_cudnn_on_gpu": True},
                    name=name or op_type, output_dtypes=[dtype])


def conv2d(input, filter=None, strides=None, padding=None,  # noqa: A002 -- TF's names
           use_cudnn_on_gpu=True, data_format="NHWC", dilations=(1, 1, 1, 1), name=None,
           filters=None):
    """2-D convolution: input [batch, height, width, in_channels], filter [filter_height,
    filter_width, in_channels, out_channels], strides e.g. [1, 1, 1, 1], padding 'SAME' or
    'VALID'. Output: [batch, out_height, out_width, out_channels]."""
    if filters is not None:
        if filter is not None:
            raise ValueError("Cannot specify both 'filters' and 'filter'")
        filter = filters  # noqa: A001
    if filter is None or strides is None or padding is None:
        raise TypeError("conv2d() needs input, filter, strides and padding")
    x = _float_tensor(input, "input", "Conv2D")
    f = convert_to_tensor(filter, dtype=x.dtype.base_dtype)
    return _conv_op("Conv2D", [x, f], strides, padding, data_format or "NHWC", dilations, name)


def conv2d_backprop_input(input_sizes, filter, out_backprop, strides,  # noqa: A002
                          padding, use_cudnn_on_gpu=True, data_format="NHWC",
                          dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d with respect to its input (of shape input_sizes)."""
    sizes = convert_to_tensor(input_sizes, dtype=_dtypes.int32) \
        if not isinstance(input_sizes, Tensor) else input_sizes
    dy = convert_to_tensor(out_backprop)
    f = convert_to_tensor(filter, dtype=dy.dtype.base_dtype)
    return _conv_op("Conv2DBackpropInput", [sizes, f, dy], strides, padding, data_format,
                    dilations, name)


def conv2d_backprop_filter(input, filter_sizes, out_backprop, strides,  # noqa: A002
                           padding, use_cudnn_on_gpu=True, data_format="NHWC",
                           dilations=(1, 1, 1, 1), name=None):
    """The gradient of conv2d with respect to its filter (of shape filter_sizes)."""
    x = convert_to_tensor(input)
    sizes = convert_to_tensor(filter_sizes, dtype=_dtypes.int32) \
        if not isinstance(filter_sizes, Tensor) else filter_sizes
    dy = convert_to_tensor(out_backprop, dtype=x.dtype.base_dtype)
    return _conv_op("Conv2DBackpropFilter", [x, sizes, dy], strides, padding, data_format,
                    dilations, name)


class _PoolOp(OpDef):
    abstract = True

    def shape(op):
        ksize = op.get_attr("ksize")
        x = op.inputs[0].get_shape().with_rank(4)
        return _spatial_shape(op, x, ksize[1], ksize[2], x[3].value)


def _pool_window(x_shape, ksize, strides, padding):
    if len(x_shape) != 4:
        raise errors.InvalidArgumentError(None, None, f"input must be 4-dimensional NHWC, "
                                          f"got shape {_dims_text(x_shape)}")
    return _Window(x_shape[1], x_shape[2], ksize[1], ksize[2], strides, padding)


def _lowest(dtype):
    return -np.inf if np.dtype(dtype).kind == "f" else np.iinfo(dtype).min


class MaxPool(_PoolOp):
    """The maximum of each ksize window (SAME padding never wins: it is -inf)."""

    def kernel(input, ksize, strides, padding, data_format="NHWC", T=None):  # noqa: A002
        win = _pool_window(input.shape, ksize, strides, padding)
        taps = win.taps(win.pad(input, _lowest(input.dtype)))
        out = taps[0].copy()
        for tap in taps[1:]:
            np.maximum(out, tap, out=out)
        return out

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [apply_op("MaxPoolGrad", [op.inputs[0], op.outputs[0], grad],
                         {"T": grad.dtype.base_dtype, **attrs}, name="MaxPoolGrad")]


class MaxPoolGrad(OpDef):
    """dinput of MaxPool: each window's gradient goes to the (first) position of its max."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(orig_input, orig_output, grad, ksize, strides, padding, data_format="NHWC",
               T=None):
        n, _, _, c = orig_input.shape
        win = _pool_window(orig_input.shape, ksize, strides, padding)
        taps = win.taps(win.pad(orig_input, _lowest(orig_input.dtype)))
        taken = np.zeros(orig_output.shape, dtype=bool)    # windows whose max was found

        def tap_grad(i, j):     # called tap by tap, row by row: the first max wins
            hit = taps[i * win.kw + j] == orig_output
            hit &= ~taken
            taken[...] |= hit
            return grad * hit
        return win.add_windows(tap_grad, n, c, grad.dtype)


class AvgPool(_PoolOp):
    """The mean of each ksize window (with SAME padding: the mean of its real entries)."""

    def kernel(value, ksize, strides, padding, data_format="NHWC", T=None):
        win = _pool_window(value.shape, ksize, strides, padding)
        taps = win.taps(win.pad(value))
        sums = taps[0].copy()
        for tap in taps[1:]:
            sums += tap
        return sums / _window_counts(win, value.dtype)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [apply_op("AvgPoolGrad", [array_ops.shape(op.inputs[0]), grad],
                         {"T": grad.dtype.base_dtype, **attrs}, name="AvgPoolGrad",
                         output_dtypes=[grad.dtype.base_dtype])]


def _window_counts(win, dtype):
    """How many real (unpadded) entries each window covers: [1, out_h, out_w, 1]."""
    ones = win.pad(np.ones((1, win.h, win.w, 1), dtype=dtype))
    return win.windows(ones).sum(axis=(3, 4))


class AvgPoolGrad(OpDef):
    """dinput of AvgPool: each window's gradient, divided by its size, spread over it."""

    def shape(op):
        return _known_shape(op.inputs[0], 4)

    def kernel(orig_input_shape, grad, ksize, strides, padding, data_format="NHWC", T=None):
        n, h, w, c = (int(d) for d in orig_input_shape)
        win = _Window(h, w, ksize[1], ksize[2], strides, padding)
        share = grad / _window_counts(win, grad.dtype)
        return win.add_windows(lambda i, j: share, n, c, grad.dtype)

    def gradient(op, grad):
        attrs = {k: op.get_attr(k) for k in ("ksize", "strides", "padding", "data_format")}
        return [None, avg_pool(grad, **attrs)]


def _pool(op_type, value, ksize, strides, padding, data_format, name):
    ksize = _get_sequence(ksize, "ksize")
    strides = _get_sequence(strides, "strides")
    _check_conv_args(padding, data_format or "NHWC", strides, op_type)
    if ksize[0] != 1 or ksize[3] != 1:
        raise ValueError(f"Pooling is supported over height and width only: ksize must be "
                         f"[1, kh, kw, 1], got {ksize}")
    x = _float_tensor(value, "value", op_type) if op_type == "AvgPool" else \
        convert_to_tensor(value, name="input")
    return apply_op(op_type, [x], {"T": x.dtype.base_dtype, "ksize": ksize, "strides": strides,
                                   "padding": padding, "data_format": "NHWC"},
                    name=name or op_type)


def max_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002 -- TF's name
    """The maximum over each [1, kh, kw, 1] window of an NHWC tensor, e.g. 2x2 pooling:
    max_pool(x, ksize=[1, 2, 2, 1], strides=[1, 2, 2, 1], padding='SAME')."""
    if input is not None:
        value = input
    return _pool("MaxPool", value, ksize, strides, padding, data_format, name)


def avg_pool(value, ksize, strides, padding, data_format="NHWC", name=None,
             input=None):  # noqa: A002 -- TF's name
    """The mean over each [1, kh, kw, 1] window of an NHWC tensor."""
    if input is not None:
        value = input
    return _pool("AvgPool", value, ksize, strides, padding, data_format, name)
