"""Batching transformations of `tf.data.experimental` -- mirrors TF 1.15's
python/data/experimental/ops/batching.py: map_and_batch, map_and_batch_with_legacy_function,
unbatch and dense_to_sparse_batch.

    dataset = dataset.apply(tf.data.experimental.map_and_batch(parse, batch_size=32))

map_and_batch is TF's fused MapAndBatchDataset, which gives the elements of
`dataset.map(map_func).batch(batch_size, drop_remainder)`: the sandbox builds exactly that
(num_parallel_batches and num_parallel_calls are accepted, and checked as TF checks them; the
sandbox maps one element at a time). unbatch is Dataset.unbatch, as in TF.

dense_to_sparse_batch makes batches of tf.SparseTensor; the sandbox's datasets hold dense
tensors only, so it raises NotImplementedError (padded_batch makes dense batches of
elements of different shapes).
"""

__all__ = ["map_and_batch", "map_and_batch_with_legacy_function", "unbatch",
           "dense_to_sparse_batch"]


def _check_parallelism(name, num_parallel_batches, num_parallel_calls):
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError(f"`{name}` allows only one of `num_parallel_batches` and "
                         "`num_parallel_calls` to be set, but `num_parallel_batches` was set "
                         f"to {num_parallel_batches} and `num_parallel_calls` as set to "
                         f"{num_parallel_calls}.")


def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """`map_func` applied to each element, then `batch_size` of them stacked: the elements of
    `dataset.map(map_func).batch(batch_size, drop_remainder)`. Use with dataset.apply."""
    _check_parallelism("map_and_batch", num_parallel_batches, num_parallel_calls)

    def _apply_fn(dataset):
        return dataset.map(map_func).batch(batch_size, drop_remainder)

    return _apply_fn


def map_and_batch_with_legacy_function(map_func, batch_size, num_parallel_batches=None,
                                       drop_remainder=False, num_parallel_calls=None):
    """map_and_batch with `map_func` traced the old way (Defun) in TF 1.15; the sandbox traces
    one way: as map_and_batch."""
    _check_parallelism("map_and_batch_with_legacy_function", num_parallel_batches,
                       num_parallel_calls)
    return map_and_batch(map_func, batch_size, None, drop_remainder, num_parallel_calls)


def unbatch():
    """Each element split along its first dimension into rows: `dataset.unbatch()`."""

    def _apply_fn(dataset):
        return dataset.unbatch()

    return _apply_fn


def dense_to_sparse_batch(batch_size, row_shape):
    """TF batches elements of different shapes into tf.SparseTensors; not in the sandbox."""
    raise NotImplementedError(
        "tf.data.experimental.dense_to_sparse_batch makes batches of tf.SparseTensor, and the "
        "sandbox's datasets hold dense tensors only. Pad the elements instead: "
        f"dataset.padded_batch({batch_size}, padded_shapes={row_shape!r}) gives each batch as "
        "a dense tensor (missing values 0).")
