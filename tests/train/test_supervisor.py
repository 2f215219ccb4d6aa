"""tf.train.Supervisor: its default pieces, the chief's initialization/restore and services
(checkpoint and summary threads that stop with it), managed_session's error handling, and a
seed-002-style between-graph program on a LocalCluster (the chief initializes, the other
worker waits and logs TF's line, both train and leave cleanly)."""
import glob
import logging
import os
import struct
import threading
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.train import checkpoint_management
from sandbox.train.coordinator import LooperThread
from sandbox.train.queue_runner import QueueRunner, add_queue_runner
from sandbox.train.supervisor import Supervisor

LOGGER = "sandbox.train"


def read_events(logdir):
    from tensorboardX.proto import event_pb2
    events = []
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        data = open(path, "rb").read()
        pos = 0
        while pos + 12 <= len(data):
            (length,) = struct.unpack("<Q", data[pos:pos + 8])
            events.append(event_pb2.Event.FromString(data[pos + 12:pos + 12 + length]))
            pos += 12 + length + 4
    return events


def model(int_step=True):
    if int_step:
        gs = tf.train.get_or_create_global_step()
    else:     # seed 002's global step: a float32 variable named 'global_step'
        gs = tf.get_variable("global_step", [], initializer=tf.constant_initializer(0),
                             trainable=False)
    w = tf.Variable([0.0, 0.0], name="w")
    loss = tf.reduce_sum(tf.square(w - tf.constant([1.0, 2.0])), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    return gs, w, loss, train


def service_threads():
    return [t for t in threading.enumerate() if isinstance(t, LooperThread)]


# -- in one process ----------------------------------------------------------------------

def test_default_pieces_and_finalized_graph():
    gs, w, loss, train = model()
    sv = Supervisor()
    g = tf.get_default_graph()
    assert g.finalized
    assert sv.is_chief and sv.global_step is gs
    assert g.get_collection(tf.GraphKeys.READY_OP) == [sv.ready_op]
    assert g.get_collection(tf.GraphKeys.INIT_OP) == [sv.init_op]
    assert g.get_collection(tf.GraphKeys.SAVERS) == [sv.saver]
    assert sv.ready_for_local_init_op is None and sv.summary_op is None
    assert sv.summary_writer is None and sv.save_path is None      # no logdir
    with pytest.raises(RuntimeError, match="Graph is finalized"):
        tf.constant(1.0)


def test_float_global_step_is_not_taken_by_default_but_can_be_passed(caplog):
    caplog.set_level(logging.WARNING, logger=LOGGER)
    gs, w, loss, train = model(int_step=False)
    assert Supervisor().global_step is None
    assert "Found 'global_step' is not an int type" in caplog.text
    tf.get_default_graph()._unsafe_unfinalize()
    sv = Supervisor(global_step=gs, saver=None)
    with sv.prepare_or_wait_for_session() as sess:
        for _ in range(3):
            sess.run(train)
        assert sess.run(gs) == 3.0
    sv.stop()


def test_chief_initializes_and_session_works_in_with(caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    gs, w, loss, train = model()
    init_op = tf.global_variables_initializer()
    sv = Supervisor(is_chief=True, global_step=gs, init_op=init_op)
    with sv.prepare_or_wait_for_session("") as sess:
        assert isinstance(sess, tf.Session)
        assert tf.get_default_session() is sess
        step = 0
        while not sv.should_stop() and step < 5:
            _, step = sess.run([train, gs])
    assert step == 5 and sess._closed
    assert service_threads() == []            # no logdir: no services
    sv.stop()
    assert sv.should_stop()
    assert "Standard services need a 'logdir'" in caplog.text


def test_non_chief_variables_must_be_placed():
    model()
    with pytest.raises(ValueError, match="When using replicas, all Variables must have their "
                                         "device set: global_step"):
        Supervisor(is_chief=False)


def test_non_chief_waits_logging_what_it_waits_for_and_gives_up(caplog, monkeypatch):
    from sandbox.train import session_manager
    monkeypatch.setattr(session_manager, "_POLL_SECS", 0.05)
    caplog.set_level(logging.INFO, logger=LOGGER)
    with tf.device("/cpu:0"):
        tf.Variable(1.0, name="w")
        tf.Variable(2.0, name="b")
    sv = Supervisor(is_chief=False, recovery_wait_secs=0.1)
    start = time.monotonic()
    with pytest.raises(tf.errors.DeadlineExceededError, match="after waiting 0.5 secs"):
        sv.prepare_or_wait_for_session("", max_wait_secs=0.5)
    assert time.monotonic() - start < 3
    lines = [r.getMessage() for r in caplog.records
             if r.getMessage().startswith("Waiting for model to be ready")]
    assert len(lines) >= 3                     # one every recovery_wait_secs
    assert lines[0] == ("Waiting for model to be ready.  Ready_for_local_init_op:  None, "
                        "ready: Variables not initialized: w, b")
    sv.stop()


def test_logdir_checkpoints_summaries_and_restore(tmp_path):
    logdir = str(tmp_path)

    def run(steps, **kwargs):
        tf.reset_default_graph()
        gs, w, loss, train = model()
        tf.summary.scalar("train_loss", loss)
        sv = Supervisor(logdir=logdir, save_summaries_secs=0.2, save_model_secs=0.2, **kwargs)
        with sv.managed_session() as sess:
            first = int(sess.run(gs))
            assert len(service_threads()) == 3  # summaries, steps/sec, checkpoints
            for _ in range(steps):
                sess.run(train)
                time.sleep(0.05)
            last_w = sess.run(w)
        assert service_threads() == []          # stopped and joined with the session
        return first, last_w

    first, w1 = run(10)
    assert first == 0
    latest = checkpoint_management.latest_checkpoint(logdir)
    assert latest is not None and os.path.basename(latest).startswith("model.ckpt-")
    saved_step = int(latest.rsplit("-", 1)[1])
    assert 0 <= saved_step <= 10
    first, w2 = run(3)                          # restart: restored from the last checkpoint
    assert first == saved_step
    events = read_events(logdir)
    loss_steps = [e.step for e in events for v in e.summary.value if v.tag == "train_loss"]
    rate_steps = [e.step for e in events for v in e.summary.value
                  if v.tag == "global_step/sec"]
    assert loss_steps and rate_steps
    from tensorboardX.proto import event_pb2
    statuses = [e.session_log.status for e in events if e.HasField("session_log")]
    assert event_pb2.SessionLog.START in statuses and event_pb2.SessionLog.STOP in statuses


def test_save_model_secs_zero_and_no_summary_op_start_no_threads(tmp_path):
    model()
    sv = Supervisor(logdir=str(tmp_path), save_model_secs=0, summary_op=None)
    with sv.managed_session() as sess:
        # only the steps/sec counter (it needs no summary op)
        assert [type(t).__name__ for t in service_threads()] == ["_SVStepCounterThread"]
        sess.run(sv.global_step)
    assert service_threads() == []
    assert checkpoint_management.latest_checkpoint(str(tmp_path)) is None


def test_managed_session_reraises_errors_after_stopping_and_swallows_out_of_range(tmp_path):
    gs, w, loss, train = model()
    sv = Supervisor(logdir=str(tmp_path), save_model_secs=60)
    with pytest.raises(ValueError, match="boom"):
        with sv.managed_session() as sess:
            assert len(service_threads()) == 2
            raise ValueError("boom")
    assert sess._closed and service_threads() == []
    with sv.managed_session() as sess:        # a Supervisor can make another session
        raise tf.errors.OutOfRangeError(None, None, "input exhausted")
    assert sv.should_stop() and sess._closed


def test_summary_computed_and_loop(tmp_path):
    gs, w, loss, train = model()
    s = tf.summary.scalar("w0", w[0])
    sv = Supervisor(logdir=str(tmp_path), summary_op=None, save_model_secs=0,
                    save_summaries_secs=0)
    calls = []
    with sv.managed_session() as sess:
        sess.run(train)
        sv.summary_computed(sess, sess.run(s))
        looper = sv.loop(0.01, lambda: calls.append(1))
        time.sleep(0.2)
    assert not looper.is_alive() and len(calls) >= 3
    values = [(e.step, v.simple_value) for e in read_events(str(tmp_path))
              for v in e.summary.value if v.tag == "w0"]
    assert values == [(1, pytest.approx(0.2))]
    tf.reset_default_graph()
    model()
    sv = Supervisor()
    with sv.managed_session() as sess:
        with pytest.raises(RuntimeError, match="requires a summary writer"):
            sv.summary_computed(sess, b"")


def test_queue_runners_start_and_stop_with_the_supervisor():
    q = tf.FIFOQueue(4, tf.float32, shapes=[[]])
    counter = tf.Variable(0.0)
    add_queue_runner(QueueRunner(q, [q.enqueue(counter.assign_add(1.0))]))
    x = q.dequeue()
    before = set(threading.enumerate())
    sv = Supervisor()
    with sv.managed_session() as sess:
        assert [sess.run(x) for _ in range(3)] == [1.0, 2.0, 3.0]
    assert not set(threading.enumerate()) - before


# -- seed 002 on a cluster -----------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    from sandbox.cluster import LocalCluster
    with LocalCluster({"ps": 1, "worker": 2}) as c:
        yield c


def seed_002_worker(cluster, task_index, steps, data, out, started):
    """Seed 002's worker, with its data and step count made small."""
    from sandbox.train.device_setter import replica_device_setter
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(replica_device_setter(
                worker_device="/job:worker/task:%d" % task_index, cluster=cluster.cluster_spec)):
            global_step = tf.get_variable("global_step", [],
                                          initializer=tf.constant_initializer(0),
                                          trainable=False)
            with tf.name_scope("input"):
                x = tf.placeholder(tf.float32, shape=[None, 8], name="x-input")
                y_ = tf.placeholder(tf.float32, shape=[None, 3], name="y-input")
            tf.set_random_seed(1)
            with tf.name_scope("weights"):
                W1 = tf.Variable(tf.random_normal([8, 6]))
                W2 = tf.Variable(tf.random_normal([6, 3]))
            with tf.name_scope("biases"):
                b1 = tf.Variable(tf.zeros([6]))
                b2 = tf.Variable(tf.zeros([3]))
            with tf.name_scope("softmax"):
                a2 = tf.nn.sigmoid(tf.add(tf.matmul(x, W1), b1))
                y = tf.nn.softmax(tf.add(tf.matmul(a2, W2), b2))
            with tf.name_scope("cross_entropy"):
                cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y),
                                                              reduction_indices=[1]))
            with tf.name_scope("train"):
                grad_op = tf.train.GradientDescentOptimizer(0.1)
                train_op = grad_op.minimize(cross_entropy, global_step=global_step)
            init_op = tf.global_variables_initializer()
        sv = Supervisor(is_chief=(task_index == 0), global_step=global_step, init_op=init_op)
        started.set()
        costs = []
        with sv.prepare_or_wait_for_session(cluster.target("worker", task_index)) as sess:
            for i in range(steps):
                _, cost, step = sess.run([train_op, cross_entropy, global_step],
                                         feed_dict={x: data[0], y_: data[1]})
                costs.append(float(cost))
            final = sess.run(global_step)
        sv.stop()
        out[task_index] = (costs, float(step), float(final))


