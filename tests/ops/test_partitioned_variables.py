"""Partitioned variables (ops/partitioned_variables.py, get_variable(partitioner=...)): the
shards TF makes, named, shaped, placed and initialized as TF does them (each fact below was
checked against TensorFlow 2.15's compat.v1), looked up and trained shard by shard -- and, on a
cluster of processes, each shard living on its own ps, which sends only the rows looked up."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.framework.indexed_slices import IndexedSlices
from sandbox.ops.partitioned_variables import PartitionedVariable


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def test_shards_are_named_shaped_and_placed_as_tensorflow_does():
    with tf.device(tf.train.replica_device_setter(ps_tasks=2)):
        emb = tf.get_variable("emb", [10, 4], partitioner=tf.fixed_size_partitioner(3))
    assert isinstance(emb, PartitionedVariable)
    assert [(v.op.name, v.device, v.get_shape().as_list(), v._get_save_slice_info().spec)
            for v in emb] == [
        ("emb/part_0", "/job:ps/task:0", [4, 4], "10 4 0,4:0,4"),    # 10 rows: 4, 3, 3
        ("emb/part_1", "/job:ps/task:1", [3, 4], "10 4 4,3:0,4"),    # round-robin over ps
        ("emb/part_2", "/job:ps/task:0", [3, 4], "10 4 7,3:0,4")]
    assert len(emb) == 3 and emb.get_shape().as_list() == [10, 4] and emb.name == "emb"
    assert emb._get_partitions() == [3, 1]
    assert [v.op.name for v in tf.trainable_variables()] == ["emb/part_0", "emb/part_1",
                                                             "emb/part_2"]
    whole = tf.convert_to_tensor(emb)
    assert whole.op.name == "emb" and whole.op.inputs[0].op.name == "emb/ConcatPartitions/concat"


def test_a_value_initializer_is_sliced_for_each_shard():
    value = np.arange(12.0, dtype=np.float32).reshape(6, 2)
    c = tf.get_variable("c", initializer=tf.constant(value),
                        partitioner=tf.fixed_size_partitioner(4))
    assert [(v.initial_value.op.name, v.get_shape().as_list()) for v in c] == [
        ("c/part_0/PartitionedInitializer/Slice", [2, 2]),
        ("c/part_1/PartitionedInitializer/Slice", [2, 2]),
        ("c/part_2/PartitionedInitializer/Slice", [1, 2]),
        ("c/part_3/PartitionedInitializer/Slice", [1, 2])]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        np.testing.assert_array_equal(sess.run(tf.convert_to_tensor(c)), value)
        sess.run(c.assign(np.ones((6, 2), np.float32)))          # one assign per shard
        np.testing.assert_array_equal(sess.run(list(c)[3]), [[1.0, 1.0]])


def test_variance_scaling_draws_from_the_whole_variables_spread():
    g = tf.get_variable("g", [1000, 10], partitioner=tf.fixed_size_partitioner(4),
                        initializer=tf.glorot_uniform_initializer(seed=3))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(tf.convert_to_tensor(g))
    full_limit = np.sqrt(6 / (1000 + 10))       # a [250, 10] shard alone would allow 0.152
    assert np.abs(values).max() <= full_limit and np.abs(values).max() > 0.9 * full_limit


def test_partitioners_answer_as_tensorflows_do():
    shape = tf.TensorShape([10, 2])
    assert tf.fixed_size_partitioner(3)(shape=shape, dtype=tf.float32) == [3, 1]
    assert tf.fixed_size_partitioner(30)(shape=shape, dtype=tf.float32) == [10, 1]
    assert tf.variable_axis_size_partitioner(40)(shape, tf.float32) == [2, 1]
    assert tf.variable_axis_size_partitioner(1, max_shards=3)(shape, tf.float32) == [3, 1]
    assert tf.min_max_variable_partitioner(4, min_slice_size=16)(shape, tf.float32) == [4, 1]
    assert tf.min_max_variable_partitioner(4, min_slice_size=1 << 20)(shape, tf.float32) == [1, 1]
    with pytest.raises(ValueError, match="must be positive"):
        tf.variable_axis_size_partitioner(0)
    with pytest.raises(ValueError, match="Can only slice a variable along one dimension"):
        tf.get_variable("bad", [4, 4], partitioner=lambda shape, dtype: [2, 2])
    with pytest.raises(ValueError, match="zero partitions"):
        tf.get_variable("bad2", [4], partitioner=lambda shape, dtype: [0])
    with pytest.raises(ValueError, match="must be fully defined"):
        tf.get_variable("bad3", [None, 4], partitioner=tf.fixed_size_partitioner(2))


def test_reuse_finds_the_partitioned_variable_and_refuses_what_tf_refuses():
    part = tf.fixed_size_partitioner(2)
    with tf.variable_scope("s", partitioner=part):
        w = tf.get_variable("w", [6, 3])
    with tf.variable_scope("s", reuse=True, partitioner=part):
        assert tf.get_variable("w", [6, 3]) is w
    with pytest.raises(ValueError, match="specified partitions \\[3, 1\\] and found"):
        with tf.variable_scope("s", reuse=True):
            tf.get_variable("w", [6, 3], partitioner=tf.fixed_size_partitioner(3))
    with pytest.raises(ValueError, match="already exists"):
        tf.get_variable("s/w", [6, 3], partitioner=part)
    with pytest.raises(ValueError, match="No partitioner was provided"):
        tf.get_variable("s/w", [6, 3])
    tf.get_variable("plain", [4])
    with pytest.raises(ValueError, match="unpartitioned version"):
        tf.get_variable("plain", [4], partitioner=part)
    shards = tf.create_partitioned_variables([6, 2], [3, 1], tf.zeros_initializer())
    assert [v.op.name for v in shards] == ["PartitionedVariable/part_0",
                                           "PartitionedVariable/part_1",
                                           "PartitionedVariable/part_2"]


def test_embedding_lookup_and_training_go_shard_by_shard():
    emb = tf.get_variable("emb", [10, 4], partitioner=tf.fixed_size_partitioner(3))
    ids = tf.constant([0, 9, 5, 3])
    by_div = tf.nn.embedding_lookup(emb, ids, partition_strategy="div")
    by_mod = tf.nn.embedding_lookup(emb, ids)                   # TF's default: id % shards
    loss = tf.reduce_sum(by_div)
    grads = tf.gradients(loss, list(emb))
    assert all(isinstance(g, IndexedSlices) for g in grads)   # rows, not whole shards
    train = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        full, shards = sess.run(tf.convert_to_tensor(emb)), sess.run(list(emb))
        np.testing.assert_allclose(sess.run(by_div), full[[0, 9, 5, 3]])
        np.testing.assert_allclose(sess.run(by_mod),
                                   [shards[i % 3][i // 3] for i in (0, 9, 5, 3)])
        sess.run(train)
        after = sess.run(tf.convert_to_tensor(emb))
    np.testing.assert_allclose(after[[0, 9, 5, 3]], full[[0, 9, 5, 3]] - 1.0, rtol=1e-6)
    np.testing.assert_array_equal(after[[1, 2, 4, 6, 7, 8]], full[[1, 2, 4, 6, 7, 8]])


def _bytes_sent_to_workers(cluster, ps):
    return sum(nbytes for kind, src, dst, nbytes in cluster.traffic_totals("ps", ps)
               if kind == "send" and "worker" in dst)


def test_on_a_cluster_each_ps_holds_a_shard_and_sends_only_the_rows_looked_up():
    rows, dim, batch = 20000, 16, 50
    with LocalCluster({"ps": 2, "worker": 1}) as cluster:
        with tf.device(tf.train.replica_device_setter(
                worker_device="/job:worker/task:0", cluster=cluster.cluster_spec)):
            emb = tf.get_variable("emb", [rows, dim], partitioner=tf.fixed_size_partitioner(2),
                                  initializer=tf.zeros_initializer())
            ids = tf.placeholder(tf.int32, [batch])
            loss = tf.reduce_sum(tf.square(tf.nn.embedding_lookup(emb, ids) - 1.0))
            train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        assert [v.device for v in emb] == ["/job:ps/task:0", "/job:ps/task:1"]
        rng = np.random.default_rng(0)
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(tf.global_variables_initializer())
            before = [_bytes_sent_to_workers(cluster, ps) for ps in (0, 1)]
            steps = 10
            for _ in range(steps):
                sess.run(train, {ids: rng.integers(0, rows, batch)})
            sent = [_bytes_sent_to_workers(cluster, ps) - before[ps] for ps in (0, 1)]
            picked = rng.integers(0, rows, batch)
            value = sess.run(tf.nn.embedding_lookup(emb, picked))
        assert value.shape == (batch, dim)
    shard_bytes = rows // 2 * dim * 4                           # 640,000 bytes per shard
    for ps in (0, 1):
        # both shards served rows (ids spread over both), each far less than its whole shard
        assert 0 < sent[ps] < 0.2 * steps * shard_bytes, (ps, sent)


def test_checkpoints_hold_one_tensor_and_the_meta_graph_keeps_the_shards_slices(tmp_path):
    emb = tf.get_variable("emb", [7, 3], partitioner=tf.fixed_size_partitioner(3))
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        full = sess.run(tf.convert_to_tensor(emb))
        path = saver.save(sess, str(tmp_path / "model.ckpt"))
    assert tf.train.list_variables(path) == [("emb", [7, 3])]          # as TF's checkpoint
    np.testing.assert_array_equal(tf.train.load_variable(path, "emb"), full)
    with tf.Graph().as_default():
        restorer = tf.train.import_meta_graph(path + ".meta")
        shards = tf.global_variables()
        assert [v._get_save_slice_info().spec for v in shards] == [
            "7 3 0,3:0,3", "7 3 3,2:0,3", "7 3 5,2:0,3"]
        with tf.Session() as sess:
            restorer.restore(sess, path)
            np.testing.assert_array_equal(np.concatenate(sess.run(shards)), full)
            again = tf.train.Saver().save(sess, str(tmp_path / "again.ckpt"))
    assert tf.train.list_variables(again) == [("emb", [7, 3])]
