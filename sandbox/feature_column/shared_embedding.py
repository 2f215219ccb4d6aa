"""tf.feature_column.shared_embedding_columns -- mirrors TensorFlow 1.x's _SharedEmbeddingColumn
(python/feature_column/feature_column.py) and shared_embedding_columns (the v1 API, in
feature_column_v2.py): embedding columns of several categorical columns that look their ids
up in ONE embedding variable.

    watched = categorical_column_with_identity('watched', 1000)
    impression = categorical_column_with_identity('impression', 1000)
    columns = shared_embedding_columns([watched, impression], dimension=10)
    net = input_layer(features, columns)    # [batch, 20]: 'impression_shared_embedding',
                                            # then 'watched_shared_embedding'

The columns must be categorical columns of one kind (a weighted or sequence column counts as
the kind it wraps) with the same number of buckets. They share a collection name,
shared_embedding_collection_name (by default the sorted column names joined by '_', then
'_shared_embedding': 'impression_watched_shared_embedding'), which is also the variable scope
every one of them builds in. The first column built makes the variable
'<scope>/<collection name>/embedding_weights' [num_buckets, dimension] and adds it to the
graph collection of that name; every later column of the graph -- of this input_layer or of
another one -- finds it there and uses it. Each column's lookup ops are in a name scope of its
own name ('<column>_shared_embedding').

As embedding_column, the sandbox does not restore the variable from a checkpoint
(ckpt_to_load_from): use a tf.train.Saver, or tf.train.init_from_checkpoint yourself.
"""
import math

from ..framework import dtypes
from ..framework.graph import add_to_collection, get_collection, name_scope
from ..framework.tensor_shape import TensorShape
from ..ops import init_ops, variable_scope
from ..ops.nn_impl import safe_embedding_lookup_sparse
from .feature_column import (_CategoricalColumn, _DenseColumn, _SequenceCategoricalColumn,
                             _SequenceDenseColumn, _WeightedCategoricalColumn, _refuse_sequence,
                             _sequence_pair, _tuple_column)

__all__ = ["shared_embedding_columns"]


class _SharedEmbeddingColumn(_tuple_column(_DenseColumn, "_SharedEmbeddingColumn", [
        "categorical_column", "dimension", "combiner", "initializer",
        "shared_embedding_collection_name", "ckpt_to_load_from", "tensor_name_in_ckpt",
        "max_norm", "trainable"]), _SequenceDenseColumn):
    """An embedding column whose variable is the one of the graph collection
    shared_embedding_collection_name (made by the first column of the group built)."""

    @property
    def name(self):
        return f"{self.categorical_column.name}_shared_embedding"

    @property
    def _var_scope_name(self):
        return self.shared_embedding_collection_name

    def _parse_example_spec(self):
        return self.categorical_column._parse_example_spec()

    def _transform_feature(self, inputs):
        return inputs.get(self.categorical_column)

    @property
    def _variable_shape(self):
        return TensorShape([self.dimension])

    def _embedding_weights(self, weight_collections, trainable):
        """The collection's variable, or a new one added to it."""
        shape = (self.categorical_column._num_buckets, self.dimension)
        shared = get_collection(self.shared_embedding_collection_name)
        if not shared:
            weights = variable_scope.get_variable(
                "embedding_weights", shape=shape, dtype=dtypes.float32,
                initializer=self.initializer,
                trainable=self.trainable and (trainable is None or trainable),
                collections=weight_collections)
            add_to_collection(self.shared_embedding_collection_name, weights)
            return weights
        fix = ("Suggested fix A: Choose a unique name for this collection. Suggested fix B: Do "
               "not add any variables to this collection. The feature_column library already "
               "adds a variable under the hood.")
        if len(shared) > 1:
            raise ValueError(f"Collection {shared} can only contain one variable. {fix}")
        weights = shared[0]
        if weights.get_shape() != TensorShape(shape):
            raise ValueError(f"Shared embedding collection {self.shared_embedding_collection_name} "
                             f"contains variable {weights.name} of unexpected shape "
                             f"{weights.get_shape()}. Expected shape is {shape}. {fix}")
        return weights

    def _get_dense_tensor_internal(self, inputs, weight_collections=None, trainable=None):
        # the variable scope is the group's: a name scope keeps each column's ops apart
        with name_scope(None, default_name=self.name):
            pair = self.categorical_column._get_sparse_tensors(inputs, weight_collections,
                                                               trainable)
            weights = self._embedding_weights(weight_collections, trainable)
            return safe_embedding_lookup_sparse(weights, pair.id_tensor, pair.weight_tensor,
                                                combiner=self.combiner,
                                                name=f"{self.name}_weights",
                                                max_norm=self.max_norm)

    def _get_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        _refuse_sequence("embedding_column", self)
        return self._get_dense_tensor_internal(inputs, weight_collections, trainable)

    def _get_sequence_dense_tensor(self, inputs, weight_collections=None, trainable=None):
        return _sequence_pair("embedding_column", self, inputs, lambda: (
            self._get_dense_tensor_internal(inputs, weight_collections, trainable)))


