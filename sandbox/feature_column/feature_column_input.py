"""input_layer and linear_model -- mirrors TensorFlow 1.x's python/feature_column/
feature_column.py (tf.feature_column.input_layer, linear_model, make_parse_example_spec):
where the feature columns of feature_column.py meet a model.

    net = tf.feature_column.input_layer(features, [age, tf.feature_column.indicator_column(city)])
    logits = tf.feature_column.linear_model(features, [age, city], units=3)

Both sort the columns by name (so the order of the list does not matter) and build each
column's ops and variables in a variable scope of its name:

    input_layer   the columns' dense tensors, each reshaped to [batch, num_elements] and
                  concatenated: 'input_layer/<column>/embedding_weights' for an embedding.
    linear_model  sum over the columns of x @ 'linear_model/<column>/weights' (dense columns,
                  [num_elements, units]) or the sparse_combiner of the ids' rows of it
                  (categorical columns, [num_buckets, units]), + 'linear_model/bias_weights'.
"""
from ..framework import dtypes
from ..framework.graph import GraphKeys, get_collection
from ..framework.sparse_tensor import SparseTensor, convert_to_tensor_or_sparse_tensor
from ..ops import array_ops, init_ops, math_ops, matmul_ops, nn_ops, slicing_ops, sparse_ops, \
    variable_scope
from ..ops.nn_impl import safe_embedding_lookup_sparse
from .feature_column import _CategoricalColumn, _DenseColumn, _FeatureColumn

__all__ = ["input_layer", "linear_model", "make_parse_example_spec"]


# -- the builder: raw features -> transformed, once per column -------------------------------

class _LazyBuilder:
    """Transforms each column's feature once and caches it (TF's _LazyBuilder)."""

    def __init__(self, features):
        self._features = dict(features)
        self._cache = {}

    def get(self, key):
        if key in self._cache:
            return self._cache[key]
        if isinstance(key, str):
            feature = self._get_raw_feature(key)
        elif isinstance(key, _FeatureColumn):
            feature = key._transform_feature(self)
            if feature is None:
                raise ValueError(f"Column {key} is not supported.")
        else:
            raise TypeError(f"key must be a _FeatureColumn or a string. Given {key!r}.")
        self._cache[key] = feature
        return feature

    def _get_raw_feature(self, key):
        if key not in self._features:
            raise ValueError(f"Feature {key} is not in features dictionary.")
        tensor = convert_to_tensor_or_sparse_tensor(self._features[key])
        rank = tensor.get_shape().ndims
        if rank == 0:
            raise ValueError(f"Feature (key: {key}) cannot have rank 0. Given: {tensor}")
        if rank == 1:
            if isinstance(tensor, SparseTensor):
                return sparse_ops.sparse_reshape(tensor, [array_ops.shape(tensor, out_type=
                                                                          dtypes.int64)[0], 1])
            return array_ops.expand_dims(tensor, -1)
        return tensor


def make_parse_example_spec(feature_columns):
    """The tf.parse_example spec ({key: FixedLenFeature or VarLenFeature}) of the columns."""
    result = {}
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError(f"All feature_columns must be _FeatureColumn instances. "
                             f"Given: {column}")
        for key, value in column._parse_example_spec().items():
            if key in result and result[key] != value:
                raise ValueError(f"feature_columns contain different parse_spec for key {key}. "
                                 f"Given {value} and {result[key]}")
            result[key] = value
    return result


def _normalize_feature_columns(feature_columns):
    """The columns as a list, checked: not empty, all columns, no two of one name."""
    if isinstance(feature_columns, _FeatureColumn):
        feature_columns = [feature_columns]
    if isinstance(feature_columns, dict) or not hasattr(feature_columns, "__iter__"):
        raise ValueError("Expected feature_columns to be iterable, found dict.")
    feature_columns = list(feature_columns)
    if not feature_columns:
        raise ValueError("feature_columns must not be empty.")
    name_to_column = {}
    for column in feature_columns:
        if not isinstance(column, _FeatureColumn):
            raise ValueError(f"Items of feature_columns must be a _FeatureColumn. Given (type "
                             f"{type(column)}): {column}.")
        if column.name in name_to_column:
            raise ValueError(f"Duplicate feature column name found for columns: "
                             f"{name_to_column[column.name]} and {column}. This usually means "
                             "that these columns refer to same base feature. Either one must "
                             "be discarded or a duplicated but renamed item must be inserted "
                             "in features dict.")
        name_to_column[column.name] = column
    return feature_columns


def _collections(weight_collections):
    collections = list(weight_collections or [])
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES):
        if key not in collections:
            collections.append(key)
    return collections


def _features_values(features):
    return [v for v in features.values()
            if isinstance(v, SparseTensor) or hasattr(v, "graph")]


