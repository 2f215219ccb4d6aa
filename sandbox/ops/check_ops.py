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

assert_near, assert_rank_in, assert_same_float_dtype, assert_proper_iterable and assert_shapes
(tf.debugging.assert_shapes) follow TF 2.15's check_ops.py (what tf.compat.v1 runs): assert_near
never checks while building (TF 1.15 neither), its default tolerances are 10 * the dtype's eps.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_util import constant_value
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from .logging_ops import Assert

__all__ = ["assert_equal", "assert_none_equal", "assert_less", "assert_less_equal",
           "assert_greater", "assert_greater_equal", "assert_positive", "assert_negative",
           "assert_non_negative", "assert_non_positive", "assert_rank", "assert_rank_at_least",
           "assert_type", "assert_integer", "assert_scalar", "is_numeric_tensor",
           "is_non_decreasing", "is_strictly_increasing", "add_check_numerics_ops",
           "check_numerics", "verify_tensor_all_finite", "assert_near", "assert_rank_in",
           "assert_same_float_dtype", "assert_proper_iterable"]
# assert_shapes is tf.debugging.assert_shapes only (api/debugging.py), as in TF 1.15

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


class CheckNumerics(OpDef):
    """y = x, but an error (with `message`) when x holds a NaN or an Inf."""
    shape = unchanged_shape

    def kernel(tensor, message, T=None):
        if not np.all(np.isfinite(tensor)):
            kind = "NaN" if np.any(np.isnan(tensor)) else "Inf"
            raise errors.InvalidArgumentError(None, None, f"{message} : Tensor had {kind} values")
        return tensor

    def gradient(op, grad):
        return [check_numerics(grad, "Not a number (NaN) or infinity (Inf) values detected "
                                     "in gradient. " + op.get_attr("message"))]


def check_numerics(tensor, message, name=None):
    """Passes `tensor` through, failing the run if it contains NaN or Inf."""
    x = convert_to_tensor(tensor)
    return apply_op("CheckNumerics", [x], {"T": x.dtype.base_dtype, "message": message},
                    name=name or "CheckNumerics", output_dtypes=[x.dtype.base_dtype])


def verify_tensor_all_finite(t, msg, name=None):
    return check_numerics(t, msg, name=name)


def add_check_numerics_ops():
    """A group of CheckNumerics ops, one for every floating-point output in the graph
    (TF 1.15's numerics.add_check_numerics_ops), each run after the previous one."""
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


# -- assert_near, assert_rank_in, assert_same_float_dtype, assert_proper_iterable -------------

def _message_prefix(message):
    return f"{message}.  " if message else ""


def assert_near(x, y, rtol=None, atol=None, data=None, summarize=None, message=None,
                name=None):
    """An Assert that |x - y| < atol + rtol * |y| element-wise (x, y floating or complex;
    rtol and atol default to 10 * eps of x's dtype). Checked when it runs, even for
    constants, as in TF."""
    from .basic_math_ops import abs as abs_
    from .comparison_ops import less
    from .reduction_ops import reduce_all
    message = _message_prefix(message)
    g = get_default_graph()
    with g.name_scope(name or "assert_near"):
        x = convert_to_tensor(x, name="x")
        y = convert_to_tensor(y, name="y", dtype=x.dtype.base_dtype)
        dtype = x.dtype.base_dtype
        if dtype.is_complex:
            dtype = dtype.real_dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        rtol = 10 * eps if rtol is None else rtol
        atol = 10 * eps if atol is None else atol
        rtol = convert_to_tensor(rtol, name="rtol", dtype=dtype)
        atol = convert_to_tensor(atol, name="atol", dtype=dtype)
        if data is None:
            data = [message, f"x and y not equal to tolerance rtol = {rtol}, atol = {atol}",
                    f"x ({x.name}) = ", x, f"y ({y.name}) = ", y]
        tol = atol + rtol * abs_(y)
        diff = abs_(x - y)
        return Assert(reduce_all(less(diff, tol)), data, summarize=summarize)


