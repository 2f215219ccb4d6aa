"""Parsing tf.train.Example protos -- mirrors TensorFlow 1.15's python/ops/parsing_ops.py
(tf.parse_single_example, tf.parse_example, tf.io.FixedLenFeature) and the kernels of
core/kernels/example_parsing_ops.cc.

    features = tf.parse_single_example(record, {
        "label": tf.FixedLenFeature([], tf.int64),
        "pixels": tf.FixedLenFeature([784], tf.float32),
        "name": tf.FixedLenFeature([], tf.string, default_value=""),
    })                                   # {"label": int64 [], "pixels": float32 [784], ...}

Each FixedLenFeature names a dtype (tf.float32, tf.int64 or tf.string: the FloatList,
Int64List and BytesList of the proto) and a shape: the feature must hold exactly that many
values, which are reshaped to it; a feature missing from an example takes default_value, or
fails the step when there is none. parse_example does the same for a vector of serialized
examples, giving [batch] + shape. The outputs come in the order of the sorted keys, from one
op (ParseSingleExample / ParseExample), named as TF names them.

A VarLenFeature is a feature of any number of values: it gives a tf.SparseTensor
(framework/sparse_tensor.py) -- for parse_single_example, indices [[0], [1], ...] and dense
shape [count]; for parse_example, indices [[example, position], ...] and dense shape
[batch, the longest count]. An example without the feature just has no entries. The op's
outputs are TF's: the sparse indices, values and shapes of the VarLenFeatures (keys sorted),
then the dense values of the FixedLenFeatures (keys sorted).

The proto's wire format is decoded in sandbox/platform/example_proto.py. Not here:
SparseFeature and FixedLenSequenceFeature -- asking for one says so.
"""
import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..platform.example_proto import DecodeError, parse_features
from . import array_ops

__all__ = ["FixedLenFeature", "VarLenFeature", "parse_example", "parse_single_example"]

_KIND = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of a fixed number of values: `shape`, `dtype` (float32, int64 or string) and
    the value used when an example lacks it (None: the feature is required)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values of `dtype`: parsed into a SparseTensor."""


def _decode(data, node=None):
    """{key: (kind, values)} of one serialized Example."""
    try:
        return parse_features(data)
    except (DecodeError, UnicodeDecodeError):
        shown = bytes(data)[:40]
        raise errors.InvalidArgumentError(
            node, None, f"Could not parse example input, value: {shown!r} (is it a serialized "
            "tf.train.Example?)") from None


def _values(kind, values, dtype):
    dtype = _dtypes.as_dtype(dtype)
    if dtype == _dtypes.string:
        array = np.empty(len(values), dtype=object)
        array[:] = values
        return array
    return np.asarray(values, dtype=dtype.as_numpy_dtype).reshape(-1)


def _sparse_element(found, keys, dtypes, example=None):
    """The values of each VarLenFeature of one decoded Example (none when it is missing);
    `example` is its position in parse_example's batch."""
    out = []
    for key, dtype in zip(keys, dtypes):
        dtype = _dtypes.as_dtype(dtype)
        kind, values = found.get(key, (None, []))
        if kind is not None and values and kind != _KIND[dtype.name]:
            have = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
            where = f"Key: {key}" if example is None else \
                f"Name: <unknown>, Key: {key}, Index: {example}"
            raise errors.InvalidArgumentError(
                None, None, f"{where}.  Data types don't match. Expected type: "
                f"{_dtypes.cpp_type_name(dtype)}, Actual type: {have}")
        out.append(_values(kind, values if kind is not None else [], dtype))
    return out


