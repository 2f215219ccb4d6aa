"""tf.data (issue 27): datasets, their transformations and iterators, in local Sessions and on
a real cluster. Orders of `shuffle` were measured with TensorFlow 1.15.5 (same programs)."""
import collections

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def drain(sess, fetch, limit=1000):
    """Runs `fetch` until OutOfRangeError; returns the values and the error."""
    out = []
    for _ in range(limit):
        try:
            out.append(sess.run(fetch))
        except tf.errors.OutOfRangeError as e:
            return out, e
    raise AssertionError("the iterator did not end")


def test_slices_map_batch_values_shapes_and_end():
    x = np.arange(10, dtype=np.float32).reshape(5, 2)
    y = np.arange(5, dtype=np.int64)
    ds = tf.data.Dataset.from_tensor_slices((x, y)).map(lambda a, b: (a * 2.0, b + 1)).batch(2)
    assert ds.output_types == (tf.float32, tf.int64)
    assert [s.as_list() for s in ds.output_shapes] == [[None, 2], [None]]
    assert ds.output_classes == (tf.Tensor, tf.Tensor)
    it = ds.make_one_shot_iterator()
    images, labels = it.get_next()
    assert images.get_shape().as_list() == [None, 2] and images.op.type == "IteratorGetNext"
    with tf.Session() as sess:
        out, err = drain(sess, (images, labels))
    assert [len(b[1]) for b in out] == [2, 2, 1]
    np.testing.assert_array_equal(np.concatenate([b[0] for b in out]), x * 2)
    np.testing.assert_array_equal(np.concatenate([b[1] for b in out]), y + 1)
    assert "End of sequence" in err.message and "'OneShotIterator'" in err.message
    assert "IteratorGetNext" in str(err)                        # the node, as in TF


def test_drop_remainder_gives_static_batch_size():
    ds = tf.data.Dataset.range(7).batch(3, drop_remainder=True)
    assert ds.output_shapes.as_list() == [3]
    nxt = tf.data.make_one_shot_iterator(ds).get_next()
    assert nxt.get_shape().as_list() == [3]
    with tf.Session() as sess:
        out, _ = drain(sess, nxt)
    assert [list(b) for b in out] == [[0, 1, 2], [3, 4, 5]]
    assert tf.data.Dataset.range(10).batch(3).output_shapes.as_list() == [None]


def test_sources_and_transformations_against_python_lists():
    r = tf.data.Dataset.range(2, 20, 3)                          # 2 5 8 11 14 17
    pipelines = {
        "range": (r, [2, 5, 8, 11, 14, 17]),
        "take_skip": (r.skip(1).take(3), [5, 8, 11]),
        "take_all": (r.take(-1), [2, 5, 8, 11, 14, 17]),
        "repeat": (tf.data.Dataset.range(3).repeat(2), [0, 1, 2, 0, 1, 2]),
        "filter": (tf.data.Dataset.range(10).filter(lambda v: tf.equal(v % 3, 0)),
                   [0, 3, 6, 9]),
        "concat": (tf.data.Dataset.range(2).concatenate(tf.data.Dataset.range(5, 7)),
                   [0, 1, 5, 6]),
        "prefetch": (tf.data.Dataset.range(3).prefetch(1), [0, 1, 2]),
    }
    fetches = {k: ds.make_one_shot_iterator().get_next() for k, (ds, _) in pipelines.items()}
    with tf.Session() as sess:
        for key, (_, expected) in pipelines.items():
            assert [int(v) for v in drain(sess, fetches[key])[0]] == expected, key


def test_dict_elements_zip_and_from_tensors():
    feats = {"a": np.arange(6, dtype=np.float32).reshape(3, 2), "b": np.array([7, 8, 9])}
    ds = tf.data.Dataset.from_tensor_slices(feats)
    assert ds.output_types == {"a": tf.float32, "b": tf.int64}
    z = tf.data.Dataset.zip((ds, tf.data.Dataset.range(100, 102)))     # ends with the shorter
    elem = z.make_one_shot_iterator().get_next()
    assert isinstance(elem, tuple) and isinstance(elem[0], dict)
    one = tf.data.Dataset.from_tensors(([1, 2], "s")).repeat(2).make_one_shot_iterator()
    pair = one.get_next()
    assert pair[0].get_shape().as_list() == [2] and pair[1].dtype == tf.string
    with tf.Session() as sess:
        out, _ = drain(sess, elem)
        assert len(out) == 2
        np.testing.assert_array_equal(out[1][0]["a"], [2, 3])
        assert out[1][0]["b"] == 8 and out[1][1] == 101
        got, _ = drain(sess, pair)
        assert [list(v[0]) for v in got] == [[1, 2], [1, 2]] and got[0][1] == b"s"


