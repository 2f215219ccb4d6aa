"""Tensors and SparseTensors as bytes -- mirrors TensorFlow's core/kernels/serialize_sparse_op.cc,
deserialize_sparse_string_op.cc and parse_tensor_op.cc (python/ops/parsing_ops.py and
sparse_ops.py wrappers): tf.serialize_tensor / tf.parse_tensor, tf.serialize_sparse,
tf.serialize_many_sparse and tf.deserialize_many_sparse.

    s = tf.serialize_tensor([1, 2, 3])           # a scalar string: TF's TensorProto bytes
    tf.parse_tensor(s, tf.int32)                 # [1 2 3] again (its shape is known only at run)

The bytes are TF's, byte for byte. TF writes them with Tensor::AsProtoTensorContent: dtype,
tensor_shape (always present, empty for a scalar), and the values as little-endian
tensor_content -- for scalars too, unlike tf.make_tensor_proto. Strings differ by op:
serialize_tensor puts them in string_val (AsProtoField), the sparse serializers in
tensor_content as TF's EncodeStringList (every length as a varint, then all the bytes).

A SparseTensor becomes three such TensorProtos, [indices, values, dense_shape]: a [3] string
tensor (serialize_sparse), or one row per entry of the first dimension with that dimension
dropped (serialize_many_sparse: a [N, 3] string tensor, the format tf.train.batch passes
along); deserialize_many_sparse puts N rows back together with the batch dimension in front,
each other dimension the largest of the rows'. None of them has a gradient.
"""
import base64

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework import tensor_proto as _tp
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.sparse_tensor import SparseTensor, convert_sparse
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..platform.example_proto import encode_varint as _varint

__all__ = ["serialize_tensor", "parse_tensor", "serialize_sparse", "serialize_many_sparse",
           "deserialize_many_sparse"]

# TF's DataTypeString (core/framework/types.cc) where it differs from the dtype's name
_TF_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def tf_type_name(dtype):
    name = _dtypes.as_dtype(dtype).base_dtype.name
    return _TF_TYPE_NAMES.get(name, name)


def _as_bytes(s):
    return s if isinstance(s, bytes) else str(s).encode("utf-8")


def tensor_to_proto_bytes(value, dtype, strings_in_content=True):
    """TF's serialized TensorProto of `value` (Tensor::AsProtoTensorContent; with
    strings_in_content=False, strings go to string_val as AsProtoField writes them)."""
    tensor_pb2, _, _ = _tp._pb()
    dtype = _dtypes.as_dtype(dtype).base_dtype
    arr = np.asarray(value, dtype=object if dtype == _dtypes.string else dtype.as_numpy_dtype)
    proto = tensor_pb2.TensorProto(dtype=_tp.enum_of_dtype(dtype))
    proto.tensor_shape.SetInParent()
    for d in arr.shape:
        proto.tensor_shape.dim.add(size=int(d))
    if arr.size:
        if dtype == _dtypes.string:
            flat = [_as_bytes(s) for s in arr.reshape(-1)]
            if strings_in_content:
                proto.tensor_content = (b"".join(_varint(len(s)) for s in flat) +
                                        b"".join(flat))
            else:
                proto.string_val.extend(flat)
        else:
            proto.tensor_content = arr.astype(arr.dtype.newbyteorder("<")).tobytes()
    return proto.SerializeToString()


def _decode_string_list(content, n):
    lengths, i = [], 0
    for _ in range(n):
        shift = length = 0
        while True:
            if i >= len(content):
                raise ValueError("string list")
            b = content[i]
            i += 1
            length |= (b & 0x7f) << shift
            shift += 7
            if not b & 0x80:
                break
        lengths.append(length)
    out = []
    for length in lengths:
        out.append(bytes(content[i:i + length]))
        i += length
    if i != len(content):
        raise ValueError("string list")
    return out


