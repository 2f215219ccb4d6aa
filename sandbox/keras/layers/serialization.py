"""Layers from their saved configs -- mirrors TensorFlow 1.15's
python/keras/layers/serialization.py.

    serialize(Dense(3))   ->  {'class_name': 'Dense', 'config': {'name': 'dense', 'units': 3, ...}}
    deserialize(that)     ->  a new Dense(units=3, ...)

The class name is looked up in custom_objects first, then among keras.layers' classes and
the models (Sequential, Model -- 'Functional' in files TF 2 wrote): an unknown one is TF's
ValueError "Unknown layer: Foo".
"""
import inspect

from ..serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["serialize", "deserialize"]


def serialize(layer):
    return serialize_keras_object(layer)


_LAYER_CLASSES = {}     # class name -> class: keras.layers' classes and the models


def register(layers_module, **models):
    """Makes the classes of `layers_module` (keras.layers) and `models` (Sequential, Model ...)
    known to deserialize by name. sandbox/keras/__init__.py calls it once everything is
    loaded, so that this module need not import the layers and models it rebuilds."""
    _LAYER_CLASSES.update({name: value for name, value in vars(layers_module).items()
                           if inspect.isclass(value) and hasattr(value, "get_config")})
    _LAYER_CLASSES.update(models)


def deserialize(config, custom_objects=None):
    """The layer (or model) of {'class_name', 'config'}."""
    return deserialize_keras_object(config, module_objects=dict(_LAYER_CLASSES),
                                    custom_objects=custom_objects,
                                    printable_module_name="layer")
