"""keras.layers.DenseFeatures -- mirrors TensorFlow 1.15's python/feature_column/
feature_column_v2.py (DenseFeatures).

    columns = [tf.feature_column.numeric_column('age'),
               tf.feature_column.embedding_column(city, dimension=2)]
    net = keras.layers.DenseFeatures(columns)({'age': ages, 'city': city_ids})   # [batch, 3]

tf.feature_column.input_layer as a Keras layer (sandbox/feature_column/: the same columns,
the same _LazyBuilder that transforms each raw feature once): called on a dict of features,
it returns the columns' dense tensors -- sorted by column name, each [batch, num_elements] --
concatenated along axis 1. A column's variables live in the layer's scope, in a scope of
the column's name: 'dense_features/city_embedding/embedding_weights:0', and are the layer's
weights; a second call reuses them.

get_config() holds the column objects themselves ('feature_columns'), so deserialize works
in memory; the sandbox's feature columns have no config of their own, so a model with this
layer cannot be saved to JSON or HDF5.
"""
from ...feature_column.feature_column import _DenseColumn
from ...feature_column.feature_column_input import _LazyBuilder, _normalize_feature_columns
from ...framework.graph import GraphKeys, get_default_graph
from ...framework.tensor_shape import TensorShape
from ...ops import array_ops, slicing_ops
from ...ops import variable_scope as vs
from .merge import ListInputLayer

__all__ = ["DenseFeatures"]


class DenseFeatures(ListInputLayer):
    """DenseFeatures(feature_columns, trainable=True, name=None): the dense tensor of the
    columns (numeric, bucketized, indicator, embedding) for a dict of features."""

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        kwargs.pop("partitioner", None)
        super().__init__(name=name, trainable=trainable, **kwargs)
        self._feature_columns = _normalize_feature_columns(feature_columns)
        for column in self._feature_columns:
            if not isinstance(column, _DenseColumn):
                raise ValueError(f"Items of feature_columns must be a DenseColumn. You can wrap "
                                 "a categorical column with an embedding_column or "
                                 f"indicator_column. Given: {column}")

    def _check_inputs(self, features):
        if not isinstance(features, dict):
            raise ValueError(f"We expected a dictionary here. Instead we got: {features}")

    def build(self, input_shape):
        self.built = True

    def compute_output_shape(self, input_shape):
        batch = TensorShape(next(iter(input_shape.values())))[0].value if input_shape else None
        total = sum(c._variable_shape.num_elements() for c in self._feature_columns)
        return TensorShape([batch, total])

    def call(self, features, cols_to_output_tensors=None):
        graph = get_default_graph()
        known = set(id(v) for v in graph.get_collection(GraphKeys.GLOBAL_VARIABLES))
        builder = _LazyBuilder(features)
        outputs = []
        for column in sorted(self._feature_columns, key=lambda c: c.name):
            with vs.variable_scope(column._var_scope_name):      # reuse: the layer's
                tensor = column._get_dense_tensor(builder, trainable=self.trainable)
                size = column._variable_shape.num_elements()
                output = array_ops.reshape(tensor, array_ops.stack(
                    [array_ops.shape(tensor)[0], size]))
                output.set_shape([tensor.get_shape()[0] if tensor.get_shape().ndims
                                  else None, size])
            outputs.append(output)
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = output
        trainable = set(id(v) for v in graph.get_collection(GraphKeys.TRAINABLE_VARIABLES))
        for variable in graph.get_collection(GraphKeys.GLOBAL_VARIABLES):
            if id(variable) not in known:         # the columns' new variables: the layer's
                (self._trainable_weights if id(variable) in trainable
                 else self._non_trainable_weights).append(variable)
        return slicing_ops.concat(outputs, 1)

    def get_config(self):
        return {**super().get_config(), "feature_columns": list(self._feature_columns),
                "partitioner": None}
