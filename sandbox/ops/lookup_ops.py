"""Lookup tables and their initializers -- mirrors TF 1.15's python/ops/lookup_ops.py (the
first half: the static hash table; vocabulary_lookup_ops.py and mutable_lookup_ops.py hold the
rest, the ops themselves are in lookup_table_ops.py).

An NLP program turns words into ids with a table built from a vocabulary:

    table = tf.lookup.StaticHashTable(
        tf.lookup.KeyValueTensorInitializer(["brain", "salad"], [0, 1],
                                            value_dtype=tf.int64), default_value=-1)
    ids = table.lookup(words)                   # -1 for a word the table does not hold
    sess.run(tf.tables_initializer())           # fills the table (once)

The table object only *names* the table: its handle op (HashTableV2) puts the dict in the
resource manager of its task the first time it runs; the initializer op (LookupTableImportV2,
or InitializeTableFromTextFileV2 for a TextFileInitializer) is added to the
TABLE_INITIALIZERS collection, which tf.tables_initializer runs. Until then a lookup fails with
FailedPreconditionError "Table not initialized.".
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from ..framework.op_def import apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import lookup_table_ops  # noqa: F401 -- registers the table ops (their shapes)
from .control_flow_ops import group, no_op

__all__ = ["tables_initializer", "initialize_all_tables", "check_table_dtypes",
           "LookupInterface", "InitializableLookupTableBase", "StaticHashTable",
           "StaticHashTableV1", "HashTable", "TableInitializerBase",
           "KeyValueTensorInitializer", "TextFileIndex", "TextFileInitializer",
           "TextFileStringTableInitializer", "TextFileIdTableInitializer"]


def tables_initializer(name="init_all_tables"):
    """An op that runs every initializer in the TABLE_INITIALIZERS collection (a NoOp when
    there is none)."""
    initializers = get_collection(GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return group(*initializers, name=name)
    return no_op(name=name)


def initialize_all_tables(name="init_all_tables"):
    """The TF 0.x name of tables_initializer."""
    return tables_initializer(name)


def check_table_dtypes(table, key_dtype, value_dtype):
    """TypeError unless `key_dtype` and `value_dtype` are the table's."""
    if key_dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Invalid key dtype, expected {table.key_dtype} but got {key_dtype}.")
    if value_dtype.base_dtype != table.value_dtype:
        raise TypeError(f"Invalid value dtype, expected {table.value_dtype} but got "
                        f"{value_dtype}.")


def check_keys(table, keys):
    """TF 1.15's check of the keys given to lookup / remove: their dtype is the table's."""
    if keys.dtype.base_dtype != table.key_dtype:
        raise TypeError(f"Signature mismatch. Keys must be dtype {table.key_dtype}, got "
                        f"{keys.dtype}.")


def table_op(op_type, inputs, key_dtype, value_dtype, name, shared_name="", **attrs):
    """The handle op of a new table (HashTableV2, MutableHashTableV2 ...)."""
    return apply_op(op_type, inputs,
                    {"container": "", "shared_name": shared_name or "",
                     "use_node_name_sharing": False, "key_dtype": key_dtype,
                     "value_dtype": value_dtype, **attrs},
                    name=name, output_dtypes=[_dtypes.resource])


def find(handle, keys, default_value):
    """A LookupTableFindV2 op: the value of each key in the table of `handle`."""
    return apply_op("LookupTableFindV2", [handle, keys, default_value],
                    {"Tin": keys.dtype.base_dtype, "Tout": default_value.dtype.base_dtype},
                    name="LookupTableFindV2", output_dtypes=[default_value.dtype.base_dtype])


def table_size(handle):
    return apply_op("LookupTableSizeV2", [handle], {}, name="LookupTableSizeV2",
                    output_dtypes=[_dtypes.int64])


def export(handle, key_dtype, value_dtype):
    return apply_op("LookupTableExportV2", [handle], {"Tkeys": key_dtype, "Tvalues": value_dtype},
                    name="LookupTableExportV2", output_dtypes=[key_dtype, value_dtype])


# -- the tables ---------------------------------------------------------------------------

class LookupInterface:
    """What every lookup table offers: its key and value dtypes, name, size and lookup."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = _dtypes.as_dtype(key_dtype)
        self._value_dtype = _dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        """The table key dtype."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The table value dtype."""
        return self._value_dtype

    @property
    def name(self):
        """The name of the table."""
        raise NotImplementedError

    @property
    def resource_handle(self):
        """The handle op's output: what every op of the table takes."""
        return self._resource_handle

    def size(self, name=None):
        """Compute the number of elements in this table."""
        raise NotImplementedError

    def lookup(self, keys, name=None):
        """Looks up `keys` in a table, outputs the corresponding values."""
        raise NotImplementedError

    def __getitem__(self, keys):
        return self.lookup(keys)


