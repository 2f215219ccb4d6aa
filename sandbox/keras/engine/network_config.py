"""A functional model as a config and back -- mirrors the get_config / from_config part of
TensorFlow 1.15's python/keras/engine/network.py (get_network_config, reconstruct_from_config).

A functional model's config lists its layers, deepest first (model.layers' order), each with
the calls that feed it ("inbound nodes"), and names the input and output tensors:

    {'name': 'model',
     'layers': [{'class_name': 'InputLayer', 'name': 'a', 'config': {...}, 'inbound_nodes': []},
                {'class_name': 'Dense', 'name': 'dense', 'config': {...},
                 'inbound_nodes': [[['a', 0, 0, {}]]]},                    # dense(a)
                {'class_name': 'Concatenate', ...,
                 'inbound_nodes': [[['dense', 0, 0, {}], ['b', 0, 0, {}]]]}, ...],
     'input_layers': [['a', 0, 0], ['b', 0, 0]],
     'output_layers': [['out', 0, 0]]}

A tensor is named by [layer name, node index, tensor index, call kwargs]: node k is the
layer's k-th call that belongs to this model (a shared layer has several), and a layer has
one output tensor here (tensor index 0). from_config makes each layer from its config and
calls it on the tensors its nodes name, deferring a call until those exist.
"""
from .. import backend as K
from .base_layer import InputLayer

__all__ = ["get_network_config", "reconstruct_from_config"]


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _network_tensors(model):
    """ids of the tensors between the model's inputs and outputs (the outputs of its nodes)."""
    history = K._state(model._graph)["history"]
    inputs = set(id(t) for t in model.inputs)
    found, todo = set(), list(model.outputs)
    while todo:
        tensor = todo.pop()
        if id(tensor) in found:
            continue
        found.add(id(tensor))
        _, _, layer_inputs = history[id(tensor)]
        if id(tensor) not in inputs and layer_inputs is not None:
            todo.extend(_as_list(layer_inputs))
    return found


def get_network_config(model, serialize_layer):
    """The config dict of a functional model (TF's layout, shown above)."""
    kept = _network_tensors(model)
    node_index = {}          # id(output tensor) -> (layer name, index among its kept nodes)
    for layer in model.layers:
        count = 0
        for _, out in layer._inbound:
            if id(out) in kept:
                node_index[id(out)] = (layer.name, count)
                count += 1

    def coordinates(tensor):
        name, index = node_index[id(tensor)]
        return [name, index, 0]

    layer_configs = []
    for layer in model.layers:
        nodes = []
        if not isinstance(layer, InputLayer):
            for inputs, out in layer._inbound:
                if id(out) in kept:
                    nodes.append([coordinates(t) + [{}] for t in _as_list(inputs)])
        layer_config = serialize_layer(layer)
        layer_config["name"] = layer.name
        layer_config["inbound_nodes"] = nodes
        layer_configs.append(layer_config)
    return {"name": model.name, "layers": layer_configs,
            "input_layers": [coordinates(t) for t in model.inputs],
            "output_layers": [coordinates(t) for t in model.outputs]}


def reconstruct_from_config(config, deserialize_layer):
    """(input tensors, output tensors) of the layers that `config` describes, made and
    called anew in the default graph."""
    created, pending = {}, []
    for layer_data in config["layers"]:
        layer = deserialize_layer(layer_data)
        created[layer_data["name"]] = layer
        pending.extend((layer, node) for node in layer_data.get("inbound_nodes", []))

    def tensor_of(name, index):
        if name not in created:
            raise ValueError(f"Unknown layer {name!r} in the model's config")
        calls = created[name]._inbound
        return calls[index][1] if index < len(calls) else None

    while pending:
        waiting = []
        for layer, node in pending:
            inputs = [tensor_of(entry[0], entry[1]) for entry in node]
            if any(t is None for t in inputs):
                waiting.append((layer, node))
                continue
            kwargs = node[0][3] if len(node[0]) > 3 and node[0][3] else {}
            layer(inputs[0] if len(inputs) == 1 else inputs, **kwargs)
        if len(waiting) == len(pending):
            raise ValueError("The model's config is disconnected: cannot call layers "
                             f"{[layer.name for layer, _ in waiting]}")
        pending = waiting
    inputs = [tensor_of(entry[0], entry[1]) for entry in config["input_layers"]]
    outputs = [tensor_of(entry[0], entry[1]) for entry in config["output_layers"]]
    return inputs, outputs