def _element(found, keys, dtypes, shapes, defaults, node, name_text):
    """The dense values of one decoded Example, one array per key."""
    out = []
    for key, dtype, shape, default in zip(keys, dtypes, shapes, defaults):
        dtype = _dtypes.as_dtype(dtype)
        kind, values = found.get(key, (None, []))
        count = int(np.prod(shape))
        if kind is None or (not values and count):
            if default is None or np.size(default) == 0 and count:
                raise errors.InvalidArgumentError(
                    node, None, f"{name_text}Feature: {key} (data type: "
                    f"{_dtypes.cpp_type_name(dtype)}) is required but could not be found. Give its "
                    "FixedLenFeature a default_value, or write it into every example.")
            out.append(np.asarray(default, dtype=dtype.as_numpy_dtype).reshape(shape))
            continue
        if kind != _KIND[dtype.name]:
            have = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
            raise errors.InvalidArgumentError(
                node, None, f"{name_text}Key: {key}.  Data types don't match. Data type: {have} "
                f"but expected type: {_dtypes.cpp_type_name(dtype)}")
        if len(values) != count:
            raise errors.InvalidArgumentError(
                node, None, f"{name_text}Key: {key}.  Can't parse serialized Example: it has "
                f"{len(values)} values where the FixedLenFeature's shape {list(shape)} needs "
                f"{count}.")
        out.append(_values(kind, values, dtype).reshape(shape))
    return out


def _defaults(default_arrays):
    return [None if np.size(d) == 0 and d.ndim == 1 and d.shape[0] == 0 else d
            for d in default_arrays]


def _sparse_shapes(op, rank):
    n = op.get_attr("num_sparse")
    return ([TensorShape([None, rank])] * n + [TensorShape([None])] * n +
            [TensorShape([rank])] * n)


class ParseSingleExample(OpDef):
    """The features of one serialized tf.train.Example: for each VarLenFeature its sparse
    indices, values and shape, then the dense value of each FixedLenFeature."""
    multi_output = True

    def shape(op):
        return _sparse_shapes(op, 1) + [TensorShape(s) for s in op.get_attr("dense_shapes")]

    def kernel(serialized, *dense_defaults, dense_keys, dense_shapes, Tdense,
               num_sparse=0, sparse_keys=(), sparse_types=()):
        found = _decode(np.asarray(serialized, dtype=object).item())
        sparse = _sparse_element(found, sparse_keys, sparse_types)
        indices = [np.arange(len(v), dtype=np.int64).reshape(-1, 1) for v in sparse]
        shapes = [np.array([len(v)], np.int64) for v in sparse]
        dense = _element(found, dense_keys, Tdense, dense_shapes, _defaults(dense_defaults),
                         None, "")
        return tuple(indices + sparse + shapes + dense)


class ParseExample(OpDef):
    """The features of a vector of serialized tf.train.Examples: for each VarLenFeature a
    sparse [batch, longest] tensor (indices, values, shape), then [batch] + shape for each
    FixedLenFeature."""
    multi_output = True

    def shape(op):
        batch = op.inputs[0].get_shape().with_rank(1)[0].value
        return _sparse_shapes(op, 2) + [TensorShape([batch] + list(s))
                                        for s in op.get_attr("dense_shapes")]

    def kernel(serialized, *dense_defaults, dense_keys, dense_shapes, Tdense,
               num_sparse=0, sparse_keys=(), sparse_types=()):
        examples = [_decode(data) for data in np.asarray(serialized, dtype=object).reshape(-1)]
        indices, values, shapes = [], [], []
        per_example = [_sparse_element(found, sparse_keys, sparse_types, b)
                       for b, found in enumerate(examples)]
        for k, dtype in enumerate(sparse_types):
            parts = [row[k] for row in per_example]
            indices.append(np.array([[b, i] for b, part in enumerate(parts)
                                     for i in range(len(part))], np.int64).reshape(-1, 2))
            values.append(np.concatenate(parts) if parts else
                          _values(None, [], dtype))
            shapes.append(np.array([len(parts), max((len(p) for p in parts), default=0)],
                                   np.int64))
        rows = [_element(found, dense_keys, Tdense, dense_shapes, _defaults(dense_defaults),
                         None, "Name: <unknown>, ") for found in examples]
        outputs = []
        for i, (dtype, shape) in enumerate(zip(Tdense, dense_shapes)):
            np_dtype = object if dtype == "string" else _dtypes.as_dtype(dtype).as_numpy_dtype
            column = [row[i] for row in rows]
            outputs.append(np.stack(column).astype(np_dtype, copy=False) if column else
                           np.zeros([0] + list(shape), dtype=np_dtype))
        return tuple(indices + values + shapes + outputs)


