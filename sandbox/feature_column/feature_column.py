"""The feature columns -- mirrors TensorFlow 1.x's python/feature_column/feature_column.py (the
v1 API: numeric_column, bucketized_column, categorical_column_with_*, indicator_column,
embedding_column, weighted_categorical_column) and the sequence base classes it holds
(_SequenceDenseColumn, _SequenceCategoricalColumn; the sequence_* constructors are in
sequence_feature_column.py, shared_embedding_columns in shared_embedding.py).

A feature column says how one raw feature (features[key]: a Tensor, a SparseTensor, or a
NumPy array / list, made a constant) becomes the input of a model. There are two kinds:

    dense        numeric_column, bucketized_column, indicator_column, embedding_column:
                 _get_dense_tensor(builder) -> a float Tensor [batch, ...] (input_layer)
    categorical  categorical_column_with_{identity, vocabulary_list, vocabulary_file,
                 hash_bucket}, bucketized_column, weighted_categorical_column:
                 _get_sparse_tensors(builder) -> IdWeightPair(id SparseTensor, weights)
                 (linear_model looks them up in a [num_buckets, units] weight variable)

A _LazyBuilder (feature_column_input.py) transforms each column once per call: a dense
feature of rank 1 becomes [batch, 1]; a dense categorical feature becomes a SparseTensor
without its 'missing' entries ('' for strings, -1 for integers).

A sequence categorical column (_SequenceCategoricalColumn) gives ids of shape [batch, T, k];
indicator_column and embedding_column of it are sequence dense columns: they refuse
input_layer and give _get_sequence_dense_tensor(builder) -> (dense [batch, T, ...],
sequence_length [batch]) for tf.contrib.feature_column.sequence_input_layer.

Differences from TF: vocabulary lookups are built from equal/argmax ops (the sandbox has no
lookup tables), so a vocabulary file is read when the column is used, not by
tables_initializer. crossed_column is in crossed_column.py, input_layer and linear_model in
feature_column_input.py.
"""
import collections
import math
import os

import numpy as np

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..framework.sparse_tensor import SparseTensor, convert_to_tensor_or_sparse_tensor
from ..framework.graph import name_scope
from ..ops import (array_ops, comparison_ops, constant_op, indexing_ops, init_ops, math_ops,
                   reduction_ops, segment_ops, slicing_ops, sparse_ops, string_hash_ops,
                   string_ops, variable_scope)
from ..ops.nn_impl import safe_embedding_lookup_sparse
from ..ops.parsing_ops import FixedLenFeature, VarLenFeature

__all__ = ["numeric_column", "bucketized_column", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_list", "categorical_column_with_vocabulary_file",
           "categorical_column_with_hash_bucket", "indicator_column", "embedding_column",
           "weighted_categorical_column"]


def _to_sparse_input_and_drop_ignore_values(input_tensor, ignore_value=None):
    """A SparseTensor of the entries of a dense `input_tensor` that are not `ignore_value`
    ('' for strings, -1 for integers, 0 otherwise); a SparseTensor is returned as it is."""
    input_tensor = convert_to_tensor_or_sparse_tensor(input_tensor)
    if isinstance(input_tensor, SparseTensor):
        return input_tensor
    if ignore_value is None:
        if input_tensor.dtype == dtypes.string:
            ignore_value = ""
        elif input_tensor.dtype.is_integer:
            ignore_value = -1
        else:
            ignore_value = input_tensor.dtype.as_numpy_dtype()
    ignore = math_ops.cast(ignore_value, input_tensor.dtype) \
        if input_tensor.dtype != dtypes.string else constant_op.constant(ignore_value)
    indices = comparison_ops.where(comparison_ops.not_equal(input_tensor, ignore))
    return SparseTensor(indices=indices, values=indexing_ops.gather_nd(input_tensor, indices),
                        dense_shape=array_ops.shape(input_tensor, out_type=dtypes.int64))


def _assert_string_or_int(dtype, prefix):
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"{prefix} dtype must be string or integer. dtype: {dtype}.")


