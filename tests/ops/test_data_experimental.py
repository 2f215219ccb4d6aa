"""tf.data.experimental's transformations (sandbox/data/experimental*.py): values, orders and
errors as TensorFlow 2.15.1's tf.compat.v1 gives them for the same TF-1 programs (the
expected lists below were printed by TF 2.15.1), in local Sessions and on a cluster."""
import collections

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster

E = tf.data.experimental


def values(ds, limit=500):
    """The elements of `ds` (as lists) until OutOfRangeError."""
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    out = []
    with tf.Session() as sess:
        for _ in range(limit):
            try:
                out.append(_plain(sess.run(nxt)))
            except tf.errors.OutOfRangeError:
                return out
    raise AssertionError("the iterator did not end")


def _plain(x):
    if isinstance(x, dict):
        return {k: _plain(v) for k, v in x.items()}
    if isinstance(x, tuple):
        return tuple(_plain(v) for v in x)
    return x.tolist() if hasattr(x, "tolist") else x


def first_error(ds):
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        with pytest.raises(tf.errors.OpError) as info:
            for _ in range(500):
                sess.run(nxt)
    return info.value


# -- compositions: map_and_batch, parallel_interleave, unbatch, enumerate ------------------

def test_map_and_batch_is_map_then_batch():
    r = tf.data.Dataset.range(7)
    assert values(r.apply(E.map_and_batch(lambda x: x * 2, 3))) == [[0, 2, 4], [6, 8, 10], [12]]
    dropped = r.apply(E.map_and_batch(lambda x: x * 2, 3, drop_remainder=True))
    assert dropped.output_shapes.as_list() == [3]                 # TF: (3,) and (?,)
    assert values(dropped) == [[0, 2, 4], [6, 8, 10]]
    with pytest.raises(ValueError, match="allows only one of `num_parallel_batches`"):
        E.map_and_batch(lambda x: x, 2, num_parallel_batches=1, num_parallel_calls=2)
    assert values(tf.data.Dataset.from_tensors([[1, 2], [3, 4]]).apply(E.unbatch())) == \
        [[1, 2], [3, 4]]
    assert values(tf.data.Dataset.from_tensor_slices([7, 8]).apply(E.enumerate_dataset(5))) \
        == [(5, 7), (6, 8)]


def test_parallel_interleave_orders_as_tf():
    f = lambda x: tf.data.Dataset.from_tensors(x).repeat(x)          # noqa: E731
    src = tf.data.Dataset.from_tensor_slices(np.array([1, 4, 2, 3, 1], np.int64))
    zeros = tf.data.Dataset.from_tensor_slices(np.array([0, 2, 0, 3, 1, 0, 2], np.int64))
    assert values(src.apply(E.parallel_interleave(f, cycle_length=2))) == \
        [1, 4, 4, 2, 4, 2, 4, 3, 1, 3, 3]
    assert values(src.apply(E.parallel_interleave(f, cycle_length=3, block_length=2))) == \
        [1, 4, 4, 2, 2, 3, 3, 4, 4, 3, 1]
    assert values(zeros.apply(E.parallel_interleave(f, 3, 2, sloppy=True,
                                                    prefetch_input_elements=3))) == \
        [2, 2, 3, 3, 1, 3, 2, 2]


def test_dense_to_sparse_batch_says_what_to_use():
    with pytest.raises(NotImplementedError, match="padded_batch"):
        E.dense_to_sparse_batch(2, [5])


# -- shuffle_and_repeat, RandomDataset, sample_from_datasets, choose_from_datasets ---------