def proto_bytes_to_tensor(data):
    """(DType, ndarray) of serialized TensorProto bytes -- TF's Tensor::FromProto. Raises
    google.protobuf's DecodeError when the bytes are no TensorProto, ValueError when the
    proto holds no valid tensor."""
    tensor_pb2, _, _ = _tp._pb()
    proto = tensor_pb2.TensorProto()
    proto.ParseFromString(bytes(data))
    if proto.dtype == 0:
        raise ValueError(str(proto))
    dtype = _tp.dtype_of_enum(proto.dtype).base_dtype
    shape = [d.size for d in proto.tensor_shape.dim]
    if any(d < 0 for d in shape):
        raise ValueError(str(proto))
    n = int(np.prod(shape, dtype=np.int64))
    if dtype == _dtypes.string and proto.tensor_content:
        values = _decode_string_list(proto.tensor_content, n)
        return dtype, np.array(values + [], dtype=object).reshape(shape)
    if proto.tensor_content:
        itemsize = np.dtype(dtype.as_numpy_dtype).itemsize
        if len(proto.tensor_content) != n * itemsize:
            raise ValueError(str(proto))
    arr = _tp.make_ndarray(proto)
    if dtype == _dtypes.string:
        arr = np.array([_as_bytes(s) for s in arr.reshape(-1)], dtype=object).reshape(shape)
    return dtype, arr


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _string_input(value, arg, op_type):
    t = convert_to_tensor(value, name=arg)
    if t.dtype.base_dtype != _dtypes.string:
        raise TypeError(f"Input '{arg}' of '{op_type}' Op has type {t.dtype.base_dtype.name} "
                        "that does not match expected type of string.")
    return t


# -- serialize_tensor / parse_tensor ----------------------------------------------------------

class SerializeTensor(OpDef):
    """A scalar string: the TensorProto of `tensor`."""
    shape = scalar_shape
    differentiable = False

    def kernel(tensor, T=None):  # noqa: N803 -- TF's attr name
        return np.array(tensor_to_proto_bytes(tensor, T, strings_in_content=False),
                        dtype=object)


class ParseTensor(OpDef):
    """The tensor a serialized TensorProto (a scalar string) holds; its dtype must be out_type."""
    differentiable = False

    def shape(op):                         # TF checks the rank at run time only
        return unknown_shape()

    def kernel(serialized, out_type=None):
        serialized = np.asarray(serialized, dtype=object)
        if serialized.shape != ():
            raise _invalid("Expected `serialized` to be a scalar, got shape: "
                           f"[{','.join(str(d) for d in serialized.shape)}]")
        data = _as_bytes(serialized[()])
        try:
            dtype, value = proto_bytes_to_tensor(data)
        except ValueError as e:
            raise _invalid(f"Cannot parse tensor from proto: {e}") from None
        except Exception:                      # google.protobuf's DecodeError
            raise _invalid("Could not parse `serialized` as TensorProto, base64: "
                           f"{base64.b64encode(data).decode()}") from None
        want = _dtypes.as_dtype(out_type).base_dtype
        if dtype != want:
            raise _invalid(f"Type mismatch between parsed tensor ({tf_type_name(dtype)}) and "
                           f"dtype ({tf_type_name(want)})")
        return value


def serialize_tensor(tensor, name=None):
    """A scalar string: `tensor` as TF's serialized TensorProto (tf.io.serialize_tensor)."""
    with name_scope(name, "SerializeTensor", [tensor]) as scope:
        t = convert_to_tensor(tensor, name="tensor")
        return apply_op("SerializeTensor", [t], {"T": t.dtype.base_dtype}, name=scope,
                        output_dtypes=[_dtypes.string])


def parse_tensor(serialized, out_type, name=None):
    """The tensor of a serialized TensorProto (tf.io.parse_tensor); InvalidArgumentError at
    run time when its dtype is not `out_type`. Its static shape is unknown, as in TF."""
    out_type = _dtypes.as_dtype(out_type).base_dtype
    with name_scope(name, "ParseTensor", [serialized]) as scope:
        s = _string_input(serialized, "serialized", "ParseTensor")
        return apply_op("ParseTensor", [s], {"out_type": out_type}, name=scope,
                        output_dtypes=[out_type])


