"""Assertions -- mirrors TensorFlow 1.x's python/ops/check_ops.py (tf.assert_equal,
tf.assert_positive ...) and numerics.py (tf.add_check_numerics_ops).

Each `tf.assert_*` returns an op (a tf.Assert: logging_ops.py) that fails the step with an
InvalidArgumentError when its condition does not hold element-wise. Run it, or make what
follows wait for it:

    with tf.control_dependencies([tf.assert_positive(x)]):
        y = tf.log(x)

When both sides are known while the graph is built (constants), TF 1.15 checks at once and
raises the InvalidArgumentError from the tf.assert_* call itself -- the sandbox too, with TF's
message ('Condition x < y did not hold element-wise:\\nx (Const:0) = \\n3 ...'); when the check
passes there, the op returned is a NoOp. Static rank and dtype checks raise ValueError and
TypeError while building, as in TF.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_util import constant_value
from .logging_ops import Assert

__all__ = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal",
           "assert_greater", "assert_greater_equal", "assert_positive", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_rank", "assert_rank_at_least",
           "assert_type", "assert_integer", "assert_scalar", "is_numeric_tensor",
           "is_non_decreasing", "is_strictly_increasing", "add_check_numerics_ops",
           "verify_tensor_all_finite"]

_NUMPY = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal,
          ">": np.greater, ">=": np.greater_equal}


def _op(sym):
    from . import comparison_ops as c
    return {"==": c.equal, "!=": c.not_equal, "<": c.less, "<=": c.less_equal,
            ">": c.greater, ">=": c.greater_equal}[sym]


def _text(value):
    return np.array2string(np.asarray(value), separator=" ") if np.ndim(value) else \
        str(np.asarray(value))


def _binary_assert(sym, default_name, x, y, data, summarize, message, name, zero=False):
    from .reduction_ops import reduce_all
    from .control_flow_ops import no_op
    g = get_default_graph()
    with g.name_scope(name or default_name):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype) if not zero else \
            convert_to_tensor(np.zeros((), x.dtype.base_dtype.as_numpy_dtype), name="Const")
        xv, yv = constant_value(x), constant_value(y)
        cond_text = f"Condition x {sym} {'0' if zero else 'y'} did not hold element-wise:"
        if xv is not None and yv is not None:
            if not np.all(_NUMPY[sym](xv, yv)):
                lines = [cond_text, f"x ({x.name}) = ", _text(xv)]
                if not zero:
                    lines += [f"y ({y.name}) = ", _text(yv)]
                prefix = (message + "\n") if message else ("\n" if zero else "")
                raise errors.InvalidArgumentError(None, None, prefix + "\n".join(lines))
            return no_op()
        if data is None:
            data = ([message] if message else []) + [cond_text, f"x ({x.name}) = ", x]
            if not zero:
                data += [f"y ({y.name}) = ", y]
        condition = reduce_all(_op(sym)(x, y))
        return Assert(condition, data, summarize=summarize)


def assert_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("==", "assert_equal", x, y, data, summarize, message, name)


def assert_none_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("!=", "assert_none_equal", x, y, data, summarize, message, name)


def assert_less(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<", "assert_less", x, y, data, summarize, message, name)


def assert_less_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<=", "assert_less_equal", x, y, data, summarize, message, name)


def assert_greater(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">", "assert_greater", x, y, data, summarize, message, name)


def assert_greater_equal(x, y, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">=", "assert_greater_equal", x, y, data, summarize, message, name)


def assert_positive(x, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">", "assert_positive", x, 0, data, summarize, message, name, True)


def assert_negative(x, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<", "assert_negative", x, 0, data, summarize, message, name, True)


def assert_non_negative(x, data=None, summarize=None, message=None, name=None):
    return _binary_assert(">=", "assert_non_negative", x, 0, data, summarize, message, name,
                          True)


def assert_non_positive(x, data=None, summarize=None, message=None, name=None):
    return _binary_assert("<=", "assert_non_positive", x, 0, data, summarize, message, name,
                          True)


def _rank_assert(x, rank, message, name, default_name, at_least):
    from .array_ops import rank as rank_op
    from .comparison_ops import equal, greater_equal
    from .control_flow_ops import no_op
    g = get_default_graph()
    with g.name_scope(name or default_name):
        x = convert_to_tensor(x)
        static = x.get_shape().ndims
        if static is not None:
            ok = static >= rank if at_least else static == rank
            if not ok:
                words = "at least rank" if at_least else "rank"
                raise ValueError(f"{message or ''}.  Tensor {x.name} must have {words} {rank}.  "
                                 f"Received rank {static}, shape {x.get_shape()}")
            return no_op()
        cmp = greater_equal if at_least else equal
        return Assert(cmp(rank_op(x), rank), [message or "", f"Tensor {x.name} must have "
                                              f"{'at least ' if at_least else ''}rank",
                                              rank, "Received shape: ", _shape_of(x)])


def _shape_of(x):
    from .array_ops import shape
    return shape(x)


def assert_rank(x, rank, data=None, summarize=None, message=None, name=None):
    return _rank_assert(x, rank, message, name, "assert_rank", False)


def assert_rank_at_least(x, rank, data=None, summarize=None, message=None, name=None):
    return _rank_assert(x, rank, message, name, "assert_rank_at_least", True)


def assert_scalar(tensor, name=None, message=None):
    tensor = convert_to_tensor(tensor)
    ndims = tensor.get_shape().ndims
    if ndims is not None and ndims != 0:
        raise ValueError(f"{message or ''}Expected scalar shape for {tensor.name}, saw shape: "
                         f"{tensor.get_shape()}.")
    return tensor


def assert_type(tensor, tf_type, message=None, name=None):
    """Raises TypeError (while building) unless `tensor` has dtype `tf_type`."""
    from .control_flow_ops import no_op
    tensor = convert_to_tensor(tensor)
    tf_type = _dtypes.as_dtype(tf_type)
    if tensor.dtype.base_dtype != tf_type.base_dtype:
        raise TypeError(f"{message or ''}  {tensor.name} must be of type {tf_type}")
    return no_op(name=name or "assert_type")


def assert_integer(x, message=None, name=None):
    from .control_flow_ops import no_op
    x = convert_to_tensor(x)
    if not x.dtype.base_dtype.is_integer:
        raise TypeError(f"{message or ''}  Expected \"x\" to be integer type.  Found: {x.name} "
                        f"of dtype {x.dtype}")
    return no_op(name=name or "assert_integer")


def is_numeric_tensor(tensor):
    """True for a Tensor of a number dtype (a Python bool, not a tensor)."""
    return isinstance(tensor, Tensor) and (tensor.dtype.base_dtype.is_floating or
                                           tensor.dtype.base_dtype.is_integer)


def _monotonic(x, name, default_name, strict):
    from .array_ops import reshape
    from .comparison_ops import greater, greater_equal
    from .reduction_ops import reduce_all
    g = get_default_graph()
    with g.name_scope(name or default_name):
        x = convert_to_tensor(x)
        if not is_numeric_tensor(x):
            raise TypeError(f"Expected x to be numeric, instead found: {x.dtype}")
        flat = reshape(x, [-1])
        diff = (greater if strict else greater_equal)(flat[1:], flat[:-1])
        return reduce_all(diff)


def is_non_decreasing(x, name=None):
    """A bool tensor: x (flattened) never decreases."""
    return _monotonic(x, name, "is_non_decreasing", False)


def is_strictly_increasing(x, name=None):
    """A bool tensor: x (flattened) always increases."""
    return _monotonic(x, name, "is_strictly_increasing", True)


def verify_tensor_all_finite(t, msg, name=None):
    from .array_ops import check_numerics
    return check_numerics(t, msg, name=name)


def add_check_numerics_ops():
    """A group of CheckNumerics ops, one for every floating-point output in the graph
    (TF 1.15's numerics.add_check_numerics_ops), each run after the previous one."""
    from .array_ops import check_numerics
    from .control_flow_ops import group
    g = get_default_graph()
    checks = []
    for op in g.get_operations():
        for t in op.outputs:
            if t.dtype.base_dtype.is_floating and not t.dtype.is_ref:
                message = f"{op.name}:{t.value_index}"
                with g.control_dependencies(checks[-1:]), g.colocate_with(op):
                    checks.append(check_numerics(t, message).op)
    return group(*checks)
