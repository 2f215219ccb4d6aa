"""keras.backend's network functions -- mirrors the neural-network parts of TensorFlow 1.15's
python/keras/backend.py: activations, cross-entropies, convolutions and pooling, padding,
random tensors, the learning-phase switches, K.rnn, K.function, K.gradients and CTC.
keras/backend.py re-exports them.

Images are channels_last inside: a channels_first input is transposed to NHWC, run, and
transposed back (what TF 1.15 does on a CPU, which has no NCHW kernels).

    f = K.function([x_in, K.learning_phase()], [y_out], updates=[K.update_add(step, 1)])
    y, = f([x_value, 1])                      # one Session.run in Keras's session
"""
import itertools

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies, name_scope  # noqa: F401 (K.name_scope)
from ..framework.tensor import Tensor, convert_to_tensor
from ..ops import (array_ops, basic_math_ops, clip_ops, comparison_ops, conv3d_ops, conv_ops,
                   convolution_ops, ctc_ops, depthwise_conv_ops, image_resize_ops,
                   indexing_ops, init_ops, math_ops, matmul_ops, nn_impl, nn_ops, random_ops,
                   reduction_ops, slicing_ops, sparse_ops)
from ..framework.sparse_tensor import SparseTensor
from ..ops.gradients import gradients as _gradients
from . import backend_core as _core
from . import backend_ops as _ops

__all__ = ["relu", "elu", "softmax", "softplus", "softsign", "sigmoid", "hard_sigmoid", "tanh",
           "categorical_crossentropy", "sparse_categorical_crossentropy",
           "binary_crossentropy", "bias_add", "dropout", "l2_normalize", "in_top_k",
           "conv1d", "conv2d", "conv2d_transpose", "conv3d", "separable_conv2d",
           "depthwise_conv2d", "local_conv1d", "local_conv2d", "pool2d", "pool3d",
           "temporal_padding", "spatial_2d_padding", "spatial_3d_padding", "resize_images",
           "resize_volumes", "batch_normalization",
           "normalize_batch_in_training", "random_normal", "random_uniform",
           "random_binomial", "truncated_normal", "random_normal_variable",
           "random_uniform_variable", "in_train_phase", "in_test_phase", "gradients",
           "function", "rnn", "ctc_label_dense_to_sparse", "ctc_batch_cost", "ctc_decode",
           "name_scope", "is_keras_tensor"]


def _floatx():
    return _core.floatx()


def _epsilon():
    return _core.epsilon()


# -- activations -----------------------------------------------------------------------------

def relu(x, alpha=0.0, max_value=None, threshold=0):
    """max(x, 0), with a slope `alpha` below `threshold` and a ceiling `max_value`."""
    x = convert_to_tensor(x)
    if alpha != 0.0:
        if max_value is None and not threshold:
            return nn_ops.leaky_relu(x, alpha=alpha)
        negative = nn_ops.relu(-x + threshold) if threshold else nn_ops.relu(-x)
    if threshold:
        x = x * math_ops.cast(comparison_ops.greater(x, threshold), x.dtype.base_dtype)
    elif max_value == 6:
        x, max_value = nn_ops.relu6(x), None
    else:
        x = nn_ops.relu(x)
    if max_value is not None:
        zero = math_ops.cast(0.0, x.dtype.base_dtype)
        x = clip_ops.clip_by_value(x, zero, math_ops.cast(max_value, x.dtype.base_dtype))
    if alpha != 0.0:
        x = x - math_ops.cast(alpha, x.dtype.base_dtype) * negative
    return x


def elu(x, alpha=1.0):
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    return comparison_ops.where(comparison_ops.greater(x, 0), res, alpha * res)


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def sigmoid(x):
    return basic_math_ops.sigmoid(x)


def tanh(x):
    return basic_math_ops.tanh(x)


def hard_sigmoid(x):
    """clip(0.2 * x + 0.5, 0, 1)."""
    x = convert_to_tensor(x)
    dtype = x.dtype.base_dtype
    x = x * math_ops.cast(0.2, dtype) + math_ops.cast(0.5, dtype)
    return clip_ops.clip_by_value(x, math_ops.cast(0.0, dtype), math_ops.cast(1.0, dtype))


# -- cross-entropies (element-wise; keras.losses averages them) -------------------------------

def _clipped(output):
    eps = _epsilon()
    return clip_ops.clip_by_value(output, eps, 1.0 - eps)


