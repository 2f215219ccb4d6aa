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

A FixedLenSequenceFeature (allow_missing=True, as TF requires here) is a dense feature of any
number of rows of its shape: parse_single_example gives [rows] + shape; parse_example gives
[batch, the most rows] + shape, the shorter examples padded with default_value (a scalar; 0 or
b"" when None). The op sees its shape as [-1] + shape, as TF's dense_shapes do.

A SparseFeature builds one SparseTensor from two features of each example: index_key (int64
positions, or a list of keys for several dimensions) and value_key (the values); the dense
shape is [batch] + size (parse_example) or size (parse_single_example). As in TF, the two are
parsed as VarLenFeatures and then merged (TF's sparse_ops.sparse_merge: the ids become the last
columns of the indices, then SparseReorder unless already_sorted) -- here by one small op,
SparseFeatureMerge; like TF's it does not check that the ids are below size.

The proto's wire format is decoded in sandbox/platform/example_proto.py; SequenceExamples are
parsed in sandbox/ops/parsing_sequence_ops.py.
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

__all__ = ["FixedLenFeature", "FixedLenSequenceFeature", "VarLenFeature", "SparseFeature",
           "parse_example", "parse_single_example"]

_KIND = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}


class FixedLenFeature(collections.namedtuple("FixedLenFeature",
                                             ["shape", "dtype", "default_value"])):
    """A feature of a fixed number of values: `shape`, `dtype` (float32, int64 or string) and
    the value used when an example lacks it (None: the feature is required)."""

    def __new__(cls, shape, dtype, default_value=None):
        return super().__new__(cls, shape, dtype, default_value)


class VarLenFeature(collections.namedtuple("VarLenFeature", ["dtype"])):
    """A feature of any number of values of `dtype`: parsed into a SparseTensor."""


class FixedLenSequenceFeature(collections.namedtuple(
        "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"])):
    """A feature of any number of rows of `shape`: a dense [rows] + shape tensor. In
    parse_example it needs allow_missing=True; default_value (a scalar) pads the examples with
    fewer rows. In a SequenceExample's feature lists (parsing_sequence_ops.py) each time step
    is one row, and allow_missing lets the whole list be absent (no default_value there)."""

    def __new__(cls, shape, dtype, allow_missing=False, default_value=None):
        return super().__new__(cls, shape, dtype, allow_missing, default_value)


class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A SparseTensor made of two features of each example: its positions (index_key, int64 --
    or a list of keys, one per dimension) and its values (value_key, of `dtype`); `size` is the
    dense shape (an int, or a list with one per index key). already_sorted=True skips the
    reordering of the entries."""

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtype, size, already_sorted)


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


def _rows(key, kind, values, dtype, shape, name_text, example):
    """The [rows] + shape[1:] array of a FixedLenSequenceFeature (its shape is [-1] + ...)."""
    inner = list(shape[1:])
    if kind is None:                       # missing: no rows (allow_missing is required)
        return _values(None, [], dtype).reshape([0] + inner)
    where = f"{name_text}Key: {key}" + ("" if example is None else f", Index: {example}")
    if kind != _KIND[dtype.name]:
        have = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}[kind]
        raise errors.InvalidArgumentError(
            None, None, f"{where}.  Data types don't match. Data type: {have} but expected "
            f"type: {_dtypes.cpp_type_name(dtype)}")
    stride = int(np.prod(inner))
    if (len(values) % stride if stride else len(values)):
        if example is None:                # TF 2.15's message for a single example
            raise errors.InvalidArgumentError(
                None, None, f"{where}.  Can't parse serialized Example: it has {len(values)} "
                f"values, not a multiple of the {stride} of the FixedLenSequenceFeature's "
                f"shape {inner}.")
        raise errors.InvalidArgumentError(
            None, None, f"{where}.  Number of {_dtypes.cpp_type_name(dtype)} values is not a "
            f"multiple of stride length. Saw {len(values)} values but output shape is: "
            f"[{','.join(['?'] + [str(d) for d in inner])}]")
    return _values(kind, values, dtype).reshape([-1 if stride else 0] + inner)


def _element(found, keys, dtypes, shapes, defaults, node, name_text, example=None):
    """The dense values of one decoded Example, one array per key (a FixedLenSequenceFeature:
    its rows, unpadded); `example` is its position in parse_example's batch."""
    out = []
    for key, dtype, shape, default in zip(keys, dtypes, shapes, defaults):
        dtype = _dtypes.as_dtype(dtype)
        kind, values = found.get(key, (None, []))
        if shape and shape[0] == -1:
            out.append(_rows(key, kind, values, dtype, shape, name_text, example))
            continue
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


def _shape(dims):
    """The TensorShape of a dense_shapes attr: -1 is the unknown length of a
    FixedLenSequenceFeature."""
    return TensorShape([None if d == -1 else d for d in _dims(dims)])


