"""Asserting and printing from a graph -- mirrors TensorFlow 1.x's python/ops/logging_ops.py
(tf.Print, tf.print) and control_flow_ops.Assert (tf.Assert).

These ops act when they RUN, not when they are built: `tf.Assert` fails the step with an
InvalidArgumentError when its condition is false, `tf.Print` passes its input through and
prints, `tf.print` prints. Like every op, they run only if the step needs them: fetch them, or
make another op wait for them with `tf.control_dependencies`.

Where the text goes: to the stderr (or stdout) of the PROCESS WHERE THE OP RUNS -- on a
cluster, the task's process its device names (a ps's or a worker's), not the client's; a
LocalCluster task's output goes where that task's stderr goes. That is TensorFlow's behaviour
too (its kernels print on the server).
"""
import sys
import time

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, scalar_shape, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor

__all__ = ["Assert", "Print", "print", "timestamp"]


def summarize(value, n, v2=False):
    """A tensor's value as TF's kernels print it. tf.Print and tf.Assert (`v2=False`): each
    value in brackets, the first `n` elements only, '...' where cut -- '[3]', '[0 1 2...]',
    '[[1.5 2][3...]...]'. tf.print (`v2=True`): NumPy-like, the first and last `n` of a
    long dimension -- '[0 1 ... 8 9]', '[[1 2]\n [3 4]]'."""
    value = np.asarray(value)
    flat = [_scalar_text(v) for v in value.reshape(-1)]
    if not v2:
        if value.ndim == 0:
            return "[" + flat[0] + "]"
        limit = len(flat) if n is None or n < 0 else n
        return "[" + _v1(flat, value.shape, limit, [0])[0] + "]"
    if value.ndim == 0:
        return flat[0]
    if n is None or n < 0 or len(flat) <= 2 * n:
        return _nest(flat, value.shape)
    return "[" + " ".join(flat[:n]) + " ... " + " ".join(flat[-n:]) + "]"


def _v1(flat, shape, limit, printed, offset=0):
    """(text, cut) of one dimension, as TF's PrintOneDim: stops with '...' at `limit`."""
    stride = int(np.prod(shape[1:])) if len(shape) > 1 else 1
    sep = " " if len(shape) == 1 else ""
    parts = []
    for i in range(shape[0]):
        if printed[0] >= limit:
            return sep.join(parts) + "...", True
        if len(shape) == 1:
            parts.append(flat[offset + i])
            printed[0] += 1
        else:
            text, cut = _v1(flat, shape[1:], limit, printed, offset + i * stride)
            parts.append("[" + text + "]")
            if cut:
                return "".join(parts) + "...", True
    return sep.join(parts), False


def _scalar_text(v):
    if isinstance(v, bytes):
        return v.decode(errors="replace")
    if isinstance(v, np.bool_):
        return "1" if v else "0"
    text = str(v)
    return text[:-2] if isinstance(v, np.floating) and text.endswith(".0") else text


def _nest(flat, shape):
    if len(shape) <= 1:
        return "[" + " ".join(flat) + "]"
    step = len(flat) // shape[0] if shape[0] else 0
    return "[" + "\n ".join(_nest(flat[i * step:(i + 1) * step], shape[1:])
                            for i in range(shape[0])) + "]"


_summarize = summarize


# -- tf.Assert -----------------------------------------------------------------------------

class Assert(OpDef):
    """Fails the step, printing `data`, when `condition` is false."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, condition, *data, summarize=3, T=None, condition_name=""):
        condition = np.asarray(condition)
        if condition.shape != ():
            raise errors.InvalidArgumentError(
                ctx.name, None, f"In[0] of {ctx.name} (the condition) must be a scalar bool, "
                f"but has shape {list(condition.shape)}: reduce it (tf.reduce_all).")
        if not condition:
            text = " ".join(_summarize(d, summarize) for d in data)
            raise errors.InvalidArgumentError(
                ctx.name, None, f"assertion failed: {text}\n\t [[node {ctx.name}: the "
                f"condition {condition_name or 'In[0]'} was false]]")


def Assert(condition, data, summarize=None, name=None):  # noqa: F811,N802 -- TF's name
    """An op that fails the step with InvalidArgumentError when `condition` is false."""
    g = get_default_graph()
    with g.name_scope(name or "Assert"):
        condition = convert_to_tensor(condition, name="Condition")
        if condition.dtype.base_dtype != _dtypes.bool:
            raise TypeError(f"The condition of tf.Assert must be a bool tensor, got "
                            f"{condition.dtype.name} ({condition.name}).")
        tensors = [convert_to_tensor(d, name=f"data_{i}") for i, d in enumerate(data)]
        return g.create_op("Assert", [condition] + tensors, [], name="Assert",
                           attrs={"summarize": 3 if summarize is None else summarize,
                                  "T": [t.dtype.base_dtype for t in tensors],
                                  "condition_name": condition.name})


# -- tf.Print (TF 1) -----------------------------------------------------------------------

class Print(OpDef):
    """y = input; prints `message` and `data` to the task's stderr as it passes."""
    uses_context = True
    stateful = True
    shape = unchanged_shape

    def kernel(ctx, step, input, *data, message="", first_n=-1, summarize=3, T=None, U=None):
        if first_n >= 0:
            count = ctx.state.get("count", 0)
            ctx.state["count"] = count + 1
            if count >= first_n:
                return input
        sys.stderr.write(message + "".join(_summarize(d, summarize) for d in data) + "\n")
        sys.stderr.flush()
        return input

    def gradient(op, grad):
        return [grad] + [None] * (len(op.inputs) - 1)


