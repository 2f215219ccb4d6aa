"""Vocabulary tables: words to ids, with buckets for the words a vocabulary lacks -- mirrors
TF 1.15's python/ops/lookup_ops.py (IdTableWithHashBuckets, StaticVocabularyTable and the
index_table_from_* / index_to_string_table_from_* helpers of tf.contrib.lookup).

    table = tf.contrib.lookup.index_table_from_tensor(["brain", "salad"], num_oov_buckets=3)
    ids = table.lookup(words)      # brain -> 0, salad -> 1, any other word -> 2, 3 or 4

An out-of-vocabulary (OOV) word goes to bucket `vocab_size + hash(word) % num_oov_buckets`,
the hash being FarmHash's Fingerprint64 (tf.string_to_hash_bucket_fast; SipHash under a key
with StrongHashSpec): the same word gets the same id in every run, on every machine, as in TF.
Integer keys are hashed as their decimal strings. These tables are graph compositions: a
static table (lookup_ops.py) for the vocabulary, the hash for the rest, and a select.
"""
import collections
import functools

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from .array_ops import range as _range, size as _size
from .control_flow_ops import no_op
from .lookup_ops import (KeyValueTensorInitializer, LookupInterface, StaticHashTableV1,
                         TextFileIdTableInitializer, TextFileIndex,
                         TextFileStringTableInitializer)
from .manip_ops import where_v2
from .math_ops import add, cast
from .comparison_ops import not_equal
from .string_hash_ops import (string_to_hash_bucket, string_to_hash_bucket_fast,
                              string_to_hash_bucket_strong)
from .string_ops import as_string

__all__ = ["HasherSpec", "FastHashSpec", "StrongHashSpec", "IdTableWithHashBuckets",
           "StaticVocabularyTable", "StaticVocabularyTableV1", "index_table_from_file",
           "index_table_from_tensor", "index_to_string_table_from_file",
           "index_to_string_table_from_tensor"]


class HasherSpec(collections.namedtuple("HasherSpec", ["hasher", "key"])):
    """Which hash puts OOV keys in buckets: 'fasthash' (Fingerprint64), 'legacy' (TF's old
    Hash64) or 'stronghash' (SipHash-2-4 under a 2-int key)."""
    __slots__ = ()


FastHashSpec = HasherSpec("fasthash", None)


class StrongHashSpec(HasherSpec):
    """SipHash-2-4 under `key`, two unsigned ints: OOV buckets an adversary cannot predict."""
    __slots__ = ()

    def __new__(cls, key):
        if len(key) != 2:
            raise ValueError(f"key must have size 2, got {len(key)}.")
        if not isinstance(key[0], int) or not isinstance(key[1], int):
            raise TypeError(f"Invalid key {key}. Must be unsigned integer values.")
        return super(cls, StrongHashSpec).__new__(cls, "stronghash", key)


def _as_string(tensor):
    return tensor if tensor.dtype.base_dtype == _dtypes.string else as_string(tensor)


def _hash_fn(hasher_spec):
    if not isinstance(hasher_spec, HasherSpec):
        raise TypeError(f"hasher_spec must be of type HasherSpec, got {hasher_spec}.")
    if hasher_spec.hasher == "fasthash":
        return string_to_hash_bucket_fast
    if hasher_spec.hasher == "legacy":
        return string_to_hash_bucket
    if hasher_spec.hasher == "stronghash":
        return functools.partial(string_to_hash_bucket_strong, key=list(hasher_spec.key))
    raise ValueError(f"Unknown hasher {hasher_spec.hasher}")


class _BucketedTable(LookupInterface):
    """A table of ids (or none) plus `num_oov_buckets` hash buckets after its ids."""

    def __init__(self, table, num_oov_buckets, hasher_spec, name, key_dtype):
        self._table = table
        self._num_oov_buckets = num_oov_buckets
        self._hasher_spec = hasher_spec
        self._table_name = name.split("/")[-1] if name else None
        super().__init__(key_dtype, _dtypes.int64)

    @property
    def initializer(self):
        """The vocabulary table's initializer (a NoOp when there is no vocabulary)."""
        if self._table is not None:
            return self._table.initializer
        with name_scope(None, "init"):
            return no_op()

    init = initializer

    @property
    def resource_handle(self):
        return self._table.resource_handle if self._table is not None else None

    @property
    def name(self):
        return self._table_name

    def size(self, name=None):
        """The number of ids: the vocabulary's plus the OOV buckets (int64)."""
        with name_scope(name, f"{self.name}_Size"):
            if self._table:
                tsize = self._table.size()
            else:
                tsize = convert_to_tensor(0, dtype=_dtypes.int64)
            return tsize + self._num_oov_buckets

    def lookup(self, keys, name=None):
        """The id of each of `keys`: its vocabulary id, or its OOV bucket after them."""
        if not isinstance(keys, (Tensor, SparseTensor)):
            keys = convert_to_tensor(keys, dtype=self._key_dtype)
        if keys.dtype.base_dtype != self._key_dtype:
            raise TypeError(f"Signature mismatch. Keys must be dtype {self._key_dtype}, got "
                            f"{keys.dtype}.")
        values = keys.values if isinstance(keys, SparseTensor) else keys
        if self._table and self._table.key_dtype.base_dtype == _dtypes.int64:
            values = cast(values, _dtypes.int64)
        if self._num_oov_buckets == 0:
            ids = self._table.lookup(values, name=name)
        else:
            with name_scope(name, f"{self.name}_Lookup"):
                buckets = _hash_fn(self._hasher_spec)(
                    _as_string(values), num_buckets=self._num_oov_buckets, name="hash_bucket")
                if self._table:
                    ids = self._table.lookup(values)
                    buckets = add(buckets, self._table.size())
                    is_id_non_default = not_equal(ids, self._table.default_value)
                    ids = where_v2(is_id_non_default, ids, buckets)
                else:
                    ids = buckets
        if isinstance(keys, SparseTensor):
            return SparseTensor(keys.indices, ids, keys.dense_shape)
        return ids


