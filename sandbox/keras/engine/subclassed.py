"""The subclassed Model -- mirrors how TensorFlow 1.15's keras (engine/network.py and
training.py: `_set_inputs`, `_set_output_attrs`) runs a Model whose graph is Python code:

    class MyModel(keras.Model):
        def __init__(self):
            super().__init__()
            self.dense1 = keras.layers.Dense(64, activation='relu')
            self.dense2 = keras.layers.Dense(10, activation='softmax')

        def call(self, inputs, training=None):
            return self.dense2(self.dense1(inputs))

    model = MyModel()
    model.compile('adam', 'sparse_categorical_crossentropy', metrics=['accuracy'])
    model.fit(x, y)            # the first data builds it: a placeholder 'input_1' of x's
                               # shape, then call() on it -- in graph mode, once

  * Its layers are the Keras layers it holds in its attributes, in the order they were set
    (model.layers, summary(), the weights: engine/base_layer.py `_nested_layers`), and their
    variables live in the model's scope: 'my_model/dense/kernel:0'.
  * It is built by the first of: fit / evaluate / predict (a placeholder per input array,
    'input_1', ...), model.build(input_shape), or a call on a tensor -- a keras.Input or any
    tensor of the graph: the first call's inputs and outputs become model.inputs and
    model.outputs, as TF's __call__ sets them. Its outputs are named 'output_1', ...
  * Later calls build call() again on the new inputs, with the same weights.
  * It has no config: get_config, to_json and save() to HDF5 raise NotImplementedError, as
    in TF; save_weights / load_weights work: an HDF5 file of weights loads by the order of
    the layers, a checkpoint (TensorFlow's format) by the model's attributes
    (train/checkpoint.py), so into a second copy of the model too.
"""
from ...framework.graph import get_default_graph
from ...ops import variable_scope as vs
from .. import backend as K
from .base_layer import Input

__all__ = ["call_model", "build", "build_from_data"]


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def call_model(model, inputs, *args, **kwargs):
    """model(inputs): its call() built in the model's variable and name scope."""
    model._set_scope(None)
    graph = get_default_graph()
    with vs.variable_scope(model._scope, auxiliary_name_scope=False) as scope:
        model._current_scope = scope
        with graph.name_scope(model._name_scope()):
            outputs = model.call(inputs, *args, **kwargs)
    if outputs is None:
        raise ValueError(f"The `call` method of model {model.name} returned None: it must "
                         "return a tensor or a list of tensors.")
    model.built = True
    model._inbound.append((inputs, outputs))
    if not model.inputs:                        # the first call: the model's inputs/outputs
        model.inputs, model.outputs = _as_list(inputs), _as_list(outputs)
    for output in _as_list(outputs):
        K._state(output.graph)["history"][id(output)] = (output, model, inputs)
    return outputs


def build(model, input_shape):
    """model.build(input_shape): call() on a placeholder of that shape (a list of shapes:
    one placeholder each); summary() then says 'multiple' for the layers' shapes, as TF."""
    if model.inputs:
        return
    shapes = input_shape if isinstance(input_shape, list) and input_shape and \
        isinstance(input_shape[0], (list, tuple)) else [input_shape]
    if any(shape is None for shape in shapes):
        raise ValueError("You must provide an `input_shape` argument.")
    _call_on_placeholders(model, [tuple(shape) for shape in shapes], [None] * len(shapes))


def build_from_data(model, arrays):
    """The first fit / evaluate / predict: a placeholder per input array -- its shape with
    the batch axis unknown, floats as keras.backend.floatx() -- then call()."""
    _call_on_placeholders(
        model, [(None,) + tuple(array.shape[1:]) for array in arrays],
        [K.floatx() if array.dtype.kind == "f" else array.dtype.name for array in arrays])


def _call_on_placeholders(model, shapes, dtypes):
    with model._graph.as_default():
        tensors = [Input(batch_shape=shape, dtype=dtype) for shape, dtype in zip(shapes, dtypes)]
        call_model(model, tensors if len(tensors) > 1 else tensors[0])
    model._shapes_known = False
