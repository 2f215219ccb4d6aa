"""What the facade loads on first use -- mirrors TF 1.x's LazyLoader (python/util/
lazy_loader.py), by which `import tensorflow` leaves tf.contrib unloaded until a program
touches it.

`import sandbox` starts every task of a cluster, so what it loads is paid once per process:
tf.contrib, tf.keras and tf.estimator (about 0.2 s together) and the protocol buffers
(tf.Summary, tf.GraphDef ...: framework/protos.py) are imported the first time a program
names them. The facade takes this module's `__getattr__` as its own (PEP 562):

    import sandbox as tf
    tf.contrib.slim            # the facade has no `contrib` yet: __getattr__ imports it
"""
import importlib

from .framework import protos

__all__ = []

_MODULES = {"contrib": "sandbox.contrib", "keras": "sandbox.keras",
            "estimator": "sandbox.estimator"}


def __getattr__(name):
    module = _MODULES.get(name)
    if module is not None:
        return importlib.import_module(module)   # sets it on the package: asked once
    return protos.__getattr__(name)              # a protobuf class, or AttributeError