def _lookup_key_dtype(table_key_dtype, key_dtype, value_dtype):
    """TF's checks of a vocabulary table's dtypes: int64 or string keys, int64 ids."""
    if table_key_dtype not in (_dtypes.int64, _dtypes.string):
        raise TypeError(f"Invalid key dtype, expected one of (tf.int64, tf.string), but got "
                        f"{table_key_dtype}.")
    if table_key_dtype.is_integer != key_dtype.is_integer:
        raise TypeError(f"Invalid key dtype, expected "
                        f"{'integer' if key_dtype.is_integer else 'non-integer'} but got "
                        f"{table_key_dtype}.")
    if value_dtype != _dtypes.int64:
        raise TypeError(f"Invalid value dtype, expected {_dtypes.int64} but got {value_dtype}.")


class IdTableWithHashBuckets(_BucketedTable):
    """A table of ids (string or int64 keys -> int64) whose missing keys go to
    `num_oov_buckets` hash buckets, numbered after the table's ids. Without a table, every
    key is hashed."""

    def __init__(self, table, num_oov_buckets, hasher_spec=FastHashSpec, name=None,
                 key_dtype=None):
        if name:
            name = name.rstrip("/")
        if table:
            key_dtype = table.key_dtype if key_dtype is None else _dtypes.as_dtype(key_dtype)
            _lookup_key_dtype(table.key_dtype, key_dtype, table.value_dtype)
            name = name or table.name
        else:
            if num_oov_buckets <= 0:
                raise ValueError("oov_buckets must be > 0 if no table is supplied.")
            key_dtype = _dtypes.string if key_dtype is None else _dtypes.as_dtype(key_dtype)
            name = name or "hash_bucket"
        if not key_dtype.is_integer and key_dtype != _dtypes.string:
            raise TypeError(f"Invalid key_dtype, expected integer or string, got {key_dtype}.")
        if not isinstance(hasher_spec, HasherSpec):
            raise TypeError(f"hasher_spec must be of type HasherSpec, got {hasher_spec}")
        super().__init__(table or None, num_oov_buckets, hasher_spec, name, key_dtype)