def _check_compatible(key, column_dtype, tensor_dtype):
    if column_dtype.is_integer != tensor_dtype.is_integer:
        raise ValueError(f"Column dtype and SparseTensors dtype must be compatible. key: {key}, "
                         f"column dtype: {column_dtype}, tensor dtype: {tensor_dtype}")


def _map_values(sp, fn):
    return SparseTensor(sp.indices, fn(sp.values), sp.dense_shape)


# -- the base classes ------------------------------------------------------------------------

class _FeatureColumn:
    """A feature column: `name` orders the columns (input_layer sorts by it) and names the
    variable scope of its variables."""

    @property
    def _var_scope_name(self):
        return self.name

    def _parse_example_spec(self):
        raise NotImplementedError


class _DenseColumn(_FeatureColumn):
    """A column input_layer can use: _get_dense_tensor and its _variable_shape."""


class _CategoricalColumn(_FeatureColumn):
    """A column of ids in [0, _num_buckets): _get_sparse_tensors -> IdWeightPair."""
    IdWeightPair = collections.namedtuple("IdWeightPair", ("id_tensor", "weight_tensor"))

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        return _CategoricalColumn.IdWeightPair(inputs.get(self), None)


class _SequenceDenseColumn(_FeatureColumn):
    """A column sequence_input_layer can use: _get_sequence_dense_tensor -> a
    TensorSequenceLengthPair (dense [batch, T, ...], sequence_length [batch] int64)."""
    TensorSequenceLengthPair = collections.namedtuple("TensorSequenceLengthPair",
                                                      ("dense_tensor", "sequence_length"))


def _sequence_length_from_sparse_tensor(sp_tensor, num_elements=1):
    """The length of each row's sequence (TF's utils.py): 1 + its last index in dimension 1,
    divided (rounding up) by num_elements; 0 for a row with no entries."""
    with name_scope(None, "sequence_length") as scope:
        row_ids = sp_tensor.indices[:, 0]
        column_ids = sp_tensor.indices[:, 1] + 1
        seq_length = segment_ops.segment_max(column_ids, segment_ids=row_ids)
        if num_elements != 1:
            seq_length = (seq_length + (num_elements - 1)) // num_elements
        # rows after the last one with an entry are missing from segment_max: pad them
        n_pad = sp_tensor.dense_shape[:1] - array_ops.shape(seq_length, out_type=dtypes.int64)[:1]
        padding = array_ops.zeros(n_pad, dtype=seq_length.dtype)
        return slicing_ops.concat([seq_length, padding], axis=0, name=scope)


def _tuple_column(base, name, fields):
    """A column class that is also a namedtuple of its configuration (as TF's)."""
    return type(name, (collections.namedtuple(name, fields), base), {"__slots__": ()})


# -- numeric and bucketized ------------------------------------------------------------------

class _NumericColumn(_tuple_column(_DenseColumn, "_NumericColumn",
                                   ["key", "shape", "default_value", "dtype", "normalizer_fn"])):
    """A dense float feature of `shape` per example."""

    @property
    def name(self):
        return self.key

    def _parse_example_spec(self):
        return {self.key: FixedLenFeature(self.shape, self.dtype, self.default_value)}

    def _transform_feature(self, inputs):
        tensor = inputs.get(self.key)
        if isinstance(tensor, SparseTensor):
            raise ValueError("The corresponding Tensor of numerical column must be a Tensor. "
                             f"SparseTensor is not supported. key: {self.key}")
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return math_ops.cast(tensor, dtypes.float32)

    @property
    def _variable_shape(self):
        return TensorShape(self.shape)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return inputs.get(self)


def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32, normalizer_fn=None):
    """A dense numeric feature: features[key] as float32 of `shape` per example, after
    normalizer_fn (a function of the Tensor) if given."""
    shape = _check_shape(shape, key)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    default_value = _check_default_value(shape, default_value, dtype, key)
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    _check_key(key)
    return _NumericColumn(key, shape, default_value, dtype, normalizer_fn)


def _check_key(key):
    if not isinstance(key, str):
        raise ValueError(f"key must be a string. Given: {key!r}")


