"""tf.contrib.feature_column.sequence_input_layer -- mirrors TensorFlow 1.15's contrib/
feature_column/python/feature_column/sequence_feature_column.py: input_layer for sequences,
the input of an RNN.

    watches = sequence_categorical_column_with_identity('watches', num_buckets=1000)
    columns = [sequence_numeric_column('rating'), embedding_column(watches, dimension=10)]
    net, length = sequence_input_layer(features, columns)    # [batch, T, 11], [batch]
    outputs, state = tf.nn.dynamic_rnn(cell, net, sequence_length=length, dtype=tf.float32)

As input_layer (sandbox/feature_column/feature_column_input.py) it sorts the columns by name
and builds each in a variable scope of its name, in a scope 'sequence_input_layer': the
variable of embedding_column(watches) is 'sequence_input_layer/watches_embedding/
embedding_weights'. Every column must be a sequence dense column -- sequence_numeric_column,
or an indicator_column, embedding_column or shared_embedding_columns of a
sequence_categorical_column_with_* -- and gives [batch, T, ...] (made [batch, T, its number
of elements]) and the length of each example's sequence. The outputs are concatenated on
their last axis; the lengths of all the columns must be equal (checked when the graph runs:
InvalidArgumentError), and are returned once (int64 [batch]).

The sequence columns themselves are tf.feature_column's (sandbox/feature_column/
sequence_feature_column.py); tf.contrib.feature_column names the same functions.
"""
from ...feature_column.feature_column import _SequenceDenseColumn
from ...feature_column.feature_column_input import (_LazyBuilder, _features_values,
                                                    _normalize_feature_columns)
from ...feature_column.sequence_feature_column import (
    sequence_categorical_column_with_hash_bucket, sequence_categorical_column_with_identity,
    sequence_categorical_column_with_vocabulary_file,
    sequence_categorical_column_with_vocabulary_list, sequence_numeric_column)
from ...framework.graph import control_dependencies, name_scope
from ...ops import array_ops, check_ops, control_flow_ops, slicing_ops, variable_scope

__all__ = ["sequence_input_layer", "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column"]


def sequence_input_layer(features, feature_columns, weight_collections=None, trainable=True):
    """(input_layer, sequence_length): the sequence dense columns, sorted by name, as one
    float Tensor [batch, T, sum of their numbers of elements], and the int64 length
    [batch] of each example's sequence (the same for all the columns)."""
    feature_columns = _normalize_feature_columns(feature_columns)
    for column in feature_columns:
        if not isinstance(column, _SequenceDenseColumn):
            raise ValueError("All feature_columns must be of type _SequenceDenseColumn. You can "
                             "wrap a sequence_categorical_column with an embedding_column or "
                             f"indicator_column. Given (type {type(column)}): {column}")
    with variable_scope.variable_scope(None, default_name="sequence_input_layer",
                                       values=_features_values(features)):
        builder = _LazyBuilder(features)
        outputs, lengths, ordered = [], [], []
        for column in sorted(feature_columns, key=lambda c: c.name):
            ordered.append(column)
            with variable_scope.variable_scope(None, default_name=column._var_scope_name):
                dense, length = column._get_sequence_dense_tensor(
                    builder, weight_collections=weight_collections, trainable=trainable)
                # the last dimensions flattened: [batch, T, num_elements]
                num_elements = column._variable_shape.num_elements()
                shape = array_ops.shape(dense)
                outputs.append(array_ops.reshape(
                    dense, slicing_ops.concat([shape[:2], [num_elements]], axis=0)))
                lengths.append(length)
        _verify_static_batch_size_equality(outputs, ordered)
        _verify_static_batch_size_equality(lengths, ordered)
        return slicing_ops.concat(outputs, -1), _assert_all_equal_and_return(lengths)


def _verify_static_batch_size_equality(tensors, columns):
    """The columns' tensors must agree on the batch size where their shapes say it."""
    expected, expected_i = None, None
    for i, tensor in enumerate(tensors):
        shape = tensor.get_shape()
        batch = shape[0].value if shape.ndims else None
        if batch is None:
            continue
        if expected is None:
            expected, expected_i = batch, i
        elif batch != expected:
            raise ValueError(f"Batch size (first dimension) of each feature must be same. Batch "
                             f"size of columns ({columns[expected_i].name}, {columns[i].name}): "
                             f"({expected}, {batch})")


def _assert_all_equal_and_return(tensors, name=None):
    """The first tensor, once all are checked equal to it (when the graph runs)."""
    with name_scope(name, "assert_all_equal", values=tensors):
        if len(tensors) == 1:
            return tensors[0]
        checks = [check_ops.assert_equal(tensors[0], t) for t in tensors[1:]]
        with control_dependencies(checks):
            return control_flow_ops.identity(tensors[0])
