"""The lookup-table ops -- mirrors TF 1.15's core/ops/lookup_ops.cc and its kernels
(core/kernels/lookup_table_op.cc, lookup_table_init_op.cc, lookup_util.cc).

A table is shared state, like a variable or a queue: the graph only names it (HashTableV2,
MutableHashTableV2 ... output a `resource` handle); the table itself -- a Python dict from key
to value -- lives in the resource manager of the task its op is placed on, created on first
use. Every op that takes the handle (find, insert, size, export, the initializers) takes it by
reference, so the placer runs it where the table lives: a vocabulary on /job:ps/task:0 is one
table for every worker, and a worker's lookup runs on the ps.

Two kinds of tables:

  * static (HashTableV2): filled once by an initializer op -- LookupTableImportV2 (what
    KeyValueTensorInitializer builds; InitializeTableV2 is its TF-1 twin) or
    InitializeTableFromTextFileV2 (a vocabulary file). Looking a key up before that fails
    with "Table not initialized."; a second initialization is ignored, as in TF.
  * mutable (MutableHashTableV2, MutableHashTableOfTensorsV2 for vector values,
    MutableDenseHashTableV2): empty at first, changed by LookupTableInsertV2 and
    LookupTableRemoveV2.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, scalar_shape
from ..framework.tensor_shape import TensorShape

__all__ = []


class _Table:
    """The state of one table: `entries` maps each key (bytes or a Python number) to its value
    (a scalar, or an array of the table's value shape)."""

    def __init__(self, name, key_dtype, value_dtype, value_shape, owner, static):
        self.name = name
        self.key_dtype = key_dtype
        self.value_dtype = value_dtype
        self.value_shape = tuple(value_shape)
        self.owner = owner                  # task name, for messages
        self.static = static                # filled once, by an initializer
        self.initialized = not static
        self.entries = {}
        self.empty_key = self.deleted_key = None     # a dense table's reserved keys

    def read(self, node_name=None):
        """What a fetch of the handle gives: the table's name (TF gives a ResourceHandle)."""
        return np.array(self.name.encode(), dtype=object)

    # -- keys and values ----------------------------------------------------------------
    def _keys(self, keys, node):
        keys = np.asarray(keys)
        flat = [_as_key(k) for k in keys.reshape(-1).tolist()]
        for reserved, what in ((self.empty_key, "empty_key"), (self.deleted_key, "deleted_key")):
            if reserved is not None and reserved in flat:
                raise errors.InvalidArgumentError(
                    node, None, f"Using the {what} as a table key is not allowed")
        return keys.shape, flat

    def _rows(self, keys_shape, values, node):
        """The values as one entry per key; their shape must be keys' shape + value shape."""
        values = np.asarray(values, dtype=self.value_dtype.as_numpy_dtype)
        expected = tuple(keys_shape) + self.value_shape
        if values.shape != expected:
            raise errors.InvalidArgumentError(
                node, None, f"Expected shape {_text(expected)} for value, got "
                f"{_text(values.shape)} (table {self.name!r})")
        rows = values.reshape((-1,) + self.value_shape)
        return rows.tolist() if not self.value_shape else list(rows)

    # -- what the ops do -------------------------------------------------------------------
    def find(self, keys, default_value, node):
        if not self.initialized:
            raise errors.FailedPreconditionError(
                node, None, "Table not initialized. Run its initializer first: "
                "sess.run(tf.tables_initializer()), or the table's .initializer op.")
        shape, flat = self._keys(keys, node)
        default = np.asarray(default_value, dtype=self.value_dtype.as_numpy_dtype)
        np_dtype = self.value_dtype.as_numpy_dtype
        if not self.value_shape:
            d = default.item() if default.ndim == 0 else None
            if d is None:                       # one default per key (dynamic defaults)
                d_flat = default.reshape(-1).tolist()
                out = [self.entries.get(k, d_flat[i]) for i, k in enumerate(flat)]
            else:
                out = [self.entries.get(k, d) for k in flat]
            return np.array(out, dtype=np_dtype).reshape(shape)
        default = np.broadcast_to(default, tuple(shape) + self.value_shape).reshape(
            (-1,) + self.value_shape)
        out = [self.entries.get(k, default[i]) for i, k in enumerate(flat)]
        result = np.stack(out) if out else np.zeros((0,) + self.value_shape, np_dtype)
        return result.astype(np_dtype).reshape(tuple(shape) + self.value_shape)

    def initialize(self, keys, values, node):
        """Fills a static table (or adds to a mutable one: LookupTableImportV2 restores one)."""
        shape, flat = self._keys(keys, node)
        rows = self._rows(shape, values, node)
        if not self.static:
            self.entries = dict(zip(flat, rows))
            return
        if self.initialized:                    # TF ignores a second initialization
            return
        entries = {}
        for k, v in zip(flat, rows):
            if k in entries and not np.array_equal(entries[k], v):
                raise errors.FailedPreconditionError(
                    node, None, f"HashTable has different value for same key. Key "
                    f"{_show(k)} has {_show(entries[k])} and trying to add value {_show(v)}")
            entries[k] = v
        self.entries = entries
        self.initialized = True

    def insert(self, keys, values, node):
        shape, flat = self._keys(keys, node)
        self.entries.update(zip(flat, self._rows(shape, values, node)))

    def remove(self, keys, node):
        for k in self._keys(keys, node)[1]:
            self.entries.pop(k, None)

    def export(self):
        keys = np.array(list(self.entries), dtype=self.key_dtype.as_numpy_dtype)
        values = list(self.entries.values())
        np_dtype = self.value_dtype.as_numpy_dtype
        if self.value_shape:
            values = np.stack(values).astype(np_dtype) if values else \
                np.zeros((0,) + self.value_shape, np_dtype)
        else:
            values = np.array(values, dtype=np_dtype)
        return keys.reshape(-1), values


def _as_key(k):
    return k.encode() if isinstance(k, str) else k


def _show(v):
    v = v.item() if isinstance(v, np.ndarray) and v.ndim == 0 else v
    return v.decode(errors="replace") if isinstance(v, bytes) else v


def _text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


# -- the table ops: a handle to the table on this task -------------------------------------

class _TableOp(OpDef):
    """Outputs a handle to the table stored on this task (created on first use)."""
    abstract = True
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)
    shape = scalar_shape
    static = False

    @classmethod
    def create(cls, ctx, key_dtype, value_dtype, value_shape, container, shared_name):
        name = shared_name or ctx.name
        return ctx.resources.lookup_or_create(
            container, name, lambda: _Table(name, key_dtype, value_dtype, value_shape or (),
                                            ctx.resources.owner, cls.static))