def test_map_traces_a_tensor_function_and_leaves_the_graph_clean():
    w = tf.Variable(3, dtype=tf.int64, name="w")
    before = {op.name for op in tf.get_default_graph().get_operations()}
    ds = tf.data.Dataset.range(4).map(lambda v: {"sq": tf.square(v) * w,
                                                 "f": tf.cast(v, tf.float32) / 2.0})
    after = {op.name for op in tf.get_default_graph().get_operations()}
    assert not {n for n in after - before if "arg" in n or "Square" in n}   # body not in graph
    assert ds.output_types == {"f": tf.float32, "sq": tf.int64}
    it = ds.make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        sess.run(w.initializer)
        sess.run(it.initializer)                   # the captured w is read here: 3
        sess.run(w.assign(10))
        out, _ = drain(sess, nxt)
    np.testing.assert_array_equal([o["sq"] for o in out], np.arange(4) ** 2 * 3)
    np.testing.assert_allclose([o["f"] for o in out], np.arange(4) / 2.0)


def test_initializable_iterator_reinitializes_with_new_feed():
    p = tf.placeholder(tf.int64, [None], name="values")
    it = tf.data.Dataset.from_tensor_slices(p).map(lambda v: v + 1).make_initializable_iterator()
    nxt = it.get_next()
    assert it.initializer.type == "MakeIterator" and it._iterator_resource.op.type == "IteratorV2"
    with tf.Session() as sess:
        with pytest.raises(tf.errors.FailedPreconditionError, match="not been initialized"):
            sess.run(nxt)
        sess.run(it.initializer, {p: [1, 2, 3]})
        assert sess.run(nxt) == 2
        sess.run(it.initializer, {p: [10, 20]})          # starts over on the new values
        assert [int(v) for v in drain(sess, nxt)[0]] == [11, 21]
        sess.run(it.initializer, {p: [5]})
        assert sess.run(nxt) == 6


def test_one_shot_iterator_refuses_placeholders_and_variables():
    p = tf.placeholder(tf.float32, [None])
    with pytest.raises(ValueError, match="Cannot capture a placeholder"):
        tf.data.Dataset.from_tensor_slices(p).make_one_shot_iterator()
    w = tf.Variable(2.0)
    ds = tf.data.Dataset.range(3).map(lambda x: tf.cast(x, tf.float32) * w)
    with pytest.raises(ValueError, match="make_initializable_iterator"):
        ds.make_one_shot_iterator()
    with pytest.raises(ValueError, match="does not have an initializer"):
        tf.data.Dataset.range(3).make_one_shot_iterator().initializer


def test_iterator_from_structure_switches_datasets():
    train = tf.data.Dataset.range(5).batch(2)
    test = tf.data.Dataset.range(100, 103).batch(2)
    it = tf.data.Iterator.from_structure(train.output_types, train.output_shapes)
    nxt = it.get_next()
    init_train, init_test = it.make_initializer(train), it.make_initializer(test)
    with tf.Session() as sess:
        sess.run(init_train)
        assert [list(b) for b in drain(sess, nxt)[0]] == [[0, 1], [2, 3], [4]]
        sess.run(init_test)
        assert [list(b) for b in drain(sess, nxt)[0]] == [[100, 101], [102]]
    with pytest.raises(TypeError, match="output types"):
        it.make_initializer(tf.data.Dataset.from_tensors(1.0))


# TF 1.15.5, e.g. Dataset.range(10).shuffle(5, seed=1) in a tf.Session:
TF_SHUFFLE = [0, 5, 3, 6, 7, 4, 9, 8, 2, 1]
TF_SHUFFLE_REPEAT = [2, 5, 1, 0, 6, 9, 8, 3, 7, 4, 2, 5, 0, 3, 4, 1, 9, 7, 6, 8]
TF_FIXED_SEED_REPEAT = [2, 5, 1, 0, 6, 9, 8, 3, 7, 4] * 2
TF_SECOND_EPOCH = [3, 0, 4, 6, 8, 1, 7, 9, 2, 5]          # .shuffle(5, seed=1).batch(10).repeat(2)