class InitializableLookupTableBase(LookupInterface):
    """A table filled once by an initializer (a TableInitializerBase), which builds its init
    op now and adds it to the TABLE_INITIALIZERS collection."""

    def __init__(self, default_value, initializer):
        super().__init__(initializer.key_dtype, initializer.value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self._default_value.get_shape().merge_with(TensorShape([]))
        self._initializer = initializer
        self._resource_handle = self._create_resource()
        self._init_op = self._initialize()

    def _create_resource(self):
        raise NotImplementedError

    def _initialize(self):
        return self._initializer.initialize(self)

    @property
    def initializer(self):
        """The op that fills the table (also in the TABLE_INITIALIZERS collection)."""
        return self._init_op

    @property
    def default_value(self):
        """The default value of the table."""
        return self._default_value

    def size(self, name=None):
        """The number of elements in this table (an int64 scalar)."""
        with name_scope(name, f"{self.name}_Size", [self.resource_handle]):
            return table_size(self.resource_handle)

    def lookup(self, keys, name=None):
        """The value of each of `keys` (a Tensor or a SparseTensor), `default_value` for those
        the table does not hold; a SparseTensor of them for sparse keys."""
        if not isinstance(keys, (Tensor, SparseTensor)):
            keys = convert_to_tensor(keys, dtype=self._key_dtype)
        key_tensor = keys.values if isinstance(keys, SparseTensor) else keys
        check_keys(self, keys)
        with name_scope(name, f"{self.name}_Lookup",
                        [self.resource_handle, key_tensor, self._default_value]):
            values = find(self.resource_handle, key_tensor, self._default_value)
        values.set_shape(key_tensor.get_shape())
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, values, keys.dense_shape)
        return values


class StaticHashTable(InitializableLookupTableBase):
    """A generic hash table that is immutable once initialized.

        table = tf.lookup.StaticHashTable(
            tf.lookup.KeyValueTensorInitializer(keys_tensor, vals_tensor), -1)
        out = table.lookup(input_tensor)
    """

    def __init__(self, initializer, default_value, name=None):
        self._initializer = initializer
        self._shared_name = initializer._shared_name
        self._name = name or "hash_table"
        self._table_name = None
        super().__init__(default_value, initializer)
        self._value_shape = self._default_value.get_shape()

    def _create_resource(self):
        handle = table_op("HashTableV2", [], self._initializer.key_dtype,
                          self._initializer.value_dtype, self._name, self._shared_name)
        self._table_name = handle.op.name.split("/")[-1]
        return handle

    @property
    def name(self):
        return self._table_name

    def export(self, name=None):
        """(keys, values) of all the entries of the table."""
        with name_scope(name, f"{self.name}_Export", [self.resource_handle]):
            keys, values = export(self.resource_handle, self._key_dtype, self._value_dtype)
        values.set_shape(keys.get_shape().concatenate(self._value_shape))
        return keys, values


class StaticHashTableV1(StaticHashTable):
    """tf.compat.v1.lookup.StaticHashTable: the same table (graph mode is the only mode)."""


class HashTable(StaticHashTableV1):
    """tf.contrib.lookup.HashTable: TF 1.15's older name of StaticHashTable."""

    @property
    def init(self):
        """The table's initializer op (TF's deprecated name of .initializer)."""
        return self.initializer


# -- the initializers ---------------------------------------------------------------------

class TableInitializerBase:
    """Builds the op that fills a table of `key_dtype` -> `value_dtype`."""

    def __init__(self, key_dtype, value_dtype):
        self._key_dtype = _dtypes.as_dtype(key_dtype)
        self._value_dtype = _dtypes.as_dtype(value_dtype)

    @property
    def key_dtype(self):
        """The expected table key dtype."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The expected table value dtype."""
        return self._value_dtype

    def initialize(self, table):
        """Returns the table initialization op."""
        raise NotImplementedError

    @property
    def _shared_name(self):
        """The table's shared_name: "" (the table is named after its op) unless the
        initializer names what it holds."""
        return ""


