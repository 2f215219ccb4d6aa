"""Keras objects as JSON-able dicts and back -- mirrors TensorFlow 1.15's
python/keras/utils/generic_utils.py (serialize_keras_object, deserialize_keras_object,
and the custom objects: get_custom_objects, CustomObjectScope).

A layer, an initializer, a regularizer or an optimizer is saved as its class name and the
arguments that make it again:

    serialize_keras_object(Dense(3))  ->  {'class_name': 'Dense', 'config': {'units': 3, ...}}
    deserialize_keras_object(that, module_objects={'Dense': Dense, ...})  ->  Dense(units=3, ...)

A function (an activation, a loss) is saved as its name. Names are looked up first in
`custom_objects` (the user's own classes and functions), then in the module's table; an
unknown name is TF's ValueError "Unknown layer: Foo", which says to pass custom_objects.
A Lambda layer's Python function is saved as its bytecode (func_dump / func_load).
Files that TF 2.x wrote add 'module' and 'registered_name' keys: they are ignored here.
"""
import codecs
import inspect
import marshal
import types

__all__ = ["serialize_keras_object", "deserialize_keras_object", "accepted_arguments",
           "func_dump", "func_load", "get_custom_objects", "CustomObjectScope",
           "custom_object_scope"]

_GLOBAL_CUSTOM_OBJECTS = {}


def get_custom_objects():
    """The global dict of custom objects by name: get_custom_objects()['MyLayer'] = MyLayer
    makes load_model find MyLayer without custom_objects=."""
    return _GLOBAL_CUSTOM_OBJECTS


class CustomObjectScope:
    """`with CustomObjectScope({'MyLayer': MyLayer}):` -- the names are in
    get_custom_objects() inside the block; the dict is restored when the block ends."""

    def __init__(self, *args):
        self.custom_objects = args
        self.backup = None

    def __enter__(self):
        self.backup = _GLOBAL_CUSTOM_OBJECTS.copy()
        for objects in self.custom_objects:
            _GLOBAL_CUSTOM_OBJECTS.update(objects)
        return self

    def __exit__(self, *args, **kwargs):
        _GLOBAL_CUSTOM_OBJECTS.clear()
        _GLOBAL_CUSTOM_OBJECTS.update(self.backup)


def custom_object_scope(*args):
    return CustomObjectScope(*args)


def serialize_keras_object(instance):
    """{'class_name', 'config'} of an object with get_config; a function's name; None."""
    if instance is None:
        return None
    if hasattr(instance, "get_config"):
        return {"class_name": type(instance).__name__, "config": instance.get_config()}
    if hasattr(instance, "__name__"):
        return instance.__name__
    raise ValueError(f"Cannot serialize {instance}: it has no get_config and no __name__")


def accepted_arguments(cls, config):
    """The entries of `config` that cls.__init__ takes (all of them if it takes **kwargs):
    files of other TF versions carry arguments the sandbox's classes do not have."""
    params = inspect.signature(cls.__init__).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return dict(config)
    return {k: v for k, v in config.items() if k in params}


def _unknown(printable_module_name, name):
    return ValueError(f"Unknown {printable_module_name}: {name}. Please ensure this object is "
                      "passed to the `custom_objects` argument (load_model(..., "
                      "custom_objects={'" + str(name) + "': " + str(name) + "})).")


def deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                             printable_module_name="object"):
    """The object that `identifier` ({'class_name', 'config'} or a name) describes."""
    module_objects = module_objects or {}
    # the names of get_custom_objects() (a CustomObjectScope's), then the caller's
    custom_objects = {**_GLOBAL_CUSTOM_OBJECTS, **(custom_objects or {})}
    if isinstance(identifier, dict):
        if "class_name" not in identifier or "config" not in identifier:
            raise ValueError(f"Improper config format: {identifier}")
        name = identifier["class_name"]
        cls = custom_objects.get(name, module_objects.get(name))
        if cls is None:
            raise _unknown(printable_module_name, name)
        config = identifier["config"]
        if hasattr(cls, "from_config"):
            takes_custom = "custom_objects" in inspect.signature(cls.from_config).parameters
            if takes_custom:
                return cls.from_config(config, custom_objects=custom_objects)
            return cls.from_config(config)
        return cls(**accepted_arguments(cls, config))
    if isinstance(identifier, str):
        found = custom_objects.get(identifier, module_objects.get(identifier))
        if found is None:
            raise _unknown(printable_module_name, identifier)
        return found() if inspect.isclass(found) else found
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")


# -- Python functions (Lambda layers) -------------------------------------------------------

def func_dump(func):
    """(code, defaults, closure) of a Python function: its bytecode, marshalled and base64
    encoded -- readable by the same Python version only, as in TF."""
    code = codecs.encode(marshal.dumps(func.__code__), "base64").decode("ascii")
    closure = (tuple(c.cell_contents for c in func.__closure__) if func.__closure__
               else None)
    return code, func.__defaults__, closure


def func_load(code, defaults=None, closure=None, globs=None):
    """The function that func_dump described (its globals are `globs`)."""
    if isinstance(code, (tuple, list)):
        code, defaults, closure = code
    if isinstance(defaults, list):
        defaults = tuple(defaults)

    def cell(value):
        return (lambda: value).__closure__[0]

    if closure is not None:
        closure = tuple(cell(value) for value in closure)
    raw = marshal.loads(codecs.decode(code.encode("ascii"), "base64"))
    return types.FunctionType(raw, globs if globs is not None else globals(),
                              name=raw.co_name, argdefs=defaults, closure=closure)