def _text(value):
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _dims(shape):
    """A dense_shapes entry as a list of ints, -1 unknown: the op keeps lists; a graph read
    back from a GraphDef gives TensorShapes (list(shape) in TF's AttrValue)."""
    if isinstance(shape, TensorShape):
        return [-1 if d is None else d for d in shape.as_list()]
    return list(shape)


def _sparse_shapes(op, rank):
    n = op.get_attr("num_sparse")
    return ([TensorShape([None, rank])] * n + [TensorShape([None])] * n +
            [TensorShape([rank])] * n)


class ParseSingleExample(OpDef):
    """The features of one serialized tf.train.Example: for each VarLenFeature its sparse
    indices, values and shape, then the dense value of each FixedLenFeature."""
    multi_output = True

    def shape(op):
        return _sparse_shapes(op, 1) + [_shape(s) for s in op.get_attr("dense_shapes")]

    def kernel(serialized, *dense_defaults, dense_keys, dense_shapes, Tdense,
               num_sparse=0, sparse_keys=(), sparse_types=()):
        found = _decode(np.asarray(serialized, dtype=object).item())
        dense_shapes = [_dims(s) for s in dense_shapes]
        sparse = _sparse_element(found, sparse_keys, sparse_types)
        indices = [np.arange(len(v), dtype=np.int64).reshape(-1, 1) for v in sparse]
        shapes = [np.array([len(v)], np.int64) for v in sparse]
        dense = _element(found, dense_keys, Tdense, dense_shapes, _defaults(dense_defaults),
                         None, "")
        return tuple(indices + sparse + shapes + dense)


class ParseExample(OpDef):
    """The features of a vector of serialized tf.train.Examples: for each VarLenFeature a
    sparse [batch, longest] tensor (indices, values, shape), then [batch] + shape for each
    FixedLenFeature. TF's node: its inputs are the examples, their names (for errors; may be
    empty), one scalar string per sparse key and per dense key, then the dense defaults."""
    multi_output = True

    def shape(op):
        batch = op.inputs[0].get_shape().with_rank(1)[0].value
        n = op.get_attr("Nsparse")
        return ([TensorShape([None, 2])] * n + [TensorShape([None])] * n +
                [TensorShape([2])] * n + [TensorShape([batch]).concatenate(_shape(s))
                                          for s in op.get_attr("dense_shapes")])

    def kernel(serialized, names, *keys_and_defaults, Nsparse, Ndense, sparse_types, Tdense,
               dense_shapes):
        examples = [_decode(data) for data in np.asarray(serialized, dtype=object).reshape(-1)]
        dense_shapes = [_dims(s) for s in dense_shapes]
        sparse_keys, dense_keys = [[_text(np.asarray(k).item()) for k in keys] for keys in
                                   (keys_and_defaults[:Nsparse],
                                    keys_and_defaults[Nsparse:Nsparse + Ndense])]
        dense_defaults = keys_and_defaults[Nsparse + Ndense:]
        names = [_text(n) for n in np.asarray(names, dtype=object).reshape(-1)]
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
                         None, f"Name: {names[b] if names else '<unknown>'}, ", b)
                for b, found in enumerate(examples)]
        outputs = []
        for i, (dtype, shape) in enumerate(zip(Tdense, dense_shapes)):
            np_dtype = object if dtype == "string" else _dtypes.as_dtype(dtype).as_numpy_dtype
            column = [row[i] for row in rows]
            if shape and shape[0] == -1:          # pad to the most rows with the default
                outputs.append(_pad(column, shape, dense_defaults[i], np_dtype))
                continue
            outputs.append(np.stack(column).astype(np_dtype, copy=False) if column else
                           np.zeros([0] + list(shape), dtype=np_dtype))
        return tuple(indices + values + shapes + outputs)


def _pad(rows, shape, padding, np_dtype):
    """[batch, the most rows] + shape[1:]: each example's rows, then `padding`."""
    longest = max((len(r) for r in rows), default=0)
    out = np.empty([len(rows), longest] + list(shape[1:]), dtype=np_dtype)
    out[...] = np.asarray(padding).item() if np_dtype is not object else \
        np.asarray(padding, dtype=object).reshape(-1)[0]
    for b, r in enumerate(rows):
        out[b, :len(r)] = r
    return out