class KeyValueTensorInitializer(TableInitializerBase):
    """Fills a table with the keys of one tensor and the values of another (same shape)."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = convert_to_tensor(keys, dtype=key_dtype, name="keys")
        self._values = convert_to_tensor(values, dtype=value_dtype, name="values")
        self._name = name if name is not None else "key_value_init"
        super().__init__(self._keys.dtype, self._values.dtype)

    def initialize(self, table):
        check_table_dtypes(table, self._keys.dtype, self._values.dtype)
        with name_scope(self._name, values=[table.resource_handle, self._keys, self._values]):
            init_op = apply_op("LookupTableImportV2",
                               [table.resource_handle, self._keys, self._values],
                               {"Tin": self._keys.dtype.base_dtype,
                                "Tout": self._values.dtype.base_dtype},
                               name="LookupTableImportV2", output_dtypes=[])
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, init_op)
        return init_op


class TextFileIndex:
    """Where a TextFileInitializer takes a key or value from: a column index (>= 0), the
    whole line, or the line number (from 0)."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TextFileInitializer(TableInitializerBase):
    """Fills a table from a text file: one entry per line (the first `vocab_size` lines if
    given), its key and value each a column (split at `delimiter`), the whole line
    (TextFileIndex.WHOLE_LINE) or the line number (TextFileIndex.LINE_NUMBER)."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None):
        if not isinstance(filename, Tensor) and not filename:
            raise ValueError("Filename required for TextFileInitializer.")
        key_dtype = _dtypes.as_dtype(key_dtype)
        value_dtype = _dtypes.as_dtype(value_dtype)
        _check_index("key", key_index, key_dtype)
        _check_index("value", value_index, value_dtype)
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"Invalid vocab_size {vocab_size}.")
        self._filename = filename
        self._key_index = key_index
        self._value_index = value_index
        self._vocab_size = vocab_size
        self._delimiter = delimiter
        self._name = name
        super().__init__(key_dtype, value_dtype)

    def initialize(self, table):
        check_table_dtypes(table, self.key_dtype, self.value_dtype)
        with name_scope(self._name, "text_file_init", [table.resource_handle]):
            filename = convert_to_tensor(self._filename, _dtypes.string, name="asset_filepath")
            init_op = apply_op("InitializeTableFromTextFileV2", [table.resource_handle, filename],
                               {"key_index": self._key_index, "value_index": self._value_index,
                                "vocab_size": -1 if self._vocab_size is None
                                else self._vocab_size,
                                "delimiter": self._delimiter},
                               name="InitializeTableFromTextFileV2", output_dtypes=[])
        add_to_collection(GraphKeys.TABLE_INITIALIZERS, init_op)
        if filename.op.type == "Const":          # a SavedModel copies it with the model
            add_to_collection(GraphKeys.ASSET_FILEPATHS, filename)
        return init_op

    @property
    def _shared_name(self):
        # tables of one file, read the same way, are one table on their task (as in TF)
        if self._vocab_size:
            return (f"hash_table_{self._filename}_{self._vocab_size}_{self._key_index}_"
                    f"{self._value_index}")
        return f"hash_table_{self._filename}_{self._key_index}_{self._value_index}"


def _check_index(what, index, dtype):
    if index < -2:
        raise ValueError(f"Invalid {what} index {index}.")
    if index == TextFileIndex.LINE_NUMBER and dtype != _dtypes.int64:
        raise ValueError(f"Signature mismatch. {what.capitalize()}s must be dtype "
                         f"{_dtypes.int64}, got {dtype}.")
    if index == TextFileIndex.WHOLE_LINE and not dtype.is_integer and dtype != _dtypes.string:
        raise ValueError(f"Signature mismatch. {what.capitalize()}s must be integer or string, "
                         f"got {dtype}.")


class TextFileStringTableInitializer(TextFileInitializer):
    """A TextFileInitializer of an int64 -> string table: line number -> whole line."""

    def __init__(self, filename, key_column_index=TextFileIndex.LINE_NUMBER,
                 value_column_index=TextFileIndex.WHOLE_LINE, vocab_size=None,
                 delimiter="\t", name="text_file_string_table_init"):
        super().__init__(filename, _dtypes.int64, key_column_index, _dtypes.string,
                         value_column_index, vocab_size=vocab_size, delimiter=delimiter,
                         name=name)


class TextFileIdTableInitializer(TextFileInitializer):
    """A TextFileInitializer of a string -> int64 table: whole line -> line number."""

    def __init__(self, filename, key_column_index=TextFileIndex.WHOLE_LINE,
                 value_column_index=TextFileIndex.LINE_NUMBER, vocab_size=None,
                 delimiter="\t", name="text_file_id_table_init", key_dtype=_dtypes.string):
        super().__init__(filename, key_dtype, key_column_index, _dtypes.int64,
                         value_column_index, vocab_size=vocab_size, delimiter=delimiter,
                         name=name)
