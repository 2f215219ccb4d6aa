"""Tensor utilities -- mirrors TensorFlow's tensor_util (python/framework/tensor_util.py):
what the graph already knows about a tensor's VALUE while it is being built.

Shape-like arguments of ops (reshape's `shape`, tile's `multiples`, ...) are tensors. When the
graph already fixes their value -- a constant, or tf.shape of a tensor whose shape is known --
the shape functions of the ops read it here, as TF's do with tensor_util.constant_value, so
`tf.reshape(x, [-1, 28, 28, 1])` on a (?, 784) input has the static shape (?, 28, 28, 1):

    constant_value(t)            the whole value as a NumPy array, or None
    const_op_value(t)            the value only if t is a Const op's output, or None
    constant_int(t)              a scalar int, or None
    partial_vector(t)            a 1-D int tensor entry by entry: tf.shape of a (?, 3) tensor
                                 gives [None, 3]
    partial_scalar(t)            an int scalar, also `tf.shape(x)[1]` when x's dim 1 is known
    constant_value_as_shape(t)   a TensorShape from a 1-D shape tensor (-1 and unknowns: None)

To see through `tf.shape(x)[1:]`, partial_vector reads a strided-slice spec: index_tuple turns
its begin, end and strides and the five masks into the NumPy index they stand for. The
StridedSlice kernel (ops/indexing_ops.py) indexes with the same function.

At the end are small helpers the ops share: shapes written as TF's error messages write them,
two shapes merged into the one both describe (merge_shapes), axes made non-negative, shape-like
arguments made tensors (int_tensor), and the tensors inside a nested list.
"""
import numpy as np

from .errors import InvalidArgumentError
from .tensor import Tensor, _contains_tensor, convert_to_tensor
from .tensor_shape import Dimension, TensorShape, unknown_shape

__all__ = ["get_static_value", "constant_value", "const_op_value", "constant_int",
           "partial_vector", "partial_scalar",
           "constant_value_as_shape", "SLICE_MASKS", "slice_masks", "index_tuple", "shape_text",
           "merge_shapes", "to_int", "positive_axis", "dim_value", "int_tensor", "is_tensor_like",
           "flat_tensors"]


# ======================================================================================
# Values the graph fixes while it is being built
# ======================================================================================

def constant_value(tensor):
    """The NumPy value of `tensor` if the graph fixes it while being built, else None.

    As TF's constant_value, it reads a Const op's "value" attr and the static shape behind
    Shape/Size/Rank, and follows Identity, Cast, Pack and ConcatV2 of such values.
    """
    if not isinstance(tensor, Tensor):
        return None
    op = tensor.op
    kind = op.type
    if kind == "Const":
        return op.get_attr("value")
    if kind in ("Identity", "StopGradient"):
        return constant_value(op.inputs[0])
    np_type = tensor.dtype.base_dtype.as_numpy_dtype
    if kind in ("Shape", "ShapeN"):
        s = op.inputs[tensor.value_index].get_shape()
        return np.array(s.as_list(), np_type) if s.is_fully_defined() else None
    if kind == "Size":
        n = op.inputs[0].get_shape().num_elements()
        return None if n is None else np.array(n, np_type)
    if kind == "Rank":
        n = op.inputs[0].get_shape().ndims
        return None if n is None else np.array(n, np_type)
    if kind == "Cast":
        v = constant_value(op.inputs[0])
        return None if v is None else np.asarray(v).astype(np_type)
    if kind == "Pack":
        values = [constant_value(t) for t in op.inputs]
        if any(v is None for v in values):
            return None
        return np.stack(values, axis=op.get_attr("axis")).astype(np_type)
    if kind == "ConcatV2":
        values = [constant_value(t) for t in op.inputs]
        if any(v is None for v in values):
            return None
        return np.concatenate(values[:-1], axis=int(values[-1]))
    return None


def get_static_value(tensor, partial=False):
    """tf.get_static_value (TF's tensor_util.constant_value): the NumPy value of `tensor` if
    the graph fixes it, else None. It follows exactly the ops TF's does: Const, Shape, Size
    and Rank of a known shape, Range, Cast, Concat(V2), Pack (axis 0), Unpack and Split (axis
    0 / constant), Fill, Equal, NotEqual, StopGradient, Identity. With partial=True a Pack
    of known and unknown values gives an object array with None for the unknown ones.
    A value that is not a graph tensor is returned as it is."""
    if not isinstance(tensor, Tensor):
        if hasattr(tensor, "_as_graph_element"):          # a Variable: not a constant
            return None
        return tensor
    return _static_value(tensor, partial)


