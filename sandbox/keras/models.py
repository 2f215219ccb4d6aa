"""keras.models -- mirrors TensorFlow 1.15's python/keras/models.py: the model classes, and
saving and loading whole models.

    model.save('my_model.h5')                          # config + weights + optimizer state
    model = keras.models.load_model('my_model.h5')     # compiled again, ready to fit on
    json_string = model.to_json()
    fresh = keras.models.model_from_json(json_string)  # same layers, new weights
    fresh = keras.models.model_from_yaml(model.to_yaml())    # the same, with PyYAML
    twin = keras.models.clone_model(model)             # the same, from a model
"""
from .engine.sequential import Sequential
from .engine.training import Model
from .saving.model_config import model_from_config, model_from_json, model_from_yaml
from .saving.save import load_model, save_model

__all__ = ["Model", "Sequential", "save_model", "load_model", "model_from_config",
           "model_from_json", "model_from_yaml", "clone_model"]


def clone_model(model, input_tensors=None, clone_function=None):
    """A new model of the same layers (from their configs), with new weights."""
    if input_tensors is not None or clone_function is not None:
        raise NotImplementedError("clone_model's input_tensors and clone_function are not in "
                                  "the sandbox's keras")
    if not isinstance(model, Model):
        raise ValueError(f"Expected `model` argument to be a `Model` instance, got {model}")
    return type(model).from_config(model.get_config())