def input_layer(features, feature_columns, weight_collections=None, trainable=True,
                cols_to_vars=None, cols_to_output_tensors=None):
    """A dense Tensor [batch, sum of the columns' num_elements]: the columns (all dense:
    numeric, bucketized, indicator, embedding), sorted by name, concatenated."""
    feature_columns = _normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, _DenseColumn):
            raise ValueError("Items of feature_columns must be a _DenseColumn. You can wrap a "
                             "categorical column with an embedding_column or indicator_column. "
                             f"Given: {column}")
    weight_collections = _collections(weight_collections)
    with variable_scope.variable_scope(None, default_name="input_layer",
                                       values=_features_values(features)):
        builder = _LazyBuilder(features)
        outputs = []
        for column in sorted(feature_columns, key=lambda c: c.name):
            with variable_scope.variable_scope(None, default_name=column._var_scope_name) as vs:
                tensor = column._get_dense_tensor(builder, weight_collections=weight_collections,
                                                  trainable=trainable)
                num_elements = column._variable_shape.num_elements()
                batch_size = array_ops.shape(tensor)[0]
                output = array_ops.reshape(tensor, array_ops.stack([batch_size, num_elements]))
                output.set_shape([tensor.get_shape()[0] if tensor.get_shape().ndims else None,
                                  num_elements])
                outputs.append(output)
                if cols_to_vars is not None:
                    cols_to_vars[column] = [v for v in get_collection(
                        GraphKeys.GLOBAL_VARIABLES) if v.name.startswith(vs.name + "/")]
                if cols_to_output_tensors is not None:
                    cols_to_output_tensors[column] = output
        return slicing_ops.concat(outputs, 1)


def linear_model(features, feature_columns, units=1, sparse_combiner="sum",
                 weight_collections=None, trainable=True, cols_to_vars=None):
    """A linear prediction [batch, units]: the sum of each column's weighted input (sorted
    by name) and 'bias_weights'; categorical ids are combined by sparse_combiner ('sum',
    'mean' or 'sqrtn')."""
    if sparse_combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"sparse_combiner must be one of 'mean', 'sqrtn', 'sum'. Given: "
                         f"{sparse_combiner!r}")
    feature_columns = _normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, (_DenseColumn, _CategoricalColumn)):
            raise ValueError("Items of feature_columns must be either a _DenseColumn or "
                             f"_CategoricalColumn. Given: {column}")
    collections = _collections(weight_collections)
    with variable_scope.variable_scope(None, default_name="linear_model",
                                       values=_features_values(features)):
        builder = _LazyBuilder(features)
        weighted_sums = []
        for column in sorted(feature_columns, key=lambda c: c.name):
            with variable_scope.variable_scope(None, default_name=column._var_scope_name):
                weighted_sums.append(_weighted_sum(column, builder, units, sparse_combiner,
                                                   collections, trainable, cols_to_vars))
        no_bias = math_ops.add_n(weighted_sums, name="weighted_sum_no_bias")
        bias = variable_scope.get_variable("bias_weights", shape=[units], dtype=dtypes.float32,
                                           initializer=init_ops.zeros_initializer(),
                                           trainable=trainable, collections=collections)
        if cols_to_vars is not None:
            cols_to_vars["bias"] = [bias]
        return nn_ops.bias_add(no_bias, bias, name="weighted_sum")


def _weighted_sum(column, builder, units, sparse_combiner, collections, trainable,
                  cols_to_vars):
    if isinstance(column, _CategoricalColumn):
        shape = [column._num_buckets, units]
    else:
        shape = [column._variable_shape.num_elements(), units]
    weights = variable_scope.get_variable("weights", shape=shape, dtype=dtypes.float32,
                                          initializer=init_ops.zeros_initializer(),
                                          trainable=trainable, collections=collections)
    if cols_to_vars is not None:
        cols_to_vars[column] = [weights]
    if isinstance(column, _CategoricalColumn):
        pair = column._get_sparse_tensors(builder, weight_collections=collections,
                                          trainable=trainable)
        ids = sparse_ops.sparse_reshape(pair.id_tensor, [pair.id_tensor.dense_shape[0], -1])
        id_weights = pair.weight_tensor
        if id_weights is not None:
            id_weights = sparse_ops.sparse_reshape(id_weights, [id_weights.dense_shape[0], -1])
        return safe_embedding_lookup_sparse(weights, ids, sparse_weights=id_weights,
                                            combiner=sparse_combiner, name="weighted_sum")
    tensor = column._get_dense_tensor(builder, weight_collections=collections,
                                      trainable=trainable)
    batch_size = array_ops.shape(tensor)[0]
    tensor = array_ops.reshape(tensor, array_ops.stack([batch_size, shape[0]]))
    return matmul_ops.matmul(tensor, weights, name="weighted_sum")