def assert_rank_in(x, ranks, data=None, summarize=None, message=None, name=None):
    """Asserts that x's rank is one of `ranks`: ValueError while building when its rank is
    known, else an Assert (a NoOp when the static check passes)."""
    from .array_ops import rank as rank_op
    from .comparison_ops import equal
    from .control_flow_ops import no_op
    from .reduction_ops import reduce_any
    g = get_default_graph()
    with g.name_scope(name or "assert_rank_in"):
        x = convert_to_tensor(x, name="x")
        ranks = tuple(convert_to_tensor(r, name="rank") for r in ranks)
        for r in ranks:
            if r.dtype.base_dtype != _dtypes.int32:
                raise TypeError(f"  {r.name} must be of type {_dtypes.int32}")
        if data is None:
            data = [_message_prefix(message), f"Tensor {x.name} must have rank in"] + \
                list(ranks) + ["Received shape: ", _shape_of(x)]
        static = tuple(constant_value(r) for r in ranks)
        if not any(r is None for r in static):
            if any(np.ndim(r) != 0 for r in static):
                raise ValueError("Rank must be a scalar.")
            have = x.get_shape().ndims
            if have is not None:
                if have not in [int(r) for r in static]:
                    raise ValueError(f"{message or ''}.  Tensor {x.name} must have rank in "
                                     f"{tuple(np.asarray(r, np.int32) for r in static)!r}.  "
                                     f"Received rank {have}, shape {x.get_shape()}")
                return no_op(name="static_checks_determined_all_ok")
        from .array_ops import stack
        condition = reduce_any(equal(rank_op(x), stack(list(ranks))))
        return Assert(condition, data, summarize=summarize)


def _assert_same_base_type(items, expected_type=None):
    original = expected_type
    mismatch = False
    for item in items:
        if item is not None:
            item_type = item.dtype.base_dtype
            if not expected_type:
                expected_type = item_type
            elif expected_type != item_type:
                mismatch = True
                break
    if not mismatch:
        return expected_type
    expected_type, first = original, None
    for item in items:
        if item is not None:
            item_type = item.dtype.base_dtype
            if not expected_type:
                expected_type = item_type
                first = getattr(item, "name", str(item))
            elif expected_type != item_type:
                raise ValueError(f"{getattr(item, 'name', str(item))}, type={item_type}, must "
                                 f"be of the same type ({expected_type})"
                                 f"{(' as ' + first) if first else ''}.")
    return expected_type


def assert_same_float_dtype(tensors=None, dtype=None):
    """The common floating dtype of `tensors` (and `dtype`), float32 when none: ValueError when
    they differ or are not floating (a Python check, no op)."""
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype).base_dtype
    if tensors:
        dtype = _assert_same_base_type(tensors, dtype)
    if not dtype:
        dtype = _dtypes.float32
    elif not dtype.is_floating:
        raise ValueError(f"Expected floating point type, got {dtype}.")
    return dtype


def assert_proper_iterable(values):
    """TypeError unless `values` is an iterable other than a Tensor, SparseTensor, ndarray or
    string (a Python check, no op)."""
    from ..framework.sparse_tensor import SparseTensor
    if isinstance(values, (Tensor, SparseTensor, np.ndarray, bytes, str)):
        raise TypeError('Expected argument "values" to be a "proper" iterable.  Found: '
                        f"{type(values)}")
    if not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be iterable.  Found: {type(values)}')


# -- tf.debugging.assert_shapes ---------------------------------------------------------------

def _dimension_sizes(x):
    """x's dimension sizes, ints where static, else slices of tf.shape (a scalar: [1])."""
    from .array_ops import rank as rank_op, shape as shape_op
    from .constant_op import constant
    from .cond_v2 import cond
    from .comparison_ops import equal
    dynamic = shape_op(x)
    rank = x.get_shape().ndims
    if rank == 0:
        return (1,)
    if rank is not None:
        return [int(d) if d is not None else dynamic[i]
                for i, d in enumerate(x.get_shape().as_list())]
    return cond(equal(rank_op(x), 0), lambda: constant([1]), lambda: dynamic)


