"""Keras locally-connected layers -- mirrors TensorFlow 1.15's python/keras/layers/local.py
(LocallyConnected1D, LocallyConnected2D).

A locally-connected layer is a convolution whose weights are not shared: every output
position has a kernel of its own.

    layer = keras.layers.LocallyConnected2D(4, (3, 3))   # on [N, 6, 6, 2] -> [N, 4, 4, 4]
    # kernel [4 * 4, 3 * 3 * 2, 4]: one [patch, filters] matrix per output position
    # bias   [4, 4, 4]:             one bias per output position and filter

implementation=1 (TF's default) is TF's backend.local_conv: cut out the patch of every output
position (input[:, i*s : i*s + k, ..., :], flattened in (rows, cols, channels) order), stack
the patches into [positions, batch, patch], and multiply each by its own kernel (a batched
matmul) -- so TF's weights, set with set_weights, give TF's outputs. implementation=2 keeps
the kernel as one dense matrix between the whole input and the whole output,
[in_rows, in_cols, in_channels, out_rows, out_cols, filters], multiplied by a fixed 0/1 mask of
the pairs that a window connects (TF's get_locallyconnected_mask); it also allows
padding='same'. (implementation=3, TF's sparse form, is not in the sandbox.) NHWC
('channels_last') only, as the sandbox's other convolution layers.
"""
import itertools

import numpy as np

from ...framework.tensor_shape import TensorShape
from ...layers.base import (InputSpec, channels_last_only, normalize_data_format,
                            normalize_padding, normalize_tuple)
from ...ops import array_ops, matmul_ops, slicing_ops
from ...ops.conv_ops import _out_size
from .. import activations, initializers, regularizers
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["LocallyConnected1D", "LocallyConnected2D"]


def _connected(size, kernel, stride, padding, out):
    """The input positions along one axis that output position `out` reads (TF's
    conv_utils.conv_connected_inputs; 'same' centres the window on out * stride)."""
    left = kernel // 2
    centre = out * stride + (left if padding == "valid" else 0)
    return range(max(0, centre - left), min(size, centre + kernel - left))


def _mask(input_shape, kernel_size, strides, padding, output_shape):
    """[*input_shape, 1, *output_shape, 1]: 1 where a window joins input and output."""
    mask = np.zeros(tuple(input_shape) + tuple(output_shape), np.float32)
    for out in itertools.product(*[range(n) for n in output_shape]):
        ranges = [_connected(input_shape[d], kernel_size[d], strides[d], padding, out[d])
                  for d in range(len(out))]
        for position in itertools.product(*ranges):
            mask[position + out] = 1
    rank = len(input_shape)
    return np.expand_dims(np.expand_dims(mask, rank), -1)


