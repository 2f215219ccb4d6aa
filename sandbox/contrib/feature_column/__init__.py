"""`tf.contrib.feature_column` -- TF 1.15's contrib/feature_column: sequence_input_layer
(sequence_feature_column.py) and the sequence columns it takes, the same as
tf.feature_column.sequence_* (sandbox/feature_column/sequence_feature_column.py)."""
from .sequence_feature_column import (sequence_categorical_column_with_hash_bucket,
                                      sequence_categorical_column_with_identity,
                                      sequence_categorical_column_with_vocabulary_file,
                                      sequence_categorical_column_with_vocabulary_list,
                                      sequence_input_layer, sequence_numeric_column)

__all__ = ["sequence_categorical_column_with_hash_bucket",
           "sequence_categorical_column_with_identity",
           "sequence_categorical_column_with_vocabulary_file",
           "sequence_categorical_column_with_vocabulary_list", "sequence_input_layer",
           "sequence_numeric_column"]
