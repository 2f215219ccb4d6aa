"""`tf.contrib.lookup` -- mirrors TF 1.15's contrib/lookup (contrib/lookup/lookup_ops.py),
which re-exports the tables of python/ops/lookup_ops.py under their TF-1 names: HashTable,
MutableHashTable, MutableDenseHashTable, IdTableWithHashBuckets, and the vocabulary helpers

    index_table_from_file / index_table_from_tensor                   word -> id
    index_to_string_table_from_file / index_to_string_table_from_tensor   id -> word
    string_to_index / index_to_string       one lookup through a table built for it (TF's
                                            deprecated shortcuts, still in TF-1 programs)

The tables themselves are in sandbox/ops/lookup_ops.py, vocabulary_lookup_ops.py and
mutable_lookup_ops.py.
"""
from ...ops.lookup_ops import (HashTable, InitializableLookupTableBase,
                               KeyValueTensorInitializer, LookupInterface, TableInitializerBase,
                               TextFileIdTableInitializer, TextFileIndex, TextFileInitializer,
                               TextFileStringTableInitializer)
from ...ops.mutable_lookup_ops import MutableDenseHashTable, MutableHashTable
from ...ops.vocabulary_lookup_ops import (FastHashSpec, HasherSpec, IdTableWithHashBuckets,
                                          StrongHashSpec, index_table_from_file,
                                          index_table_from_tensor,
                                          index_to_string_table_from_file,
                                          index_to_string_table_from_tensor)

__all__ = ["HashTable", "InitializableLookupTableBase", "KeyValueTensorInitializer",
           "LookupInterface", "TableInitializerBase", "TextFileIdTableInitializer",
           "TextFileIndex", "TextFileInitializer", "TextFileStringTableInitializer",
           "MutableDenseHashTable", "MutableHashTable", "FastHashSpec", "HasherSpec",
           "IdTableWithHashBuckets", "StrongHashSpec", "index_table_from_file",
           "index_table_from_tensor", "index_to_string_table_from_file",
           "index_to_string_table_from_tensor", "string_to_index", "index_to_string",
           "string_to_index_table_from_file", "string_to_index_table_from_tensor"]

string_to_index_table_from_file = index_table_from_file        # TF 1.15's deprecated name


def string_to_index_table_from_tensor(mapping, num_oov_buckets=0, default_value=-1,
                                      hasher_spec=FastHashSpec, name=None):
    """TF 1.15's deprecated name of index_table_from_tensor (`mapping`: the vocabulary)."""
    return index_table_from_tensor(vocabulary_list=mapping, num_oov_buckets=num_oov_buckets,
                                   default_value=default_value, hasher_spec=hasher_spec,
                                   name=name)


def string_to_index(tensor, mapping, default_value=-1, name=None):
    """The position of each string of `tensor` in `mapping` (default_value if absent), through
    a table whose initializer joins the TABLE_INITIALIZERS collection."""
    table = index_table_from_tensor(vocabulary_list=mapping, default_value=default_value,
                                    name=name)
    return table.lookup(tensor)


def index_to_string(tensor, mapping, default_value="UNK", name=None):
    """The string of `mapping` at each int64 index of `tensor` (default_value if out of
    range), through a table whose initializer joins the TABLE_INITIALIZERS collection."""
    table = index_to_string_table_from_tensor(vocabulary_list=mapping,
                                              default_value=default_value, name=name)
    return table.lookup(tensor)