def _check_shape(shape, key):
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    for dim in shape:
        if not isinstance(dim, (int, np.integer)):
            raise TypeError(f"shape dimensions must be integer. shape: {shape}, key: {key}")
        if dim < 1:
            raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, "
                             f"key: {key}")
    return tuple(int(d) for d in shape)


def _check_default_value(shape, default_value, dtype, key):
    if default_value is None:
        return None
    try:
        value = np.asarray(default_value, dtype=dtype.as_numpy_dtype)
    except (TypeError, ValueError):
        raise TypeError(f"default_value must be compatible with dtype. default_value: "
                        f"{default_value}, dtype: {dtype}, key: {key}") from None
    if value.ndim == 0:
        return (value.item(),) * int(np.prod(shape))
    if value.shape != shape:
        raise ValueError(f"The shape of default_value must be equal to given shape. "
                         f"default_value: {default_value}, shape: {shape}, key: {key}")
    return tuple(value.reshape(-1).tolist())


class _BucketizedColumn(_tuple_column(_DenseColumn, "_BucketizedColumn",
                                      ["source_column", "boundaries"]), _CategoricalColumn):
    """A numeric column cut at `boundaries`: bucket i holds boundaries[i-1] <= x <
    boundaries[i]; one-hot as a dense column, ids as a categorical one."""

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    def _parse_example_spec(self):
        return self.source_column._parse_example_spec()

    def _transform_feature(self, inputs):
        x = inputs.get(self.source_column)
        bounds = constant_op.constant(list(self.boundaries), dtype=dtypes.float32)
        above = comparison_ops.greater_equal(array_ops.expand_dims(x, -1), bounds)
        return reduction_ops.reduce_sum(math_ops.cast(above, dtypes.int32), -1)

    @property
    def _variable_shape(self):
        return TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return indexing_ops.one_hot(inputs.get(self), len(self.boundaries) + 1,
                                    on_value=1.0, off_value=0.0)

    @property
    def _num_buckets(self):
        return (len(self.boundaries) + 1) * int(np.prod(self.source_column.shape))

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        """Ids bucket + (len(boundaries) + 1) * position, one per element of the source."""
        buckets = inputs.get(self)
        batch = array_ops.shape(buckets)[0]
        source_dim = int(np.prod(self.source_column.shape))
        i1 = array_ops.reshape(slicing_ops.tile(array_ops.expand_dims(array_ops.range(0, batch), 1),
                                     [1, source_dim]), [-1])
        i2 = slicing_ops.tile(array_ops.range(0, source_dim), array_ops.expand_dims(batch, 0))
        ids = array_ops.reshape(buckets, [-1]) + (len(self.boundaries) + 1) * i2
        indices = math_ops.cast(array_ops.transpose(array_ops.stack((i1, i2))), dtypes.int64)
        dense_shape = math_ops.cast(array_ops.stack([batch, source_dim]), dtypes.int64)
        return _CategoricalColumn.IdWeightPair(
            SparseTensor(indices, math_ops.cast(ids, dtypes.int64), dense_shape), None)


def bucketized_column(source_column, boundaries):
    """source_column (a numeric_column) bucketized by the sorted list `boundaries`."""
    if not isinstance(source_column, _NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). "
                         f"Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError("source_column must be one-dimensional column. "
                         f"Given: {source_column}")
    if not boundaries or not isinstance(boundaries, (list, tuple)):
        raise ValueError("boundaries must be a sorted list.")
    for i in range(len(boundaries) - 1):
        if boundaries[i] >= boundaries[i + 1]:
            raise ValueError("boundaries must be a sorted list.")
    return _BucketizedColumn(source_column, tuple(float(b) for b in boundaries))


# -- categorical columns ---------------------------------------------------------------------