# -- the SparseTensor serializers -----------------------------------------------------------

def _sparse_row(indices, values, shape, dtype):
    return [tensor_to_proto_bytes(indices, _dtypes.int64),
            tensor_to_proto_bytes(values, dtype),
            tensor_to_proto_bytes(shape, _dtypes.int64)]


def _check_sparse(indices, shape):
    """TF's SparseTensor::IndicesValid: each index in bounds, strictly after the one before."""
    text = lambda row: "[" + ",".join(str(int(v)) for v in row) + "]"  # noqa: E731
    for n, row in enumerate(indices):
        if np.any(row < 0) or np.any(row >= shape):
            raise _invalid(f"indices[{n}] = {text(row)} is out of bounds: need 0 <= index < "
                           f"{text(shape)}")
        if n:
            prev = tuple(int(v) for v in indices[n - 1])
            here = tuple(int(v) for v in row)
            if here == prev:
                raise _invalid(f"indices[{n}] = {text(row)} is repeated")
            if here < prev:
                raise _invalid(f"indices[{n}] = {text(row)} is out of order. Many sparse ops "
                               "require sorted indices.\n    Use `tf.sparse.reorder` to create "
                               "a correctly ordered copy.")


class SerializeSparse(OpDef):
    """A [3] string tensor: the TensorProtos of indices, values and dense_shape."""
    differentiable = False

    def shape(op):
        return TensorShape([3])

    def kernel(sparse_indices, sparse_values, sparse_shape, T=None, out_type=None):  # noqa
        return np.array(_sparse_row(np.asarray(sparse_indices, np.int64), sparse_values,
                                    np.asarray(sparse_shape, np.int64), T), dtype=object)


class SerializeManySparse(OpDef):
    """A [N, 3] string tensor: row b is the SparseTensor of the entries whose first index is
    b, that index dropped (N = dense_shape[0])."""
    differentiable = False

    def shape(op):
        return TensorShape([None, 3])

    def kernel(sparse_indices, sparse_values, sparse_shape, T=None, out_type=None):  # noqa
        shape = np.asarray(sparse_shape, np.int64).reshape(-1)
        rank = shape.size
        if rank <= 1:
            raise _invalid(f"Rank of input SparseTensor should be > 1, but saw rank: {rank}")
        indices = np.asarray(sparse_indices, np.int64).reshape(-1, rank)
        values = np.asarray(sparse_values)
        _check_sparse(indices, shape)
        rows = []
        for b in range(int(shape[0])):
            mine = indices[:, 0] == b
            rows.append(_sparse_row(indices[mine][:, 1:], values[mine], shape[1:], T))
        return np.array(rows, dtype=object).reshape(int(shape[0]), 3)