class SparseFeatureMerge(OpDef):
    """A SparseFeature's SparseTensor from the parsed VarLenFeatures of its index keys and its
    value key: TF's sparse_ops.sparse_merge (the ids become the last columns of the indices,
    the dense shape's last dimension becomes `vocab_size`, then SparseReorder unless
    already_sorted) in one kernel. Inputs: the first ids' indices and dense shape, the values,
    then the values of each index key's ids. As in TF, the ids are not checked against the
    size."""
    multi_output = True

    def shape(op):
        rank = op.inputs[0].get_shape()[1].value
        rank = None if rank is None else rank - 1 + len(op.get_attr("vocab_size"))
        return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]

    def kernel(ids_indices, ids_shape, values, *ids_values, vocab_size, already_sorted=False):
        parts = [ids_indices[:, :-1]] + [np.asarray(v, np.int64).reshape(-1, 1)
                                          for v in ids_values]
        for i, part in enumerate(parts[1:], 1):
            if len(part) != len(parts[0]):
                raise errors.InvalidArgumentError(
                    None, None, f"ConcatOp : Dimension 0 in both shapes must be equal: shape[0] "
                    f"= [{len(parts[0])},{parts[0].shape[1]}] vs. shape[{i}] = [{len(part)},1]")
        indices = np.concatenate(parts, axis=1).astype(np.int64)
        shape = np.concatenate([ids_shape[:-1], np.asarray(vocab_size, np.int64)])
        if not already_sorted:
            if len(indices) != len(values):
                raise errors.InvalidArgumentError(
                    None, None, f"Number of elements in indices ({len(indices)}) and values "
                    f"({len(values)}) do not match")
            order = np.lexsort(indices.T[::-1]) if indices.size else np.arange(len(values))
            indices, values = indices[order], values[order]
        return indices, values, shape.astype(np.int64)


def _sparse_features(features):
    """(keys, dtypes) of the VarLenFeatures and of the index and value keys of the
    SparseFeatures, in TF's order (features by sorted key; a SparseFeature's index keys sorted,
    then its value key)."""
    keys, dtypes = [], []

    def add(key, dtype):
        dtype = _dtypes.as_dtype(dtype).base_dtype
        if key in keys:
            if dtypes[keys.index(key)] != dtype:
                raise ValueError(f"Conflicting type {dtypes[keys.index(key)]} vs {dtype} for "
                                 f"feature {key}.")
            return
        if dtype.name not in _KIND:
            raise TypeError(f"Value passed to parameter 'sparse_types' has DataType "
                            f"{dtype.name} not in list of allowed values: float32, int64, "
                            f"string (feature {key!r}: parse as int64 and tf.cast it).")
        keys.append(key)
        dtypes.append(dtype)

    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, VarLenFeature):
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature={feature}")
            add(key, feature.dtype)
        elif isinstance(feature, SparseFeature):
            if not feature.index_key:
                raise ValueError(f"Missing index_key for SparseFeature {feature}.")
            if not feature.value_key:
                raise ValueError(f"Missing value_key for SparseFeature {feature}.")
            if not feature.dtype:
                raise ValueError(f"Missing type for feature {key}. Received feature="
                                 f"{feature}.")
            index_keys = [feature.index_key] if isinstance(feature.index_key, str) else \
                list(feature.index_key)
            for index_key in sorted(index_keys):
                add(index_key, _dtypes.int64)
            add(feature.value_key, feature.dtype)
    return keys, dtypes


def _prepend_none_dimension(features):
    """TF's _prepend_none_dimension: in parse_example a FixedLenSequenceFeature's shape gets a
    leading unknown dimension (the rows), and it must allow missing."""
    out = dict(features)
    for key, feature in features.items():
        if isinstance(feature, FixedLenSequenceFeature):
            if not feature.allow_missing:
                raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing "
                                 "to be True.")
            out[key] = FixedLenSequenceFeature([None] + list(feature.shape or []),
                                               feature.dtype, feature.allow_missing,
                                               feature.default_value)
    return out


def _dense_features(features):
    """(keys, dtypes, shapes, default tensors) of the FixedLenFeatures, keys sorted."""
    if not features:
        raise ValueError("Missing: features was empty.")
    keys, dtypes, shapes, defaults = [], [], [], []
    for key in sorted(features):
        feature = features[key]
        if isinstance(feature, (VarLenFeature, SparseFeature)):
            continue
        if not isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
            raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}.")
        shape = TensorShape(feature.shape)
        if isinstance(feature, FixedLenSequenceFeature):      # [None] + a known shape
            if shape.ndims == 0 or shape[0].value is not None or \
                    not shape[1:].is_fully_defined():
                raise ValueError(f"Feature {key}: the shape {shape} of a "
                                 "FixedLenSequenceFeature must be fully defined.")
            shape = [-1] + shape[1:].as_list()
        elif shape.ndims and shape[0].value is None:
            raise ValueError(f"First dimension of shape for feature {key} unknown. Consider "
                             f"using FixedLenSequenceFeature. Received feature={feature}.")
        elif not shape.is_fully_defined():
            raise ValueError(f"Feature {key}: the shape {shape} of a FixedLenFeature must be "
                             "fully defined.")
        else:
            shape = shape.as_list()
        dtype = _dtypes.as_dtype(feature.dtype).base_dtype
        if dtype.name not in _KIND:
            raise TypeError(f"Value passed to parameter 'dense_defaults' has DataType "
                            f"{dtype.name} not in list of allowed values: float32, int64, "
                            f"string (feature {key!r}: parse as int64 and tf.cast it).")
        keys.append(key)
        dtypes.append(dtype)
        shapes.append(shape)
        defaults.append(feature.default_value)
    return keys, dtypes, shapes, defaults