def _static_value(tensor, partial):
    op, kind = tensor.op, tensor.op.type
    if kind == "Const":
        return np.array(op.get_attr("value"), copy=True)
    if kind == "Shape":
        s = op.inputs[0].get_shape()
        if not s.is_fully_defined():
            return None
        return np.array(s.as_list(), dtype=tensor.dtype.base_dtype.as_numpy_dtype)
    if kind == "Size":
        s = op.inputs[0].get_shape()
        return np.prod(s.as_list(), dtype=np.int32) if s.is_fully_defined() else None
    if kind == "Rank":
        n = op.inputs[0].get_shape().ndims
        return None if n is None else np.array(n, dtype=np.int32)
    if kind == "Range":
        bounds = [get_static_value(t) for t in op.inputs[:3]]
        if any(b is None for b in bounds):
            return None
        return np.arange(*bounds, dtype=tensor.dtype.base_dtype.as_numpy_dtype)
    if kind == "Cast":
        pre = _static_value(op.inputs[0], False)
        return None if pre is None else \
            np.asarray(pre).astype(op.get_attr("DstT").base_dtype.as_numpy_dtype)
    if kind in ("Concat", "ConcatV2"):
        dim_t, parts = (op.inputs[0], op.inputs[1:]) if kind == "Concat" else \
            (op.inputs[-1], op.inputs[:-1])
        dim = _static_value(dim_t, False)
        values = [_static_value(x, False) for x in parts]
        if dim is None or any(v is None for v in values):
            return None
        return np.concatenate(values, axis=int(dim))
    if kind == "Pack":
        if not op.inputs or op.get_attr("axis") != 0:
            return None
        values = []
        for x in op.inputs:
            value = _static_value(x, partial)
            if value is None and not partial:
                return None
            values.append(value)
        try:
            return np.array(values)
        except ValueError:
            return np.array(values, dtype=object)
    if kind == "Unpack":
        if op.get_attr("axis") != 0:
            return None
        value = _static_value(op.inputs[0], partial)
        return None if value is None else value[tensor.value_index]
    if kind == "Split":
        dim = _static_value(op.inputs[0], False)
        value = _static_value(op.inputs[1], partial)
        if value is None or dim is None:
            return None
        return np.split(value, op.get_attr("num_split"), int(dim))[tensor.value_index]
    if kind == "Fill":
        shape = tensor.get_shape()
        value = _static_value(op.inputs[1], False)
        if shape.is_fully_defined() and value is not None:
            return np.full(shape.as_list(), value, dtype=np.asarray(value).dtype)
        return None
    if kind in ("Equal", "NotEqual"):
        a = _static_value(op.inputs[0], False)
        b = None if a is None else _static_value(op.inputs[1], False)
        if b is None:
            return None
        return np.equal(a, b) if kind == "Equal" else np.not_equal(a, b)
    if kind in ("StopGradient", "Identity", "CheckNumericsV2", "DebugIdentityV2"):
        return _static_value(op.inputs[0], partial)
    return None


def const_op_value(tensor):
    """The value of `tensor` if a Const op makes it, else None: unlike constant_value it looks
    through nothing (the axes of a reduction, lin_space's `num`)."""
    if tensor.op.type == "Const":
        return tensor.op.get_attr("value")
    return None


def constant_int(tensor):
    """A scalar (or one-element) int the graph fixes, else None."""
    v = constant_value(tensor)
    return None if v is None or np.size(v) != 1 else int(np.reshape(v, -1)[0])


def partial_vector(tensor):
    """What the graph knows about a 1-D int tensor: a list with None for unknown entries, or
    None when even its length is unknown. `tf.shape(x)` of a (?, 3) tensor gives [None, 3];
    a Pack of a constant and a placeholder gives [5, None]."""
    v = constant_value(tensor)
    if v is not None:
        return [int(x) for x in np.reshape(v, -1)]
    op = tensor.op
    if op.type == "Shape" and op.inputs[0].get_shape().ndims is not None:
        return op.inputs[0].get_shape().as_list()
    if op.type == "Pack" and all(t.get_shape().ndims == 0 for t in op.inputs):
        return [partial_scalar(t) for t in op.inputs]
    if op.type == "ConcatV2" and constant_int(op.inputs[-1]) in (0, -1):
        parts = [partial_vector(t) for t in op.inputs[:-1]]
        if all(p is not None for p in parts):
            return [d for p in parts for d in p]
    if op.type == "StridedSlice":
        picked = _strided_slice_of_known(op)
        if np.ndim(picked) == 1:
            return list(picked)
    s = tensor.get_shape()
    if s.ndims == 1 and s[0].value is not None:
        return [None] * s[0].value
    return None