def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """-sum(target * log(output)) along `axis`; the logits of a softmax op are used directly."""
    output = convert_to_tensor(output)
    target = math_ops.cast(convert_to_tensor(target), output.dtype.base_dtype)
    if not from_logits and output.op.type == "Softmax":
        from_logits, output = True, output.op.inputs[0]
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits_v2(labels=target, logits=output,
                                                           axis=axis)
    output = output / reduction_ops.reduce_sum(output, axis, keepdims=True)
    return -reduction_ops.reduce_sum(target * basic_math_ops.log(_clipped(output)), axis)


def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Integer targets (any shape that flattens to the batch) against class scores."""
    output = convert_to_tensor(output)
    if not from_logits and output.op.type == "Softmax":
        logits = output.op.inputs[0]
    elif from_logits:
        logits = output
    else:
        logits = basic_math_ops.log(_clipped(output))
    rank = logits.get_shape().ndims
    if rank is not None and axis % rank != rank - 1:      # the classes last
        axis %= rank
        logits = array_ops.transpose(logits, [i for i in range(rank) if i != axis] + [axis])
    classes = logits.get_shape()[-1].value
    labels = math_ops.cast(array_ops.reshape(convert_to_tensor(target), [-1]), _dtypes.int64)
    out_shape = array_ops.shape(logits)[:-1]
    if rank is not None and rank > 2:
        logits = array_ops.reshape(logits, [-1, classes])
    loss = nn_ops.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    if rank is not None and rank > 2:
        loss = array_ops.reshape(loss, out_shape)
    return loss


def binary_crossentropy(target, output, from_logits=False):
    """Element-wise -(t log(o) + (1 - t) log(1 - o)); a sigmoid op's logits are used directly."""
    output = convert_to_tensor(output)
    target = math_ops.cast(convert_to_tensor(target), output.dtype.base_dtype)
    if not from_logits and output.op.type == "Sigmoid":
        from_logits, output = True, output.op.inputs[0]
    if from_logits:
        return nn_impl.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = _epsilon()
    out = _clipped(output)
    return -(target * basic_math_ops.log(out + eps) +
             (1.0 - target) * basic_math_ops.log(1.0 - out + eps))


# -- layers' building blocks -------------------------------------------------------------------

def _data_format(data_format):
    data_format = data_format or _core.image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Unknown data_format: " + str(data_format))
    return data_format


def _to_last(x, data_format):
    """NC... -> N...C for channels_first."""
    if data_format == "channels_first":
        rank = x.get_shape().ndims
        x = array_ops.transpose(x, [0] + list(range(2, rank)) + [1])
    return x


def _from_last(x, data_format):
    """N...C -> NC... for channels_first."""
    if data_format == "channels_first":
        rank = x.get_shape().ndims
        x = array_ops.transpose(x, [0, rank - 1] + list(range(1, rank - 1)))
    return x


def _padding(padding):
    if padding not in ("same", "valid"):
        raise ValueError("Invalid padding: " + str(padding))
    return padding.upper()


def bias_add(x, bias, data_format=None):
    """x + bias on the channels axis (bias of shape [channels] or the full non-batch shape)."""
    data_format = _data_format(data_format)
    bias_shape = bias.get_shape().as_list()
    rank = x.get_shape().ndims
    if len(bias_shape) not in (1, rank - 1):
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}, expect to be 1 or "
                         f"{rank - 1} dimensions")
    if len(bias_shape) == 1:
        if data_format == "channels_first":
            return x + array_ops.reshape(bias, [1, bias_shape[0]] + [1] * (rank - 2))
        return nn_ops.bias_add(x, bias)
    if data_format == "channels_first" and rank > 2:
        bias = array_ops.transpose(bias, [len(bias_shape) - 1] + list(range(len(bias_shape) - 1)))
    return x + array_ops.expand_dims(bias, 0)


def dropout(x, level, noise_shape=None, seed=None):
    """Zeroes a fraction `level` of x, scaling the rest by 1 / (1 - level)."""
    return nn_ops.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


def l2_normalize(x, axis=None):
    return nn_impl.l2_normalize(x, axis=axis)


def in_top_k(predictions, targets, k):
    return nn_impl.in_top_k(predictions, targets, k)


