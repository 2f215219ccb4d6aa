"""keras.Sequential -- mirrors TensorFlow 1.15's python/keras/engine/sequential.py.

A Model that is a stack of layers, each called on the output of the one before:

    model = keras.Sequential([
        keras.layers.Dense(64, activation='relu', input_shape=(784,)),
        keras.layers.Dropout(0.2),
        keras.layers.Dense(10, activation='softmax')])

When the first layer knows its input shape (input_shape=, batch_input_shape=, or an
InputLayer first), the model is built as the layers are added: its input is the placeholder
'dense_input' (first layer's name + '_input') and every add() calls the new layer at once.
Otherwise it is built by the first fit / evaluate / predict, from the data's shape.
`model.layers` leaves the InputLayer out, as Keras does.

Its config is {'name': ..., 'layers': [each layer's {'class_name', 'config'}]}, the first with
the batch_input_shape of the model's input; from_config adds the layers again in order.
"""
from ...framework import dtypes as _dtypes
from .base_layer import InputLayer, Layer
from .training import Model

__all__ = ["Sequential"]


class Sequential(Model):
    """Sequential(layers=None, name=None)."""

    def __init__(self, layers=None, name=None):
        super().__init__(name=name)
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        return [layer for layer in self._layers if not isinstance(layer, InputLayer)]

    def add(self, layer):
        """Adds a layer on top of the stack (and calls it, when the model is built)."""
        if not isinstance(layer, Layer):
            raise TypeError("The added layer must be an instance of class Layer. Found: "
                            + str(layer))
        if isinstance(layer, Model):
            raise NotImplementedError("a model inside a Sequential is not in the sandbox's "
                                      "keras")
        if any(layer is existing for existing in self._layers):
            raise ValueError(f"The layer {layer.name} is already in this model")
        with self._graph.as_default():
            if not self._layers:
                if isinstance(layer, InputLayer):
                    self._layers.append(layer)
                    self.inputs, self.outputs = [layer.output], [layer.output]
                    self.built = True
                    return
                if layer._batch_input_shape is not None:
                    self._start(layer._batch_input_shape, layer.dtype, layer.name + "_input")
            if self.built:
                output = layer(self.outputs[0])
                if isinstance(output, (list, tuple)):
                    raise TypeError("All layers in a Sequential model should have a single "
                                    "output tensor.")
                self.outputs = [output]
            self._layers.append(layer)
            self._graph_compiled = False
            self._train_op = None

    def get_config(self):
        from ..layers.serialization import serialize
        layer_configs = [serialize(layer) for layer in self.layers]
        if (self.built and layer_configs and "batch_input_shape" not in
                layer_configs[0]["config"] and isinstance(self._layers[0], InputLayer)):
            layer_configs[0]["config"]["batch_input_shape"] = self._layers[0]._batch_input_shape
        return {"name": self.name, "layers": layer_configs}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new Sequential of the layers in `config` (a dict, or the list of layer configs
        that older Keras wrote)."""
        from ..layers.serialization import deserialize
        if isinstance(config, dict):
            name, layer_configs = config.get("name"), config["layers"]
        else:
            name, layer_configs = None, config
        model = cls(name=name)
        for layer_config in layer_configs:
            model.add(deserialize(layer_config, custom_objects=custom_objects))
        if not model.built and isinstance(config, dict) and config.get("build_input_shape"):
            model.build(config["build_input_shape"])
        return model

    def _start(self, batch_input_shape, dtype, name):
        dtype = dtype or _dtypes.float32
        first = InputLayer(batch_input_shape=batch_input_shape, dtype=dtype, name=name)
        self._layers.insert(0, first)
        self.inputs = self.outputs = [first.output]
        self.built = True

    def _build_from_data(self, x):
        self.build((None,) + tuple(x.shape[1:]))

    def build(self, input_shape=None):
        """Builds the model for inputs of shape `input_shape` (batch axis first)."""
        if self.built:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if not self._layers:
            raise ValueError("You cannot build an empty Sequential model (add layers first).")
        layers = list(self._layers)
        with self._graph.as_default():
            self._layers = []
            self._start(tuple(input_shape), _dtypes.float32, layers[0].name + "_input")
            for layer in layers:
                self.outputs = [layer(self.outputs[0])]
                self._layers.append(layer)

    def pop(self):
        """Removes the last layer (its ops stay in the graph; the output is the previous
        layer's)."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        self._layers.pop()
        if self.built:
            self.outputs = [self._layers[-1].output] if self._layers else []
        self._graph_compiled = False
        self._train_op = None

    def predict_proba(self, x, batch_size=32, verbose=0):
        """predict(x): the class probabilities (TF 1.15 warns when they are not in [0, 1])."""
        preds = self.predict(x, batch_size, verbose)
        if preds.min() < 0.0 or preds.max() > 1.0:
            print("WARNING: Network returning invalid probability values. The last layer "
                  "might not normalize predictions into probabilities (like softmax or "
                  "sigmoid would).")
        return preds

    def predict_classes(self, x, batch_size=32, verbose=0):
        """The predicted class of each example: the argmax of a softmax output, or 0/1 for a
        single sigmoid unit (probability > 0.5)."""
        proba = self.predict(x, batch_size=batch_size, verbose=verbose)
        if proba.shape[-1] > 1:
            return proba.argmax(axis=-1)
        return (proba > 0.5).astype("int32")