def test_shuffle_with_a_seed_is_deterministic_and_matches_tf():
    r = tf.data.Dataset.range(10)
    fetches = [r.shuffle(5, seed=1).make_one_shot_iterator().get_next(),
               r.shuffle(5, seed=1).repeat(2).make_one_shot_iterator().get_next(),
               r.shuffle(5, seed=1, reshuffle_each_iteration=False).repeat(2)
               .make_one_shot_iterator().get_next(),
               r.shuffle(5, seed=1).batch(10).repeat(2).make_one_shot_iterator().get_next()]
    for _ in range(2):                                   # a new session: the same orders
        with tf.Session() as sess:
            orders = [[int(v) for v in drain(sess, f)[0]] for f in fetches[:3]]
            epochs = drain(sess, fetches[3])[0]
        assert orders == [TF_SHUFFLE, TF_SHUFFLE_REPEAT, TF_FIXED_SEED_REPEAT]
        assert [list(e) for e in epochs] == [TF_SHUFFLE, TF_SECOND_EPOCH]
    it = r.shuffle(5, seed=1).make_initializable_iterator()
    nxt = it.get_next()
    with tf.Session() as sess:
        for _ in range(2):                               # re-initializing replays the order
            sess.run(it.initializer)
            assert [int(v) for v in drain(sess, nxt)[0]] == TF_SHUFFLE


def test_unseeded_shuffle_is_a_permutation():
    nxt = tf.data.Dataset.range(50).shuffle(50).make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert sorted(int(v) for v in drain(sess, nxt)[0]) == list(range(50))


def test_mnist_style_loop_ends_with_out_of_range():
    rng = np.random.default_rng(0)
    images = rng.random((250, 784), dtype=np.float32)
    labels = rng.integers(0, 10, 250)
    ds = tf.data.Dataset.from_tensor_slices((images, labels))
    ds = ds.shuffle(1000, seed=7).map(lambda x, y: (x, tf.one_hot(y, 10))).batch(100)
    next_batch = ds.make_one_shot_iterator().get_next()
    sizes, seen = [], []
    with tf.Session() as sess:
        with pytest.raises(tf.errors.OutOfRangeError):
            for _ in range(10):
                xs, ys = sess.run(next_batch)
                sizes.append(len(xs))
                assert ys.shape == (len(xs), 10)
                seen.extend(xs[:, 0])
    assert sizes == [100, 100, 50]
    np.testing.assert_array_equal(np.sort(seen), np.sort(images[:, 0]))


def words():
    for i in range(1, 4):
        yield np.arange(i), "w%d" % i


def test_from_generator_and_padded_batch_as_tf_gives_them():
    ds = tf.data.Dataset.from_generator(words, (tf.int64, tf.string), ([None], []))
    assert [s.as_list() for s in ds.output_shapes] == [[None], []]
    fixed = ds.padded_batch(2, ([4], [])).make_one_shot_iterator().get_next()
    longest = ds.padded_batch(2, ([None], []), padding_values=(np.int64(-1), b"?"))
    assert longest.output_shapes[0].as_list() == [None, None]
    nxt = longest.make_one_shot_iterator().get_next()
    with tf.Session() as sess:                   # the values TF 1.15 gives
        (a, sa), (b, sb) = drain(sess, fixed)[0]
        np.testing.assert_array_equal(a, [[0, 0, 0, 0], [0, 1, 0, 0]])
        np.testing.assert_array_equal(b, [[0, 1, 2, 0]])
        assert list(sa) == [b"w1", b"w2"] and list(sb) == [b"w3"]
        (c, _), (d, _) = drain(sess, nxt)[0]
        np.testing.assert_array_equal(c, [[0, -1], [0, 1]])
        np.testing.assert_array_equal(d, [[0, 1, 2]])
    bad = tf.data.Dataset.from_generator(lambda: iter([[1, 2]]), tf.int32, [3])
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError, match="of shape \\[2\\]"):
            sess.run(bad.make_one_shot_iterator().get_next())


def test_get_next_in_a_loop_warns_as_tf_does():
    it = tf.data.Dataset.range(100).make_one_shot_iterator()
    with pytest.warns(UserWarning, match="unusually high number"):
        for _ in range(32):                      # TF warns at the 32nd call
            it.get_next()


