"""tf.Module -- mirrors TensorFlow's python/module/module.py: a base class for a named piece of
a model that finds its variables by itself.

    class Dense(tf.Module):
        def __init__(self, in_features, out_features, name=None):
            super().__init__(name=name)
            with self.name_scope:                      # 'dense/'
                self.w = tf.Variable(tf.random_normal([in_features, out_features]), name='w')
                self.b = tf.Variable(tf.zeros([out_features]), name='b')

        @tf.Module.with_name_scope
        def __call__(self, x):
            return tf.nn.relu(tf.matmul(x, self.w) + self.b)

    class MLP(tf.Module):
        def __init__(self):
            super().__init__()
            self.layers = [Dense(784, 100), Dense(100, 10)]

    MLP().trainable_variables      # the four variables, found in the attributes

`variables`, `trainable_variables` and `submodules` walk the module's attributes -- by name,
in sorted order, into lists, tuples, dicts and other modules -- as TF's do; each object once.
The name scope is taken when the module is made (a second module of one name gets
'dense_1/'), and `name_scope` re-enters it.
"""
import re

from ..framework.graph import get_default_graph
from .variables import Variable

__all__ = ["Module"]

_VALID_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def _snake(name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", name).lower()


class Module:
    """A named container of variables and other modules (see the module's docstring)."""

    def __init__(self, name=None):
        if name is None:
            name = _snake(type(self).__name__)
        elif not _VALID_NAME.match(name):
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name
        with get_default_graph().name_scope(name) as scope:
            self._scope_name = scope                   # 'dense/', 'dense_1/' ...

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        """The module's name scope, entered again: `with self.name_scope:`."""
        return get_default_graph().name_scope(self._scope_name)

    @property
    def variables(self):
        return tuple(self._flatten(lambda x: isinstance(x, Variable)))

    @property
    def trainable_variables(self):
        return tuple(self._flatten(lambda x: isinstance(x, Variable) and x.trainable))

    @property
    def submodules(self):
        return tuple(self._flatten(lambda x: isinstance(x, Module)))

    def _flatten(self, predicate, recursive=True):
        """The objects in this module's attributes (and, recursively, in its modules') for
        which predicate(x) holds: attributes in sorted order, each object once."""
        found, seen = [], {id(self)}

        def visit(value, depth):
            if isinstance(value, dict):
                for key in sorted(value, key=str):
                    visit(value[key], depth)
                return
            if isinstance(value, (list, tuple)):
                for item in value:
                    visit(item, depth)
                return
            if id(value) in seen:
                return
            seen.add(id(value))
            if predicate(value):
                found.append(value)
            if recursive and isinstance(value, Module):
                queue.append(value)

        queue = [self]
        while queue:
            module = queue.pop(0)                       # breadth first, as TF walks
            for key in sorted(vars(module)):
                if key not in ("_name", "_scope_name"):
                    visit(vars(module)[key], 0)
        return found

    def _checkpoint_dependencies(self):
        """What tf.train.Checkpoint saves of it: its attributes, by name, in the order set."""
        return [(key, value) for key, value in vars(self).items()
                if key not in ("_name", "_scope_name")]

    @classmethod
    def with_name_scope(cls, method):
        """A method decorator: the method's ops are built in the module's name scope."""
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        wrapped.__name__, wrapped.__doc__ = method.__name__, method.__doc__
        wrapped.__wrapped__ = method
        return wrapped

    def __repr__(self):
        return f"<{type(self).__name__} {self._name!r}>"