def partial_scalar(tensor):
    """An int scalar the graph knows (also `tf.shape(x)[1]` when x's dim 1 is known), else
    None."""
    v = constant_int(tensor)
    if v is not None:
        return v
    op = tensor.op
    if op.type == "StridedSlice":
        picked = _strided_slice_of_known(op)
        if np.ndim(picked) == 0:
            return picked
    return None


def _strided_slice_of_known(op):
    """What a StridedSlice op picks from a 1-D int tensor the graph partly knows: a list
    (None for unknown entries), one entry, or None when it cannot tell."""
    base = partial_vector(op.inputs[0])
    spec = [constant_value(t) for t in op.inputs[1:]]
    if base is None or any(s is None for s in spec):
        return None
    try:
        return np.array(base, dtype=object)[index_tuple(*spec, **slice_masks(op))]
    except IndexError:
        return None


def constant_value_as_shape(tensor):
    """A TensorShape from a 1-D shape tensor (-1 and unknown entries become None)."""
    dims = partial_vector(tensor)
    if dims is None:
        return unknown_shape()
    return TensorShape([None if d is None or d == -1 else d for d in dims])


# ======================================================================================
# Strided-slice specs: `t[1:3, ..., tf.newaxis, 0]` as begin, end, strides and five masks
# ======================================================================================

SLICE_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def slice_masks(op):
    """The five masks of a StridedSlice op, as keyword arguments for index_tuple."""
    return {m: op.get_attr(m) for m in SLICE_MASKS}


def index_tuple(begin, end, strides, begin_mask=0, end_mask=0, ellipsis_mask=0,
                new_axis_mask=0, shrink_axis_mask=0):
    """The NumPy index (ints, slices, None and Ellipsis) that a strided-slice spec stands
    for: bit i of a mask says what entry i is. NumPy indexing then does the rest."""
    index = []
    for i, (b, e, s) in enumerate(zip(begin.tolist(), end.tolist(), strides.tolist())):
        bit = 1 << i
        if ellipsis_mask & bit:
            index.append(Ellipsis)
        elif new_axis_mask & bit:
            index.append(None)
        elif shrink_axis_mask & bit:
            index.append(b)
        else:
            if s == 0:
                raise InvalidArgumentError(None, None, f"strides[{i}] must be non-zero")
            index.append(slice(None if begin_mask & bit else b,
                               None if end_mask & bit else e, s))
    return tuple(index)


# ======================================================================================
# Helpers the ops share: shapes in error messages, axes, shape-like arguments, nested lists
# ======================================================================================

def shape_text(dims):
    """[2,?,3] -- how TF prints a shape in its error messages."""
    if isinstance(dims, TensorShape):
        if dims.ndims is None:
            return "?"
        dims = dims.as_list()
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def merge_shapes(a, b):
    """TF's shape-inference Merge: the shape that both a and b describe -- same rank, equal
    known dimensions -- else a ValueError with TF's text, naming the dimension."""
    if a.ndims is not None and b.ndims is not None:
        if a.ndims != b.ndims:
            raise ValueError(f"Shapes must be equal rank, but are {a.ndims} and {b.ndims}")
        for i, (x, y) in enumerate(zip(a.as_list(), b.as_list())):
            if x is not None and y is not None and x != y:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {x} and "
                                 f"{y}. Shapes are {shape_text(a)} and {shape_text(b)}.")
    return a.merge_with(b)


def to_int(a):
    """A Python int from a scalar (or one-element) array."""
    return int(np.reshape(a, -1)[0])


def positive_axis(axis, rank, what="axis"):
    """`axis` made non-negative for a tensor of `rank` dims (ValueError when out of range)."""
    if not -rank <= axis < rank:
        raise ValueError(f"Expected {what} in the range [{-rank}, {rank}), but got {axis}")
    return axis % rank if rank else 0


def dim_value(x):
    """The int of a known Dimension (ValueError for an unknown one); anything else as it is."""
    if isinstance(x, Dimension):
        if x.value is None:
            raise ValueError("Cannot convert an unknown Dimension (?) to a Tensor.")
        return x.value
    return x


def int_tensor(value, name=None):
    """A shape-like argument (list, tuple, TensorShape, NumPy array or Tensor) as a Tensor."""
    if isinstance(value, (list, tuple)) and not _contains_tensor(value):
        value = [dim_value(v) for v in value]
    return convert_to_tensor(dim_value(value), name=name)


def is_tensor_like(x):
    """A Tensor or a Variable (anything convert_to_tensor turns into a graph tensor)."""
    return isinstance(x, Tensor) or hasattr(x, "_as_graph_element")


def flat_tensors(values):
    """The tensors in a (nested) list, in order -- e.g. for name_scope's `values`."""
    out = []
    for v in values:
        if is_tensor_like(v):
            out.append(v)
        elif isinstance(v, (list, tuple)):
            out.extend(flat_tensors(v))
    return out
