"""The Python operators of RaggedTensor -- mirrors TensorFlow's python/ops/ragged/
ragged_operators.py (rt + 1, rt * rt2, -rt, rt < 3, ~mask ...): elementwise on the values, the
rows kept.

    rt = [[1, 2], [3]]
    rt + 1                        [[2, 3], [4]]
    rt * rt                       [[1, 4], [9]]       (the same rows: checked when they run)
    rt + tf.constant([[10], [20]])   [[11, 12], [23]]  one value per row ([nrows, 1])
    rt < 2                        [[True, False], [False]]

The other operand may be a Python number, a Tensor or a RaggedTensor. TF broadcasts a dense
operand against the ragged shape; the sandbox does the cases that need no ragged shape
arithmetic: a Tensor that covers only the uniform inner dimensions (a scalar, or [3] against
(?, ?, 3)), size 1 in the ragged dimensions, and -- of the same rank as the ragged tensor --
one entry per row ([nrows, 1, ...]), or a dense [nrows, n] against rows that all have n values
(checked when the graph runs). Anything else (a [nrows] vector against (nrows, ?) asks every
row to have nrows entries) raises a ValueError saying so. Two RaggedTensors must have the
same ragged_rank, row_splits dtype and (checked at run time, TF's InvalidArgumentError) row
splits.

A RaggedTensor is not a Tensor: the ops that take Tensors (tf.add, tf.reduce_sum, tf.matmul
...) raise a TypeError for one that says how to get what is meant (TF dispatches some of them
to ragged versions; the sandbox does not). `==` compares identity, as for TF 1.x Tensors.
"""
from ...framework import errors
from ...framework.graph import control_dependencies, name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_conversion_registry import register_tensor_conversion_function
from .. import basic_math_ops, check_ops, comparison_ops, math_ops
from ..array_ops import reshape, shape as _shape
from ..constant_op import constant
from ..indexing_ops import gather
from ..slicing_ops import concat
from . import ragged_util
from .ragged_tensor import (RaggedTensor, convert_to_tensor_or_ragged_tensor,
                            match_row_splits_dtypes)
from .ragged_tensor_value import RaggedTensorValue

__all__ = []


def _outer_row_ids(rt):
    """For each flat value, the index of its row in the outermost dimension."""
    ids = None
    for level in reversed(_levels(rt)):
        rowids = level.value_rowids()
        ids = rowids if ids is None else gather(rowids, ids)
    return ids


def _levels(rt):
    out = []
    while isinstance(rt, RaggedTensor):
        out.append(rt)
        rt = rt.values
    return out


def _dense_operand(rt, y, op_name):
    """y (a Tensor) made to line up with rt.flat_values, or a ValueError when the sandbox
    cannot broadcast it against rt's ragged shape."""
    inner = rt.flat_values.get_shape().ndims
    r = y.get_shape().ndims
    if r == 0:
        return y
    if r is None or inner is None:
        raise ValueError(f"RaggedTensor {op_name}: the ranks of both operands must be known "
                         f"to broadcast a Tensor against a RaggedTensor.")
    k = inner - 1                                  # uniform inner dimensions
    rank = rt.ragged_rank + 1 + k
    if r <= k:
        return y
    dims = y.get_shape().as_list()
    lead = dims[:r - k]                            # against the outer / ragged dimensions
    outer = lead[0] if r == rank else 1
    ragged_part = lead[1:] if r == rank else lead
    if r == rank and rt.ragged_rank == 1 and ragged_part[0] != 1 and outer != 1:
        return _rows_of_equal_length(rt, y, op_name)
    if r > rank or any(d != 1 for d in ragged_part):
        raise ValueError(
            f"RaggedTensor {op_name}: cannot broadcast a Tensor of shape {y.get_shape()} "
            f"against a RaggedTensor of shape {rt.shape} in the sandbox: a dense operand may "
            "cover the uniform inner dimensions, have size 1 in the ragged dimensions, or "
            "(of the same rank) one entry per row, shape [nrows, 1, ...]. (Against the "
            "ragged dimension, TF would need every row to have that many entries.) Use "
            "rt.to_tensor(), or tf.ragged.map_flat_values.")
    inner_dims = dims[r - k:] if None not in dims[r - k:] else _shape(y)[r - k:]
    if outer == 1:
        return reshape(y, inner_dims)
    nrows = rt.nrows()
    if outer is not None and rt.shape[0].value is not None and outer != rt.shape[0].value:
        raise ValueError(f"RaggedTensor {op_name}: a Tensor of shape {y.get_shape()} has "
                         f"{outer} rows; the RaggedTensor has {rt.shape[0].value}.")
    squeezed = reshape(y, [-1] + inner_dims if isinstance(inner_dims, list) else
                       concat([constant([-1]), inner_dims], axis=0))
    check = check_ops.assert_equal(
        _shape(squeezed, out_type=nrows.dtype.base_dtype)[0], nrows,
        message="The dense operand must have one entry per row of the RaggedTensor")
    squeezed = ragged_util.with_dependencies([check], squeezed)
    return gather(squeezed, _outer_row_ids(rt))