class _IdentityCategoricalColumn(_tuple_column(_CategoricalColumn, "_IdentityCategoricalColumn",
                                               ["key", "num_buckets", "default_value"])):
    """Integer ids used as they are; out-of-range ids become default_value if it is set."""

    @property
    def name(self):
        return self.key

    @property
    def _num_buckets(self):
        return self.num_buckets

    def _parse_example_spec(self):
        return {self.key: VarLenFeature(dtypes.int64)}

    def _transform_feature(self, inputs):
        sp = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        if not sp.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: {sp.dtype}")
        values = math_ops.cast(sp.values, dtypes.int64)
        if self.default_value is not None:
            ok = comparison_ops.logical_and(comparison_ops.greater_equal(values, 0),
                                            comparison_ops.less(values, self.num_buckets))
            values = comparison_ops.where(ok, values, array_ops.fill(
                array_ops.shape(values), np.int64(self.default_value)))
        return SparseTensor(sp.indices, values, sp.dense_shape)


def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer features used as ids in [0, num_buckets)."""
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and (default_value < 0 or default_value >= num_buckets):
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), "
                         f"column_name {key}")
    _check_key(key)
    return _IdentityCategoricalColumn(key, int(num_buckets), default_value)


class _HashedCategoricalColumn(_tuple_column(_CategoricalColumn, "_HashedCategoricalColumn",
                                             ["key", "hash_bucket_size", "dtype"])):
    """Ids Fingerprint64(str(value)) % hash_bucket_size (TF's string_to_hash_bucket_fast)."""

    @property
    def name(self):
        return self.key

    @property
    def _num_buckets(self):
        return self.hash_bucket_size

    def _parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}

    def _transform_feature(self, inputs):
        sp = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        _assert_string_or_int(sp.dtype, f"column_name: {self.key} input_tensor")
        _check_compatible(self.key, self.dtype, sp.dtype)
        values = sp.values if sp.dtype == dtypes.string else string_ops.as_string(sp.values)
        return _map_values(sp, lambda _: string_hash_ops.string_to_hash_bucket_fast(
            values, self.hash_bucket_size, name="lookup"))


def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """String or integer features hashed into hash_bucket_size ids."""
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: "
                         f"{hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    _assert_string_or_int(dtype, f"column_name: {key}")
    _check_key(key)
    return _HashedCategoricalColumn(key, int(hash_bucket_size), dtype)


def _vocab_lookup(values, vocabulary, default_value, num_oov_buckets):
    """The index of each value in `vocabulary`; a value not in it gets len(vocabulary) +
    its hash bucket among num_oov_buckets, or default_value."""
    vocab = constant_op.constant(list(vocabulary), dtype=values.dtype)
    equal = comparison_ops.equal(array_ops.expand_dims(values, 1),
                                 array_ops.expand_dims(vocab, 0))
    found = reduction_ops.reduce_any(equal, 1)
    index = reduction_ops.argmax(math_ops.cast(equal, dtypes.int32), 1,
                                 output_type=dtypes.int64)
    if num_oov_buckets:
        text = values if values.dtype == dtypes.string else string_ops.as_string(values)
        other = len(vocabulary) + string_hash_ops.string_to_hash_bucket_fast(text,
                                                                             num_oov_buckets)
    else:
        other = array_ops.fill(array_ops.shape(values), np.int64(default_value))
    return comparison_ops.where(found, index, other)


class _VocabularyListCategoricalColumn(_tuple_column(
        _CategoricalColumn, "_VocabularyListCategoricalColumn",
        ["key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"])):
    """Ids: the index of each value in vocabulary_list (else an oov bucket or default)."""

    @property
    def name(self):
        return self.key

    @property
    def _num_buckets(self):
        return len(self._vocabulary()) + self.num_oov_buckets

    def _vocabulary(self):
        return self.vocabulary_list

    def _parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}

    def _transform_feature(self, inputs):
        sp = _to_sparse_input_and_drop_ignore_values(inputs.get(self.key))
        _assert_string_or_int(sp.dtype, f"column_name: {self.key} input_tensor")
        _check_compatible(self.key, self.dtype, sp.dtype)
        values = sp.values if sp.dtype == dtypes.string else \
            math_ops.cast(sp.values, dtypes.int64)
        return SparseTensor(sp.indices, _vocab_lookup(values, self._vocabulary(),
                                                      self.default_value, self.num_oov_buckets),
                            sp.dense_shape)


