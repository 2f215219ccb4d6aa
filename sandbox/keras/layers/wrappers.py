"""Layers that wrap a layer: Wrapper, TimeDistributed, Bidirectional -- mirrors TensorFlow
1.15's python/keras/layers/wrappers.py.

    keras.layers.TimeDistributed(keras.layers.Dense(8))     # [batch, steps, 16] -> [.., 8]
    keras.layers.Bidirectional(keras.layers.LSTM(32, return_sequences=True))

A Wrapper holds one inner layer (`layer`), saved in its config as {'layer': serialize(layer)}.

TimeDistributed applies its layer to every step of [batch, steps, ...] alike: the input is
reshaped to [batch * steps, ...], the layer runs once on that, and the result is reshaped
back to [batch, steps, ...]. One set of weights serves all steps, and it lives in the
wrapper's scope: 'time_distributed/kernel:0' (as TF 2.15's compat.v1 Keras names it). A mask
on the input is passed to the inner layer per step and comes out unchanged.

Bidirectional: two copies of a recurrent layer read the sequence: 'forward_lstm' front to back and
'backward_lstm' (go_backwards=True) back to front; with return_sequences the backward outputs
are reversed to line up with the steps. merge_mode combines them: 'concat' (the default,
[batch, ..., 2 * units]), 'sum', 'mul' or 'ave'. The weights live in the wrapper's scope:
'bidirectional/forward_lstm/lstm_cell/kernel:0' ... (TF 2.15 compat.v1's names). merge_mode=
None (a list of two outputs), backward_layer= and initial states are not in the sandbox.
"""
import inspect

from ...framework.tensor_shape import TensorShape
from ...ops import array_ops, slicing_ops
from ..engine.base_layer import Layer, WeightsOfInner
from ..serialization import serialize_keras_object
from .recurrent import RNN

__all__ = ["Wrapper", "TimeDistributed", "Bidirectional"]


class Wrapper(WeightsOfInner, Layer):
    """Wrapper(layer): the base class of the layers that hold another layer."""

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Please initialize `{type(self).__name__}` layer with a `Layer` "
                             f"instance. You passed: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    # -- the inner layer's weights and losses (WeightsOfInner), and updates, are the wrapper's
    @property
    def updates(self):
        return list(self._updates) + self.layer.updates

    def get_config(self):
        return {**Layer.get_config(self), "layer": serialize_keras_object(self.layer)}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from .serialization import deserialize
        config = dict(config)
        layer = deserialize(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


class TimeDistributed(Wrapper):
    """TimeDistributed(layer): `layer` applied to every step of the input alike."""
    supports_masking = True

    def _child_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        if input_shape.ndims is None or input_shape.ndims < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with "
                             f"at least 3 dimensions, received: {input_shape.as_list()}")
        return TensorShape([input_shape[0].value] + input_shape.as_list()[2:])

    def build(self, input_shape):
        child = self._child_shape(input_shape)
        # the inner layer's weights go to the wrapper's scope: 'time_distributed/kernel:0'
        self.layer._scope = self._scope
        super().build(child)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        child = TensorShape(self.layer.compute_output_shape(self._child_shape(input_shape)))
        return TensorShape([input_shape[0].value, input_shape[1].value] + child.as_list()[1:])

    def _merge_steps(self, x):
        """[batch, steps, ...] -> [batch * steps, ...]"""
        return array_ops.reshape(x, [-1] + x.get_shape().as_list()[2:])

    def call(self, inputs, mask=None, training=None):
        kwargs = {}
        if "training" in inspect.signature(self.layer.call).parameters:
            kwargs["training"] = training
        if mask is not None and self.layer._call_takes_mask():
            kwargs["mask"] = self._merge_steps(mask)
        y = self.layer(self._merge_steps(inputs), **kwargs)
        shape = self.compute_output_shape(inputs.get_shape())
        steps = shape[1].value if shape[1].value is not None else array_ops.shape(inputs)[1]
        out = array_ops.reshape(y, array_ops.stack([-1, steps] + shape.as_list()[2:]))
        out.set_shape(shape)
        return out


class Bidirectional(Wrapper):
    """Bidirectional(layer, merge_mode='concat')."""

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None, **kwargs):
        if not isinstance(layer, RNN) or not hasattr(layer, "_copy_args"):
            raise ValueError("Please initialize `Bidirectional` layer with a `Layer` instance. "
                             f"You passed: {layer} (the sandbox wraps SimpleRNN, LSTM and GRU)")
        if merge_mode not in ("sum", "mul", "ave", "concat"):
            raise ValueError(f"Invalid merge mode. Merge mode should be one of "
                             f'{{"sum", "mul", "ave", "concat", None}}; the sandbox has no None. '
                             f"Received: {merge_mode}")
        if backward_layer is not None or weights is not None:
            raise NotImplementedError("backward_layer= and weights= are not in the sandbox's "
                                      "keras")
        super().__init__(layer, **kwargs)
        args = layer._copy_args()
        for key in ("input_shape", "batch_input_shape", "input_dim", "input_length"):
            args.pop(key, None)
        self.forward_layer = type(layer)(**{**args, "name": "forward_" + layer.name})
        self.backward_layer = type(layer)(**{**args, "name": "backward_" + layer.name,
                                             "go_backwards": not layer.go_backwards})
        self.merge_mode = merge_mode
        self.return_sequences = layer.return_sequences
        self.supports_masking = True

    @property
    def trainable_weights(self):
        if not self.trainable:
            return []
        return self.forward_layer.trainable_weights + self.backward_layer.trainable_weights

    @property
    def non_trainable_weights(self):
        if not self.trainable:
            return self.forward_layer.weights + self.backward_layer.weights
        return (self.forward_layer.non_trainable_weights +
                self.backward_layer.non_trainable_weights)

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    variables = weights

    @property
    def losses(self):
        return list(self._losses) + self.forward_layer.losses + self.backward_layer.losses

    @property
    def updates(self):
        return list(self._updates) + self.forward_layer.updates + self.backward_layer.updates

    def compute_output_shape(self, input_shape):
        shape = self.forward_layer.compute_output_shape(input_shape).as_list()
        if self.merge_mode == "concat":
            shape[-1] *= 2
        return TensorShape(shape)

    def compute_mask(self, inputs, mask=None):
        return mask if self.return_sequences else None

    def call(self, inputs, mask=None, training=None):
        y = self.forward_layer(inputs)
        y_rev = self.backward_layer(inputs)
        if self.return_sequences:
            y_rev = array_ops.reverse_v2(y_rev, [1])
        if self.merge_mode == "concat":
            return slicing_ops.concat([y, y_rev], -1)
        if self.merge_mode == "sum":
            return y + y_rev
        if self.merge_mode == "ave":
            return (y + y_rev) / 2
        return y * y_rev

    def get_config(self):
        return {**super().get_config(), "merge_mode": self.merge_mode}
