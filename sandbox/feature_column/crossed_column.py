"""tf.feature_column.crossed_column -- mirrors TensorFlow 1.x's _CrossedColumn
(python/feature_column/feature_column.py) and the hashed SparseCross op it is built on
(python/ops/sparse_ops.py sparse_cross_hashed, core/kernels/sparse_cross_op.cc).

A crossed column makes one id of every combination of its keys' values in an example:

    crossed_column(['city', age_buckets], hash_bucket_size=1000)
    # 'sf' and bucket 2 -> FingerprintCat64(FingerprintCat64(hash_key, Fingerprint64('sf')), 2)
    #                      % 1000

Each key is a feature name (its raw values: strings hashed with FarmHash's Fingerprint64,
integers used as they are) or a categorical column (its ids); a crossed column among the keys
is replaced by its own keys. As in TF, the SparseTensor inputs are crossed first, then the
dense ones (in the order of the keys within each group), the last input varying fastest; a
dense string feature keeps its '' values (TF does not drop them here).

The op that crosses the ids, SparseCross, is in sandbox/ops/sparse_cross_ops.py.
"""
from ..framework import dtypes
from ..ops.parsing_ops import VarLenFeature
from ..ops.sparse_cross_ops import sparse_cross_hashed
from .feature_column import _CategoricalColumn, _HashedCategoricalColumn, _tuple_column

__all__ = ["crossed_column"]


class _CrossedColumn(_tuple_column(_CategoricalColumn, "_CrossedColumn",
                                   ["keys", "hash_bucket_size", "hash_key"])):
    """Ids: the hashed crosses of its keys' values, in [0, hash_bucket_size)."""

    @property
    def name(self):
        return "_X_".join(sorted(k if isinstance(k, str) else k.name for k in self._leaves()))

    def _leaves(self):
        leaves = []
        for key in self.keys:
            leaves.extend(key._leaves() if isinstance(key, _CrossedColumn) else [key])
        return leaves

    @property
    def _num_buckets(self):
        return self.hash_bucket_size

    def _parse_example_spec(self):
        config = {}
        for key in self.keys:
            if isinstance(key, str):
                config[key] = VarLenFeature(dtypes.string)
            else:
                config.update(key._parse_example_spec())
        return config

    def _transform_feature(self, inputs):
        tensors = []
        for key in self._leaves():
            if isinstance(key, str):
                tensors.append(inputs.get(key))
            else:
                pair = key._get_sparse_tensors(inputs)
                if pair.weight_tensor is not None:
                    raise ValueError("crossed_column does not support weight_tensor, but the "
                                     f"given column populates weight_tensor. Given column: "
                                     f"{key.name}")
                tensors.append(pair.id_tensor)
        return sparse_cross_hashed(tensors, num_buckets=self.hash_bucket_size,
                                   hash_key=self.hash_key)


def crossed_column(keys, hash_bucket_size, hash_key=None):
    """The cross of `keys` (feature names and categorical columns but hashed ones), hashed
    into hash_bucket_size ids. Use it through indicator_column, embedding_column or a linear
    model."""
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, _CategoricalColumn)):
            raise ValueError("Unsupported key type. All keys must be either string, or "
                             f"categorical column except _HashedCategoricalColumn. Given: {key}")
        if isinstance(key, _HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for "
                             "crossing. Hashing before crossing will increase probability of "
                             "collision. Instead, use the feature name as a string. Given: "
                             f"{key}")
    return _CrossedColumn(tuple(keys), int(hash_bucket_size), hash_key)

