"""A model from its config or its JSON -- mirrors TensorFlow 1.15's
python/keras/saving/model_config.py (model_from_config, model_from_json).

    json_string = model.to_json()
    fresh = keras.models.model_from_json(json_string)    # same layers, new weights
"""
import json

__all__ = ["model_from_config", "model_from_json"]


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
