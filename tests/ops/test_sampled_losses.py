"""nce_loss, sampled_softmax_loss and the candidate samplers (ops/sampled_losses.py,
ops/candidate_sampling_ops.py). The numbers below are TensorFlow 2.15's (compat.v1), for
the same weights and given sampled values; the samplers' own draws are checked by their law.
On a cluster, the output weights partitioned over two ps tasks send only the rows of the true
and sampled classes."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


@pytest.fixture(autouse=True)
def fresh_graph():
    with tf.Graph().as_default() as g:
        yield g


def _model():
    rng = np.random.RandomState(0)
    W = rng.randn(10, 4).astype(np.float32)
    b = rng.randn(10).astype(np.float32)
    X = rng.randn(3, 4).astype(np.float32)
    labels = tf.constant([[3], [7], [0]], tf.int64)
    sampled = (tf.constant([0, 1, 2, 7, 9], tf.int64), tf.constant([[0.3], [0.2], [0.9]]),
               tf.constant([0.9, 0.7, 0.5, 0.2, 0.1]))     # 7 and 0 are accidental hits
    return W, tf.Variable(W), tf.Variable(b), tf.constant(X), labels, sampled


def test_the_losses_and_their_gradients_are_tensorflows():
    W, w, b, x, labels, sampled = _model()
    out = {(kind, hits): fn(w, b, labels, x, 5, 10, sampled_values=sampled,
                            remove_accidental_hits=hits)
           for kind, fn in (("nce", tf.nn.nce_loss), ("ssm", tf.nn.sampled_softmax_loss))
           for hits in (False, True)}
    shards = tf.get_variable("wp", initializer=tf.constant(W),
                             partitioner=tf.fixed_size_partitioner(3))
    out["nce", "sharded"] = tf.nn.nce_loss(shards, b, labels, x, 5, 10, sampled_values=sampled)
    grads = tf.gradients(tf.reduce_sum(out["nce", True]) + tf.reduce_sum(out["ssm", True]),
                         [w, b])
    assert isinstance(grads[0], tf.IndexedSlices)       # only the rows used
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got = sess.run(out)
        grad_w = sess.run(tf.convert_to_tensor(grads[0]))
    expected = {("nce", False): [3.7402, 7.0937, 6.5279], ("nce", True): [3.7402, 3.9517, 6.5027],
                ("ssm", False): [0.9409, 0.9582, 5.4078], ("ssm", True): [0.9409, 0.4744, 5.4033],
                ("nce", "sharded"): [2.5292, 5.7724, 7.0619]}   # 'mod' rows of 3 shards
    for key, values in expected.items():
        np.testing.assert_allclose(got[key], values, atol=1e-4, err_msg=str(key))
    np.testing.assert_allclose(grad_w[[4, 5, 6, 8]], 0.0)          # never looked up
    np.testing.assert_allclose(grad_w[9], [-2.0951, 0.5399, -1.5235, -1.6765], atol=1e-4)


def test_the_samplers_follow_their_law():
    labels = tf.constant([[3], [7], [0]], tf.int64)
    s, true_expected, sampled_expected = tf.nn.log_uniform_candidate_sampler(
        labels, num_true=1, num_sampled=4, unique=False, range_max=10, seed=1)
    unique = tf.nn.log_uniform_candidate_sampler(labels, 1, 8, True, 10, seed=2)
    uniform = tf.random.uniform_candidate_sampler(labels, 1, 6, True, 6, seed=3)
    every = tf.nn.all_candidate_sampler(labels, 1, 5, True)
    hits = tf.nn.compute_accidental_hits(labels, tf.constant([0, 1, 7, 3], tf.int64), 1)
    p = lambda c: np.log((np.asarray(c) + 2.0) / (np.asarray(c) + 1.0)) / np.log(11.0)  # noqa
    with tf.Session() as sess:
        draws, te, se = sess.run([s, true_expected, sampled_expected])
        np.testing.assert_allclose(te[:, 0], 4 * p([3, 7, 0]), rtol=1e-5)   # p * n
        np.testing.assert_allclose(se, 4 * p(draws), rtol=1e-5)
        u, _, use = sess.run(unique)
        assert len(set(u)) == 8 and u.min() >= 0 and u.max() < 10
        assert np.all(use <= 1.0) and np.all(use > 0)           # 1 - (1-p)^tries
        assert sorted(sess.run(uniform)[0]) == [0, 1, 2, 3, 4, 5]
        np.testing.assert_array_equal(sess.run(every)[0], [0, 1, 2, 3, 4])
        rows, ids, weights = sess.run(hits)
    assert rows.tolist() == [0, 1, 2] and ids.tolist() == [3, 2, 0]
    assert np.all(weights == -np.finfo(np.float32).max)
    with pytest.raises(tf.errors.InvalidArgumentError, match="range is too small"):
        with tf.Session() as sess:
            sess.run(tf.nn.uniform_candidate_sampler(labels, 1, 20, True, 10))


def _rows_sent_to_the_worker(cluster, ps):
    return sum(nbytes for kind, src, dst, nbytes in cluster.traffic_totals("ps", ps)
               if kind == "send" and "worker" in dst)


def test_word2vec_on_two_ps_moves_only_the_sampled_rows():
    vocab, dim, batch, num_sampled = 50000, 32, 64, 16
    with LocalCluster({"ps": 2, "worker": 1}) as cluster:
        with tf.device(tf.train.replica_device_setter(
                worker_device="/job:worker/task:0", cluster=cluster.cluster_spec)):
            part = tf.fixed_size_partitioner(2)
            embeddings = tf.get_variable("embeddings", [vocab, dim], partitioner=part,
                                         initializer=tf.random_uniform_initializer(-1, 1))
            nce_w = tf.get_variable("nce_w", [vocab, dim], partitioner=part,
                                    initializer=tf.truncated_normal_initializer(stddev=0.1))
            nce_b = tf.get_variable("nce_b", [vocab], initializer=tf.zeros_initializer())
            words = tf.placeholder(tf.int32, [batch])
            context = tf.placeholder(tf.int64, [batch, 1])
            loss = tf.reduce_mean(tf.nn.nce_loss(nce_w, nce_b, context,
                                                 tf.nn.embedding_lookup(embeddings, words),
                                                 num_sampled, vocab))
            train = tf.train.GradientDescentOptimizer(1.0).minimize(loss)
        rng = np.random.RandomState(0)
        feed = lambda: {words: rng.randint(0, vocab, batch),          # noqa: E731
                        context: rng.randint(0, 100, (batch, 1))}
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(loss, feed())
            sess.run(train, feed())                                     # the plan, once
            before = [_rows_sent_to_the_worker(cluster, ps) for ps in (0, 1)]
            steps = 10
            for _ in range(steps):
                sess.run(train, feed())
            sent = [_rows_sent_to_the_worker(cluster, ps) - before[ps] for ps in (0, 1)]
    assert np.isfinite(first)
    shard = vocab // 2 * dim * 4                      # 3.2 MB per shard of each matrix
    for ps in (0, 1):
        assert 0 < sent[ps] / steps < 0.05 * shard, (ps, sent)