def test_shuffle_and_repeat_is_the_fused_shuffle_repeat():
    # TF 1.15.5's order for shuffle(5, seed=1).repeat(2) (tests/ops/test_data.py): TF fuses
    # the two into a ShuffleAndRepeatDataset seeded with (seed, seed2) themselves
    tf_shuffle_repeat = [2, 5, 1, 0, 6, 9, 8, 3, 7, 4, 2, 5, 0, 3, 4, 1, 9, 7, 6, 8]
    r = tf.data.Dataset.range(10)
    assert values(r.apply(E.shuffle_and_repeat(5, count=2, seed=1))) == tf_shuffle_repeat
    once = values(r.apply(E.shuffle_and_repeat(5, count=1, seed=1)))
    assert once == tf_shuffle_repeat[:10]             # count=1: the same seeds, one epoch
    endless = values(r.apply(E.shuffle_and_repeat(5, seed=1)).take(30))
    assert endless[:20] == tf_shuffle_repeat and sorted(endless[20:]) == list(range(10))


def test_random_dataset_and_sample_from_datasets_give_tfs_numbers():
    assert values(E.RandomDataset(seed=11).take(5)) == \
        [2710271591, 3610370112, 616602229, 4009512009, 1613051151]
    ranges = [tf.data.Dataset.range(0, 100), tf.data.Dataset.range(100, 200),
              tf.data.Dataset.range(200, 300)]
    assert values(E.sample_from_datasets(ranges, [0.5, 0.3, 0.2], seed=42).take(20)) == \
        [100, 200, 101, 201, 0, 202, 1, 2, 3, 102, 103, 203, 4, 5, 6, 204, 205, 206, 104, 7]
    # equal weights; the first dataset runs out and is passed over
    short = [tf.data.Dataset.range(0, 3), tf.data.Dataset.range(100, 200)]
    assert values(E.sample_from_datasets(short, seed=3).take(12)) == \
        [100, 101, 102, 0, 103, 104, 1, 105, 2, 106, 107, 108]
    assert values(E.sample_from_datasets(ranges[:2], [0.0, 1.0], seed=5).take(4)) == \
        [100, 101, 102, 103]
    # weights given by a dataset, one vector per element drawn
    w = tf.data.Dataset.from_tensor_slices(np.array([[0.9, 0.1], [0.1, 0.9]] * 6, np.float32))
    assert values(E.sample_from_datasets([tf.data.Dataset.range(10),
                                          tf.data.Dataset.range(100, 110)], w, seed=9)) == \
        [0, 100, 1, 101, 2, 102, 3, 103, 4, 104, 5, 6]


def test_choose_from_datasets_and_its_errors():
    choice = tf.data.Dataset.from_tensor_slices(np.array([1, 0, 1, 1, 1, 0, 1], np.int64))
    zeros = tf.data.Dataset.from_tensors(np.int64(0)).repeat()
    assert values(E.choose_from_datasets([zeros, tf.data.Dataset.range(10, 13)], choice)) == \
        [10, 0, 11, 12, 0]
    bad = E.choose_from_datasets([tf.data.Dataset.range(3)],
                                 tf.data.Dataset.from_tensor_slices(np.array([0, 2], np.int64)))
    err = first_error(bad)
    assert isinstance(err, tf.errors.InvalidArgumentError)
    assert "Selector index out of range: 2 >= 1" in err.message
    with pytest.raises(TypeError, match="Elements of `choice_dataset` must be scalar"):
        E.choose_from_datasets([tf.data.Dataset.range(3)], tf.data.Dataset.range(2).map(
            lambda x: tf.cast(x, tf.int32)))
    with pytest.raises(TypeError, match="`datasets` must have compatible element specs"):
        E.sample_from_datasets([tf.data.Dataset.range(3), tf.data.Dataset.from_tensors(1.0)])
    with pytest.raises(TypeError, match="must be either `tf.float32` or `tf.float64`"):
        E.sample_from_datasets([tf.data.Dataset.range(3)] * 2, [1, 2])
    with pytest.raises(ValueError, match=r"`len\(weights\)=3` vs. `len\(datasets\)=2`"):
        E.sample_from_datasets([tf.data.Dataset.range(3)] * 2, [1.0, 2.0, 3.0])


# -- scan, Counter, take_while, unique ----------------------------------------------------