class _LocallyConnected(Layer):
    """What LocallyConnected1D and 2D share: the arguments, the weights, the two ways to
    compute."""
    rank = 1
    _config_keys = ("filters", "kernel_size", "strides", "padding", "data_format",
                    "activation", "use_bias", "kernel_initializer", "bias_initializer",
                    "kernel_regularizer", "bias_regularizer", "activity_regularizer",
                    "kernel_constraint", "bias_constraint", "implementation")

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 implementation=1, **kwargs):
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer),
                         **kwargs)
        self.filters = int(filters)
        self.kernel_size = normalize_tuple(kernel_size, self.rank, "kernel_size")
        self.strides = normalize_tuple(strides, self.rank, "strides")
        self.padding = normalize_padding(padding)
        name = type(self).__name__
        if self.padding != "valid" and implementation == 1:
            raise ValueError(f"Invalid border mode for {name} (only \"valid\" is supported if "
                             f"implementation is 1): {padding}")
        if implementation not in (1, 2):
            raise ValueError(f"{name}: implementation={implementation} (TF's sparse form) is "
                             "not in the sandbox; use 1 (patches) or 2 (masked dense matrix).")
        self.data_format = normalize_data_format(data_format or K.image_data_format())
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = kernel_constraint
        self.bias_constraint = bias_constraint
        self.implementation = implementation
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.kernel = self.bias = self.kernel_mask = None

    def _output_spatial(self, sizes):
        return [None if size is None else
                _out_size(size, self.kernel_size[i], self.strides[i], 1,
                          self.padding.upper())[0] for i, size in enumerate(sizes)]

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape).with_rank(self.rank + 2).as_list()
        return TensorShape([shape[0]] + self._output_spatial(shape[1:-1]) + [self.filters])

    def build(self, input_shape):
        channels_last_only(self, self.data_format)
        shape = TensorShape(input_shape).with_rank(self.rank + 2).as_list()
        spatial, input_dim = shape[1:-1], shape[-1]
        if input_dim is None or None in spatial:
            raise ValueError(f"{type(self).__name__}: the inputs' spatial and channel "
                             f"dimensions must be fully defined. Found shape: {shape}")
        self.output_spatial = self._output_spatial(spatial)
        if self.implementation == 1:
            kernel_shape = [int(np.prod(self.output_spatial)),
                            int(np.prod(self.kernel_size)) * input_dim, self.filters]
        else:
            kernel_shape = spatial + [input_dim] + self.output_spatial + [self.filters]
            self.kernel_mask = _mask(spatial, self.kernel_size, self.strides, self.padding,
                                     self.output_spatial)
        self.kernel = self.add_weight("kernel", kernel_shape,
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", self.output_spatial + [self.filters],
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: input_dim})
        self.built = True

    def _local_conv(self, inputs):
        """TF's backend.local_conv: each output position's patch times its own kernel."""
        feature_dim = self.kernel.get_shape()[1].value
        patches = []
        for position in itertools.product(*[range(n) for n in self.output_spatial]):
            window = tuple(slice(p * s, p * s + k) for p, s, k in
                           zip(position, self.strides, self.kernel_size))
            patches.append(array_ops.reshape(inputs[(slice(None),) + window],
                                             [1, -1, feature_dim]))
        outputs = matmul_ops.matmul(slicing_ops.concat(patches, 0), self.kernel)
        outputs = array_ops.reshape(outputs, self.output_spatial + [-1, self.filters])
        rank = self.rank                  # [*out, batch, filters] -> [batch, *out, filters]
        return array_ops.transpose(outputs, [rank] + list(range(rank)) + [rank + 1])

    def _masked_matmul(self, inputs):
        """TF's local_conv_matmul: the input, flattened, times the masked dense kernel."""
        rows = int(np.prod(inputs.get_shape().as_list()[1:]))
        kernel = array_ops.reshape(self.kernel * self.kernel_mask, [rows, -1])
        outputs = matmul_ops.matmul(array_ops.reshape(inputs, [-1, rows]), kernel)
        return array_ops.reshape(outputs, [-1] + self.output_spatial + [self.filters])

    def call(self, inputs):
        if self.implementation == 1:
            outputs = self._local_conv(inputs)
        else:
            outputs = self._masked_matmul(inputs)
        if self.use_bias:
            outputs = outputs + self.bias
        if self.activation is not None:
            outputs = self.activation(outputs)
        return outputs


class LocallyConnected1D(_LocallyConnected):
    """LocallyConnected1D(filters, kernel_size, strides=1, padding='valid', ...,
    implementation=1): [batch, steps, channels] -> [batch, new_steps, filters], with kernel
    [new_steps, kernel_size * channels, filters] and bias [new_steps, filters]."""
    rank = 1


class LocallyConnected2D(_LocallyConnected):
    """LocallyConnected2D(filters, kernel_size, strides=(1, 1), padding='valid', ...,
    implementation=1): [batch, rows, cols, channels] -> [batch, new_rows, new_cols, filters],
    with kernel [new_rows * new_cols, kh * kw * channels, filters] and bias
    [new_rows, new_cols, filters]."""
    rank = 2

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding, **kwargs)