def _rows_of_equal_length(rt, y, op_name):
    """A dense [nrows, n, ...] y against rt (nrows, ?, ...): TF broadcasts it when every row
    has n values (or 1); the sandbox takes the first case, checked when the graph runs."""
    dtype = rt.row_splits.dtype.base_dtype
    y_shape = _shape(y, out_type=dtype)
    msg = (f"RaggedTensor {op_name}: the sandbox combines a dense [nrows, n, ...] Tensor with "
           "a RaggedTensor only when every row has n values")
    nvals, dims = rt.flat_values.get_shape()[0].value, y.get_shape().as_list()
    if nvals is not None and None not in dims[:2] and nvals != dims[0] * dims[1]:
        raise errors.InvalidArgumentError(None, None, f"{msg} ({nvals} values for a Tensor "
                                          f"of shape {y.get_shape()})")
    checks = [check_ops.assert_equal(y_shape[0], rt.nrows(), message=msg),
              check_ops.assert_equal(rt.row_lengths(), y_shape[1], message=msg)]
    flat = reshape(y, concat([constant([-1], dtype), y_shape[2:]], axis=0))
    return ragged_util.with_dependencies(checks, flat)


def _ragged_operands(x, y, op_name):
    """(flat x, flat y, the RaggedTensor whose rows the result takes, checks)."""
    if isinstance(x, RaggedTensorValue):
        x = convert_to_tensor_or_ragged_tensor(x)
    if isinstance(y, RaggedTensorValue):
        y = convert_to_tensor_or_ragged_tensor(y)
    if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
        if x.ragged_rank != y.ragged_rank:
            raise ValueError(f"RaggedTensor {op_name}: the sandbox combines two RaggedTensors "
                             f"of the same ragged_rank only, got {x.ragged_rank} and "
                             f"{y.ragged_rank}.")
        match_row_splits_dtypes(x, y)
        checks = ragged_util.assert_splits_match([x.nested_row_splits, y.nested_row_splits])
        return x.flat_values, y.flat_values, x, checks
    if isinstance(x, RaggedTensor):
        y = y if isinstance(y, Tensor) else convert_to_tensor(
            y, preferred_dtype=x.dtype.base_dtype, name="y")
        return x.flat_values, _dense_operand(x, y, op_name), x, []
    x = x if isinstance(x, Tensor) else convert_to_tensor(
        x, preferred_dtype=y.dtype.base_dtype, name="x")
    return _dense_operand(y, x, op_name), y.flat_values, y, []


def _binary(func, op_name):
    def forward(x, y):
        with name_scope(None, op_name, [x, y]):
            fx, fy, rt, checks = _ragged_operands(x, y, op_name)
            with control_dependencies(checks):
                return rt.with_flat_values(func(fx, fy))

    def backward(y, x):
        return forward(x, y)
    return forward, backward


def _unary(func, op_name):
    def op(x):
        with name_scope(None, op_name, [x]):
            return x.with_flat_values(func(x.flat_values))
    return op


def _install():
    binaries = {"add": math_ops.add, "sub": math_ops.subtract, "mul": math_ops.multiply,
                "div": math_ops.div, "truediv": math_ops.truediv,
                "floordiv": math_ops.floordiv, "mod": math_ops.floormod, "pow": math_ops.pow,
                "and": comparison_ops.logical_and, "or": comparison_ops.logical_or,
                "xor": comparison_ops.logical_xor}
    for name, func in binaries.items():
        forward, backward = _binary(func, name)
        setattr(RaggedTensor, f"__{name}__", forward)
        setattr(RaggedTensor, f"__r{name}__", backward)
    for name, func in {"lt": comparison_ops.less, "le": comparison_ops.less_equal,
                       "gt": comparison_ops.greater, "ge": comparison_ops.greater_equal}.items():
        setattr(RaggedTensor, f"__{name}__", _binary(func, name)[0])
    RaggedTensor.__neg__ = _unary(math_ops.negative, "neg")
    RaggedTensor.__abs__ = _unary(basic_math_ops.abs, "abs")
    RaggedTensor.__invert__ = _unary(comparison_ops.logical_not, "invert")
    # `==` stays identity (TF 1.x): keep RaggedTensors hashable.
    RaggedTensor.__eq__ = object.__eq__
    RaggedTensor.__ne__ = object.__ne__
    RaggedTensor.__hash__ = object.__hash__
    RaggedTensor.__array_priority__ = 100      # np_array + rt calls rt.__radd__


_install()


# -- a RaggedTensor where a Tensor is wanted --------------------------------------------------

def _not_a_tensor(value, dtype=None, name=None, as_ref=False):
    raise TypeError(
        f"Failed to convert elements of {value} to Tensor: a tf.RaggedTensor is not a Tensor, "
        "and the sandbox's ops that take Tensors (tf.add, tf.reduce_sum, tf.matmul ...) do "
        "not take one -- TF dispatches some of them to ragged versions, the sandbox does not. "
        "Use the operators (rt + 1, rt * rt2), tf.ragged.map_flat_values(op, rt) for an "
        "elementwise op, rt.to_tensor() for a padded Tensor, rt.flat_values for all the "
        "values, and for the sum of each row tf.math.unsorted_segment_sum(rt.values, "
        "rt.value_rowids(), rt.nrows()) (tf.math.segment_sum also takes "
        "rt.value_rowids(); rt.row_lengths() gives the counts, for a mean).")


register_tensor_conversion_function((RaggedTensor, RaggedTensorValue), _not_a_tensor,
                                    priority=10)