def test_scan_and_counter():
    r = tf.data.Dataset.range(5)
    assert values(r.apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10)))) == \
        [0, 0, 10, 30, 60]
    pairs = tf.data.Dataset.range(4).apply(E.scan(
        (tf.constant(1.0), tf.constant(0, tf.int64)),
        lambda s, x: ((s[0] * 2.0, s[1] + x), (s[0], x))))
    assert values(pairs) == [(1.0, 0), (2.0, 1), (4.0, 2), (8.0, 3)]
    # a state that grows: traced again with its shape relaxed, as TF does
    grow = tf.data.Dataset.range(4).apply(E.scan(
        tf.constant([], tf.int64), lambda s, x: (tf.concat([s, [x]], 0), tf.reduce_sum(s))))
    assert values(grow) == [0, 0, 1, 3]
    echo = tf.data.Dataset.range(4).apply(E.scan(tf.constant([], tf.int64),
                                                 lambda s, x: (tf.concat([s, [x]], 0), s)))
    assert echo.output_shapes.as_list() == [None]
    assert values(echo) == [[], [0], [0, 1], [0, 1, 2]]
    assert values(E.Counter(3, 2).take(4)) == [3, 5, 7, 9]
    assert values(E.Counter(1, 0.5, tf.float32).take(3)) == [1.0, 1.5, 2.0]
    with pytest.raises(TypeError, match="`scan_func` should return a pair"):
        r.apply(E.scan(0, lambda s, x: s))
    with pytest.raises(TypeError, match="Expected <dtype: 'int32'>, got <dtype: 'int64'>"):
        r.apply(E.scan(tf.constant(0), lambda s, x: (x, x)))


def test_take_while_and_unique():
    assert values(tf.data.Dataset.range(10).apply(E.take_while(lambda x: x < 4))) == \
        [0, 1, 2, 3]
    pairs = tf.data.Dataset.from_tensor_slices((np.arange(6), np.arange(6) % 4))
    assert values(pairs.apply(E.take_while(lambda a, b: b < 3))) == [(0, 0), (1, 1), (2, 2)]
    with pytest.raises(ValueError, match="`predicate` must return a `tf.bool` scalar"):
        tf.data.Dataset.range(3).apply(E.take_while(lambda x: x))
    ints = tf.data.Dataset.from_tensor_slices(np.array([3, 1, 3, 2, 1, 5], np.int32))
    assert values(ints.apply(E.unique())) == [3, 1, 2, 5]
    assert values(tf.data.Dataset.from_tensor_slices([b"a", b"b", b"a"]).apply(E.unique())) \
        == [b"a", b"b"]
    rows = tf.data.Dataset.from_tensor_slices(np.array([[1, 2], [1, 2], [2, 1]], np.int64))
    assert values(rows.apply(E.unique())) == [[1, 2], [2, 1]]
    with pytest.raises(TypeError, match="does not support type <dtype: 'float32'>"):
        tf.data.Dataset.from_tensor_slices([1.0]).apply(E.unique())


# -- group_by_window, bucket_by_sequence_length, group_by_reducer -------------------------