def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution; padding 'causal' pads dilation_rate * (width - 1) zeros on the left."""
    data_format = _data_format(data_format)
    if padding == "causal":
        left = dilation_rate * (kernel.get_shape().as_list()[0] - 1)
        x = temporal_padding(_to_last(x, data_format), (left, 0))
        x, padding = _from_last(x, data_format), "valid"
    x = convolution_ops.convolution(_to_last(x, data_format), kernel, padding=_padding(padding),
                                    strides=[strides] if isinstance(strides, int) else strides,
                                    dilation_rate=[dilation_rate]
                                    if isinstance(dilation_rate, int) else dilation_rate)
    return _from_last(x, data_format)


def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    data_format = _data_format(data_format)
    x = convolution_ops.convolution(_to_last(x, data_format), kernel, padding=_padding(padding),
                                    strides=strides, dilation_rate=dilation_rate)
    return _from_last(x, data_format)


def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1, 1)):
    data_format = _data_format(data_format)
    x = conv3d_ops.conv3d(_to_last(x, data_format), kernel, strides=(1,) + tuple(strides) + (1,),
                          padding=_padding(padding),
                          dilations=(1,) + tuple(dilation_rate) + (1,))
    return _from_last(x, data_format)


def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    """The transpose (gradient) of conv2d; output_shape as Keras's: [batch, rows, cols, out]
    (channels_first: [batch, out, rows, cols]); a None batch is the input's."""
    data_format = _data_format(data_format)
    x = _to_last(x, data_format)
    output_shape = tuple(output_shape)
    if data_format == "channels_first":
        output_shape = (output_shape[0],) + output_shape[2:] + (output_shape[1],)
    if output_shape[0] is None:
        output_shape = (array_ops.shape(x)[0],) + output_shape[1:]
    output_shape = array_ops.stack(list(output_shape))
    if tuple(dilation_rate) == (1, 1):
        x = conv_ops.conv2d_transpose(x, kernel, output_shape, (1,) + tuple(strides) + (1,),
                                      padding=_padding(padding))
    else:
        if dilation_rate[0] != dilation_rate[1]:
            raise ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be "
                             f"equal to each other. Received: dilation_rate={dilation_rate}")
        x = convolution_ops.atrous_conv2d_transpose(x, kernel, output_shape,
                                                    rate=dilation_rate[0],
                                                    padding=_padding(padding))
    return _from_last(x, data_format)


def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    data_format = _data_format(data_format)
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    x = depthwise_conv_ops.separable_conv2d(
        _to_last(x, data_format), depthwise_kernel, pointwise_kernel,
        strides=(1,) + tuple(strides) + (1,), padding=_padding(padding),
        dilations=dilation_rate)
    return _from_last(x, data_format)


def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    data_format = _data_format(data_format)
    x = depthwise_conv_ops.depthwise_conv2d(
        _to_last(x, data_format), depthwise_kernel, strides=(1,) + tuple(strides) + (1,),
        padding=_padding(padding), dilations=dilation_rate)
    return _from_last(x, data_format)


def local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    """A convolution whose kernel differs at each output position (LocallyConnected): kernel
    [positions, patch size * channels, filters]; output_shape the spatial output sizes."""
    data_format = _data_format(data_format)
    first = data_format == "channels_first"
    feature_dim, filters = kernel.get_shape()[1].value, kernel.get_shape()[-1].value
    rank = len(output_shape)
    patches = []               # each patch flattened in the input's own layout, as TF does
    for position in itertools.product(*[range(n) for n in output_shape]):
        window = tuple(slice(p * s, p * s + k) for p, s, k in
                       zip(position, strides, kernel_size))
        index = (slice(None),) * (2 if first else 1) + window + (() if first else (slice(None),))
        patches.append(array_ops.reshape(inputs[index], [1, -1, feature_dim]))
    outputs = matmul_ops.matmul(slicing_ops.concat(patches, 0), kernel)   # [positions, b, f]
    outputs = array_ops.reshape(outputs, list(output_shape) + [-1, filters])
    spatial = list(range(rank))
    return array_ops.transpose(outputs, [rank, rank + 1] + spatial if first
                               else [rank] + spatial + [rank + 1])


def local_conv1d(inputs, kernel, kernel_size, strides, data_format=None):
    return local_conv(inputs, kernel, kernel_size, strides, (kernel.get_shape()[0].value,),
                      data_format)


def local_conv2d(inputs, kernel, kernel_size, strides, output_shape, data_format=None):
    return local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format)


def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    data_format = _data_format(data_format)
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    pools = {"max": conv_ops.max_pool, "avg": conv_ops.avg_pool}
    if pool_mode not in pools:
        raise ValueError("Invalid pooling mode: " + str(pool_mode))
    x = pools[pool_mode](_to_last(x, data_format), (1,) + tuple(pool_size) + (1,),
                         (1,) + tuple(strides) + (1,), padding=_padding(padding))
    return _from_last(x, data_format)


