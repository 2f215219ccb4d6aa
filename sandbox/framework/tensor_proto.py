"""TensorProto values -- mirrors TensorFlow's tf.make_tensor_proto and tf.make_ndarray
(python/framework/tensor_util.py).

    proto = tf.make_tensor_proto([1, 2, 3])      # dtype: DT_INT32, tensor_shape, tensor_content
    tf.make_ndarray(proto)                       # array([1, 2, 3], dtype=int32)

The TensorProto is a real protocol buffer: tensorboardX's copy of TF's tensor.proto (the one
the summary FileWriter and tf.train.write_graph already use), imported when first needed. Its
fields are TF's -- dtype, tensor_shape, tensor_content and the *_val lists -- and they are
filled as TF fills them: numbers of more than one element as little-endian tensor_content,
scalars and a value broadcast to a larger `shape` in *_val, booleans, complex numbers and
strings always in *_val. make_ndarray is the inverse (a short *_val is padded with its last
value, as TF does).

bfloat16 travels as its 16 raw bits (tensor_content, or half_val for one value), as TF 2.15
writes it; the quantized types (qint8 ...) as their integers in int_val, and only from NumPy
arrays (a Python list of ints is no quantized value: TypeError, as in TF).
One difference from TF: tensorboardX's copy of tensor.proto predates the uint32_val and
uint64_val fields, so a single uint32/uint64 value (or one broadcast to `shape`) is written as
tensor_content of all its elements -- the same array comes back, through TF's make_ndarray too.
"""
import numpy as np

from . import dtypes

__all__ = ["make_tensor_proto", "make_ndarray"]

# dtypes TF writes as tensor_content when there is more than one element
_CONTENT_TYPES = {"float16", "bfloat16", "float32", "float64", "int32", "uint8", "int16", "int8",
                  "int64", "uint16", "uint32", "uint64", "qint8", "quint8", "qint16", "quint16",
                  "qint32"}
# dtype name -> the *_val field that holds its values
_VAL_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val",
               "uint8": "int_val", "uint16": "int_val", "int16": "int_val", "int8": "int_val",
               "qint8": "int_val", "quint8": "int_val", "qint16": "int_val",
               "quint16": "int_val", "qint32": "int_val",
               "int64": "int64_val", "bool": "bool_val", "complex64": "scomplex_val",
               "complex128": "dcomplex_val", "float16": "half_val", "bfloat16": "half_val",
               "uint32": "uint32_val", "uint64": "uint64_val", "string": "string_val"}


def _pb():
    from tensorboardX.proto import tensor_pb2, tensor_shape_pb2, types_pb2
    return tensor_pb2, tensor_shape_pb2, types_pb2


def enum_of_dtype(dtype):
    """TF's DataType enum value of a DType (dtypes.py keeps the table: DType.as_datatype_enum)."""
    return dtype.as_datatype_enum


def dtype_of_enum(value):
    """The DType of TF's DataType enum value (a *_REF value gives the reference dtype)."""
    try:
        return dtypes.as_dtype(int(value))
    except TypeError:
        raise TypeError(f"TF's DataType {int(value)} has no dtype in the sandbox (it has TF "
                        "1.15's: numbers, bools, strings, the quantized types, resource and "
                        "variant).") from None


