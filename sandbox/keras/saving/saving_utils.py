"""What a saved model says about itself -- mirrors TensorFlow 1.15's
python/keras/saving/saving_utils.py (model_metadata, compile_args_from_training_config) and
the JSON helpers of network.py (to_json) and utils/generic_utils.py (get_json_type).

    model_metadata(model)  ->  {'keras_version': '2.2.4-tf', 'backend': 'tensorflow',
                                'model_config': {'class_name': 'Sequential', 'config': ...},
                                'training_config': {'loss': 'mse', 'metrics': ['mae'],
                                                    'optimizer_config': {...}, ...}}

The training config (a compiled model's) is what compile was given, so load_model can call
compile again with it; a tf.train optimizer (TFOptimizer) cannot be saved that way, and TF
leaves the training config out then, with a warning.
"""
import json
import logging

import numpy as np

from .. import losses, optimizers
from ..serialization import serialize_keras_object

_log = logging.getLogger("sandbox.keras")      # TF logs these as warnings

__all__ = ["KERAS_VERSION", "model_metadata", "compile_args_from_training_config",
           "model_to_json", "get_json_type"]

KERAS_VERSION = "2.2.4-tf"        # tf.keras.__version__ in TF 1.15
BACKEND = "tensorflow"


def get_json_type(obj):
    """json.dumps' `default`: numpy numbers and arrays, dtypes, shapes, Keras objects."""
    if hasattr(obj, "get_config"):
        return serialize_keras_object(obj)
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    if hasattr(obj, "as_list"):                      # TensorShape
        return obj.as_list()
    if hasattr(obj, "is_floating") and hasattr(obj, "name"):       # DType
        return obj.name
    if callable(obj) and hasattr(obj, "__name__"):
        return obj.__name__
    raise TypeError(f"Not JSON Serializable: {obj}")


def _model_config(model):
    return {"class_name": type(model).__name__, "config": model.get_config()}


def model_to_json(model, **kwargs):
    return json.dumps(model_config_for_file(model), default=get_json_type, **kwargs)


def model_config_for_file(model):
    """{'class_name', 'config', 'keras_version', 'backend'}: what to_json and to_yaml write."""
    return dict(_model_config(model), keras_version=KERAS_VERSION, backend=BACKEND)


def _by_name(spec):
    """A loss or metric as the training config keeps it: a function by its name, an object
    (keras.metrics.AUC() ...) as {'class_name', 'config'}, as TF 1.15's get_json_type."""
    if spec is None or isinstance(spec, (str, int, float)):
        return spec
    if hasattr(spec, "get_config") and not isinstance(spec, type):
        return serialize_keras_object(spec)
    if isinstance(spec, dict):
        return {key: _by_name(value) for key, value in spec.items()}
    if isinstance(spec, (list, tuple)):
        return [_by_name(value) for value in spec]
    return getattr(spec, "__name__", None) or getattr(spec, "name", None) or str(spec)


def model_metadata(model, include_optimizer=True):
    """The model's config, and its training config when compiled with a Keras optimizer."""
    metadata = {"keras_version": KERAS_VERSION, "backend": BACKEND,
                "model_config": _model_config(model)}
    if model.optimizer is not None and include_optimizer:
        if isinstance(model.optimizer, optimizers.TFOptimizer):
            _log.warning("TensorFlow optimizers do not make it possible to access "
                          "optimizer attributes or optimizer state after instantiation. As "
                          "a result, we cannot save the optimizer as part of the model save "
                          "file. You will have to compile your model again after loading it. "
                          "Prefer using a Keras optimizer instead (see keras.io/optimizers).")
        else:
            metadata["training_config"] = {
                "loss": _by_name(model.loss),
                "metrics": _by_name(model._metric_specs),
                "weighted_metrics": None,
                "sample_weight_mode": None,
                "loss_weights": model.loss_weights,
                "optimizer_config": optimizers.serialize(model.optimizer)}
    return metadata


def compile_args_from_training_config(training_config, custom_objects=None):
    """compile's keyword arguments from a saved training config."""
    custom_objects = custom_objects or {}

    def resolve(spec):
        if isinstance(spec, str):
            return custom_objects.get(spec, spec)
        if isinstance(spec, list):
            return [resolve(value) for value in spec]
        if isinstance(spec, dict) and "class_name" not in spec:
            return {key: resolve(value) for key, value in spec.items()}
        return spec

    optimizer = optimizers.deserialize(training_config["optimizer_config"],
                                       custom_objects=custom_objects)
    loss = training_config["loss"]
    if isinstance(loss, dict) and "class_name" in loss:       # a Loss object, not a dict of
        loss = losses.deserialize(loss, custom_objects)       # one loss per output
    return {"optimizer": optimizer, "loss": resolve(loss),
            "metrics": resolve(training_config.get("metrics")),
            "loss_weights": training_config.get("loss_weights")}