def test_seed_002_with_supervisor_on_a_cluster(cluster, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    rng = np.random.RandomState(0)
    data = (rng.rand(20, 8).astype(np.float32),
            np.eye(3, dtype=np.float32)[rng.randint(0, 3, 20)])
    out, failures = {}, []
    started = threading.Event()

    def run(i, started):
        try:
            seed_002_worker(cluster, i, 25, data, out, started)
        except Exception as e:
            failures.append(e)

    threads_before = set(threading.enumerate())
    non_chief_started = threading.Event()
    worker1 = threading.Thread(target=run, args=(1, non_chief_started))
    worker1.start()                               # the non-chief first: it has to wait
    non_chief_started.wait(10)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "Waiting for model to be ready" not in caplog.text:
        time.sleep(0.05)
    worker0 = threading.Thread(target=run, args=(0, threading.Event()))
    worker0.start()
    for t in (worker0, worker1):
        t.join(60)
    assert not failures, failures
    assert ("Ready_for_local_init_op:  None, ready: Variables not initialized: global_step, "
            "weights/Variable, weights/Variable_1, biases/Variable, biases/Variable_1") \
        in caplog.text
    costs0, last0, final0 = out[0]
    costs1, last1, final1 = out[1]
    assert len(costs0) == len(costs1) == 25
    assert max(final0, final1) == 50.0           # one shared global step, 2 x 25 updates
    # as on TensorFlow, the step fetched with the train op is the one from before its update
    assert last0 < final0 and last1 < final1 and max(last0, last1) < 50.0
    assert costs0[-1] < costs0[0]                 # training worked
    time.sleep(0.2)
    assert not [t for t in set(threading.enumerate()) - threads_before if t.is_alive()]