def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None,
           pool_mode="max"):
    data_format = _data_format(data_format)
    pools = {"max": conv3d_ops.max_pool3d, "avg": conv3d_ops.avg_pool3d}
    if pool_mode not in pools:
        raise ValueError("Invalid pooling mode: " + str(pool_mode))
    x = pools[pool_mode](_to_last(x, data_format), (1,) + tuple(pool_size) + (1,),
                         (1,) + tuple(strides) + (1,), padding=_padding(padding))
    return _from_last(x, data_format)


def temporal_padding(x, padding=(1, 1)):
    """Zeros before and after the steps of a [batch, steps, features] tensor."""
    return slicing_ops.pad(x, [[0, 0], list(padding), [0, 0]])


def _spatial_padding(x, padding, data_format):
    pattern = [list(p) for p in padding]
    if _data_format(data_format) == "channels_first":
        return slicing_ops.pad(x, [[0, 0], [0, 0]] + pattern)
    return slicing_ops.pad(x, [[0, 0]] + pattern + [[0, 0]])


def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    return _spatial_padding(x, padding, data_format)


def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    return _spatial_padding(x, padding, data_format)


def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """Rows and columns scaled by integer factors (UpSampling2D), as TF 1.15's resize_v2."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Invalid `data_format` argument: " + str(data_format))
    methods = {"nearest": image_resize_ops.resize_nearest_neighbor,
               "bilinear": image_resize_ops.resize_bilinear}
    if interpolation not in methods:
        raise ValueError("interpolation should be one of \"nearest\" or \"bilinear\".")
    x = _to_last(x, data_format)
    rows, cols = x.get_shape().as_list()[1:3]
    if rows is None or cols is None:
        size = array_ops.shape(x)[1:3] * np.array([height_factor, width_factor], np.int32)
    else:
        size = [rows * height_factor, cols * width_factor]
    x = methods[interpolation](x, size, half_pixel_centers=True)
    return _from_last(x, data_format)


def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """Each of the three spatial axes repeated by its factor (UpSampling3D)."""
    first = {"channels_first": 2, "channels_last": 1}.get(data_format)
    if first is None:
        raise ValueError("Invalid data_format: " + str(data_format))
    for axis, factor in zip(range(first, first + 3), (depth_factor, height_factor, width_factor)):
        x = _ops.repeat_elements(x, factor, axis=axis)
    return x


def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta."""
    return nn_impl.batch_normalization(x, mean, var, beta, gamma, epsilon)


def normalize_batch_in_training(x, gamma, beta, reduction_axes, epsilon=1e-3):
    """(normalized x, batch mean, batch variance) over `reduction_axes`."""
    mean, variance = nn_impl.moments(x, list(reduction_axes), keep_dims=False)
    rank = x.get_shape().ndims
    if sorted(reduction_axes) == list(range(rank - 1)):
        return nn_impl.batch_normalization(x, mean, variance, beta, gamma, epsilon), mean, \
            variance
    shape = array_ops.stack([1 if i in reduction_axes else array_ops.shape(x)[i]
                             for i in range(rank)])
    mean_b, var_b, beta_b, gamma_b = [None if t is None else array_ops.reshape(t, shape)
                                      for t in (mean, variance, beta, gamma)]
    return nn_impl.batch_normalization(x, mean_b, var_b, beta_b, gamma_b, epsilon), mean, \
        variance


# -- random tensors ----------------------------------------------------------------------------

def _seed(seed):
    return np.random.randint(10e6) if seed is None else seed


def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.random_normal(shape, mean=mean, stddev=stddev, dtype=dtype or _floatx(),
                                    seed=_seed(seed))


def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    return random_ops.random_uniform(shape, minval=minval, maxval=maxval,
                                     dtype=dtype or _floatx(), seed=_seed(seed))


