"""Ragged tensors -- mirrors TensorFlow 1.x's python/ops/ragged/: tf.RaggedTensor (a tensor
whose rows have different lengths, stored as flat values plus row splits), tf.RaggedTensorSpec,
the tf.ragged namespace (sandbox/api/ragged.py) and the tf.strings functions that return
ragged tensors.

    ragged_tensor.py          RaggedTensor: the from_* factories, rows, shapes, with_values
    ragged_tensor_value.py    RaggedTensorValue: what Session.run gives for one
    ragged_tensor_spec.py     tf.RaggedTensorSpec
    ragged_util.py            shared helpers (splits dtypes, lengths <-> splits, checks)
    segment_id_ops.py         row_splits_to_segment_ids, segment_ids_to_row_splits
    ragged_conversion_ops.py  to_tensor / to_sparse (ops RaggedTensorToTensor,
                              RaggedTensorToSparse), from_tensor, from_sparse
    ragged_getitem.py         rt[...]
    ragged_gather_ops.py      picking rows (what slicing and stacking use)
    ragged_operators.py       rt + 1, rt * rt2, rt < 3 ...; a RaggedTensor where a Tensor is
                              wanted raises a TypeError naming the way
    ragged_factory_ops.py     tf.ragged.constant, constant_value, placeholder
    ragged_math_ops.py        tf.ragged.range (op RaggedRange)
    ragged_array_ops.py       tf.ragged.boolean_mask, stack_dynamic_partitions
    ragged_concat_ops.py      tf.ragged.stack
    ragged_functional_ops.py  tf.ragged.map_flat_values
    ragged_cross_ops.py       tf.ragged.cross, cross_hashed (op RaggedCross)
    unicode_ops.py            ops UnicodeDecode, UnicodeDecodeWithOffsets, UnicodeEncode
    ragged_string_ops.py      tf.strings.bytes_split, unicode_*, ngrams (op StringNGrams)

The modules that define ops are imported here: the runtime imports every module of
sandbox/ops (runtime/executor.py), which for this package is this file, and an op's kernel
registers when its class is defined -- so a remote task knows the ragged ops too.
"""
from . import ragged_tensor, ragged_tensor_value, ragged_util  # noqa: F401
from . import ragged_operators  # noqa: F401  (installs rt + 1 ... on RaggedTensor)
from . import ragged_conversion_ops, ragged_math_ops  # noqa: F401  (ops)
from . import ragged_cross_ops, ragged_string_ops, unicode_ops  # noqa: F401  (ops)
from . import ragged_array_ops, ragged_concat_ops, ragged_factory_ops  # noqa: F401
from . import ragged_functional_ops, ragged_getitem, ragged_gather_ops  # noqa: F401
from . import ragged_tensor_spec, segment_id_ops  # noqa: F401
from .ragged_tensor import RaggedTensor  # noqa: F401
from .ragged_tensor_spec import RaggedTensorSpec  # noqa: F401
from .ragged_tensor_value import RaggedTensorValue  # noqa: F401