def _unwrapped(column):
    while isinstance(column, (_WeightedCategoricalColumn, _SequenceCategoricalColumn)):
        column = column.categorical_column
    return column


def shared_embedding_columns(categorical_columns, dimension, combiner="mean", initializer=None,
                             shared_embedding_collection_name=None, ckpt_to_load_from=None,
                             tensor_name_in_ckpt=None, max_norm=None, trainable=True):
    """A list of embedding columns, one per categorical column (in their order), that share
    one [num_buckets, dimension] embedding variable. The default initializer is
    truncated_normal(0, 1 / sqrt(dimension))."""
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` or "
                         "none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("shared_embedding_columns(ckpt_to_load_from=...) is not "
                                  "supported by the sandbox: restore the variable with a "
                                  "tf.train.Saver instead.")
    if initializer is not None and not callable(initializer):
        raise ValueError("initializer must be callable if specified.")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn', 'sum'. Given: {combiner!r}")
    if initializer is None:
        initializer = init_ops.truncated_normal_initializer(mean=0.0,
                                                            stddev=1 / math.sqrt(dimension))
    categorical_columns = list(categorical_columns)
    if not categorical_columns:
        raise ValueError("categorical_columns must not be empty.")
    for column in categorical_columns:
        if not isinstance(column, _CategoricalColumn):
            raise ValueError("All categorical_columns must be subclasses of _CategoricalColumn. "
                             f"Given: {column}, of type: {type(column)}")
    # sorted, so that the default collection name does not depend on the order given
    sorted_columns = sorted(categorical_columns, key=lambda c: c.name)
    c0 = _unwrapped(sorted_columns[0])
    num_buckets = c0._num_buckets
    for c in sorted_columns[1:]:
        c = _unwrapped(c)
        if not isinstance(c, type(c0)):
            raise ValueError(
                "To use shared_embedding_column, all categorical_columns must have the same "
                "type, or be weighted_categorical_column or sequence column of the same type. "
                f"Given column: {c0} of type: {type(c0)} does not match given column: {c} of "
                f"type: {type(c)}")
        if num_buckets != c._num_buckets:
            raise ValueError(
                "To use shared_embedding_column, all categorical_columns must have the same "
                f"number of buckets. Given column: {c0} with buckets: {num_buckets} does not "
                f"match column: {c} with buckets: {c._num_buckets}")
    if not shared_embedding_collection_name:
        shared_embedding_collection_name = "_".join(c.name for c in sorted_columns) + \
            "_shared_embedding"
    return [_SharedEmbeddingColumn(column, int(dimension), combiner, initializer,
                                   shared_embedding_collection_name, ckpt_to_load_from,
                                   tensor_name_in_ckpt, max_norm, trainable)
            for column in categorical_columns]