def Print(input_, data, message=None, first_n=None, summarize=None, name=None):  # noqa: F811,N802
    """Passes `input_` through, printing `message` and the values of `data` to the stderr of
    the process where the op runs (a cluster task's, not the client's)."""
    x = convert_to_tensor(input_)
    tensors = [convert_to_tensor(d) for d in data]
    return apply_op("Print", [x] + tensors,
                    {"T": x.dtype.base_dtype, "U": [t.dtype.base_dtype for t in tensors],
                     "message": message or "", "first_n": -1 if first_n is None else first_n,
                     "summarize": 3 if summarize is None else summarize},
                    name=name or "Print", output_dtypes=[x.dtype.base_dtype])


# -- tf.print (TF 2 style, in TF 1.15 too) -------------------------------------------------

class PrintV2(OpDef):
    """Prints a line made of `template` with the inputs' values in its '{}' holes."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, *inputs, template="", output_stream="stderr", summarize=3, end="\n"):
        text = template.format(*(_summarize(v, summarize, v2=True) for v in inputs)) + end
        if output_stream.startswith("file://"):
            with open(output_stream[len("file://"):], "a") as f:
                f.write(text)
            return
        stream = sys.stdout if output_stream == "stdout" else sys.stderr
        stream.write(text)
        stream.flush()


_STREAMS = {"stderr": "stderr", "stdout": "stdout"}


def print(*inputs, **kwargs):  # noqa: A001 -- TF's name
    """tf.print: an op that prints `inputs` (tensors and Python values, separated by `sep`)
    to the stderr of the process where it runs, when it runs. In graph mode it runs only if
    fetched or made a control dependency (TF 1.15 says the same)."""
    output_stream = kwargs.pop("output_stream", sys.stderr)
    summarize_n = kwargs.pop("summarize", 3)
    sep = kwargs.pop("sep", " ")
    end = kwargs.pop("end", "\n")
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments for tf.print: {sorted(kwargs)}")
    if output_stream is sys.stderr or output_stream == "stderr":
        stream = "stderr"
    elif output_stream is sys.stdout or output_stream == "stdout":
        stream = "stdout"
    elif isinstance(output_stream, str) and output_stream.startswith("file://"):
        stream = output_stream
    else:
        raise ValueError(f"Unsupported output stream, logging level, or file: "
                         f"{output_stream!r}. Supported: sys.stdout, sys.stderr, "
                         "'file://<path>'.")
    parts, tensors = [], []
    for x in inputs:
        if isinstance(x, Tensor) or hasattr(x, "_as_graph_element"):
            parts.append("{}")
            tensors.append(convert_to_tensor(x))
        else:
            parts.append(str(x).replace("{", "{{").replace("}", "}}"))
    return get_default_graph().create_op(
        "PrintV2", tensors, [], name=name or "PrintV2",
        attrs={"template": sep.join(parts), "output_stream": stream,
               "summarize": -1 if summarize_n is None else summarize_n, "end": end})


# -- tf.timestamp --------------------------------------------------------------------------

class Timestamp(OpDef):
    """The time (seconds since the Unix epoch, float64) when the op runs."""
    stateful = True
    differentiable = False

    shape = scalar_shape

    def kernel():
        return np.float64(time.time())


def timestamp(name=None):
    """A float64 scalar: the time, in seconds since the Unix epoch, at which the op RUNS (not
    when it is built) -- tf.timestamp. Stateful, so never folded nor cached."""
    return apply_op("Timestamp", [], {}, name=name or "Timestamp",
                    output_dtypes=[_dtypes.float64], graph=get_default_graph())