class StaticVocabularyTable(_BucketedTable):
    """A vocabulary (an initializer of string or int64 keys -> int64 ids) plus
    `num_oov_buckets` Fingerprint64 buckets for the keys it lacks:

        table = tf.lookup.StaticVocabularyTable(
            tf.lookup.TextFileInitializer("vocab.txt", tf.string,
                                          tf.lookup.TextFileIndex.WHOLE_LINE, tf.int64,
                                          tf.lookup.TextFileIndex.LINE_NUMBER),
            num_oov_buckets=3)
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None):
        if num_oov_buckets <= 0:
            raise ValueError("oov_buckets must be > 0; use StaticHashTable.")
        if name:
            name = name.rstrip("/")
        table = None
        if initializer:
            lookup_key_dtype = initializer.key_dtype if lookup_key_dtype is None else \
                _dtypes.as_dtype(lookup_key_dtype)
            _lookup_key_dtype(initializer.key_dtype, lookup_key_dtype, initializer.value_dtype)
            table = StaticHashTableV1(initializer, default_value=-1)
            name = name or table.name
        else:
            lookup_key_dtype = _dtypes.string
            name = name or "hash_bucket"
        if not lookup_key_dtype.is_integer and lookup_key_dtype != _dtypes.string:
            raise TypeError(f"Invalid key_dtype, expected integer or string, got "
                            f"{lookup_key_dtype}.")
        super().__init__(table, num_oov_buckets, FastHashSpec, name, lookup_key_dtype)


class StaticVocabularyTableV1(StaticVocabularyTable):
    """tf.compat.v1.lookup.StaticVocabularyTable: the same table."""


# -- the helpers of tf.contrib.lookup ------------------------------------------------------

def index_table_from_file(vocabulary_file=None, num_oov_buckets=0, vocab_size=None,
                          default_value=-1, hasher_spec=FastHashSpec, key_dtype=_dtypes.string,
                          name=None, key_column_index=TextFileIndex.WHOLE_LINE,
                          value_column_index=TextFileIndex.LINE_NUMBER, delimiter="\t"):
    """A table from the words of a vocabulary file (one a line) to their line numbers;
    `default_value` for other words, or `num_oov_buckets` hash buckets after the ids."""
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("vocabulary_file must be specified and must not be empty.")
    if num_oov_buckets < 0:
        raise ValueError(f"num_oov_buckets must be greater or equal than 0, got "
                         f"{num_oov_buckets}.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"vocab_size must be greater than 0, got {vocab_size}. "
                         f"vocabulary_file: {vocabulary_file}")
    key_dtype = _dtypes.as_dtype(key_dtype)
    if not key_dtype.is_integer and key_dtype.base_dtype != _dtypes.string:
        raise TypeError("Only integer and string keys are supported.")
    with name_scope(name, "string_to_index"):
        with name_scope(None, "hash_table"):
            init = TextFileIdTableInitializer(
                vocabulary_file, vocab_size=vocab_size,
                key_dtype=_dtypes.int64 if key_dtype.is_integer else key_dtype,
                name="table_init", key_column_index=key_column_index,
                value_column_index=value_column_index, delimiter=delimiter)
            table = StaticHashTableV1(init, default_value)
        if num_oov_buckets:
            table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets,
                                           hasher_spec=hasher_spec, key_dtype=key_dtype)
        return table


def index_table_from_tensor(vocabulary_list, num_oov_buckets=0, default_value=-1,
                            hasher_spec=FastHashSpec, dtype=_dtypes.string, name=None):
    """A table from the words of `vocabulary_list` (a 1-D tensor) to their positions;
    `default_value` for other words, or `num_oov_buckets` hash buckets after the ids."""
    if vocabulary_list is None:
        raise ValueError("vocabulary_list must be specified.")
    if num_oov_buckets < 0:
        raise ValueError(f"num_oov_buckets must be greater or equal than 0, got "
                         f"{num_oov_buckets}.")
    dtype = _dtypes.as_dtype(dtype)
    if not dtype.is_integer and dtype.base_dtype != _dtypes.string:
        raise TypeError("Only integer and string keys are supported.")
    with name_scope(name, "string_to_index"):
        keys = convert_to_tensor(vocabulary_list)
        if keys.dtype.is_integer != dtype.is_integer:
            raise ValueError(f"Expected {'integer' if dtype.is_integer else 'non-integer'}, "
                             f"got {keys.dtype}.")
        if not dtype.is_integer and keys.dtype.base_dtype != dtype:
            raise ValueError(f"Expected {dtype}, got {keys.dtype}.")
        values = cast(_range(_size(keys)), _dtypes.int64)
        with name_scope(None, "hash_table"):
            table_keys = cast(keys, _dtypes.int64) if keys.dtype.is_integer else keys
            init = KeyValueTensorInitializer(table_keys, values, table_keys.dtype.base_dtype,
                                             _dtypes.int64, name="table_init")
            table = StaticHashTableV1(init, default_value)
        if num_oov_buckets:
            table = IdTableWithHashBuckets(table, num_oov_buckets=num_oov_buckets,
                                           hasher_spec=hasher_spec, key_dtype=dtype)
        return table


def index_to_string_table_from_file(vocabulary_file, vocab_size=None, default_value="UNK",
                                    name=None, key_column_index=TextFileIndex.LINE_NUMBER,
                                    value_column_index=TextFileIndex.WHOLE_LINE,
                                    delimiter="\t"):
    """A table from ids (int64 line numbers) to the words of a vocabulary file;
    `default_value` for ids out of range."""
    if vocabulary_file is None or (isinstance(vocabulary_file, str) and not vocabulary_file):
        raise ValueError("vocabulary_file must be specified and must not be empty.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"vocab_size must be greater than 0, got {vocab_size}.")
    with name_scope(name, "index_to_string"):
        init = TextFileStringTableInitializer(
            vocabulary_file, vocab_size=vocab_size, name="table_init",
            key_column_index=key_column_index, value_column_index=value_column_index,
            delimiter=delimiter)
        return StaticHashTableV1(init, default_value)


def index_to_string_table_from_tensor(vocabulary_list, default_value="UNK", name=None):
    """A table from ids (int64 positions) to the words of `vocabulary_list`;
    `default_value` for ids out of range."""
    if vocabulary_list is None:
        raise ValueError("vocabulary_list must be specified.")
    with name_scope(name, "index_to_string"):
        vocabulary_list = convert_to_tensor(vocabulary_list, _dtypes.string)
        keys = cast(_range(_size(vocabulary_list)), _dtypes.int64)
        init = KeyValueTensorInitializer(keys, vocabulary_list, _dtypes.int64, _dtypes.string,
                                         name="table_init")
        return StaticHashTableV1(init, default_value)
