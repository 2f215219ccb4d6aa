"""A Keras model in an HDF5 file -- mirrors TensorFlow 1.15's
python/keras/saving/hdf5_format.py, and writes the layout TF 1.15 writes (with h5py):

    /                      attrs keras_version '2.2.4-tf', backend 'tensorflow',
                           model_config (JSON), training_config (JSON, a compiled model's)
    /model_weights         attrs layer_names [b'dense', b'dense_1'], backend, keras_version
      /dense               attrs weight_names [b'dense/kernel:0', b'dense/bias:0']
        /dense/kernel:0    a dataset: the kernel's values ('dense/kernel:0' makes the
        /dense/bias:0      group 'dense' inside the group 'dense')
    /optimizer_weights     attrs weight_names; a dataset per optimizer weight
                           (include_optimizer=True, once the model has trained)

Weights are matched to the model's layers in order (layers without weights skipped), or by
layer name (load_weights(by_name=True)); within a layer, in the order of layer.weights
(trainable first). A list attribute longer than HDF5's 64 KB header limit is split into
'layer_names0', 'layer_names1' ... as in TF.
"""
import json
import os
import logging

import numpy as np

from .. import backend as K
from .model_config import model_from_config
from .saving_utils import (BACKEND, KERAS_VERSION, compile_args_from_training_config,
                           get_json_type, model_metadata)

_log = logging.getLogger("sandbox.keras")      # TF logs these as warnings

__all__ = ["save_model_to_hdf5", "load_model_from_hdf5", "save_weights_to_hdf5",
           "load_weights_from_hdf5", "save_weights_to_hdf5_group",
           "load_weights_from_hdf5_group", "load_weights_from_hdf5_group_by_name",
           "is_hdf5_filepath", "is_hdf5_file"]

HDF5_OBJECT_HEADER_LIMIT = 64512
_HDF5_EXTENSIONS = (".h5", ".keras", ".hdf5")


def _h5py():
    """h5py, imported on first use (a dependency; loading it costs `import sandbox` 20 ms)."""
    import h5py
    return h5py


def is_hdf5_filepath(filepath):
    return str(filepath).endswith(_HDF5_EXTENSIONS)


def is_hdf5_file(filepath):
    return os.path.isfile(str(filepath)) and _h5py().is_hdf5(str(filepath))


def ask_to_proceed_with_overwrite(filepath):
    """TF asks on the terminal before it writes over a file (overwrite=False)."""
    answer = input(f"[WARNING] {filepath} already exists - overwrite? [y/n]").strip().lower()
    while answer not in ("y", "n"):
        answer = input('Enter "y" (overwrite) or "n" (cancel).').strip().lower()
    if answer == "n":
        return False
    print("[TIP] Next time specify overwrite=True!")
    return True


def _may_write(filepath, overwrite):
    return overwrite or not os.path.isfile(filepath) or ask_to_proceed_with_overwrite(filepath)


def _text(value):
    return value.decode("utf8") if isinstance(value, bytes) else str(value)


# -- list attributes --------------------------------------------------------------------------

def save_attributes_to_hdf5_group(group, name, data):
    """group.attrs[name] = data (a list of bytes), in chunks when it is too big."""
    bad = [x for x in data if len(x) > HDF5_OBJECT_HEADER_LIMIT]
    if bad:
        raise RuntimeError("The following attributes cannot be saved to HDF5 file because "
                           f"they are larger than {HDF5_OBJECT_HEADER_LIMIT} bytes: {bad}")
    data_npy = np.asarray(data)
    chunks = 1
    chunked = np.array_split(data_npy, chunks)
    while any(x.nbytes > HDF5_OBJECT_HEADER_LIMIT for x in chunked):
        chunks += 1
        chunked = np.array_split(data_npy, chunks)
    if chunks > 1:
        for index, chunk in enumerate(chunked):
            group.attrs[f"{name}{index}"] = chunk
    else:
        group.attrs[name] = data


def load_attributes_from_hdf5_group(group, name):
    """The list save_attributes_to_hdf5_group wrote, as str."""
    if name in group.attrs:
        return [_text(n) for n in group.attrs[name]]
    data, index = [], 0
    while f"{name}{index}" in group.attrs:
        data.extend(_text(n) for n in group.attrs[f"{name}{index}"])
        index += 1
    return data


# -- weights ---------------------------------------------------------------------------------

def _layer_weights(layer):
    return list(layer.trainable_weights) + list(layer.non_trainable_weights)


def save_weights_to_hdf5_group(f, layers):
    """One group per layer (by name), one dataset per weight (by variable name)."""
    save_attributes_to_hdf5_group(f, "layer_names", [l.name.encode("utf8") for l in layers])
    f.attrs["backend"] = BACKEND.encode("utf8")
    f.attrs["keras_version"] = KERAS_VERSION.encode("utf8")
    for layer in layers:
        g = f.create_group(layer.name)
        weights = _layer_weights(layer)
        values = K.batch_get_value(weights)
        _write_weights(g, weights, values)


def _write_weights(group, weights, values):
    """attrs weight_names, and a dataset per weight named by its variable name."""
    names = [w.name.encode("utf8") for w in weights]
    save_attributes_to_hdf5_group(group, "weight_names", names)
    for name, value in zip(names, values):
        dataset = group.create_dataset(name, value.shape, dtype=value.dtype)
        if not value.shape:
            dataset[()] = value
        else:
            dataset[:] = value


def _saved_layers(f):
    """[(layer name, [weight values])] of the file's layers that have weights."""
    found = []
    for name in load_attributes_from_hdf5_group(f, "layer_names"):
        g = f[name]
        weight_names = load_attributes_from_hdf5_group(g, "weight_names")
        found.append((name, [np.asarray(g[w]) for w in weight_names]))
    return found