def test_strings_and_random_ops_in_map():
    words = tf.data.Dataset.from_tensor_slices(["a", "bc", "d"]).batch(2)
    nxt = words.make_one_shot_iterator().get_next()
    noise = tf.data.Dataset.range(3).map(lambda x: tf.random_uniform([], seed=4))
    draw = noise.make_one_shot_iterator().get_next()
    runs = []
    for _ in range(2):
        with tf.Session() as sess:
            assert [list(b) for b in drain(sess, nxt)[0]] == [[b"a", b"bc"], [b"d"]]
            runs.append([float(v) for v in drain(sess, draw)[0]])
    assert len(set(runs[0])) == 3 and runs[0] == runs[1]   # new per element, seeded per run


def test_named_tuple_elements_and_list_returns():
    Point = collections.namedtuple("Point", "x y")
    ds = tf.data.Dataset.from_tensor_slices(Point(np.arange(3), np.arange(3) * 10))
    with pytest.warns(UserWarning, match="converted to a tuple"):
        ds = ds.map(lambda p: [p.x, p.y + 1])
    nxt = ds.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        assert [tuple(int(v) for v in e) for e in drain(sess, nxt)[0]] == \
            [(0, 1), (1, 11), (2, 21)]


def _resources(cluster, job):
    return cluster._knobs_call_method(job, 0, "ListResources")


def test_iterator_lives_on_its_worker_and_leaves_the_ps_alone():
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        with tf.device("/job:worker/task:0"):
            ds = tf.data.Dataset.from_tensor_slices(np.arange(6.0)).map(lambda v: v * v)
            it = ds.batch(4).make_initializable_iterator()
            nxt = it.get_next()
        md = tf.RunMetadata()
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(it.initializer)
            first = sess.run(nxt, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                             run_metadata=md)
            rest, err = drain(sess, nxt)
        np.testing.assert_array_equal(first, [0, 1, 4, 9])
        np.testing.assert_array_equal(rest[0], [16, 25])
        assert "/job:worker/replica:0/task:0" in err.message
        devices = {d.device for d in md.step_stats.dev_stats}
        assert devices and all("/job:worker/" in d for d in devices)
        worker = _resources(cluster, "worker")
        assert any(r[1] == "IteratorV2" and r[2] == "IteratorResource" for r in worker)
        assert _resources(cluster, "ps") == []
        with tf.device("/job:worker/task:0"):
            once = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
            gen = tf.data.Dataset.from_generator(words, (tf.int64, tf.string))
            remote_gen = gen.make_one_shot_iterator().get_next()
        for _ in range(2):                       # each session gets a fresh one, as in TF
            with tf.Session(cluster.target("worker", 0)) as sess:
                assert [int(v) for v in drain(sess, once)[0]] == [0, 1, 2]
        with tf.Session(cluster.target("worker", 0)) as sess:
            with pytest.raises(tf.errors.FailedPreconditionError, match="only the process"):
                sess.run(remote_gen)             # the generator is not in the worker
        ps_kinds = {r.kind for r in cluster.trace("ps") if r.tensor or "Graph" in r.kind}
        assert ps_kinds == set()             # no graph piece ran there, no tensor came or went


def _values(dataset):
    nxt = dataset.make_one_shot_iterator().get_next()
    with tf.Session() as sess:
        out, _ = drain(sess, nxt)
    return out


