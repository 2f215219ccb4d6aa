"""keras.layers.ConvLSTM2D -- mirrors TensorFlow 1.15's
python/keras/layers/convolutional_recurrent.py (ConvLSTM2DCell, ConvRNN2D, ConvLSTM2D).

    keras.layers.ConvLSTM2D(8, (3, 3), padding='same', return_sequences=True,
                            input_shape=(10, 32, 32, 1))   # -> (None, 10, 32, 32, 8)

An LSTM whose input, state and gates are images: [batch, steps, rows, cols, channels] in,
and at each step the matrix products of LSTMCell are convolutions --

    z_g = conv(x, kernel_g, strides, padding) + bias_g + conv(h, recurrent_kernel_g, 'same')

for the gates g = i, f, c, o, then c = f * c + i * tanh(z_c), h = o * tanh(c) as in LSTM
(recurrent_activation hard_sigmoid, unit_forget_bias). The states h and c are
[batch, new_rows, new_cols, filters] ('valid' padding shrinks the image once, at the input
convolution). Weights, in the layer's own scope: 'conv_lst_m2d/kernel' [kh, kw, channels,
4 * filters], '/recurrent_kernel' [kh, kw, filters, 4 * filters], '/bias' [4 * filters].
(The layer's default name is TF 1.15's 'conv_lst_m2d'; TF 2 says 'conv_lstm2d'.)

It runs as the recurrent layers of recurrent.py do (unrolled over a known number of steps,
masks, dropout); channels_last only, as the sandbox's convolutions are.
"""
import math

from ...framework.tensor_shape import TensorShape
from ...layers.base import (InputSpec, channels_last_only, normalize_data_format,
                            normalize_padding, normalize_tuple)
from ...ops import array_ops, conv_ops, nn_ops
from .. import backend as K
from .recurrent import LSTMCell, _keys, _KerasRNN

__all__ = ["ConvLSTM2D"]


def _conv_output_length(length, kernel, padding, stride, dilation):
    """TF's conv_utils.conv_output_length."""
    if length is None:
        return None
    if padding == "same":
        return int(math.ceil(length / stride))
    return (length - (kernel - 1) * dilation - 1) // stride + 1


class ConvLSTM2DCell(LSTMCell):
    """The step of ConvLSTM2D: LSTMCell's gates with convolutions for the products."""
    _config_keys = ("filters", "kernel_size", "strides", "padding", "data_format",
                    "dilation_rate") + _keys(without=("units",), after="bias_initializer",
                                             add=("unit_forget_bias",))

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), **kwargs):
        super().__init__(filters, **kwargs)
        self.filters = self.units
        self.kernel_size = normalize_tuple(kernel_size, 2, "kernel_size")
        self.strides = normalize_tuple(strides, 2, "strides")
        self.padding = normalize_padding(padding)
        self.data_format = normalize_data_format(data_format or K.image_data_format())
        self.dilation_rate = normalize_tuple(dilation_rate, 2, "dilation_rate")

    def _kernel_shapes(self, input_shape):
        channels = TensorShape(input_shape)[-1].value
        if channels is None:
            raise ValueError("The channel dimension of the inputs should be defined. Found "
                             "`None`.")
        width = 4 * self.filters
        return self.kernel_size + (channels, width), self.kernel_size + (self.filters, width)

    def _conv(self, x, w, recurrent):
        if recurrent:              # the state keeps its size: stride 1, 'same'
            return conv_ops.conv2d(x, w, strides=[1, 1, 1, 1], padding="SAME")
        return conv_ops.conv2d(x, w, strides=[1, *self.strides, 1],
                               padding=self.padding.upper(),
                               dilations=[1, *self.dilation_rate, 1])

    def _project(self, x, w, bias, masks, first=0, n=None):
        """[conv(x, w_g) + b_g for the gates g], x times each gate's dropout mask."""
        f, recurrent = self.filters, w is self.recurrent_kernel
        out = []
        for g in range(4):
            z = self._conv(x if masks is None else x * masks[g], w[..., g * f:(g + 1) * f],
                           recurrent)
            if bias is not None:
                z = nn_ops.bias_add(z, bias[g * f:(g + 1) * f])
            out.append(z)
        return out

    def output_shape_of(self, image_shape):
        """[batch, rows, cols, channels] -> [batch, new_rows, new_cols, filters]."""
        image_shape = TensorShape(image_shape).as_list()
        sizes = [_conv_output_length(n, k, self.padding, s, d) for n, k, s, d in
                 zip(image_shape[1:3], self.kernel_size, self.strides, self.dilation_rate)]
        return [image_shape[0]] + sizes + [self.filters]

    def zero_states(self, x):
        """h and c of the first step: zeros [batch, new_rows, new_cols, filters], made as TF
        does, by convolving zeros."""
        zeros = array_ops.zeros(self.kernel_size + (x.get_shape()[-1].value, self.filters),
                                dtype=x.dtype.base_dtype)
        state = self._conv(array_ops.zeros_like(x), zeros, recurrent=False)
        return [state, state]


class ConvLSTM2D(_KerasRNN):
    """ConvLSTM2D(filters, kernel_size, strides=(1, 1), padding='valid', data_format=None,
    dilation_rate=(1, 1), activation='tanh', recurrent_activation='hard_sigmoid',
    return_sequences=False, ...)."""
    _cell_class = ConvLSTM2DCell
    _cell_name = "conv_lstm2d_cell"

    def __init__(self, filters, kernel_size, **kwargs):
        super().__init__(filters, kernel_size=kernel_size, **kwargs)
        self.input_spec = InputSpec(ndim=5)
        channels_last_only(self, self.cell.data_format)

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        # the cell's weights are the layer's own: 'conv_lst_m2d/kernel:0'
        self.cell._scope = self._scope
        self.cell.build(TensorShape([input_shape[0].value] + input_shape.as_list()[2:]))
        self.cell.built = True
        self.built = True

    def _copy_args(self):
        args = dict(self._init_kwargs)
        args["filters"] = args.pop("units")
        return args

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape).as_list()
        image = self.cell.output_shape_of([input_shape[0]] + input_shape[2:])
        if self.return_sequences:
            return TensorShape(image[:1] + [input_shape[1]] + image[1:])
        return TensorShape(image)

    def call(self, inputs, mask=None, training=None, initial_state=None):
        outputs = super().call(inputs, mask=mask, training=training,
                               initial_state=initial_state)
        outputs.set_shape(self.compute_output_shape(inputs.get_shape()))
        return outputs
