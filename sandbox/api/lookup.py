"""`tf.lookup` -- TF 1.15's names for lookup tables (python/ops/lookup_ops.py): static
tables filled by an initializer, vocabulary tables with OOV buckets, and, under
tf.lookup.experimental, the mutable tables. See sandbox/ops/lookup_ops.py."""
import types

from ..ops.lookup_ops import (KeyValueTensorInitializer, StaticHashTableV1 as StaticHashTable,
                              TextFileIndex, TextFileInitializer)
from ..ops.mutable_lookup_ops import DenseHashTable, MutableHashTable
from ..ops.vocabulary_lookup_ops import StaticVocabularyTableV1 as StaticVocabularyTable

experimental = types.SimpleNamespace(DenseHashTable=DenseHashTable,
                                     MutableHashTable=MutableHashTable)

__all__ = ["KeyValueTensorInitializer", "StaticHashTable", "StaticVocabularyTable",
           "TextFileIndex", "TextFileInitializer", "experimental"]
