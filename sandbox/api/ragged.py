"""`tf.ragged` -- the names of TensorFlow 1.x's tf.ragged namespace (TF's generated
api/_v1/ragged/__init__.py), gathered from sandbox/ops/ragged/:

    rt = tf.ragged.constant([[1, 2], [], [3]])          # tf.RaggedTensor
    tf.ragged.range([3, 1])                              # [[0, 1, 2], [0]]
    tf.ragged.boolean_mask(x, x > 0)                     # each row keeps its own entries
    ph = tf.ragged.placeholder(tf.float32, ragged_rank=1)
    sess.run(ph * 2, {ph: tf.ragged.constant_value([[1.0], [2.0, 3.0]])})

Every name of TF 1.15's tf.ragged is here. tf.RaggedTensor and tf.RaggedTensorSpec are at
the top level; the ragged tf.strings functions (bytes_split, unicode_*, ngrams) are in
tf.strings. TF also dispatches many tf.* ops (tf.add, tf.reduce_sum ...) to ragged versions;
the sandbox does not -- use the operators (rt + 1), tf.ragged.map_flat_values, or the segment
ops on rt.values and rt.value_rowids() (ops/ragged/ragged_operators.py says which).
"""
from ..ops.ragged.ragged_array_ops import boolean_mask, stack_dynamic_partitions  # noqa: F401
from ..ops.ragged.ragged_concat_ops import stack  # noqa: F401
from ..ops.ragged.ragged_cross_ops import cross, cross_hashed  # noqa: F401
from ..ops.ragged.ragged_factory_ops import constant, constant_value, placeholder  # noqa: F401
from ..ops.ragged.ragged_functional_ops import map_flat_values  # noqa: F401
from ..ops.ragged.ragged_math_ops import range  # noqa: F401,A004
from ..ops.ragged.ragged_tensor_value import RaggedTensorValue  # noqa: F401
from ..ops.ragged.segment_id_ops import (row_splits_to_segment_ids,  # noqa: F401
                                         segment_ids_to_row_splits)

__all__ = ["RaggedTensorValue", "boolean_mask", "constant", "constant_value", "cross",
           "cross_hashed", "map_flat_values", "placeholder", "range",
           "row_splits_to_segment_ids", "segment_ids_to_row_splits", "stack",
           "stack_dynamic_partitions"]