def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
    """String or integer features mapped to their index in vocabulary_list."""
    if vocabulary_list is None or len(vocabulary_list) < 1:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, "
                         f"column_name: {key}")
    if len(set(vocabulary_list)) != len(vocabulary_list):
        raise ValueError(f"Duplicate keys in vocabulary_list {vocabulary_list}, "
                         f"column_name: {key}")
    vocab_dtype = dtypes.string if isinstance(vocabulary_list[0], (str, bytes)) else \
        dtypes.as_dtype(np.asarray(vocabulary_list).dtype)
    _assert_string_or_int(vocab_dtype, f"column_name: {key} vocabulary")
    if num_oov_buckets:
        if default_value != -1:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    if dtype is None:
        dtype = vocab_dtype
    dtype = dtypes.as_dtype(dtype)
    _assert_string_or_int(dtype, f"column_name: {key} dtype")
    if dtype.is_integer != vocab_dtype.is_integer:
        raise ValueError(f"dtype {dtype} and vocabulary dtype {vocab_dtype} do not match, "
                         f"column_name: {key}")
    _check_key(key)
    vocab = tuple(v.decode() if isinstance(v, bytes) else v for v in vocabulary_list) \
        if dtype == dtypes.string else tuple(int(v) for v in vocabulary_list)
    return _VocabularyListCategoricalColumn(key, vocab, dtype, default_value,
                                            int(num_oov_buckets or 0))


class _VocabularyFileCategoricalColumn(_tuple_column(
        _CategoricalColumn, "_VocabularyFileCategoricalColumn",
        ["key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype",
         "default_value"])):
    """As a vocabulary list, read from a file of one entry per line (the first
    vocabulary_size lines). The sandbox reads it when the column is used."""

    name = _VocabularyListCategoricalColumn.name
    _parse_example_spec = _VocabularyListCategoricalColumn._parse_example_spec

    @property
    def _num_buckets(self):
        return self.vocabulary_size + self.num_oov_buckets

    def _vocabulary(self):
        with open(self.vocabulary_file, encoding="utf-8") as f:
            lines = [line.rstrip("\n") for line in f][:self.vocabulary_size]
        if len(lines) < self.vocabulary_size:
            raise ValueError(f"Invalid vocab_size {self.vocabulary_size} > number of lines "
                             f"{len(lines)} in {self.vocabulary_file}, column_name: {self.key}")
        return lines if self.dtype == dtypes.string else [int(v) for v in lines]

    def _transform_feature(self, inputs):
        return _VocabularyListCategoricalColumn._transform_feature(self, inputs)


def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            num_oov_buckets=0, default_value=None,
                                            dtype=dtypes.string):
    """String or integer features mapped to their line number in vocabulary_file."""
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    if not os.path.exists(vocabulary_file):
        raise ValueError(f"vocabulary_file in {key} does not exist.")
    if vocabulary_size is None:
        with open(vocabulary_file, encoding="utf-8") as f:
            vocabulary_size = sum(1 for _ in f)
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    if num_oov_buckets:
        if default_value is not None:
            raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")
        if num_oov_buckets < 0:
            raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets} in {key}.")
    dtype = dtypes.as_dtype(dtype)
    _assert_string_or_int(dtype, f"column_name: {key} dtype")
    _check_key(key)
    return _VocabularyFileCategoricalColumn(key, vocabulary_file, int(vocabulary_size),
                                            int(num_oov_buckets or 0), dtype,
                                            -1 if default_value is None else default_value)


