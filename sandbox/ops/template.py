"""Templates: a function that shares its variables across calls -- mirrors TensorFlow 1.x's
python/ops/template.py (tf.make_template).

    def my_layer(x):
        w = tf.get_variable("w", [3, 3])
        return tf.matmul(x, w)

    layer = tf.make_template("my_layer", my_layer)
    y1 = layer(x1)       # creates my_layer/w
    y2 = layer(x2)       # uses the same my_layer/w

The first call runs the function inside a variable scope of its own (named after the
template, made unique as `my_layer_1` for a second template of the same name), where
tf.get_variable creates the variables; every later call re-enters that scope with reuse=True,
so the same tf.get_variable calls return the same variables -- and one that asks for a new
variable fails, as in TF. Each call gets its own name scope for its ops.
"""
import functools

from ..framework.graph import GraphKeys, get_collection
from .variable_scope import variable_scope

__all__ = ["make_template"]


class Template:
    """A function wrapped so that every call shares the variables of the first one."""

    def __init__(self, name, func, create_scope_now=False, unique_name=None,
                 custom_getter=None, create_graph_function=False):
        if create_graph_function:
            raise NotImplementedError("make_template(create_graph_function_=True) needs "
                                      "eager execution, which the sandbox does not have.")
        self._func = func
        self._name = name
        self._unique_name = unique_name
        self._custom_getter = custom_getter
        self._variable_scope = None
        self._variables_created = False
        if create_scope_now:
            with variable_scope(self._unique_name, self._name,
                                custom_getter=self._custom_getter) as vs:
                self._variable_scope = vs

    def __call__(self, *args, **kwargs):
        if self._variable_scope is None:
            with variable_scope(self._unique_name, self._name,
                                custom_getter=self._custom_getter) as vs:
                self._variable_scope = vs
                result = self._func(*args, **kwargs)
        else:
            reuse = True if self._variables_created else None
            with variable_scope(self._variable_scope, reuse=reuse):
                result = self._func(*args, **kwargs)
        self._variables_created = True
        return result

    @property
    def name(self):
        return self._name

    @property
    def func(self):
        return self._func

    @property
    def variable_scope(self):
        return self._variable_scope

    @property
    def variable_scope_name(self):
        """The scope's name with a trailing '/' (so it matches no longer name), as TF's."""
        if self._variable_scope is None:
            return None
        name = self._variable_scope.name
        return name if not name or name.endswith("/") else name + "/"

    def _scoped(self, key):
        if self._variable_scope is None:
            return []
        return get_collection(key, self.variable_scope_name)

    @property
    def variables(self):
        return self.global_variables + self.local_variables

    @property
    def global_variables(self):
        return self._scoped(GraphKeys.GLOBAL_VARIABLES)

    @property
    def trainable_variables(self):
        return self._scoped(GraphKeys.TRAINABLE_VARIABLES)

    @property
    def local_variables(self):
        return self._scoped(GraphKeys.LOCAL_VARIABLES)

    @property
    def non_trainable_variables(self):
        trainable = set(map(id, self.trainable_variables))
        return [v for v in self.global_variables if id(v) not in trainable]


def make_template(name_, func_, create_scope_now_=False, unique_name_=None,
                  custom_getter_=None, **kwargs):
    """A Template calling func_(*args, **kwargs, **call kwargs) that creates its variables
    on the first call and reuses them on every later one."""
    if kwargs:
        func_ = functools.partial(func_, **kwargs)
    return Template(name_, func_, create_scope_now=create_scope_now_,
                    unique_name=unique_name_, custom_getter=custom_getter_)