def test_group_by_window_flushes_full_windows_then_the_rest_by_key():
    r = tf.data.Dataset.from_tensor_slices(np.array([5, 1, 7, 2, 3, 9, 4, 11, 6], np.int64))
    batched = r.apply(E.group_by_window(lambda x: x % 3, lambda k, w: w.batch(10),
                                        window_size=2))
    assert values(batched) == [[1, 7], [5, 2], [3, 9], [6], [4], [11]]
    # the leftover groups come in increasing key order (1, 0, 2 arrived in that order)
    r2 = tf.data.Dataset.from_tensor_slices(np.array([4, 6, 5, 3, 8, 7, 1], np.int64))
    assert values(r2.apply(E.group_by_window(lambda x: x % 3, lambda k, w: w.batch(10), 5))) \
        == [[6, 3], [4, 7, 1], [5, 8]]
    sized = r.apply(E.group_by_window(
        lambda x: x % 3, lambda k, w: w.map(lambda v: v * 100 + k).batch(10),
        window_size_func=lambda k: k + 1))
    assert values(sized) == [[101, 701], [300], [900], [502, 202, 1102], [600], [401]]
    zipped = tf.data.Dataset.range(6).apply(E.group_by_window(
        lambda x: x % 2, lambda k, w: tf.data.Dataset.zip((w, w.skip(1))).map(
            lambda a, b: a * 10 + b + k * 1000), window_size=3))
    assert values(zipped) == [2, 24, 1013, 1035]
    nested = tf.data.Dataset.range(12).apply(E.group_by_window(
        lambda x: x % 2, lambda k, w: w.apply(E.group_by_window(
            lambda y: y % 3, lambda k2, w2: w2.batch(9), window_size=2)), window_size=6))
    assert values(nested) == [[0, 6], [2, 8], [4, 10], [1, 7], [3, 9], [5, 11]]
    tuples = tf.data.Dataset.from_tensor_slices((np.arange(5), np.arange(5) * 2.0)).apply(
        E.group_by_window(lambda a, b: tf.cast(a % 2, tf.int64), lambda k, w: w.batch(5), 10))
    assert values(tuples) == [([0, 2, 4], [0.0, 4.0, 8.0]), ([1, 3], [2.0, 6.0])]
    err = first_error(tf.data.Dataset.range(5).apply(E.group_by_window(
        lambda x: x % 2, lambda k, w: w.batch(5), window_size_func=lambda k: k)))
    assert isinstance(err, tf.errors.InvalidArgumentError)
    assert "Window size must be greater than zero, but got 0." in err.message
    with pytest.raises(ValueError, match="Either the `window_size` argument or"):
        E.group_by_window(lambda x: x, lambda k, w: w)
    with pytest.raises(TypeError, match="`reduce_func` must return a single `tf.data.Dataset`"):
        tf.data.Dataset.range(3).apply(E.group_by_window(lambda x: x, lambda k, w: 3, 2))
    with pytest.raises(ValueError, match="`key_func` must return a single `tf.int64` scalar"):
        tf.data.Dataset.range(3).apply(E.group_by_window(
            lambda x: tf.zeros([2], tf.int64), lambda k, w: w, 2))


def test_bucket_by_sequence_length():
    lengths = np.arange(12, dtype=np.int64) % 7
    seqs = tf.data.Dataset.from_tensor_slices(lengths).map(lambda n: tf.fill([n], n))
    buckets = seqs.apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5],
                                                     [2, 2, 3]))
    assert values(buckets) == [[[0], [1]], [[3, 3, 3, 0], [4, 4, 4, 4]], [[2, 2], [0, 0]],
                               [[1, 0], [2, 2]], [[3, 3, 3, 0], [4, 4, 4, 4]],
                               [[5, 5, 5, 5, 5, 0], [6, 6, 6, 6, 6, 6]]]
    short = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.int64) % 5).map(
        lambda n: tf.fill([n], n))
    padded = short.apply(E.bucket_by_sequence_length(
        lambda x: tf.shape(x)[0], [2, 4, 6], [2, 2, 2, 2], pad_to_bucket_boundary=True,
        padding_values=np.int64(-1)))
    assert values(padded) == [[[-1], [1]], [[2, 2, -1], [3, 3, 3]], [[-1], [1]],
                              [[2, 2, -1], [3, 3, 3]], [[4, 4, 4, 4, -1], [4, 4, 4, 4, -1]]]
    plain = tf.data.Dataset.from_tensor_slices(np.arange(10, dtype=np.int64) % 3).apply(
        E.bucket_by_sequence_length(lambda x: tf.cast(x, tf.int32), [1, 2], [2, 2, 2],
                                    no_padding=True))
    assert values(plain) == [[0, 0], [1, 1], [2, 2], [0, 0], [1], [2]]
    dropped = short.apply(E.bucket_by_sequence_length(lambda x: tf.shape(x)[0], [3, 5],
                                                      [2, 2, 3], drop_remainder=True))
    assert dropped.output_shapes.as_list() == [None, None]
    with pytest.raises(ValueError, match=r"`len\(bucket_batch_sizes\)=2`"):
        E.bucket_by_sequence_length(lambda x: x, [1, 2], [1, 2])