class HashTableV2(_TableOp):
    """A static hash table: filled once by its initializer."""
    static = True

    def kernel(ctx, step, container="", shared_name="", use_node_name_sharing=False,
               key_dtype=None, value_dtype=None):
        return HashTableV2.create(ctx, key_dtype, value_dtype, (), container, shared_name)


class MutableHashTableV2(_TableOp):
    """A mutable hash table of scalar values: empty until something is inserted."""

    def kernel(ctx, step, container="", shared_name="", use_node_name_sharing=False,
               key_dtype=None, value_dtype=None):
        return MutableHashTableV2.create(ctx, key_dtype, value_dtype, (), container,
                                         shared_name)


class MutableHashTableOfTensorsV2(_TableOp):
    """A mutable hash table whose values are tensors of shape `value_shape`."""

    def kernel(ctx, step, container="", shared_name="", use_node_name_sharing=False,
               key_dtype=None, value_dtype=None, value_shape=None):
        return MutableHashTableOfTensorsV2.create(
            ctx, key_dtype, value_dtype, TensorShape(value_shape).as_list(), container,
            shared_name)


class MutableDenseHashTableV2(_TableOp):
    """A mutable table that TF keeps in open addressing with two reserved keys: `empty_key`
    and `deleted_key` may never be looked up or inserted. (The sandbox keeps a dict; the
    buckets and load factor only show in the attrs.)"""

    def kernel(ctx, step, empty_key, deleted_key, container="", shared_name="",
               use_node_name_sharing=False, key_dtype=None, value_dtype=None,
               value_shape=None, initial_num_buckets=131072, max_load_factor=0.8):
        empty, deleted = np.asarray(empty_key), np.asarray(deleted_key)
        if np.array_equal(empty, deleted):
            raise errors.InvalidArgumentError(ctx.name, None,
                                              "Empty and deleted keys cannot be equal")
        table = MutableDenseHashTableV2.create(ctx, key_dtype, value_dtype,
                                               TensorShape(value_shape).as_list(),
                                               container, shared_name)
        table.empty_key, table.deleted_key = _as_key(empty.item()), _as_key(deleted.item())
        return table


# -- the ops that use a table --------------------------------------------------------------

class _TableUser(OpDef):
    abstract = True
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)


