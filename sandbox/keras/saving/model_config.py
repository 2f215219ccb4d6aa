"""A model from its config or its JSON -- mirrors TensorFlow 1.15's
python/keras/saving/model_config.py (model_from_config, model_from_json, model_from_yaml).

    json_string = model.to_json()
    fresh = keras.models.model_from_json(json_string)    # same layers, new weights
    fresh = keras.models.model_from_yaml(model.to_yaml())    # the same, with PyYAML

YAML needs PyYAML, which TF 1.15 does not require either: without it both directions raise
TF's ImportError. The config's tuples are written as YAML's !!python/tuple, as TF wrote them;
they are read with PyYAML's FullLoader (plain data and tuples, never arbitrary objects).
"""
import json

try:
    import yaml
except ImportError:
    yaml = None

__all__ = ["model_from_config", "model_from_json", "model_from_yaml", "model_to_yaml"]


def model_from_config(config, custom_objects=None):
    """The model (or layer) of {'class_name': 'Sequential', 'config': {...}}."""
    if isinstance(config, list):
        raise TypeError("`model_from_config` expects a dictionary, not a list. Maybe you meant "
                        "to use `Sequential.from_config(config)`?")
    from ..layers.serialization import deserialize
    return deserialize(config, custom_objects=custom_objects)


def model_from_json(json_string, custom_objects=None):
    """The model that model.to_json() described."""
    return model_from_config(json.loads(json_string), custom_objects=custom_objects)


def _need_yaml():
    if yaml is None:
        raise ImportError("Requires yaml module installed (`pip install pyyaml`).")


def model_to_yaml(config, **kwargs):
    """The YAML of a model's config (Model.to_yaml); `kwargs` go to yaml.dump."""
    _need_yaml()
    return yaml.dump(config, **kwargs)


def model_from_yaml(yaml_string, custom_objects=None):
    """The model that model.to_yaml() described."""
    _need_yaml()
    return model_from_config(yaml.load(yaml_string, Loader=yaml.FullLoader),
                             custom_objects=custom_objects)