def _parse(op_type, scope_name, serialized, features, name, example_names=None):
    if not features:
        raise ValueError("Missing: features was empty.")
    features = _prepend_none_dimension(features)
    keys, dtypes, shapes, defaults = _dense_features(features)
    sparse_keys, sparse_types = _sparse_features(features)
    if set(keys) & set(sparse_keys):
        raise ValueError(f"Dense and sparse keys must not intersect; dense_keys: {keys}, "
                         f"sparse_keys: {sparse_keys}, intersection: "
                         f"{set(keys) & set(sparse_keys)}")
    with name_scope(name, scope_name, [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        default_tensors = []
        for key, dtype, shape, default in zip(keys, dtypes, shapes, defaults):
            if shape and shape[0] == -1:        # a FixedLenSequenceFeature: a scalar padding
                t = convert_to_tensor("" if dtype == _dtypes.string else 0, dtype=dtype) \
                    if default is None else \
                    array_ops.reshape(convert_to_tensor(default, dtype=dtype,
                                                        name=f"padding_{key}"), [])
            elif default is None:
                t = convert_to_tensor(np.zeros([0], dtype=dtype.as_numpy_dtype
                                               if dtype != _dtypes.string else object),
                                      dtype=dtype, name=f"key_{key}")
            else:
                t = array_ops.reshape(convert_to_tensor(default, dtype=dtype), shape,
                                      name=f"key_{key}")
            default_tensors.append(t)
        n = len(sparse_keys)
        if op_type == "ParseExample":       # TF's node takes its keys as tensors
            names = convert_to_tensor([] if example_names is None else example_names,
                                      dtype=_dtypes.string, name="names")
            key_tensors = [convert_to_tensor(key, dtype=_dtypes.string,
                                             name=f"{kind}_keys_{i}")
                           for kind, group in (("sparse", sparse_keys), ("dense", keys))
                           for i, key in enumerate(group)]
            inputs = [serialized, names] + key_tensors + default_tensors
            attrs = {"Nsparse": n, "Ndense": len(keys), "sparse_types": list(sparse_types),
                     "Tdense": list(dtypes), "dense_shapes": shapes}
        else:
            inputs = [serialized] + default_tensors
            attrs = {"dense_keys": keys, "dense_shapes": shapes, "Tdense": list(dtypes),
                     "num_sparse": n, "sparse_keys": sparse_keys,
                     "sparse_types": list(sparse_types)}
        outputs = apply_op(op_type, inputs, attrs, name=op_type,
                           output_dtypes=[_dtypes.int64] * n + sparse_types +
                           [_dtypes.int64] * n + dtypes)
        outputs = outputs.op.outputs if isinstance(outputs, Tensor) else outputs
        result = dict(zip(keys, outputs[3 * n:]))
        for k, key in enumerate(sparse_keys):        # indices, values, shape of each one
            result[key] = SparseTensor(outputs[k], outputs[n + k], outputs[2 * n + k])
    return _merge_sparse_features(features, result)


def _merge_sparse_features(features, parsed):
    """TF's _construct_tensors_for_composite_features: each SparseFeature's SparseTensor from
    its parsed index and value keys; the keys only those needed are dropped."""
    updates = {}
    for key in sorted(features):
        feature = features[key]
        if not isinstance(feature, SparseFeature):
            continue
        index_keys = [feature.index_key] if isinstance(feature.index_key, str) else \
            list(feature.index_key)
        sizes = [feature.size] if isinstance(feature.index_key, str) else list(feature.size)
        ids = [parsed[k] for k in index_keys]
        values = parsed[feature.value_key]
        with name_scope(None, "SparseMerge", []):
            indices, merged, shape = apply_op(
                "SparseFeatureMerge", [ids[0].indices, ids[0].dense_shape, values.values] +
                [sp.values for sp in ids],
                {"vocab_size": [int(s) for s in sizes],
                 "already_sorted": bool(feature.already_sorted)},
                name="SparseFeatureMerge",
                output_dtypes=[_dtypes.int64, values.dtype, _dtypes.int64])
        updates[key] = SparseTensor(indices, merged, shape)
    parsed.update(updates)
    return {key: value for key, value in parsed.items() if key in features}


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
    return _parse("ParseExample", "ParseExample", serialized, features, name, example_names)
