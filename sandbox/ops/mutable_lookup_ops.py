"""Mutable lookup tables -- mirrors TF 1.15's MutableHashTable and DenseHashTable
(python/ops/lookup_ops.py; tf.contrib.lookup.MutableHashTable / MutableDenseHashTable,
tf.lookup.experimental.DenseHashTable).

A mutable table starts empty and needs no initializer: `insert` adds or replaces entries,
`remove` drops them, `lookup` gives `default_value` for missing keys, `export` gives every
(key, value). Values may be tensors: the shape of `default_value` is the values' shape
(a MutableHashTableOfTensorsV2 then). Like every table it lives on the task of its handle
op, and every op on it runs there.

The sandbox's Saver does not save these tables (TF's does, through SAVEABLE_OBJECTS).
"""
from ..framework.graph import colocate_with, name_scope
from ..framework.op_def import apply_op
from ..framework.tensor import convert_to_tensor
from .lookup_ops import LookupInterface, check_keys, export, find, table_op, table_size

__all__ = ["MutableHashTable", "DenseHashTable", "MutableDenseHashTable"]


class _MutableTable(LookupInterface):
    """What MutableHashTable and DenseHashTable share: every op they build is colocated with
    the table's handle."""

    def __init__(self, key_dtype, value_dtype, default_value, name):
        super().__init__(key_dtype, value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype,
                                                name="default_value")
        self._value_shape = self._default_value.get_shape()
        self._name = name
        self._resource_handle = self._create_resource()
        self._table_name = self._resource_handle.op.name.split("/")[-1]

    @property
    def name(self):
        return self._table_name

    def size(self, name=None):
        """The number of entries in the table (an int64 scalar)."""
        with name_scope(name, f"{self.name}_Size", [self.resource_handle]):
            with colocate_with(self.resource_handle.op):
                return table_size(self.resource_handle)

    def lookup(self, keys, name=None):
        """The value of each key; `default_value` for keys the table does not hold."""
        with name_scope(name, f"{self.name}_lookup_table_find",
                        [self.resource_handle, keys, self._default_value]):
            keys = convert_to_tensor(keys, dtype=self._key_dtype, name="keys")
            with colocate_with(self.resource_handle.op):
                values = find(self.resource_handle, keys, self._default_value)
        values.set_shape(keys.get_shape().concatenate(self._value_shape))
        return values

    def insert(self, keys, values, name=None):
        """Adds `keys` with `values` (shape: keys' shape + the value shape), replacing the
        values of keys the table already holds."""
        with name_scope(name, f"{self.name}_lookup_table_insert",
                        [self.resource_handle, keys, values]):
            keys = convert_to_tensor(keys, self._key_dtype, name="keys")
            values = convert_to_tensor(values, self._value_dtype, name="values")
            with colocate_with(self.resource_handle.op):
                return apply_op("LookupTableInsertV2", [self.resource_handle, keys, values],
                                {"Tin": self._key_dtype, "Tout": self._value_dtype},
                                name="LookupTableInsertV2", output_dtypes=[])

    def remove(self, keys, name=None):
        """Removes `keys` (those the table does not hold are ignored)."""
        check_keys(self, keys)
        with name_scope(name, f"{self.name}_lookup_table_remove",
                        [self.resource_handle, keys, self._default_value]):
            with colocate_with(self.resource_handle.op):
                return apply_op("LookupTableRemoveV2", [self.resource_handle, keys],
                                {"Tin": self._key_dtype}, name="LookupTableRemoveV2",
                                output_dtypes=[])

    def export(self, name=None):
        """(keys, values) of every entry of the table."""
        with name_scope(name, f"{self.name}_lookup_table_export_values",
                        [self.resource_handle]):
            with colocate_with(self.resource_handle.op):
                return tuple(export(self.resource_handle, self._key_dtype, self._value_dtype))


class MutableHashTable(_MutableTable):
    """A generic mutable hash table: empty at first, filled by `insert`.

        table = tf.contrib.lookup.MutableHashTable(tf.string, tf.int64, default_value=-1)
        sess.run(table.insert(keys, values))
        out = table.lookup(query_keys)
    """

    def __init__(self, key_dtype, value_dtype, default_value, shared_name=None,
                 name="MutableHashTable", checkpoint=True):
        self._shared_name = shared_name
        self._checkpoint = checkpoint
        super().__init__(key_dtype, value_dtype, default_value, name)

    def _create_resource(self):
        scalar = self._default_value.get_shape().ndims == 0
        attrs = {} if scalar else {"value_shape": self._value_shape}
        attrs["use_node_name_sharing"] = bool(self._checkpoint and not self._shared_name)
        return table_op("MutableHashTableV2" if scalar else "MutableHashTableOfTensorsV2", [],
                        self._key_dtype, self._value_dtype, self._name, self._shared_name,
                        **attrs)


class DenseHashTable(_MutableTable):
    """A mutable hash table that TF keeps in open addressing: two keys are reserved --
    `empty_key` and `deleted_key` (different) may never be inserted or looked up."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, shared_name=None, name="MutableDenseHashTable",
                 checkpoint=True):
        self._empty_key = empty_key
        self._deleted_key = deleted_key
        self._initial_num_buckets = initial_num_buckets
        self._shared_name = shared_name
        self._checkpoint = checkpoint
        super().__init__(key_dtype, value_dtype, default_value, name)

    def _create_resource(self):
        empty_key = convert_to_tensor(self._empty_key, dtype=self._key_dtype, name="empty_key")
        deleted_key = convert_to_tensor(self._deleted_key, dtype=self._key_dtype,
                                        name="deleted_key")
        return table_op("MutableDenseHashTableV2", [empty_key, deleted_key], self._key_dtype,
                        self._value_dtype, self._name, self._shared_name,
                        value_shape=self._value_shape,
                        initial_num_buckets=self._initial_num_buckets or 131072,
                        max_load_factor=0.8,
                        use_node_name_sharing=bool(self._checkpoint and not self._shared_name))

    def insert_or_assign(self, keys, values, name=None):
        """insert, under its TF 2 name."""
        return self.insert(keys, values, name)

    def erase(self, keys, name=None):
        """remove, under its TF 2 name."""
        return self.remove(keys, name)


MutableDenseHashTable = DenseHashTable          # tf.contrib.lookup's name
