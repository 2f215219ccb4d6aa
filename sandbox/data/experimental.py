"""`tf.data.experimental` -- mirrors TF 1.15's python/data/experimental (its api module).

The transformations are functions that return `lambda dataset: ...`, for `dataset.apply`:

    dataset = dataset.apply(tf.data.experimental.shuffle_and_repeat(1000, seed=1))
    dataset = dataset.apply(tf.data.experimental.map_and_batch(parse, 32))

  batching (experimental_batching.py)   map_and_batch, map_and_batch_with_legacy_function,
                                        unbatch, dense_to_sparse_batch (NotImplementedError:
                                        the sandbox's datasets hold no SparseTensor)
  interleaving and sampling             parallel_interleave, sample_from_datasets,
    (experimental_interleave.py)        choose_from_datasets, RandomDataset
  grouping (experimental_grouping.py)   group_by_window, bucket_by_sequence_length,
                                        group_by_reducer, Reducer
  scan (experimental_scan.py)           scan, Counter
  experimental_transformations.py       shuffle_and_repeat, take_while, unique, ignore_errors,
                                        enumerate_dataset, prefetch_to_device and
                                        copy_to_device (the dataset kept: one device)
  experimental_resampling.py            rejection_resample
  whole datasets                        get_single_element (experimental_single_element.py),
                                        TFRecordWriter (experimental_writers.py)
  readers                               CsvDataset, make_csv_dataset (csv_dataset.py),
                                        make_batched_features_dataset, parse_example_dataset
                                        (batched_features.py; dense features only)

and AUTOTUNE (-1), which `interleave(cycle_length=...)`, `map(num_parallel_calls=...)` and
`prefetch(...)` accept (the sandbox reads one element at a time, in TF's order), and the
option records that tf.data.Options holds (options.py). Where TF's transformation is a
composition of others (map_and_batch is map then batch, parallel_interleave is interleave's
order, Counter a scan, rejection_resample and the make_*_dataset readers pipelines of them),
the sandbox builds the same composition; the others have kernels of their own with TF's
semantics -- in ops/dataset_pipeline.py, the CSV reader's in csv_dataset.py, and
get_single_element and TFRecordWriter are ops that run a whole dataset. With a seed,
RandomDataset and sample_from_datasets give TF's random numbers, shuffle_and_repeat TF 1.15's
order.

Not here: TF 1.15's iterator and structure utilities (Optional, get_next_as_optional,
get_structure, Structure and its kinds, to_variant/from_variant, make_saveable_from_iterator,
CheckpointInputPipelineHook), cardinality (and INFINITE/UNKNOWN_CARDINALITY), SqlDataset,
StatsAggregator and the stats transformations (bytes_produced_stats, latency_stats). Names TF
1.15's module does not have are not here either: those of TF 2 (from_list, snapshot, ...) and
filter_for_shard, which TF dropped before 1.15 for Dataset.shard.
"""
from .batched_features import make_batched_features_dataset, parse_example_dataset
from .csv_dataset import CsvDataset, make_csv_dataset
from .experimental_batching import dense_to_sparse_batch, map_and_batch, \
    map_and_batch_with_legacy_function, unbatch
from .experimental_grouping import Reducer, bucket_by_sequence_length, group_by_reducer, \
    group_by_window
from .experimental_interleave import RandomDataset, choose_from_datasets, \
    parallel_interleave, sample_from_datasets
from .experimental_resampling import rejection_resample
from .experimental_scan import Counter, scan
from .experimental_single_element import get_single_element
from .experimental_transformations import copy_to_device, enumerate_dataset, ignore_errors, \
    prefetch_to_device, shuffle_and_repeat, take_while, unique
from .experimental_writers import TFRecordWriter
from .options import DistributeOptions, MapVectorizationOptions, OptimizationOptions, \
    StatsOptions, ThreadingOptions

__all__ = ["AUTOTUNE", "DistributeOptions", "MapVectorizationOptions", "OptimizationOptions",
           "StatsOptions", "ThreadingOptions",
           "map_and_batch", "map_and_batch_with_legacy_function", "unbatch",
           "dense_to_sparse_batch", "parallel_interleave", "sample_from_datasets",
           "choose_from_datasets", "RandomDataset", "group_by_window",
           "bucket_by_sequence_length", "group_by_reducer", "Reducer", "scan", "Counter",
           "shuffle_and_repeat", "take_while", "unique", "ignore_errors", "enumerate_dataset",
           "prefetch_to_device", "copy_to_device", "rejection_resample", "get_single_element",
           "TFRecordWriter", "CsvDataset", "make_csv_dataset", "make_batched_features_dataset",
           "parse_example_dataset"]

AUTOTUNE = -1