def _known(size):
    if size is None:
        return False
    try:
        int(size)
        return True
    except (ValueError, TypeError):
        return False


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Asserts the shapes of several tensors at once, with symbols shared between them:
    [(x, ('N', 'Q')), (y, ('N',))] -- x is rank 2, y rank 1 (or a scalar), and their first
    dimensions agree. An int is an exact size, '.' or None any size, a leading '...' or '*'
    any number of outer dimensions. ValueError while building when the known shapes already
    fail; else an op (a group of Asserts) that checks when it runs."""
    from .array_ops import shape as shape_op
    from .comparison_ops import equal
    from .control_flow_ops import group
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = _message_prefix(message)
    g = get_default_graph()
    with g.name_scope(name or "assert_shapes"):
        constraints = [(convert_to_tensor(x), s) for x, s in shapes if s is not None]
        dims = []
        for tensor, symbolic in constraints:
            if not (hasattr(symbolic, "__iter__") or hasattr(symbolic, "__getitem__")):
                raise ValueError(f"{prefix}Tensor {tensor.name}.  Specified shape must be an "
                                 "iterable.  An iterable has the attribute `__iter__` or "
                                 f"`__getitem__`.  Received specified shape: {symbolic}")
            symbolic = tuple(symbolic)
            innermost = False
            for i, symbol in enumerate(symbolic):
                if symbol is Ellipsis or (isinstance(symbol, str) and symbol in ("*", "...")):
                    if i != 0:
                        raise ValueError(f"{prefix}Tensor {tensor.name} specified shape index "
                                         f"{i}.  Symbol `...` or `*` for a variable number of "
                                         "unspecified dimensions is only allowed as the first "
                                         "entry")
                    innermost = True
            sizes = symbolic[1:] if innermost else symbolic
            dims.append((tensor, innermost, _dimension_sizes(tensor), sizes or (1,)))
        rank_checks = []
        for tensor, innermost, _, sizes in dims:
            rank = len(sizes)
            if innermost:
                if rank in (0, 1):
                    continue
                check = assert_rank_at_least(tensor, rank, data=data, summarize=summarize,
                                             message=message, name=name)
            elif rank in (0, 1):
                check = assert_rank_in(tensor, [0, 1], data=data, summarize=summarize,
                                       message=message, name=name)
            else:
                check = assert_rank(tensor, rank, data=data, summarize=summarize,
                                    message=message, name=name)
            rank_checks.append(check)
        size_checks = []
        specified = {}
        for tensor, innermost, actual_sizes, sizes in dims:
            for i, symbol in enumerate(sizes):
                if symbol is None or symbol == ".":
                    continue
                dim = i - len(sizes) if innermost else i
                if symbol in specified or _known(symbol):
                    if _known(symbol):
                        want, how = int(symbol), "Specified explicitly"
                    else:
                        want, by, at = specified[symbol]
                        how = f"Specified by tensor {by.name} dimension {at}"
                    with g.control_dependencies(rank_checks):
                        actual = actual_sizes[dim]
                    if _known(actual) and _known(want):
                        if int(actual) != int(want):
                            raise ValueError(f"{prefix}{how}.  Tensor {tensor.name} dimension "
                                             f"{dim} must have size {int(want)}.  Received "
                                             f"size {int(actual)}, shape {tensor.get_shape()}")
                        continue
                    condition = equal(convert_to_tensor(actual), convert_to_tensor(want))
                    this_data = data if data is not None else [
                        prefix, how, f"Tensor {tensor.name} dimension", dim, "must have size",
                        want, "Received shape: ", shape_op(tensor)]
                    size_checks.append(Assert(condition, this_data, summarize=summarize))
                else:
                    with g.control_dependencies(rank_checks):
                        specified[symbol] = (actual_sizes[dim], tensor, dim)
    with g.control_dependencies(rank_checks):
        return group(*size_checks)
