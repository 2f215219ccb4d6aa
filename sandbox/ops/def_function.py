"""tf.function in a TF-1 graph -- mirrors TensorFlow's python/eager/def_function.py, as a graph
program meets it:

    @tf.function
    def dense(x, w, b):
        return tf.nn.relu(tf.matmul(x, w) + b)

    y = dense(x, w, b)            # ops in the graph; run them in a Session as usual

In a TF-1 graph, TensorFlow traces the Python function into a function of the graph's library
and adds one call op (StatefulPartitionedCall) for each call; its runtime (Grappler) then
inlines the body into the graph it runs. The sandbox builds the body's ops in the graph at
once -- inlined, under the function's name scope ('dense/MatMul') -- which computes the same
values, with the same gradients, and lets the views show each op where it runs.

What TensorFlow checks, this checks too:
  * `input_signature` (tf.TensorSpec each): the arguments are converted to it, and a value
    of another dtype or of an incompatible shape is refused.
  * Variables may be made on the first call only (then kept: `if self.v is None:`). TF
    traces a function that made variables once more and fails if that trace makes them
    again; so does the sandbox (its second trace is built in a scratch graph and stopped at
    the first variable), and on any later call that makes variables.
What is not here: AutoGraph, which rewrites Python `if`, `for` and `while` over tensors into
tf.cond and tf.while_loop. Such a function fails with the usual error for a tensor used as a
Python bool; write tf.cond / tf.while_loop yourself, as TF-1 code does.
"""
import functools
import inspect

from ..framework.graph import GraphKeys, get_default_graph
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .func_graph import FuncGraph, flatten, pack_sequence_as
from .variable_scope import variable_creator_scope

__all__ = ["function"]

_AGAIN = ("tf.function-decorated function tried to create variables on non-first call. (Make "
          "them on the first call only -- e.g. `if self.v is None: self.v = tf.Variable(...)` "
          "-- or outside the function.)")


class _MadeVariable(Exception):
    """A trace that makes a variable (see Function._makes_variables_again)."""


def function(func=None, input_signature=None, autograph=True,
             experimental_autograph_options=None, experimental_relax_shapes=False,
             experimental_compile=None):
    """A tf.function-decorated `func` (see the module); usable as @tf.function or
    @tf.function(input_signature=[...])."""
    if func is None:
        return functools.partial(function, input_signature=input_signature,
                                 autograph=autograph)
    if not callable(func):
        raise TypeError(f"tf.function decorates a Python function, not {func!r}.")
    return Function(func, input_signature)


class Function:
    """What tf.function returns: called, it builds the function's ops in the default graph."""

    def __init__(self, python_function, input_signature=None):
        self._python_function = python_function
        self._input_signature = None if input_signature is None else list(input_signature)
        self._calls = {}                   # id(bound instance) or None -> calls so far
        functools.update_wrapper(self, python_function)

    @property
    def python_function(self):
        return self._python_function

    @property
    def input_signature(self):
        return self._input_signature

    def __get__(self, instance, owner):
        """A method decorated with tf.function: bound to its instance."""
        if instance is None:
            return self
        return functools.partial(self._call, instance)

    def __call__(self, *args, **kwargs):
        return self._call(None, *args, **kwargs)

    def _call(self, instance, *args, **kwargs):
        if self._input_signature is not None:
            args, kwargs = self._apply_signature(args, kwargs)
        graph = get_default_graph()
        before = len(graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
        calls = self._calls.get(id(instance), 0)
        call_args = args if instance is None else (instance,) + tuple(args)
        with graph.name_scope(self._python_function.__name__.strip("_") or "function"):
            result = self._python_function(*call_args, **kwargs)
        if len(graph.get_collection(GraphKeys.GLOBAL_VARIABLES)) > before:
            # TF traces a function that made variables a second time, and refuses it if it
            # makes them again: the trace here is built in a scratch graph and stopped there
            if calls or self._makes_variables_again(graph, call_args, kwargs):
                raise ValueError(_AGAIN)
        self._calls[id(instance)] = calls + 1
        return result

    def _makes_variables_again(self, graph, call_args, kwargs):
        probe = FuncGraph("function_probe", graph)

        def refuse(next_creator, **kwargs):
            raise _MadeVariable

        try:
            with probe.building(), variable_creator_scope(refuse):
                self._python_function(*call_args, **kwargs)
        except _MadeVariable:
            return True
        except Exception:            # pylint: disable=broad-except
            return False             # (the real trace succeeded: nothing more to learn)
        return False

    def _apply_signature(self, args, kwargs):
        """The arguments converted to the input signature's specs, checked as TF checks."""
        bound = inspect.signature(self._python_function).bind(*args, **kwargs)
        values = list(bound.args) + list(bound.kwargs.values())
        specs = flatten(self._input_signature)
        flat = flatten(values)
        if len(flat) != len(specs):
            raise TypeError(f"{self._python_function.__name__} was given {len(flat)} tensor "
                            f"argument(s), but its input_signature has {len(specs)}.")
        converted = []
        for i, (value, spec) in enumerate(zip(flat, specs)):
            tensor = convert_to_tensor(value, dtype=getattr(spec, "dtype", None))
            shape = TensorShape(getattr(spec, "shape", None))
            if not shape.is_compatible_with(tensor.get_shape()):
                raise ValueError(f"Python inputs incompatible with input_signature: argument "
                                 f"{i} of {self._python_function.__name__} has shape "
                                 f"{tensor.get_shape()}, the signature says {shape}.")
            converted.append(tensor)
        return tuple(pack_sequence_as(values, converted)), {}

    def get_concrete_function(self, *args, **kwargs):
        raise NotImplementedError(
            "get_concrete_function: the sandbox builds a tf.function's ops in the graph where "
            "it is called (see sandbox/ops/def_function.py) and keeps no concrete functions; "
            "call the function on tensors instead.")
