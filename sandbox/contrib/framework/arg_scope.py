"""arg_scope: default keyword arguments for a set of functions -- mirrors TensorFlow 1.15's
contrib/framework/python/ops/arg_scope.py.

    with arg_scope([conv2d, fully_connected], weights_regularizer=l2_regularizer(1e-4)):
        net = conv2d(images, 32, [5, 5])          # gets weights_regularizer=...
        net = conv2d(net, 64, [5, 5], weights_regularizer=None)    # explicit kwargs win

Only functions decorated with @add_arg_scope look the defaults up (every layer of
tf.contrib.layers is); listing any other function is a ValueError. Scopes nest: an inner
scope starts from a copy of the outer defaults and adds (or overrides) its own. A scope is a
dict {function key: {argument: value}}; `with arg_scope(...) as sc` yields it, and
`with arg_scope(sc):` re-enters it later. The stack is a module-level list, as in TF, so it
is shared by every graph.
"""
import contextlib
import functools
import inspect

__all__ = ["arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope",
           "arg_scoped_arguments", "arg_scope_func_key"]

_ARGSTACK = [{}]          # one dict per open scope: {function key: {argument: value}}
_DECORATED_OPS = {}       # function key -> the names of its keyword arguments


def _get_arg_stack():
    if not _ARGSTACK:
        _ARGSTACK.append({})
    return _ARGSTACK


def current_arg_scope():
    """The innermost scope: {function key: {argument: value}}."""
    return _get_arg_stack()[-1]


def arg_scope_func_key(op):
    """The key a function is known by inside a scope."""
    return getattr(op, "_key_op", str(op))


def _name_op(op):
    return (op.__module__, op.__name__)


def _kwarg_names(func):
    """The names of the arguments of `func` that have defaults. (TF 1.15 slices
    func.__code__.co_varnames, which also holds the local variables' names, so for a function
    with locals its list can be off; this is the list it means.)"""
    params = inspect.signature(func).parameters.values()
    return tuple(p.name for p in params
                 if p.default is not inspect.Parameter.empty
                 or p.kind == inspect.Parameter.KEYWORD_ONLY)


@contextlib.contextmanager
def arg_scope(list_ops_or_scope, **kwargs):
    """`with arg_scope([f, g], arg=value):` -- see the module docstring."""
    if isinstance(list_ops_or_scope, dict):              # re-entering a saved scope
        if kwargs:
            raise ValueError("When attempting to re-use a scope by suppling a dictionary, "
                             "kwargs must be empty.")
        scope = list_ops_or_scope.copy()
    else:
        if not isinstance(list_ops_or_scope, (list, tuple)):
            raise TypeError("list_ops_or_scope must either be a list/tuple or reused scope "
                            "(i.e. dict)")
        scope = current_arg_scope().copy()               # start from the outer scope
        for op in list_ops_or_scope:
            if not has_arg_scope(op):
                # TF 1.15 passes the name as a second argument, so e.args has both.
                raise ValueError("%s is not decorated with @add_arg_scope", _name_op(op))
            key = arg_scope_func_key(op)
            merged = dict(scope.get(key, {}))
            merged.update(kwargs)
            scope[key] = merged
    _get_arg_stack().append(scope)
    try:
        yield scope
    finally:
        _get_arg_stack().pop()


def add_arg_scope(func):
    """Decorates `func` so that arg_scope defaults for it fill in arguments not given."""
    def func_with_args(*args, **kwargs):
        key = arg_scope_func_key(func)
        current_args = dict(current_arg_scope().get(key, {}))
        current_args.update(kwargs)
        return func(*args, **current_args)

    _DECORATED_OPS[arg_scope_func_key(func)] = _kwarg_names(func)
    func_with_args = functools.wraps(func)(func_with_args)
    func_with_args._key_op = arg_scope_func_key(func)
    return func_with_args


def has_arg_scope(func):
    """True if `func` was decorated with add_arg_scope."""
    return arg_scope_func_key(func) in _DECORATED_OPS


def arg_scoped_arguments(func):
    """The names of the arguments of a decorated `func` that an arg_scope may set."""
    assert has_arg_scope(func)
    return _DECORATED_OPS[arg_scope_func_key(func)]