def _sparse_features(features):
    """(keys, dtypes) of the VarLenFeatures, keys sorted."""
    keys, dtypes = [], []
    for key in sorted(features):
        if isinstance(features[key], VarLenFeature):
            dtype = _dtypes.as_dtype(features[key].dtype).base_dtype
            if dtype.name not in _KIND:
                raise TypeError(f"Value passed to parameter 'sparse_types' has DataType "
                                f"{dtype.name} not in list of allowed values: float32, int64, "
                                f"string (feature {key!r}: parse as int64 and tf.cast it).")
            keys.append(key)
            dtypes.append(dtype)
    return keys, dtypes


def _dense_features(features):
    """(keys, dtypes, shapes, default tensors) of the FixedLenFeatures, keys sorted."""
    if not features:
        raise ValueError("Missing: features was empty.")
    keys, dtypes, shapes, defaults = [], [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            continue
        if not isinstance(feature, FixedLenFeature):
            raise NotImplementedError(
                f"Feature {key!r}: the sandbox parses FixedLenFeature and VarLenFeature only, "
                f"not {type(feature).__name__}.")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}.")
        shape = TensorShape(feature.shape)
        if not shape.is_fully_defined():
            raise ValueError(f"Feature {key}: the shape {shape} of a FixedLenFeature must be "
                             "fully defined.")
        dtype = _dtypes.as_dtype(feature.dtype).base_dtype
        if dtype.name not in _KIND:
            raise TypeError(f"Value passed to parameter 'dense_defaults' has DataType "
                            f"{dtype.name} not in list of allowed values: float32, int64, "
                            f"string (feature {key!r}: parse as int64 and tf.cast it).")
        keys.append(key)
        dtypes.append(dtype)
        shapes.append(shape.as_list())
        defaults.append(feature.default_value)
    return keys, dtypes, shapes, defaults


def _parse(op_type, scope_name, serialized, features, name):
    keys, dtypes, shapes, defaults = _dense_features(features)
    sparse_keys, sparse_types = _sparse_features(features)
    with name_scope(name, scope_name, [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        default_tensors = []
        for key, dtype, shape, default in zip(keys, dtypes, shapes, defaults):
            if default is None:
                t = convert_to_tensor(np.zeros([0], dtype=dtype.as_numpy_dtype
                                               if dtype != _dtypes.string else object),
                                      dtype=dtype, name=f"key_{key}")
            else:
                t = array_ops.reshape(convert_to_tensor(default, dtype=dtype), shape,
                                      name=f"key_{key}")
            default_tensors.append(t)
        n = len(sparse_keys)
        outputs = apply_op(
            op_type, [serialized] + default_tensors,
            {"dense_keys": keys, "dense_shapes": shapes, "Tdense": [d.name for d in dtypes],
             "num_sparse": n, "sparse_keys": sparse_keys,
             "sparse_types": [d.name for d in sparse_types]},
            name=op_type, output_dtypes=[_dtypes.int64] * n + sparse_types +
            [_dtypes.int64] * n + dtypes)
        outputs = outputs.op.outputs if isinstance(outputs, Tensor) else outputs
        result = dict(zip(keys, outputs[3 * n:]))
        for k, key in enumerate(sparse_keys):        # indices, values, shape of each one
            result[key] = SparseTensor(outputs[k], outputs[n + k], outputs[2 * n + k])
        return result


def parse_single_example(serialized, features, name=None, example_names=None):
    """The features of one serialized tf.train.Example (a scalar string): a dict from each key
    of `features` to a dense tensor of its dtype and shape (a FixedLenFeature) or a 1-D
    SparseTensor of its values (a VarLenFeature)."""
    serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    serialized.get_shape().with_rank(0)
    return _parse("ParseSingleExample", "ParseSingleExample", serialized, features, name)


def parse_example(serialized, features, name=None, example_names=None):
    """The features of a vector of serialized tf.train.Examples: a dict from each key of
    `features` to a dense tensor of shape [batch] + the feature's shape (a FixedLenFeature) or
    a [batch, longest] SparseTensor (a VarLenFeature)."""
    serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    serialized.get_shape().with_rank(1)
    return _parse("ParseExample", "ParseExample", serialized, features, name)
