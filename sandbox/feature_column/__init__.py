"""`tf.feature_column` -- mirrors TensorFlow 1.x's tf.feature_column (the v1 API):

    feature_column.py           the columns: numeric, bucketized, categorical_column_with_*,
                                weighted_categorical, indicator, embedding (and the sequence
                                base classes)
    crossed_column.py           crossed_column (its op, SparseCross: ops/sparse_cross_ops.py)
    shared_embedding.py         shared_embedding_columns: embeddings that share one variable
    sequence_feature_column.py  sequence_categorical_column_with_*, sequence_numeric_column
                                (their input layer: tf.contrib.feature_column.
                                sequence_input_layer, sandbox/contrib/feature_column/)
    feature_column_input.py     input_layer, linear_model, make_parse_example_spec

Not here: tf.keras.experimental.SequenceFeatures (use sequence_input_layer).
"""
from .feature_column import (bucketized_column, categorical_column_with_hash_bucket,
                             categorical_column_with_identity,
                             categorical_column_with_vocabulary_file,
                             categorical_column_with_vocabulary_list, embedding_column,
                             indicator_column, numeric_column, weighted_categorical_column)
from .crossed_column import crossed_column
from .feature_column_input import input_layer, linear_model, make_parse_example_spec
from .sequence_feature_column import (sequence_categorical_column_with_hash_bucket,
                                      sequence_categorical_column_with_identity,
                                      sequence_categorical_column_with_vocabulary_file,
                                      sequence_categorical_column_with_vocabulary_list,
                                      sequence_numeric_column)
from .shared_embedding import shared_embedding_columns

__all__ = ["numeric_column", "bucketized_column", "categorical_column_with_identity",
           "categorical_column_with_vocabulary_list", "categorical_column_with_vocabulary_file",
           "categorical_column_with_hash_bucket", "indicator_column", "embedding_column",
           "weighted_categorical_column", "crossed_column", "input_layer", "linear_model",
           "make_parse_example_spec", "shared_embedding_columns",
           "sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_numeric_column"]