class DeserializeManySparse(OpDef):
    """The SparseTensor of N serialized rows ([N, 3] strings): the batch index in front, each
    other dimension the largest of the rows'."""
    multi_output = True
    differentiable = False

    def shape(op):
        s = op.inputs[0].get_shape().with_rank(2)
        if s[1].value is not None and s[1].value != 3:
            raise ValueError(f"Dimension must be 3 but is {s[1].value}")
        return [TensorShape([None, None]), TensorShape([None]), TensorShape([None])]

    def kernel(serialized_sparse, dtype=None):
        rows = np.asarray(serialized_sparse, dtype=object)
        if rows.shape[0] == 0:
            raise _invalid("Serialized sparse should have at least 1 serialized tensor, but "
                           f"has a zero dimension [{rows.shape[0]},{rows.shape[1]}]")
        want = _dtypes.as_dtype(dtype).base_dtype
        all_indices, all_values, shapes = [], [], []
        rank = None
        for b, (ind_b, val_b, shape_b) in enumerate(rows):
            try:
                parsed = [proto_bytes_to_tensor(_as_bytes(x)) for x in (ind_b, val_b, shape_b)]
            except Exception:
                raise _invalid("Could not parse serialized proto") from None
            (_, ind), (vdt, val), (_, shp) = parsed
            if vdt != want:
                raise _invalid(f"Requested SparseTensor of type {tf_type_name(want)} but "
                               f"SparseTensor[{b}].values.dtype() == {tf_type_name(vdt)}")
            shp = np.asarray(shp, np.int64).reshape(-1)
            if rank is not None and shp.size != rank:
                raise _invalid("Inconsistent shape across SparseTensors: rank prior to "
                               f"SparseTensor[{b}] was: {rank} but rank of SparseTensor[{b}] "
                               f"is: {shp.size}")
            rank = shp.size
            ind = np.asarray(ind, np.int64).reshape(-1, rank)
            all_indices.append(np.concatenate(
                [np.full((ind.shape[0], 1), b, np.int64), ind], axis=1))
            all_values.append(np.asarray(val).reshape(-1))
            shapes.append(shp)
        dense = np.concatenate([[len(rows)], np.max(np.stack(shapes), axis=0)]).astype(np.int64)
        values = np.concatenate(all_values) if all_values else np.zeros(0)
        if want == _dtypes.string:
            values = np.array(list(values), dtype=object)
        else:
            values = values.astype(want.as_numpy_dtype)
        return np.concatenate(all_indices).astype(np.int64), values, dense


def _sparse_inputs(sp_input, out_type, op_type):
    sp = convert_sparse(sp_input)
    out_type = _dtypes.as_dtype(out_type).base_dtype
    if out_type != _dtypes.string:
        raise TypeError(f"Value passed to parameter 'out_type' has DataType {out_type.name} not "
                        "in list of allowed values: string, variant (the sandbox has strings "
                        "only)")
    return sp, {"T": sp.values.dtype.base_dtype, "out_type": out_type}


def serialize_sparse(sp_input, name=None, out_type=_dtypes.string):
    """A [3] string tensor: `sp_input`'s indices, values and dense_shape as serialized
    TensorProtos (tf.io.serialize_sparse)."""
    sp, attrs = _sparse_inputs(sp_input, out_type, "SerializeSparse")
    with name_scope(name, "SerializeSparse", [sp.indices, sp.values, sp.dense_shape]) as scope:
        return apply_op("SerializeSparse", [sp.indices, sp.values, sp.dense_shape], attrs,
                        name=scope, output_dtypes=[_dtypes.string])


def serialize_many_sparse(sp_input, name=None, out_type=_dtypes.string):
    """A [N, 3] string tensor, one serialized SparseTensor per entry of the first dimension
    (tf.io.serialize_many_sparse); the input's indices must be sorted, its rank > 1."""
    sp, attrs = _sparse_inputs(sp_input, out_type, "SerializeManySparse")
    with name_scope(name, "SerializeManySparse",
                    [sp.indices, sp.values, sp.dense_shape]) as scope:
        return apply_op("SerializeManySparse", [sp.indices, sp.values, sp.dense_shape], attrs,
                        name=scope, output_dtypes=[_dtypes.string])


def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensor of a [N, 3] string tensor of serialized SparseTensors
    (tf.io.deserialize_many_sparse), the batch dimension first; `rank`, when given, is the
    static rank of the result, batch dimension included (TF's argument)."""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with name_scope(name, "DeserializeManySparse", [serialized_sparse]) as scope:
        s = _string_input(serialized_sparse, "serialized_sparse", "DeserializeManySparse")
        indices, values, shape = apply_op("DeserializeManySparse", [s], {"dtype": dtype},
                                          name=scope,
                                          output_dtypes=[_dtypes.int64, dtype, _dtypes.int64])
    indices.set_shape([None, rank])
    shape.set_shape([rank])
    return SparseTensor(indices, values, shape)
