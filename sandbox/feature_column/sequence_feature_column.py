"""The sequence feature columns -- mirrors TensorFlow 1.x's python/feature_column/
sequence_feature_column.py (tf.feature_column.sequence_*) and the _SequenceNumericColumn of
contrib/feature_column/python/feature_column/sequence_feature_column.py.

A sequence feature holds, per example, a list of values of any length: a SparseTensor
[batch, T] (as tf.parse_example gives a VarLenFeature), or [batch, T, k] for k ids per step.

    watches = sequence_categorical_column_with_identity('watches', num_buckets=1000)
    columns = [embedding_column(watches, dimension=10), sequence_numeric_column('rating')]
    net, length = tf.contrib.feature_column.sequence_input_layer(features, columns)
    # net [batch, T, 11], T the longest sequence of the batch; length [batch] int64

    sequence_categorical_column_with_{identity, hash_bucket, vocabulary_list,
    vocabulary_file}   the categorical column of the same arguments, as a sequence:
                       _SequenceCategoricalColumn (feature_column.py) gives its ids as
                       [batch, T, k], so an indicator_column or embedding_column of it makes
                       one vector per step, for sequence_input_layer (not input_layer).
    sequence_numeric_column   `shape` floats per step: a row of the SparseTensor [batch, n]
                       holds n = T * prod(shape) values, made [batch, T, *shape] with
                       default_value at the end of the shorter rows.

A sequence's length is 1 + the last index of its row in dimension 1 (divided by prod(shape)
for a numeric column of a 2-D feature), 0 for a row without values.

Difference from TF 1.15: there tf.feature_column.sequence_numeric_column is a v2 column that
only tf.keras.experimental.SequenceFeatures takes, and tf.contrib.feature_column has its own
v1 sequence_numeric_column for sequence_input_layer. The sandbox has one column for both
names, which sequence_input_layer takes (it has no SequenceFeatures).
"""
from ..framework import dtypes
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor_shape import TensorShape
from ..ops import array_ops, slicing_ops, sparse_ops
from ..ops.parsing_ops import VarLenFeature
from .feature_column import (_SequenceCategoricalColumn, _SequenceDenseColumn, _check_key,
                             _check_shape, _sequence_length_from_sparse_tensor, _tuple_column,
                             categorical_column_with_hash_bucket,
                             categorical_column_with_identity,
                             categorical_column_with_vocabulary_file,
                             categorical_column_with_vocabulary_list)

__all__ = ["sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column"]


def sequence_categorical_column_with_identity(key, num_buckets, default_value=None):
    """Sequences of integer ids in [0, num_buckets) (out-of-range ones become default_value
    if it is set). Wrap it in embedding_column or indicator_column."""
    return _SequenceCategoricalColumn(categorical_column_with_identity(
        key=key, num_buckets=num_buckets, default_value=default_value))


def sequence_categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """Sequences of strings or integers hashed into hash_bucket_size ids."""
    return _SequenceCategoricalColumn(categorical_column_with_hash_bucket(
        key=key, hash_bucket_size=hash_bucket_size, dtype=dtype))


def sequence_categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                                     num_oov_buckets=0, default_value=None,
                                                     dtype=dtypes.string):
    """Sequences of strings or integers mapped to their line number in vocabulary_file."""
    return _SequenceCategoricalColumn(categorical_column_with_vocabulary_file(
        key=key, vocabulary_file=vocabulary_file, vocabulary_size=vocabulary_size,
        num_oov_buckets=num_oov_buckets, default_value=default_value, dtype=dtype))


def sequence_categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None,
                                                     default_value=-1, num_oov_buckets=0):
    """Sequences of strings or integers mapped to their index in vocabulary_list."""
    return _SequenceCategoricalColumn(categorical_column_with_vocabulary_list(
        key=key, vocabulary_list=vocabulary_list, dtype=dtype, default_value=default_value,
        num_oov_buckets=num_oov_buckets))


class _SequenceNumericColumn(_tuple_column(_SequenceDenseColumn, "_SequenceNumericColumn",
                                           ["key", "shape", "default_value", "dtype",
                                            "normalizer_fn"])):
    """Sequences of `shape` numbers per step, from a SparseTensor feature."""

    @property
    def name(self):
        return self.key

    def _parse_example_spec(self):
        return {self.key: VarLenFeature(self.dtype)}

    def _transform_feature(self, inputs):
        tensor = inputs.get(self.key)
        if self.normalizer_fn is not None:
            tensor = self.normalizer_fn(tensor)
        return tensor

    @property
    def _variable_shape(self):
        return TensorShape(self.shape)

    def _get_sequence_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        sp_tensor = inputs.get(self)
        if not isinstance(sp_tensor, SparseTensor):
            raise TypeError(f"Input must be a SparseTensor. sequence_numeric_column "
                            f"'{self.key}' takes its feature as a SparseTensor (a VarLenFeature "
                            f"of tf.parse_example); given: {sp_tensor}")
        dense = sparse_ops.sparse_tensor_to_dense(sp_tensor, default_value=self.default_value)
        # [batch, T * num_elements] (or [batch, T, num_elements]) -> [batch, T, *shape]
        dense_shape = slicing_ops.concat([array_ops.shape(dense)[:1], [-1], list(self.shape)],
                                         axis=0)
        dense = array_ops.reshape(dense, dense_shape)
        num_elements = self._variable_shape.num_elements() \
            if sp_tensor.get_shape().ndims == 2 else 1
        return _SequenceDenseColumn.TensorSequenceLengthPair(
            dense_tensor=dense,
            sequence_length=_sequence_length_from_sparse_tensor(sp_tensor, num_elements))


def sequence_numeric_column(key, shape=(1,), default_value=0., dtype=dtypes.float32,
                            normalizer_fn=None):
    """Sequences of numbers, `shape` of them per step (a feature row of n values is n /
    prod(shape) steps); default_value pads the shorter rows; normalizer_fn (a function of
    the SparseTensor) is applied to the feature first."""
    shape = _check_shape(shape, key)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    _check_key(key)
    return _SequenceNumericColumn(key, shape, default_value, dtype, normalizer_fn)