def load_weights_from_hdf5_group(f, layers):
    """The file's weights into `layers`, layer by layer in order (layers without weights
    left out on both sides)."""
    filtered_layers = [layer for layer in layers if layer.weights]
    saved = [(name, values) for name, values in _saved_layers(f) if values]
    if len(saved) != len(filtered_layers):
        raise ValueError(f"You are trying to load a weight file containing {len(saved)} layers "
                         f"into a model with {len(filtered_layers)} layers.")
    pairs = []
    for k, ((name, values), layer) in enumerate(zip(saved, filtered_layers)):
        symbolic = _layer_weights(layer)
        if len(values) != len(symbolic):
            raise ValueError(f'Layer #{k} (named "{layer.name}" in the current model) was '
                             f"found to correspond to layer {name} in the save file. However "
                             f"the new layer {layer.name} expects {len(symbolic)} weights, but "
                             f"the saved weights have {len(values)} elements.")
        pairs += _checked(k, layer, symbolic, values)
    K.batch_set_value(pairs)


def _checked(k, layer, symbolic, values):
    for weight, value in zip(symbolic, values):
        shape = tuple(weight.get_shape().as_list())
        if shape != value.shape:
            raise ValueError(f'Layer #{k} (named "{layer.name}"), weight {weight} has shape '
                             f"{shape}, but the saved weight has shape {value.shape}.")
    return list(zip(symbolic, values))


def load_weights_from_hdf5_group_by_name(f, layers):
    """The file's weights into the layers of the same names (others untouched)."""
    index = {}
    for layer in layers:
        index.setdefault(layer.name, []).append(layer)
    pairs = []
    for k, (name, values) in enumerate(_saved_layers(f)):
        for layer in index.get(name, []):
            symbolic = _layer_weights(layer)
            if len(values) != len(symbolic):
                raise ValueError(f'Layer #{k} (named "{layer.name}") expects {len(symbolic)} '
                                 f"weight(s), but the saved weights have {len(values)} "
                                 "element(s).")
            pairs += _checked(k, layer, symbolic, values)
    K.batch_set_value(pairs)


def save_weights_to_hdf5(model, filepath, overwrite=True):
    """model.save_weights('w.h5'): the model_weights layout, at the file's root."""
    h5py = _h5py()
    if not _may_write(filepath, overwrite):
        return
    with h5py.File(filepath, "w") as f:
        save_weights_to_hdf5_group(f, model.layers)


def load_weights_from_hdf5(model, filepath, by_name=False):
    """model.load_weights('w.h5'): from a weights file or a whole saved model."""
    h5py = _h5py()
    with h5py.File(filepath, "r") as f:
        if "layer_names" not in f.attrs and "model_weights" in f:
            f = f["model_weights"]
        if by_name:
            load_weights_from_hdf5_group_by_name(f, model.layers)
        else:
            load_weights_from_hdf5_group(f, model.layers)


# -- whole models ------------------------------------------------------------------------------

def save_model_to_hdf5(model, filepath, overwrite=True, include_optimizer=True):
    """The model's config, weights and (include_optimizer) training config and optimizer
    state, to `filepath` (a path or an open h5py.File)."""
    h5py = _h5py()
    opened = not isinstance(filepath, h5py.File)
    if opened:
        if not _may_write(filepath, overwrite):
            return
        f = h5py.File(filepath, mode="w")
    else:
        f = filepath
    try:
        metadata = model_metadata(model, include_optimizer)
        for key, value in metadata.items():
            if isinstance(value, dict):
                value = json.dumps(value, default=get_json_type)
            f.attrs[key] = value.encode("utf8")
        save_weights_to_hdf5_group(f.create_group("model_weights"), model.layers)
        if include_optimizer and "training_config" in metadata:
            weights = model.optimizer.weights
            if weights:
                _write_weights(f.create_group("optimizer_weights"), weights,
                               K.batch_get_value(weights))
        f.flush()
    finally:
        if opened:
            f.close()


def load_model_from_hdf5(filepath, custom_objects=None, compile=True):  # noqa: A002 (TF's)
    """The model save_model_to_hdf5 wrote: built from its config, its weights set, and
    (compile) compiled again with its training config and optimizer state."""
    h5py = _h5py()
    custom_objects = custom_objects or {}
    opened = not isinstance(filepath, h5py.File)
    f = h5py.File(filepath, mode="r") if opened else filepath
    try:
        model_config = f.attrs.get("model_config")
        if model_config is None:
            raise ValueError("No model found in config file.")
        model = model_from_config(json.loads(_text(model_config)),
                                  custom_objects=custom_objects)
        load_weights_from_hdf5_group(f["model_weights"], model.layers)
        if compile:
            training_config = f.attrs.get("training_config")
            if training_config is None:
                _log.warning("No training configuration found in save file: the model was "
                              "*not* compiled. Compile it manually.")
                return model
            model.compile(**compile_args_from_training_config(
                json.loads(_text(training_config)), custom_objects))
            if "optimizer_weights" in f:
                model._make_train_function()
                group = f["optimizer_weights"]
                values = [np.asarray(group[name]) for name in
                          load_attributes_from_hdf5_group(group, "weight_names")]
                try:
                    model.optimizer.set_weights(values)
                except ValueError:
                    _log.warning("Error in loading the saved optimizer state. As a result, "
                                  "your model is starting with a freshly initialized "
                                  "optimizer.")
    finally:
        if opened:
            f.close()
    return model
