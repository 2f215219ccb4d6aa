"""Lesson 8 (synchronous training): what the lesson teaches about SyncReplicasOptimizer holds
on a live cluster -- the first tokens let a round fill, a stale gradient is dropped, a round
counts gradients (a lone worker trains), a worker that asks for a token after the chief's queue
runner has stopped waits (bounded here by RunOptions.timeout_in_ms), and closing the token
queue (the sandbox's clean end) releases it at once."""
import time

import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


def _build(cluster, i):
    graph = tf.Graph()
    with graph.as_default(), tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % i, cluster=cluster.cluster_spec)):
        global_step = tf.train.get_or_create_global_step()
        w = tf.Variable(0.0, name="w")
        x = tf.placeholder(tf.float32, [], name="x")
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                             replicas_to_aggregate=2, total_num_replicas=2)
        train_op = opt.minimize(tf.square(w * x - 2.0 * x), global_step=global_step)
        init = tf.global_variables_initializer()
        dropped = opt.stale_gradients_dropped()
        tokens = opt._sync_token_queue.size()
    sess = tf.Session(cluster.target("worker", i), graph=graph)
    return dict(sess=sess, opt=opt, train_op=train_op, x=x, init=init,
                global_step=global_step, dropped=dropped, tokens=tokens)


@pytest.fixture
def two_workers():
    cluster = LocalCluster({"ps": 1, "worker": 2})
    w0, w1 = _build(cluster, 0), _build(cluster, 1)
    s0 = w0["sess"]
    s0.run(w0["init"])
    s0.run(w0["opt"].chief_init_op)
    s0.run(w0["opt"].get_init_tokens_op())
    coord = tf.train.Coordinator()
    threads = w0["opt"].get_chief_queue_runner().create_threads(s0, coord=coord, daemon=True,
                                                                 start=True)
    w1["sess"].run(w1["opt"].local_step_init_op)
    try:
        yield w0, w1, coord, threads
    finally:
        coord.request_stop()
        for w in (w0, w1):
            w["sess"].close()
        cluster.close()


def _step(w, timeout_ms=5000):
    return w["sess"].run(w["train_op"], {w["x"]: 1.0},
                         options=tf.RunOptions(timeout_in_ms=timeout_ms))


def _read(w, name, expect=None, within=10.0):
    """The value of w[name]; with `expect`, waits (up to `within` s) until it is that -- the
    chief's queue runner applies a round in its own thread."""
    deadline = time.monotonic() + within
    value = w["sess"].run(w[name])
    while expect is not None and value != expect and time.monotonic() < deadline:
        time.sleep(0.05)
        value = w["sess"].run(w[name])
    return value


def test_first_tokens_then_a_round_then_a_stale_gradient(two_workers):
    w0, w1, _, _ = two_workers
    assert _read(w0, "tokens") == 2             # get_init_tokens_op: replicas_to_aggregate
    assert _step(w0) == 0                       # returns at once, before any update
    assert _read(w0, "global_step") == 0
    assert _step(w1) == 0
    assert _read(w0, "global_step", expect=1) == 1     # the round of 2 gradients was applied
    assert _read(w0, "dropped") == 0
    assert _step(w0) == 1                       # its gradient was tagged 0 < 1: stale
    assert _read(w0, "dropped", expect=1) == 1


def test_a_round_counts_gradients_so_a_lone_worker_trains(two_workers):
    w0, _, _, _ = two_workers
    for _ in range(12):
        _step(w0)
    assert _read(w0, "global_step", expect=5) >= 4


def test_after_the_chief_leaves_a_worker_waits_until_the_queue_is_closed(two_workers):
    w0, w1, coord, threads = two_workers
    _step(w0)
    _step(w1)
    coord.request_stop()                        # the chief leaves: its queue runner stops
    coord.join(threads, stop_grace_period_secs=5)
    with pytest.raises(tf.errors.DeadlineExceededError):
        for _ in range(3):                      # a token left in the queue, then none
            _step(w1, timeout_ms=1000)
    w0["sess"].run(w0["opt"].close_token_queue_op)     # the sandbox hook's end()
    began = time.monotonic()
    with pytest.raises(tf.errors.OutOfRangeError):
        _step(w1, timeout_ms=5000)
    assert time.monotonic() - began < 2