class LookupTableFindV2(_TableUser):
    """The value of each key, or `default_value` for a key the table does not hold."""

    def kernel(ctx, step, table, keys, default_value, Tin=None, Tout=None):
        return table.find(keys, default_value, ctx.name)


class LookupTableImportV2(_TableUser):
    """Fills a table with keys and values: a static table's initializer (ignored once it is
    initialized), a mutable table's restore (replaces what it holds)."""

    def kernel(ctx, step, table, keys, values, Tin=None, Tout=None):
        table.initialize(keys, values, ctx.name)


class InitializeTableV2(LookupTableImportV2):
    """TF-1's initializer of a static table from keys and values (as LookupTableImportV2)."""


class InitializeTableFromTextFileV2(_TableUser):
    """Fills a static table from a text file: one entry per line, the key and the value each
    a column (split at `delimiter`), the whole line (-2) or the line number (-1)."""

    def kernel(ctx, step, table, filename, key_index=-2, value_index=-1, vocab_size=-1,
               delimiter="\t", offset=0):
        path = filename.item() if isinstance(filename, np.ndarray) else filename
        path = path.decode() if isinstance(path, bytes) else str(path)
        keys, values = _read_text_file(path, table, key_index, value_index, vocab_size,
                                       delimiter, offset, ctx.name)
        table.initialize(np.array(keys, dtype=table.key_dtype.as_numpy_dtype),
                         np.array(values, dtype=table.value_dtype.as_numpy_dtype), ctx.name)


def _read_text_file(path, table, key_index, value_index, vocab_size, delimiter, offset, node):
    try:
        with open(path, "rb") as f:
            lines = f.read().split(b"\n")
    except OSError:
        raise errors.NotFoundError(node, None, f"{path}; No such file or directory (the "
                                   f"vocabulary file of table {table.name!r})") from None
    if lines and lines[-1] == b"":
        lines.pop()                             # the newline that ends the last line
    lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
    if vocab_size >= 0:
        if len(lines) < vocab_size:
            raise errors.InvalidArgumentError(
                node, None, f"Invalid vocab_size in {path}: expected {vocab_size} but got "
                f"{len(lines)}")
        lines = lines[:vocab_size]
    sep = delimiter.encode() if isinstance(delimiter, str) else delimiter
    keys, values = [], []
    for number, line in enumerate(lines):
        if not line:
            raise errors.InvalidArgumentError(
                node, None, f"Invalid content in {path}: empty line found at position "
                f"{number + 1}.")
        columns = line.split(sep) if sep else line.split()
        needed = max(key_index, value_index) + 1
        if len(columns) < needed:
            raise errors.InvalidArgumentError(
                node, None, f"Invalid number of columns in {path} line {number} "
                f"({line.decode(errors='replace')}) : expected at least {needed} got "
                f"{len(columns)}")
        keys.append(_field(line, columns, key_index, number, 0, table.key_dtype, node))
        values.append(_field(line, columns, value_index, number, offset, table.value_dtype,
                             node))
    return keys, values


def _field(line, columns, index, number, offset, dtype, node):
    """The key or value of one line, as TF's TextFileLineIterator reads it."""
    if index == -1:                             # TextFileIndex.LINE_NUMBER
        return number + offset
    text = line if index == -2 else columns[index]
    if dtype == _dtypes.string:
        return text
    try:
        return int(text) if dtype.is_integer else float(text)
    except ValueError:
        raise errors.InvalidArgumentError(
            node, None, f"Field {text.decode(errors='replace')} in line {number} is not a "
            f"valid {dtype.name}.") from None


class LookupTableInsertV2(_TableUser):
    """Adds the keys with their values to a mutable table (replacing what they had)."""

    def kernel(ctx, step, table, keys, values, Tin=None, Tout=None):
        table.insert(keys, values, ctx.name)


class LookupTableRemoveV2(_TableUser):
    """Removes the keys from a mutable table (those it does not hold are ignored)."""

    def kernel(ctx, step, table, keys, Tin=None):
        table.remove(keys, ctx.name)


class LookupTableSizeV2(_TableUser):
    """The number of entries in the table (0 before a static table is initialized)."""
    shape = scalar_shape

    def kernel(ctx, step, table):
        return np.int64(len(table.entries))


class LookupTableExportV2(_TableUser):
    """All keys of the table and their values."""
    multi_output = True

    def shape(op):
        return [TensorShape([None]), None]

    def kernel(ctx, step, table, Tkeys=None, Tvalues=None):
        return table.export()