def test_group_by_reducer_folds_each_key_then_finalizes_in_key_order():
    r = tf.data.Dataset.from_tensor_slices(np.array([5, 1, 7, 2, 3, 9, 4, 11, 6], np.int64))
    red = E.Reducer(init_func=lambda k: (tf.constant(0, tf.int64), k),
                    reduce_func=lambda s, x: (s[0] + x, s[1]),
                    finalize_func=lambda total, key: (total, key))
    assert values(r.apply(E.group_by_reducer(lambda x: (x * 7) % 4, red))) == \
        [(4, 0), (21, 1), (8, 2), (15, 3)]
    collect = E.Reducer(lambda k: tf.zeros([0], tf.int64),
                        lambda s, x: tf.concat([s, [x]], 0), lambda s: s)
    grouped = tf.data.Dataset.range(7).apply(E.group_by_reducer(lambda x: x % 2, collect))
    assert grouped.output_shapes.as_list() == [None]
    assert values(grouped) == [[0, 2, 4, 6], [1, 3, 5]]
    with pytest.raises(ValueError, match="Expected `key_func` to return a scalar tf.int64"):
        tf.data.Dataset.range(3).apply(E.group_by_reducer(
            lambda x: tf.cast(x, tf.int32), E.Reducer(lambda k: k, lambda s, x: s,
                                                      lambda s: s)))


# -- ignore_errors ------------------------------------------------------------------------

def _inverse(xs):
    return tf.data.Dataset.from_tensor_slices(xs).map(
        lambda x: tf.check_numerics(1.0 / x, "bad"))


def test_ignore_errors_skips_what_failed():
    ignore = E.ignore_errors()
    assert values(_inverse([1.0, 2.0, 0.0, 4.0]).apply(ignore)) == [1.0, 0.5, 0.25]
    # TF fuses map and batch: a failed element spoils its whole batch of 2 ([0, 4])
    assert np.allclose(sum(values(_inverse([1., 2., 0., 4., 5., 6., 7.]).batch(2).apply(
        ignore)), []), [1.0, 0.5, 1 / 5, 1 / 6, 1 / 7])
    # a batch of something else ends at the failure: [4] is lost with the failed 0
    assert np.allclose(sum(values(_inverse([1., 0., 2., 4., 5., 6.]).prefetch(1).batch(2)
                                  .apply(ignore)), []), [0.5, 0.25, 0.2, 1 / 6])
    assert values(_inverse([1., 0., 0., 4., 5., 6., 7.]).take(3).apply(ignore)) == \
        [1.0, 0.25, 0.20000000298023224]                    # take counts what it gives
    assert values(_inverse([1., 0., 2., 4.]).filter(lambda x: x < 0.9).apply(ignore)) == \
        [0.5, 0.25]
    failing = tf.data.Dataset.from_tensor_slices([1., 0., 2., 4.]).filter(
        lambda x: tf.reduce_all(tf.is_finite(tf.check_numerics(1. / x, "bad"))))
    assert values(failing.apply(ignore)) == [1.0, 2.0, 4.0]


def test_ignore_errors_says_when_it_cannot_go_on():
    err = first_error(_inverse([1., 0., 2.]).shuffle(1).apply(E.ignore_errors()))
    assert isinstance(err, tf.errors.InvalidArgumentError)
    assert "Tensor had Inf values" in err.message               # the error itself
    assert "came through a ShuffleDataset" in err.message


# -- rejection_resample -------------------------------------------------------------------

def _all(ds):
    """(classes, element ids) of a resampled dataset, made in one run (one batch)."""
    with tf.Session() as sess:
        classes, (ids, _) = sess.run(E.get_single_element(ds.batch(100000)))
    return classes.tolist(), ids.tolist()