def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False,
                      allow_broadcast=False):
    """A TensorProto holding `values` -- TF's make_tensor_proto. `dtype` forces the type
    (Python floats give float32, ints int32 when they fit, as TF); `shape` may be larger than
    the values when there is a single value (broadcast) or, as TF allows, fewer values than
    elements (make_ndarray repeats the last); verify_shape=True requires the values' shape."""
    tensor_pb2, tensor_shape_pb2, _ = _pb()
    if isinstance(values, tensor_pb2.TensorProto) or type(values).__name__ == "TensorProto":
        return values
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if hasattr(values, "op") and hasattr(values, "dtype") and hasattr(values, "graph"):
        raise TypeError(f"Failed to convert elements of {values} to Tensor. Consider casting "
                        "elements to a supported type. (make_tensor_proto takes values, not "
                        "a graph Tensor: run it first.)")
    np_dt = dtype.base_dtype.as_numpy_dtype if dtype is not None else None
    is_string = dtype is not None and dtype.base_dtype == dtypes.string
    if isinstance(values, (np.ndarray, np.generic)):
        nparray = values.astype(np_dt) if np_dt is not None and not is_string else values
    else:
        if dtype is not None and dtype.is_quantized:
            raise TypeError(f"Expected {dtype.base_dtype.name}, but got {values!r} of type "
                            f"'{type(values).__name__}'. (Quantized values come from NumPy "
                            "arrays: np.array(values, np.int8) for qint8 ...)")
        if values is None:
            raise ValueError("None values not supported.")
        if shape is not None and np.prod(shape, dtype=np.int64) == 0:
            nparray = np.empty(shape, dtype=object if is_string else np_dt)
        else:
            try:
                nparray = np.array(values, dtype=object if is_string else np_dt)
            except (TypeError, ValueError) as e:
                raise TypeError(f"Failed to convert elements of {values} to Tensor. Consider "
                                f"casting elements to a supported type. ({e})") from None
        if nparray.dtype == np.float64 and dtype is None:
            nparray = nparray.astype(np.float32)
        elif nparray.dtype == np.int64 and dtype is None:
            down = nparray.astype(np.int32)
            if np.array_equal(down, nparray):
                nparray = down
    try:
        numpy_dtype = dtypes.as_dtype(nparray.dtype)
    except TypeError:
        raise TypeError(f"Unrecognized data type: {nparray.dtype}.") from None
    if dtype is not None and dtype.base_dtype != numpy_dtype.base_dtype:
        raise TypeError(f"`dtype` {dtype.base_dtype} is not compatible with {values} of dtype "
                        f"{nparray.dtype}.")
    if shape is None:
        shape = nparray.shape
        is_same_size = True
        shape_size = nparray.size
    else:
        shape = [int(d) for d in shape]
        shape_size = int(np.prod(shape, dtype=np.int64))
        is_same_size = shape_size == nparray.size
        if allow_broadcast:
            if nparray.shape == (1,) or nparray.shape == ():
                pass
            elif nparray.size != shape_size:
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{nparray.shape}.")
        else:
            if verify_shape and nparray.shape != tuple(shape):
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{nparray.shape}.")
            if nparray.size > shape_size:
                raise ValueError("Too many elements provided. Takes at most "
                                 f"{shape_size:d}, but got {nparray.size:d}.")
    proto = tensor_pb2.TensorProto(
        dtype=enum_of_dtype(numpy_dtype),
        tensor_shape=tensor_shape_pb2.TensorShapeProto(
            dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=d) for d in shape]))
    name = numpy_dtype.base_dtype.name
    field = _VAL_FIELDS.get(name)
    has_field = field in tensor_pb2.TensorProto.DESCRIPTOR.fields_by_name
    if not has_field and name in _CONTENT_TYPES and shape_size:   # uint32/uint64: docstring
        if not is_same_size:            # the values padded with the last, as make_ndarray does
            nparray = np.pad(nparray.ravel(), (0, shape_size - nparray.size), "edge")
        proto.tensor_content = nparray.astype(nparray.dtype.newbyteorder("<")).tobytes()
        return proto
    if is_same_size and name in _CONTENT_TYPES and shape_size > 1:
        proto.tensor_content = nparray.astype(nparray.dtype.newbyteorder("<")).tobytes()
        return proto
    flat = nparray.ravel()
    if not has_field:
        raise TypeError(f"Element type not supported in TensorProto: {nparray.dtype.name}")
    target = getattr(proto, field)
    if name == "string":
        target.extend(v if isinstance(v, bytes) else str(v).encode("utf-8") for v in flat)
    elif name in ("float16", "bfloat16"):
        target.extend(int(x) for x in np.asarray(flat).view(np.uint16))
    elif name in ("complex64", "complex128"):
        for x in flat:
            target.extend([float(x.real), float(x.imag)])
    elif numpy_dtype.is_quantized:
        target.extend(_integers_of(flat).tolist())
    else:
        target.extend(flat.tolist())
    return proto


def make_ndarray(tensor):
    """The NumPy array of a TensorProto -- TF's make_ndarray: same dtype and shape; strings
    come back as bytes objects (dtype object)."""
    shape = [d.size for d in tensor.tensor_shape.dim]
    num_elements = int(np.prod(shape, dtype=np.int64))
    tensor_dtype = dtype_of_enum(tensor.dtype).base_dtype
    dtype = tensor_dtype.as_numpy_dtype
    if tensor.tensor_content:
        return np.frombuffer(tensor.tensor_content,
                             dtype=np.dtype(dtype).newbyteorder("<")).astype(dtype).reshape(shape)
    name = tensor_dtype.name
    if name == "string":
        values = list(tensor.string_val)
        padding = num_elements - len(values)
        if padding > 0:
            last = values[-1] if values else ""
            values.extend([last] * padding)
        return np.array(values, dtype=object).reshape(shape)
    field = _VAL_FIELDS.get(name)
    if field is None or not hasattr(tensor, field):
        raise TypeError(f"Unsupported tensor type: {tensor_dtype}. See "
                        "https://www.tensorflow.org/api_docs/python/tf/dtypes for supported "
                        "TF dtypes.")
    raw = getattr(tensor, field)
    if name in ("float16", "bfloat16"):
        values = np.fromiter(raw, dtype=np.uint16).view(dtype)
    elif name in ("complex64", "complex128"):
        it = iter(raw)
        values = np.array([complex(a, b) for a, b in zip(it, it)], dtype=dtype)
    elif tensor_dtype.is_quantized:
        values = np.fromiter(raw, dtype=_integers_of(np.empty(0, dtype)).dtype).view(dtype)
    else:
        values = np.fromiter(raw, dtype=dtype)
    if values.size == 0:
        return np.zeros(shape, dtype)
    if values.size != num_elements:
        values = np.pad(values, (0, num_elements - values.size), "edge")
    return values.reshape(shape)


def _integers_of(array):
    """The integers inside a quantized array (its one field: int8 for qint8 ...); other
    arrays as they are."""
    return array[array.dtype.names[0]] if array.dtype.names else array

