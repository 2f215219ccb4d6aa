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

The proto's wire format is decoded in sandbox/platform/example_proto.py. Not here:
VarLenFeature, SparseFeature and FixedLenSequenceFeature (their results are SparseTensors,
which the sandbox does not have) -- asking for one says so.
"""
import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..platform.example_proto import DecodeError, parse_features
from . import array_ops

__all__ = ["FixedLenFeature", "VarLenFeature", "parse_example", "parse_single_example"]

_KIND = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TYPE_TEXT = {"float32": "float", "int64": "int64", "string": "string"}


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of a fixed number of values: `shape`, `dtype` (float32, int64 or string) and
    the value used when an example lacks it (None: the feature is required)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values (TF parses it into a SparseTensor)."""


def _element(data, keys, dtypes, shapes, defaults, node, name_text):
    """The dense values of one serialized Example, one array per key."""
    try:
        found = parse_features(data)
    except (DecodeError, UnicodeDecodeError):
        shown = bytes(data)[:40]
        raise errors.InvalidArgumentError(
            node, None, f"Could not parse example input, value: {shown!r} (is it a serialized "
            "tf.train.Example?)") from None
    out = []
    for key, dtype, shape, default in zip(keys, dtypes, shapes, defaults):
        dtype = _dtypes.as_dtype(dtype)
        kind, values = found.get(key, (None, []))
        count = int(np.prod(shape))
        if kind is None or (not values and count):
            if default is None or np.size(default) == 0 and count:
                raise errors.InvalidArgumentError(
                    node, None, f"{name_text}Feature: {key} (data type: "
                    f"{_TYPE_TEXT[dtype.name]}) is required but could not be found. Give its "
                    "FixedLenFeature a default_value, or write it into every example.")
            out.append(np.asarray(default, dtype=dtype.as_numpy_dtype).reshape(shape))
            continue
        if kind != _KIND[dtype.name]:
            have = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
            raise errors.InvalidArgumentError(
                node, None, f"{name_text}Key: {key}.  Data types don't match. Data type: {have} "
                f"but expected type: {_TYPE_TEXT[dtype.name]}")
        if len(values) != count:
            raise errors.InvalidArgumentError(
                node, None, f"{name_text}Key: {key}.  Can't parse serialized Example: it has "
                f"{len(values)} values where the FixedLenFeature's shape {list(shape)} needs "
                f"{count}.")
        if dtype == _dtypes.string:
            array = np.empty(len(values), dtype=object)
            array[:] = values
        else:
            array = np.asarray(values, dtype=dtype.as_numpy_dtype)
        out.append(array.reshape(shape))
    return out


def _defaults(default_arrays):
    return [None if np.size(d) == 0 and d.ndim == 1 and d.shape[0] == 0 else d
            for d in default_arrays]


class ParseSingleExample(OpDef):
    """The dense features of one serialized tf.train.Example."""
    multi_output = True

    def shape(op):
        return [TensorShape(s) for s in op.get_attr("dense_shapes")]

    def kernel(serialized, *dense_defaults, dense_keys, dense_shapes, Tdense,
               num_sparse=0, sparse_keys=(), sparse_types=()):
        data = np.asarray(serialized, dtype=object).item()
        return tuple(_element(data, dense_keys, Tdense, dense_shapes,
                              _defaults(dense_defaults), None, ""))


class ParseExample(OpDef):
    """The dense features of a vector of serialized tf.train.Examples: [batch] + shape each."""
    multi_output = True

    def shape(op):
        batch = op.inputs[0].get_shape().with_rank(1)[0].value
        return [TensorShape([batch] + list(s)) for s in op.get_attr("dense_shapes")]

    def kernel(serialized, *dense_defaults, dense_keys, dense_shapes, Tdense,
               num_sparse=0, sparse_keys=(), sparse_types=()):
        rows = [_element(data, dense_keys, Tdense, dense_shapes, _defaults(dense_defaults),
                         None, "Name: <unknown>, ")
                for data in np.asarray(serialized, dtype=object).reshape(-1)]
        outputs = []
        for i, (dtype, shape) in enumerate(zip(Tdense, dense_shapes)):
            np_dtype = object if dtype == "string" else _dtypes.as_dtype(dtype).as_numpy_dtype
            column = [row[i] for row in rows]
            outputs.append(np.stack(column).astype(np_dtype, copy=False) if column else
                           np.zeros([0] + list(shape), dtype=np_dtype))
        return tuple(outputs)


def _dense_features(features):
    """(keys, dtypes, shapes, default tensors) of the FixedLenFeatures, keys sorted."""
    if not features:
        raise ValueError("Missing: features was empty.")
    keys, dtypes, shapes, defaults = [], [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature) or not isinstance(feature, FixedLenFeature):
            raise NotImplementedError(
                f"Feature {key!r}: the sandbox parses FixedLenFeature only; "
                f"{type(feature).__name__} gives a SparseTensor, which the sandbox does not "
                "have. Use FixedLenFeature(shape, dtype, default_value) with a fixed shape.")
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
        outputs = apply_op(
            op_type, [serialized] + default_tensors,
            {"dense_keys": keys, "dense_shapes": shapes, "Tdense": [d.name for d in dtypes],
             "num_sparse": 0, "sparse_keys": [], "sparse_types": []},
            name=op_type, output_dtypes=dtypes)
        return dict(zip(keys, outputs.op.outputs if len(keys) == 1 else outputs))


def parse_single_example(serialized, features, name=None, example_names=None):
    """The features of one serialized tf.train.Example (a scalar string): a dict from each key
    of `features` (FixedLenFeatures) to a dense tensor of its dtype and shape."""
    serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    serialized.get_shape().with_rank(0)
    return _parse("ParseSingleExample", "ParseSingleExample", serialized, features, name)


def parse_example(serialized, features, name=None, example_names=None):
    """The features of a vector of serialized tf.train.Examples: a dict from each key of
    `features` to a dense tensor of shape [batch] + the feature's shape."""
    serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
    serialized.get_shape().with_rank(1)
    return _parse("ParseExample", "ParseExample", serialized, features, name)