class _WeightedCategoricalColumn(_tuple_column(
        _CategoricalColumn, "_WeightedCategoricalColumn",
        ["categorical_column", "weight_feature_key", "dtype"])):
    """The ids of categorical_column, each weighted by features[weight_feature_key]."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_weighted_by_{self.weight_feature_key}"

    @property
    def _num_buckets(self):
        return self.categorical_column._num_buckets

    def _parse_example_spec(self):
        spec = dict(self.categorical_column._parse_example_spec())
        if self.weight_feature_key in spec:
            raise ValueError(f"Parse config {spec[self.weight_feature_key]} already exists "
                             f"for {self.weight_feature_key}.")
        spec[self.weight_feature_key] = VarLenFeature(self.dtype)
        return spec

    def _transform_feature(self, inputs):
        weights = inputs.get(self.weight_feature_key)
        if self.dtype != weights.dtype.base_dtype:
            raise ValueError(f"Bad dtype, expected {self.dtype}, but got {weights.dtype}.")
        if not isinstance(weights, SparseTensor):
            weights = _to_sparse_input_and_drop_ignore_values(weights, ignore_value=0.0)
        if not weights.dtype.is_floating:
            weights = _map_values(weights, lambda v: math_ops.cast(v, dtypes.float32))
        return inputs.get(self.categorical_column), weights

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        return _CategoricalColumn.IdWeightPair(*inputs.get(self))


def weighted_categorical_column(categorical_column, weight_feature_key, dtype=dtypes.float32):
    """categorical_column's ids weighted by the float feature weight_feature_key (a
    SparseTensor with the ids' indices, or a dense Tensor of their shape)."""
    dtype = dtypes.as_dtype(dtype)
    if dtype is None or not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype {dtype} is not convertible to float.")
    if not isinstance(categorical_column, _CategoricalColumn):
        raise ValueError("categorical_column must be a _CategoricalColumn. "
                         f"Given: {categorical_column}")
    return _WeightedCategoricalColumn(categorical_column, weight_feature_key, dtype)


class _SequenceCategoricalColumn(_tuple_column(_CategoricalColumn, "_SequenceCategoricalColumn",
                                               ["categorical_column"])):
    """The ids of categorical_column as sequences: features [batch, T] (or [batch, T, k]) give
    ids [batch, T, k], so that an embedding combines the ids of one step, not of the row
    (sequence_feature_column.py makes them: sequence_categorical_column_with_*)."""

    @property
    def name(self):
        return self.categorical_column.name

    @property
    def _num_buckets(self):
        return self.categorical_column._num_buckets

    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec()

    def _transform_feature(self, inputs):
        return self.categorical_column._transform_feature(inputs)

    def _get_sparse_tensors(self, inputs, weight_collections=None, trainable=None):
        pair = self.categorical_column._get_sparse_tensors(inputs)
        shape = pair.id_tensor.dense_shape
        target = array_ops.stack([shape[0], shape[1], reduction_ops.reduce_prod(shape[2:])])
        id_tensor = sparse_ops.sparse_reshape(pair.id_tensor, target)
        weight_tensor = pair.weight_tensor
        if weight_tensor is not None:
            weight_tensor = sparse_ops.sparse_reshape(weight_tensor, target)
        return _CategoricalColumn.IdWeightPair(id_tensor, weight_tensor)


def _refuse_sequence(kind, column):
    """input_layer's error for a column of a sequence categorical column (TF 1.15's)."""
    if isinstance(column.categorical_column, _SequenceCategoricalColumn):
        raise ValueError(
            f"In {kind}: {column.name}. categorical_column must not be of type "
            "_SequenceCategoricalColumn. Suggested fix A: If you wish to use input_layer, use "
            "a non-sequence categorical_column_with_*. Suggested fix B: If you wish to create "
            "sequence input, use sequence_input_layer instead of input_layer. Given (type "
            f"{type(column.categorical_column)}): {column.categorical_column}")


def _sequence_pair(kind, column, inputs, dense_tensor_fn):
    """_get_sequence_dense_tensor of an indicator or embedding column: the dense tensor of
    its sequence categorical column's ids [batch, T, k] and the rows' sequence lengths."""
    if not isinstance(column.categorical_column, _SequenceCategoricalColumn):
        raise ValueError(
            f"In {kind}: {column.name}. categorical_column must be of type "
            "_SequenceCategoricalColumn to use sequence_input_layer. Suggested fix: Use one of "
            f"sequence_categorical_column_with_*. Given (type {type(column.categorical_column)}"
            f"): {column.categorical_column}")
    dense_tensor = dense_tensor_fn()
    ids = column.categorical_column._get_sparse_tensors(inputs).id_tensor
    return _SequenceDenseColumn.TensorSequenceLengthPair(
        dense_tensor=dense_tensor, sequence_length=_sequence_length_from_sparse_tensor(ids))


