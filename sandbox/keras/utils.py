"""keras.utils -- mirrors TensorFlow 1.15's python/keras/utils/np_utils.py (to_categorical,
normalize) and layer_utils.py (print_summary, the table model.summary() prints)."""
import numpy as np

__all__ = ["to_categorical", "normalize", "print_summary"]


def to_categorical(y, num_classes=None, dtype="float32"):
    """Class labels (ints) -> one-hot rows: to_categorical([0, 2], 3) -> [[1,0,0],[0,0,1]]."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    l2 = np.atleast_1d(np.linalg.norm(x, order, axis))
    l2[l2 == 0] = 1
    return x / np.expand_dims(l2, axis)


def _shape_text(layer):
    try:
        shape = tuple(layer.output.get_shape().as_list())
    except AttributeError:
        return "multiple"
    return f"[{shape}]" if type(layer).__name__ == "InputLayer" else str(shape)


def _inbound_names(model, layer):
    """'dense[0][0]' for each tensor the layer was called on inside the model (TF's
    "Connected to": the calling layer, the call's index, the tensor's index)."""
    members = set(id(m) for m in model.layers)
    names = []
    for inputs, _ in layer._inbound:
        if inputs is None or inputs is _:
            continue
        for tensor in inputs if isinstance(inputs, (list, tuple)) else [inputs]:
            for other in model.layers:
                calls = [out for _inp, out in other._inbound]
                if id(other) in members and any(out is tensor for out in calls):
                    index = next(i for i, out in enumerate(calls) if out is tensor)
                    names.append(f"{other.name}[{index}][0]")
    return names


def _sequential_like(model):
    """A chain: each layer called once, on the previous layer's output (TF's test)."""
    if type(model).__name__ == "Sequential":
        return True
    layers = model.layers
    for previous, layer in zip(layers, layers[1:]):
        if len(layer._inbound) != 1 or isinstance(layer._inbound[0][0], (list, tuple)):
            return False
        if layer._inbound[0][0] is not previous._inbound[-1][1]:
            return False
    return len(model.inputs) == 1 and len(model.outputs) == 1


def print_summary(model, line_length=None, positions=None, print_fn=None):
    """The table of TF 1.15's model.summary(): layer (type), output shape, param #, then the
    totals; a model that is not a chain (several inputs, merge layers) gets TF's fourth
    column, "Connected to"."""
    print_fn = print_fn or print
    chain = _sequential_like(model)
    if chain:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
    else:
        line_length = line_length or 98
        positions = positions or [0.33, 0.55, 0.67, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def row(fields):
        line = ""
        for i, field in enumerate(fields):
            if i > 0:
                line = line[:-1] + " "
            line += str(field)
            line = line[:positions[i]]
            line += " " * (positions[i] - len(line))
        print_fn(line)

    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    row(header)
    print_fn("=" * line_length)
    layers = model.layers
    for i, layer in enumerate(layers):
        fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(layer),
                  layer.count_params()]
        if chain:
            row(fields)
        else:
            connections = _inbound_names(model, layer)
            row(fields + [connections[0] if connections else ""])
            for extra in connections[1:]:
                row(["", "", "", extra])
        print_fn("=" * line_length if i == len(layers) - 1 else "_" * line_length)
    trainable = int(sum(np.prod(w.get_shape().as_list()) for w in model.trainable_weights))
    total = model.count_params()
    print_fn(f"Total params: {total:,}")
    print_fn(f"Trainable params: {trainable:,}")
    print_fn(f"Non-trainable params: {total - trainable:,}")
    print_fn("_" * line_length)
