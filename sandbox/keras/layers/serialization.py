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


def _layer_classes():
    from .. import layers
    from ..engine.sequential import Sequential
    from ..engine.training import Model
    found = {name: value for name, value in vars(layers).items()
             if inspect.isclass(value) and hasattr(value, "get_config")}
    found.update(Sequential=Sequential, Model=Model, Functional=Model)   # TF 2's name
    return found


def deserialize(config, custom_objects=None):
    """The layer (or model) of {'class_name', 'config'}."""
    return deserialize_keras_object(config, module_objects=_layer_classes(),
                                    custom_objects=custom_objects,
                                    printable_module_name="layer")