# -- dense views of categorical columns ------------------------------------------------------

class _IndicatorColumn(_tuple_column(_DenseColumn, "_IndicatorColumn", ["categorical_column"]),
                       _SequenceDenseColumn):
    """A multi-hot vector of num_buckets per example (the weights if weighted); per step of
    a sequence categorical column."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec()

    @property
    def _variable_shape(self):
        return TensorShape([1, self.categorical_column._num_buckets])

    def _transform_feature(self, inputs):
        pair = self.categorical_column._get_sparse_tensors(inputs)
        depth = self.categorical_column._num_buckets
        ids = sparse_ops.sparse_tensor_to_dense(pair.id_tensor, default_value=-1)
        one_hot = indexing_ops.one_hot(ids, depth, on_value=1.0, off_value=0.0)
        if pair.weight_tensor is not None:
            weights = sparse_ops.sparse_tensor_to_dense(pair.weight_tensor, default_value=0.0)
            one_hot = one_hot * array_ops.expand_dims(weights, -1)
        return reduction_ops.reduce_sum(one_hot, axis=[-2])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        _refuse_sequence("indicator_column", self)
        return inputs.get(self)

    def _get_sequence_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return _sequence_pair("indicator_column", self, inputs, lambda: inputs.get(self))


def indicator_column(categorical_column):
    """A dense multi-hot (or weighted) representation of a categorical column."""
    if not isinstance(categorical_column, _CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a _CategoricalColumn. "
                         f"Given: {categorical_column}")
    return _IndicatorColumn(categorical_column)


class _EmbeddingColumn(_tuple_column(_DenseColumn, "_EmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer", "ckpt_to_load_from",
        "tensor_name_in_ckpt", "max_norm", "trainable"]), _SequenceDenseColumn):
    """A [num_buckets, dimension] variable 'embedding_weights'; each example's ids are looked
    up and combined (mean, sqrtn or sum; weighted if the column is) -- each step's ids, for
    a sequence categorical column."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_embedding"

    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec()

    def _transform_feature(self, inputs):
        return inputs.get(self.categorical_column)

    @property
    def _variable_shape(self):
        return TensorShape([self.dimension])

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        _refuse_sequence("embedding_column", self)
        return self._get_dense_tensor_internal(inputs, weight_collections, trainable)

    def _get_sequence_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return _sequence_pair("embedding_column", self, inputs, lambda: (
            self._get_dense_tensor_internal(inputs, weight_collections, trainable)))

    def _get_dense_tensor_internal(self, inputs, weight_collections=None, trainable=None):
        pair = self.categorical_column._get_sparse_tensors(inputs, weight_collections, trainable)
        weights = variable_scope.get_variable(
            "embedding_weights", shape=(self.categorical_column._num_buckets, self.dimension),
            dtype=dtypes.float32, initializer=self.initializer,
            trainable=self.trainable and (trainable is None or trainable),
            collections=weight_collections)
        return safe_embedding_lookup_sparse(weights, pair.id_tensor, pair.weight_tensor,
                                            combiner=self.combiner,
                                            name=f"{self.name}_weights", max_norm=self.max_norm)


def embedding_column(categorical_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True):
    """A dense `dimension`-vector per example: the combined embeddings of its ids. The
    default initializer is truncated_normal(0, 1 / sqrt(dimension))."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("embedding_column(ckpt_to_load_from=...) is not supported "
                                  "by the sandbox.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of column_name: "
                         f"{categorical_column.name}")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn', 'sum'. Given: {combiner!r}")
    if not isinstance(categorical_column, _CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a _CategoricalColumn. "
                         f"Given: {categorical_column}")
    if initializer is None:
        initializer = init_ops.truncated_normal_initializer(mean=0.0,
                                                            stddev=1 / math.sqrt(dimension))
    return _EmbeddingColumn(categorical_column, int(dimension), combiner, initializer,
                            ckpt_to_load_from, tensor_name_in_ckpt, max_norm, trainable)