def random_binomial(shape, p=0.0, dtype=None, seed=None):
    """1 with probability p, else 0."""
    dtype = dtype or _floatx()
    return comparison_ops.where(
        comparison_ops.less_equal(random_ops.random_uniform(shape, dtype=dtype,
                                                            seed=_seed(seed)), p),
        array_ops.ones(shape, dtype=dtype), array_ops.zeros(shape, dtype=dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    return random_ops.truncated_normal(shape, mean, stddev, dtype=dtype or _floatx(),
                                       seed=_seed(seed))


def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    dtype = dtype or _floatx()
    init = init_ops.random_normal_initializer(mean, scale, seed=_seed(seed),
                                              dtype=_dtypes.as_dtype(dtype))
    return _core.variable(_core.get_session().run(init(shape)), dtype, name)


def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    dtype = dtype or _floatx()
    init = init_ops.random_uniform_initializer(low, high, seed=_seed(seed),
                                               dtype=_dtypes.as_dtype(dtype))
    return _core.variable(_core.get_session().run(init(shape)), dtype, name)


# -- the learning phase ------------------------------------------------------------------------

def in_train_phase(x, alt, training=None):
    """x in training, alt otherwise; either may be a callable (called only when chosen,
    for a fixed phase)."""
    if training is None:
        training = _core.learning_phase()
    if not isinstance(training, Tensor):
        if training in (1, True):
            return x() if callable(x) else x
        return alt() if callable(alt) else alt
    return _ops.switch(training, x, alt)


def in_test_phase(x, alt, training=None):
    return in_train_phase(alt, x, training=training)


def gradients(loss, variables):
    return _gradients(loss, variables, colocate_gradients_with_ops=True)


def is_keras_tensor(x):
    if not isinstance(x, (Tensor, SparseTensor)) and not hasattr(x, "initializer"):
        raise ValueError("Unexpectedly found an instance of type `" + str(type(x)) + "`. "
                         "Expected a symbolic tensor instance.")
    return hasattr(x, "_keras_history")


# -- K.function --------------------------------------------------------------------------------

class GraphExecutionFunction:
    """f(values) runs `outputs` and `updates` in Keras's session, feeding `values` to
    `inputs`; returns the outputs' values as a list."""

    def __init__(self, inputs, outputs, updates=None, name=None, **session_kwargs):
        if not isinstance(inputs, (list, tuple)):
            raise TypeError("`inputs` to a Keras backend function should be a list or tuple.")
        self.inputs = list(inputs)
        self._single = not isinstance(outputs, (list, tuple))
        self.outputs = [outputs] if self._single else list(outputs)
        ops = []
        for update in updates or []:
            if isinstance(update, tuple):           # (variable, new value)
                update = _ops.update(*update)
            ops.append(update)
        self.name = name
        with control_dependencies(self.outputs):        # the updates run after the outputs
            self.updates_op = _group(ops) if ops else None
        self.feed_dict = session_kwargs.pop("feed_dict", None) or {}
        self.fetches = session_kwargs.pop("fetches", [])
        if session_kwargs:
            raise ValueError("Some keys in session_kwargs are not supported at this time: "
                             f"{list(session_kwargs)}")

    def __call__(self, inputs):
        if not isinstance(inputs, (list, tuple)):
            raise TypeError("`inputs` should be a list or tuple.")
        if len(inputs) != len(self.inputs):
            raise ValueError(f"The function takes {len(self.inputs)} inputs, got {len(inputs)}")
        feed = dict(self.feed_dict)
        for tensor, value in zip(self.inputs, inputs):
            if value is None:
                continue
            if isinstance(tensor, Tensor) and tensor.dtype.base_dtype == _dtypes.bool:
                value = bool(value)                 # the learning phase fed as 0/1
            feed[tensor] = value
        fetches = self.outputs + ([self.updates_op] if self.updates_op else []) + \
            list(self.fetches)
        values = _core.get_session().run(fetches, feed)
        return values[:len(self.outputs)]


def _group(ops):
    from ..ops.control_flow_ops import group
    return group(*ops)


def function(inputs, outputs, updates=None, name=None, **kwargs):
    """A GraphExecutionFunction (see the module docstring)."""
    return GraphExecutionFunction(inputs, outputs, updates=updates, name=name, **kwargs)


# -- K.rnn -------------------------------------------------------------------------------------

def rnn(step_function, inputs, initial_states, go_backwards=False, mask=None, constants=None,
        unroll=False, input_length=None, time_major=False, zero_output_for_mask=False):
    """Runs `step_function(x_t, states (+ constants)) -> (output_t, new_states)` along the
    time axis; returns (last_output, outputs [batch, time, ...], new_states). The sandbox
    unrolls the loop, so the number of steps must be static."""
    inputs = convert_to_tensor(inputs)
    axis = 0 if time_major else 1
    steps = inputs.get_shape().as_list()[axis]
    if steps is None:
        raise ValueError("K.rnn in the sandbox unrolls the loop: the number of time steps "
                         "of `inputs` must be known (give the input a static shape).")
    xs = array_ops.unstack(inputs, axis=axis)
    masks = None
    if mask is not None:
        mask = math_ops.cast(convert_to_tensor(mask), _dtypes.bool)
        if mask.get_shape().ndims == 2 and not time_major:
            masks = array_ops.unstack(mask, axis=1)
        else:
            masks = array_ops.unstack(mask, axis=axis)
    if go_backwards:
        xs = xs[::-1]
        masks = masks and masks[::-1]
    constants = list(constants or [])
    states = list(initial_states)
    outputs, previous = [], None
    for t, x in enumerate(xs):
        output, new_states = step_function(x, tuple(states) + tuple(constants))
        new_states = list(new_states)
        if masks is not None:
            if previous is None:
                previous = array_ops.zeros_like(output)
            keep = masks[t]
            output = _ops.switch(_expand_to(keep, output), output,
                                 array_ops.zeros_like(output) if zero_output_for_mask
                                 else previous)
            new_states = [_ops.switch(_expand_to(keep, n), n, s)
                          for n, s in zip(new_states, states)]
        outputs.append(output)
        previous, states = output, new_states
    stacked = array_ops.stack(outputs, axis=axis)
    return outputs[-1], stacked, states


def _expand_to(mask, like):
    """A [batch] mask with trailing axes of 1, tiled to `like`'s shape."""
    for _ in range(like.get_shape().ndims - mask.get_shape().ndims):
        mask = array_ops.expand_dims(mask, -1)
    return slicing_ops.tile(mask, array_ops.shape(like) // array_ops.shape(mask)) \
        if like.get_shape().ndims > 1 else mask


# -- CTC ---------------------------------------------------------------------------------------

def ctc_label_dense_to_sparse(labels, label_lengths):
    """Dense [batch, max_len] labels -> a SparseTensor of the first label_lengths[i] of row i."""
    labels = convert_to_tensor(labels)
    label_shape = array_ops.shape(labels)
    max_len = label_shape[1]
    positions = array_ops.expand_dims(array_ops.range(max_len), 0)
    lengths = array_ops.expand_dims(math_ops.cast(label_lengths, _dtypes.int32), 1)
    dense_mask = comparison_ops.less(positions, lengths)          # [batch, max_len]
    indices = math_ops.cast(comparison_ops.where(dense_mask), _dtypes.int64)
    values = indexing_ops.gather_nd(labels, indices)
    return SparseTensor(indices, values, math_ops.cast(label_shape, _dtypes.int64))


def ctc_batch_cost(y_true, y_pred, input_length, label_length):
    """The CTC loss of each sample: y_pred [batch, time, classes] softmax outputs (the blank
    last), y_true [batch, max_label_len], the lengths [batch, 1]; returns [batch, 1]."""
    label_length = math_ops.cast(array_ops.squeeze(label_length, [-1]), _dtypes.int32)
    input_length = math_ops.cast(array_ops.squeeze(input_length, [-1]), _dtypes.int32)
    sparse = ctc_label_dense_to_sparse(y_true, label_length)
    sparse = SparseTensor(sparse.indices, math_ops.cast(sparse.values, _dtypes.int32),
                          sparse.dense_shape)
    y_pred = basic_math_ops.log(array_ops.transpose(y_pred, [1, 0, 2]) + _epsilon())
    return array_ops.expand_dims(ctc_ops.ctc_loss(labels=sparse, inputs=y_pred,
                                                  sequence_length=input_length), 1)


def ctc_decode(y_pred, input_length, greedy=True, beam_width=100, top_paths=1):
    """([dense decoded paths, -1 padded], log probabilities) of softmax outputs."""
    shape = array_ops.shape(y_pred)
    y_pred = basic_math_ops.log(array_ops.transpose(y_pred, [1, 0, 2]) + _epsilon())
    input_length = math_ops.cast(input_length, _dtypes.int32)
    if greedy:
        decoded, log_prob = ctc_ops.ctc_greedy_decoder(y_pred, input_length)
    else:
        decoded, log_prob = ctc_ops.ctc_beam_search_decoder(
            y_pred, input_length, beam_width=beam_width, top_paths=top_paths)
    dense_shape = math_ops.cast(shape[:2], _dtypes.int64)
    dense = [sparse_ops.sparse_tensor_to_dense(SparseTensor(st.indices, st.values, dense_shape),
                                               default_value=-1) for st in decoded]
    return dense, log_prob

