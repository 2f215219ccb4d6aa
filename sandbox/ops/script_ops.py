"""Python inside a graph -- mirrors TensorFlow 1.x's python/ops/script_ops.py (tf.py_func).

`tf.py_func(func, inp, Tout)` makes a PyFunc op whose kernel calls the Python function `func`
with the inputs' NumPy values and returns its results as the op's outputs. The graph cannot
hold Python code: the op holds a *token*, and the function itself stays in a table of the
process that built the op (TF does the same: script_ops.FuncRegistry).

So a PyFunc runs only in a process whose table has its token: the process that built the graph
-- a local tf.Session, or a cluster task whose own program built it (a between-graph worker
whose loop runs in its process, `LocalCluster.run_in_task`). Placed on another task, the op
fails and says so: that task's process has never seen the function (TF fails the same way:
"callback pyfunc_0 is not found"). Keep py_func ops on the device of the program that builds
them.

`stateful=True` (the default) tells the sandbox the function may have side effects, so the
op is never treated as a constant. py_func has no gradient (as in TF) unless one is
registered with tf.RegisterGradient("PyFunc") and gradient_override_map.
"""
import itertools

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef
from ..framework.tensor import convert_to_tensor

__all__ = ["py_func", "numpy_function"]

_FUNCS = {}                      # token -> the Python function, in this process only
_TOKENS = itertools.count()


class PyFunc(OpDef):
    """Calls the Python function registered under `token` in this process."""
    uses_context = True
    stateful = True
    multi_output = True
    gradient = None

    def kernel(ctx, step, *inputs, token="", Tout=None, Tin=None):
        func = _FUNCS.get(token)
        if func is None:
            raise errors.InvalidArgumentError(
                ctx.name, None, f"The Python function of py_func {ctx.name!r} (callback "
                f"{token}) is not in this process ({ctx.device}): a py_func runs only in the "
                "process that built it. Place the op on the device of the program that "
                "builds the graph.")
        try:
            result = func(*inputs)
        except errors.OpError:
            raise
        except Exception as e:     # the user's function failed, not the sandbox: TF's rule
            kind = errors.InvalidArgumentError if isinstance(e, (ValueError, TypeError,
                                                                 IndexError)) \
                else errors.UnknownError
            raise kind(ctx.name, None, f"{type(e).__name__}: {e} (raised by the Python "
                       f"function of py_func {ctx.name!r})") from e
        single = not isinstance(result, (list, tuple))
        results = [result] if single else list(result)
        if len(results) != len(Tout):
            raise errors.InvalidArgumentError(
                ctx.name, None, f"py_func {ctx.name!r} returned {len(results)} values, but "
                f"Tout names {len(Tout)}.")
        out = []
        for value, dtype in zip(results, Tout):
            value = np.asarray(value)
            if dtype.base_dtype == _dtypes.string:
                value = value.astype(object)
            elif value.dtype != dtype.as_numpy_dtype:
                if value.dtype.kind != np.dtype(dtype.as_numpy_dtype).kind:
                    raise errors.InvalidArgumentError(
                        ctx.name, None, f"py_func {ctx.name!r} returned a {value.dtype} value "
                        f"where Tout says {dtype.name}.")
                value = value.astype(dtype.as_numpy_dtype)
            out.append(value)
        return tuple(out)


def py_func(func, inp, Tout, stateful=True, name=None):
    """Wraps a Python function as an op: func(*numpy inputs) -> outputs of dtypes `Tout`."""
    if not callable(func):
        raise TypeError(f"Expected func to be callable, got func of type {type(func)}")
    single = not isinstance(Tout, (list, tuple))
    tout = [_dtypes.as_dtype(t) for t in ([Tout] if single else Tout)]
    inputs = [convert_to_tensor(x) for x in inp]
    token = f"pyfunc_{next(_TOKENS)}"
    _FUNCS[token] = func
    g = get_default_graph()
    op = g.create_op("PyFunc", inputs, tout, name=name or "PyFunc",
                     attrs={"token": token, "Tout": tout,
                            "Tin": [t.dtype.base_dtype for t in inputs]})
    if not op.outputs:
        return op
    return op.outputs[0] if single else op.outputs


def numpy_function(func, inp, Tout, name=None):
    return py_func(func, inp, Tout, stateful=True, name=name)