def test_rejection_resample_reaches_the_target_distribution():
    labels = (np.arange(400) % 10 == 0).astype(np.int64)           # 10% of class 1
    data = tf.data.Dataset.from_tensor_slices((np.arange(400), labels))
    resampled = data.repeat().apply(E.rejection_resample(
        lambda x, y: y, [0.5, 0.5], initial_dist=[0.9, 0.1], seed=3)).take(400)
    assert resampled.output_types == (tf.int64, (tf.int64, tf.int64))
    classes, ids = _all(resampled)
    assert classes == [int(i % 10 == 0) for i in ids]            # (class, element) pairs
    assert 0.4 < np.mean(classes) < 0.6, np.mean(classes)
    # TF 1.15 mixes the dataset (m = 5/9 of the draws) with its filtered copy (only class 1
    # kept here) until both run out: all 400 elements, then the 40 of class 1 again
    classes, _ = _all(data.apply(E.rejection_resample(lambda x, y: y, [0.5, 0.5],
                                                      initial_dist=[0.9, 0.1], seed=3)))
    assert collections.Counter(classes) == {0: 360, 1: 80}
    classes, _ = _all(data.apply(E.rejection_resample(lambda x, y: y, [0.0, 1.0],
                                                      initial_dist=[0.9, 0.1], seed=3)))
    assert classes == [1] * 40
    _, ids = _all(data.apply(E.rejection_resample(lambda x, y: y, [0.9, 0.1],
                                                  initial_dist=[0.9, 0.1])))
    assert ids == list(range(400))                                # kept as it is
    classes, _ = _all(data.repeat().apply(E.rejection_resample(
        lambda x, y: y, [0.5, 0.5], seed=3)).take(300))
    assert 0.35 < np.mean(classes) < 0.65, np.mean(classes)


# -- get_single_element, device transformations, and a cluster ---------------------------

def test_get_single_element():
    x = tf.placeholder(tf.float32, [2])
    pair = E.get_single_element(tf.data.Dataset.from_tensors((1, x)))
    assert pair[1].op.type == "DatasetToSingleElement" and pair[1].get_shape().as_list() == [2]
    with tf.Session() as sess:
        one, two = sess.run(pair, {x: [2.0, 3.0]})
        assert one == 1 and two.tolist() == [2.0, 3.0]
        for ds, message in ((tf.data.Dataset.range(0), "Dataset was empty."),
                            (tf.data.Dataset.range(2), "Dataset had more than one element.")):
            with pytest.raises(tf.errors.InvalidArgumentError, match=message):
                sess.run(E.get_single_element(ds))
    with pytest.raises(TypeError, match="Expected a `tf.data.Dataset` object"):
        E.get_single_element([1])


def test_prefetch_and_copy_to_device_keep_the_dataset():
    r = tf.data.Dataset.range(4)
    assert values(r.apply(E.copy_to_device("/gpu:0")).apply(
        E.prefetch_to_device("/gpu:0", 2))) == [0, 1, 2, 3]


def test_experimental_transformations_run_on_a_worker():
    with LocalCluster({"worker": 1}) as cluster:
        with tf.device("/job:worker/task:0"):
            r = tf.data.Dataset.range(8)
            grouped = r.apply(E.group_by_window(lambda x: x % 2, lambda k, w: w.batch(4), 4))
            summed = r.apply(E.scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s + x)))
            mixed = E.sample_from_datasets([r, tf.data.Dataset.range(100, 108)], seed=42)
            nexts = [tf.data.make_one_shot_iterator(d).get_next()
                     for d in (grouped, summed, mixed.take(6))]
        with tf.Session(cluster.target("worker", 0)) as sess:
            got = [[], [], []]
            for i, nxt in enumerate(nexts):
                while True:
                    try:
                        got[i].append(sess.run(nxt).tolist())
                    except tf.errors.OutOfRangeError:
                        break
    assert got[0] == [[0, 2, 4, 6], [1, 3, 5, 7]]
    assert got[1] == [0, 1, 3, 6, 10, 15, 21, 28]
    assert got[2] == values(E.sample_from_datasets(
        [tf.data.Dataset.range(8), tf.data.Dataset.range(100, 108)], seed=42).take(6))
