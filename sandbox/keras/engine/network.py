"""The functional API's graph of layers -- mirrors the topology part of TensorFlow 1.15's
python/keras/engine/network.py (_init_graph_network, _map_graph_network).

`keras.Model(inputs, outputs)` walks back from each output tensor through the layer that made
it (each Keras layer call records (output, layer, its input or list of inputs)) until it
reaches the model's inputs:

    a, b = keras.Input(shape=(3,), name='a'), keras.Input(shape=(2,), name='b')
    merged = keras.layers.concatenate([keras.layers.Dense(4)(a), keras.layers.Dense(4)(b)])
    model = keras.Model([a, b], [keras.layers.Dense(1, name='out1')(merged), ...])
    model.layers   # [a, b, dense, dense_1, concatenate, out1, ...]

The layers come out as TF orders them: by depth (the longest path to an output), deepest
first -- so the InputLayers lead -- and in the order the walk found them within one depth.
An output that needs a tensor which is not among the inputs is "Graph disconnected", with
TF's message.
"""
from .. import backend as K
from .base_layer import InputLayer

__all__ = ["map_graph_network"]


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def map_graph_network(graph, inputs, outputs):
    """The layers between `inputs` and `outputs` (lists of tensors), in TF's order."""
    history = K._state(graph)["history"]
    for tensor in inputs:
        if id(tensor) not in history or not isinstance(history[id(tensor)][1], InputLayer):
            raise ValueError("Input tensors to a Model must come from `tf.keras.Input`. "
                             f"Received: {tensor} (missing previous layer metadata).")
    order, depth, reached = [], {}, set()
    accessed = []

    def visit(tensor, level):
        if id(tensor) not in history:
            raise ValueError("Output tensors to a Model must be the output of a Keras "
                             f"`Layer` (thus holding past layer metadata). Found: {tensor}")
        _, layer, layer_inputs = history[id(tensor)]
        if id(layer) not in depth:
            order.append(layer)
        depth[id(layer)] = max(depth.get(id(layer), -1), level)
        if any(tensor is i for i in inputs):
            reached.add(id(tensor))
            return
        if isinstance(layer, InputLayer) or layer_inputs is None:
            where = accessed[-1].name if accessed else layer.name
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor} at "
                             f'layer "{where}". The following previous layers were accessed '
                             f"without issue: {[a.name for a in accessed[:-1]]}")
        accessed.append(layer)
        for inp in _as_list(layer_inputs):
            visit(inp, level + 1)
        accessed.pop()

    for tensor in outputs:
        visit(tensor, 0)
    for tensor in inputs:
        if id(tensor) not in reached:
            raise ValueError(f"Graph disconnected: cannot obtain value for tensor {tensor}: "
                             "the outputs do not depend on this input")
    # deepest first; the model's inputs in the order given, before any other layer
    rank = {id(history[id(t)][1]): i for i, t in enumerate(inputs)}
    top = max(depth.values()) + 1
    for key in rank:
        depth[key] = top
    found = {id(layer): i for i, layer in enumerate(order)}
    return sorted(order, key=lambda layer: (-depth[id(layer)], rank.get(id(layer), 0),
                                            found[id(layer)]))
