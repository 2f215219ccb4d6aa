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


def print_summary(model, line_length=None, positions=None, print_fn=None):
    """The table of TF 1.15's model.summary(): layer (type), output shape, param #, then the
    totals. (One-input, one-output chains only: no 'Connected to' column.)"""
    print_fn = print_fn or print
    line_length = line_length or 65
    positions = positions or [0.45, 0.85, 1.0]
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
    row(["Layer (type)", "Output Shape", "Param #"])
    print_fn("=" * line_length)
    layers = model.layers
    for i, layer in enumerate(layers):
        row([f"{layer.name} ({type(layer).__name__})", _shape_text(layer),
             layer.count_params()])
        print_fn("=" * line_length if i == len(layers) - 1 else "_" * line_length)
    trainable = int(sum(np.prod(w.get_shape().as_list()) for w in model.trainable_weights))
    total = model.count_params()
    print_fn(f"Total params: {total:,}")
    print_fn(f"Trainable params: {trainable:,}")
    print_fn(f"Non-trainable params: {total - trainable:,}")
    print_fn("_" * line_length)