def test_shard_unbatch_enumerate_reduce_and_list_files_as_tf(tmp_path):
    """What TF 2.15.1 (tf.compat.v1) gives for the same pipelines, messages included: shard
    (each worker's share), unbatch, enumerate, reduce, list_files (sorted without shuffle; the
    initializer fails naming the pattern when nothing matches)."""
    assert _values(tf.data.Dataset.range(10).shard(3, 1)) == [1, 4, 7]
    for (n, i), message in (((3, 5), r"Index must be between 0 and 2 \(currently index = 5\)"),
                            ((0, 0), r"Number of shards must be greater than zero")):
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError, match=message):
            sess.run(tf.data.Dataset.range(10).shard(n, i).make_one_shot_iterator().get_next())
    batched = tf.data.Dataset.from_tensor_slices(
        (np.arange(6).reshape(3, 2), np.arange(3) * 10)).batch(2)
    rows = batched.unbatch()
    assert [s.as_list() for s in rows.output_shapes] == [[2], []]
    assert [(a.tolist(), b) for a, b in _values(rows)] == [([0, 1], 0), ([2, 3], 10),
                                                          ([4, 5], 20)]
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components"):
        tf.data.Dataset.range(3).unbatch()
    ragged = tf.data.Dataset.from_tensor_slices(([[1, 2], [3, 4]], [[1, 2, 3], [4, 5, 6]])).map(
        lambda a, b: (a, b[:1 + tf.cast(a[0] > 1, tf.int32)])).unbatch()
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="Component 0 had size 2 but component 1 "
                                                   "had size, 1"):
        sess.run(ragged.make_one_shot_iterator().get_next())
    counted = tf.data.Dataset.from_tensor_slices([b"a", b"b"]).enumerate(start=5)
    assert counted.output_types == (tf.int64, tf.string)
    assert _values(counted) == [(5, b"a"), (6, b"b")]
    total = tf.data.Dataset.range(10).reduce(np.int64(0), lambda s, x: s + x)
    pair = tf.data.Dataset.from_tensor_slices(([1., 2.], [3., 4.])).reduce(
        (0., 1.), lambda state, e: (state[0] + e[0], state[1] * e[1]))
    with tf.Session() as sess:
        assert sess.run(total) == 45 and sess.run(pair) == (3.0, 12.0)
    with pytest.raises(TypeError, match="element types for the new state must match"):
        tf.data.Dataset.range(3).reduce(0.0, lambda s, x: x)
    for name in "cab":
        (tmp_path / f"{name}.txt").write_text(name)
    files = tf.data.Dataset.list_files(str(tmp_path / "*.txt"), shuffle=False)
    assert [f.decode().rsplit("/", 1)[1] for f in _values(files)] == ["a.txt", "b.txt", "c.txt"]
    shuffled = _values(tf.data.Dataset.list_files(str(tmp_path / "*.txt"), seed=3))
    assert sorted(shuffled) == sorted(_values(files))
    nothing = tf.data.Dataset.list_files(str(tmp_path / "*.csv")).make_initializable_iterator()
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="No files matched pattern"):
        sess.run(nothing.initializer)


def test_tracing_a_dataset_function_leaves_the_outer_names_and_seeds_alone():
    """TF traces a map function into a graph of its own: the model built after the input
    pipeline gets the op names and the random seeds it would get without it. make_one_shot_
    iterator takes one op seed, as TF's does. (Values from TF 2.15.1's compat.v1.)"""
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        ds = tf.data.Dataset.range(3).map(
            lambda x: tf.cast(x, tf.float32) * 2.0 + tf.random_uniform([]))
        ds = ds.filter(lambda x: tf.greater(x, 0.0))
        y = tf.cast(tf.constant(3), tf.float32)
        assert (y.name, (y * 2.0).name) == ("Cast:0", "mul:0")
        w = tf.random_normal([3])                     # the graph's first seeded random op
        n = ds.make_one_shot_iterator().get_next()
        w2 = tf.truncated_normal([2])                 # the third (the iterator took one)
        with tf.Session() as sess:
            got_w, got_w2 = sess.run([w, w2])
            got_n = [sess.run(n) for _ in range(3)]
    np.testing.assert_allclose(got_w, [0.3052047, 0.5671378, 0.41852272], rtol=1e-6)
    np.testing.assert_allclose(got_w2, [-1.0467793, 0.8397046], rtol=1e-6)
    # the map's random op is the first of its own function: seeds (1, 0)
    np.testing.assert_allclose(got_n, [0.81269646, 2.5272894, 4.8489428], rtol=1e-6)


def test_a_sparse_element_is_a_clear_error():
    """TF's datasets may hold tf.SparseTensors (a VarLenFeature in a TFRecord parser); the
    sandbox's hold dense tensors only and say so (they used to hold the Python object)."""
    with tf.Graph().as_default():
        sparse = tf.SparseTensor([[0]], [1.0], [2])
        with pytest.raises(NotImplementedError, match="dense tensors only.*tf.sparse.to_dense"):
            tf.data.Dataset.from_tensors(sparse)

        def parser(serialized):
            features = tf.parse_single_example(serialized,
                                               {"words": tf.VarLenFeature(tf.string)})
            return features["words"]

        with pytest.raises(NotImplementedError, match="Dataset.map: an element component is "
                                                      "a tf.SparseTensor"):
            tf.data.Dataset.from_tensors(tf.constant(b"")).map(parser)
        dense = tf.data.Dataset.from_tensors(tf.constant(b"")).map(
            lambda s: tf.sparse.to_dense(parser(s), default_value=b""))
        assert dense.output_types == tf.string
