"""SyncReplicasOptimizer and ConditionalAccumulator: the accumulator alone (local sessions), the
graph TF builds, one worker in this process, and three workers on a LocalCluster -- each driven
from a thread of this process with its own graph and Session on its worker's target."""
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.ops.accumulator_ops import ConditionalAccumulator
from sandbox.train.basic_session_run_hooks import StopAtStepHook
from tests.waiting import wait_until
from sandbox.train.coordinator import Coordinator
from sandbox.train.device_setter import replica_device_setter
from sandbox.train.monitored_session import MonitoredTrainingSession
from sandbox.train.session_run_hook import SessionRunHook
from sandbox.train.sync_replicas_optimizer import SyncReplicasOptimizer


# -- the accumulator, in a local session ------------------------------------------------

def _accumulator_graph(shape=(2,), dtype=tf.float32, reduction_type="MEAN", need=2):
    acc = ConditionalAccumulator(dtype, shape=shape, shared_name="acc",
                                 reduction_type=reduction_type)
    g = tf.placeholder(dtype, shape)
    ls = tf.placeholder(tf.int64, [])
    new_step = tf.placeholder(tf.int64, [])
    return dict(acc=acc, g=g, ls=ls, apply=acc.apply_grad(g, local_step=ls),
                take=acc.take_grad(need), n=acc.num_accumulated(), dropped=acc.num_dropped(),
                set_step=acc.set_global_step(new_step), new_step=new_step,
                cancel=acc.cancel_take_grad())


def _apply(sess, a, value, step):
    sess.run(a["apply"], {a["g"]: value, a["ls"]: step})


def test_accumulator_averages_fresh_gradients_and_drops_stale_ones():
    a = _accumulator_graph()
    assert a["take"].shape.as_list() == [2] and a["take"].dtype == tf.float32
    assert a["acc"].name == "conditional_accumulator" and a["acc"].dtype == tf.float32
    assert a["acc"].accumulator_ref.op.type == "ConditionalAccumulator"
    with tf.Session() as sess:
        _apply(sess, a, [1.0, 2.0], 0)
        _apply(sess, a, [3.0, 4.0], 0)
        assert sess.run(a["n"]) == 2
        out = sess.run(a["take"])
        assert out.dtype == np.float32 and out.tolist() == [2.0, 3.0]
        # the take moved the accumulator to step 1: a gradient of step 0 is stale
        _apply(sess, a, [50.0, 50.0], 0)
        assert sess.run([a["n"], a["dropped"]]) == [0, 1]
        _apply(sess, a, [1.0, 1.0], 1)
        _apply(sess, a, [3.0, 5.0], 7)           # a later step is fresh too
        assert sess.run(a["take"]).tolist() == [2.0, 3.0]
        # more fresh gradients than asked for: the first `need` make the average
        for v in (1.0, 3.0, 100.0):
            _apply(sess, a, [v, v], 2)
        assert sess.run(a["take"]).tolist() == [2.0, 2.0]
        assert sess.run([a["n"], a["dropped"]]) == [0, 2]
        sess.run(a["set_step"], {a["new_step"]: 10})
        _apply(sess, a, [1.0, 1.0], 9)
        assert sess.run(a["dropped"]) == 3


def test_reduction_sum_and_other_dtypes():
    a = _accumulator_graph(shape=(), dtype=tf.float64, reduction_type="SUM")
    with tf.Session() as sess:
        _apply(sess, a, 1.5, 0)
        _apply(sess, a, 2.0, 0)
        out = sess.run(a["take"])
        assert out.dtype == np.float64 and out == 3.5


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(st.integers(-3, 3), st.integers(-1, 1), st.booleans()),
                min_size=1, max_size=15))
def test_accumulator_matches_a_model(events):
    """A random run of apply (value, step offset from the accumulator's step) and take(2):
    the results, counts and drops match a plain Python model of TF's rules."""
    tf.reset_default_graph()
    a = _accumulator_graph(shape=())
    model_step, fresh, dropped = 0, [], 0
    with tf.Session() as sess:
        for value, offset, take in events:
            step = max(0, model_step + offset)
            _apply(sess, a, float(value), step)
            if step < model_step:
                dropped += 1
            else:
                fresh.append(float(value))
            if take and len(fresh) >= 2:
                out = sess.run(a["take"])
                assert out == pytest.approx(np.float32((fresh[0] + fresh[1]) / 2))
                dropped += len(fresh) - 2
                fresh, model_step = [], model_step + 1
            assert sess.run([a["n"], a["dropped"]]) == [len(fresh), dropped]


def test_take_grad_waits_for_enough_gradients_and_respects_the_deadline():
    a = _accumulator_graph()
    got = []
    with tf.Session() as sess:
        t = threading.Thread(target=lambda: got.append(sess.run(a["take"])))
        t.start()
        _apply(sess, a, [1.0, 1.0], 0)
        time.sleep(0.3)
        assert not got and t.is_alive()              # one of two: still waiting
        _apply(sess, a, [3.0, 3.0], 0)
        t.join(5)
        assert [g.tolist() for g in got] == [[2.0, 2.0]]
        with pytest.raises(tf.errors.DeadlineExceededError):
            sess.run(a["take"], options=tf.RunOptions(timeout_in_ms=200))
        # the abandoned take does not swallow the next round
        _apply(sess, a, [2.0, 4.0], 1)
        _apply(sess, a, [4.0, 6.0], 1)
        assert sess.run(a["take"]).tolist() == [3.0, 5.0]


def test_cancel_wakes_take_grad_until_set_global_step():
    a = _accumulator_graph()
    errors_seen = []

    def wait():
        try:
            sess.run(a["take"])
        except tf.errors.OpError as e:
            errors_seen.append(e)
    with tf.Session() as sess:
        t = threading.Thread(target=wait)
        t.start()
        time.sleep(0.2)
        sess.run(a["cancel"])
        t.join(5)
        assert not t.is_alive()
        assert isinstance(errors_seen[0], tf.errors.CancelledError)
        assert "TakeGrad operation was cancelled" in str(errors_seen[0])
        _apply(sess, a, [1.0, 1.0], 0)
        _apply(sess, a, [1.0, 1.0], 0)
        with pytest.raises(tf.errors.CancelledError):   # still cancelled ...
            sess.run(a["take"])
        sess.run(a["set_step"], {a["new_step"]: 0})     # ... until the chief sets the step
        assert sess.run(a["take"]).tolist() == [1.0, 1.0]


def test_accumulator_errors(capsys):
    a = _accumulator_graph()
    with pytest.raises(ValueError):
        a["acc"].apply_grad(tf.constant([1.0, 2.0, 3.0]))
    with pytest.raises(ValueError, match="reduction_type"):
        ConditionalAccumulator(tf.float32, reduction_type="MAX")
    free = tf.placeholder(tf.float32)
    apply_any = a["acc"].apply_grad(free)
    take_none = a["acc"].take_grad(0)
    ints = ConditionalAccumulator(tf.int32, shared_name="ints")
    with tf.Session() as sess:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Shape mismatch: expected \[2\], got \[3\]"):
            sess.run(apply_any, {free: [1.0, 2.0, 3.0]})
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="num_required must be positive, but was 0"):
            sess.run(take_none)
        with pytest.raises(tf.errors.InvalidArgumentError, match="not int32"):
            sess.run(ints.num_accumulated())
        sess.run(a["set_step"], {a["new_step"]: 5})
        capsys.readouterr()
        sess.run(a["set_step"], {a["new_step"]: 3})
        assert "Attempt to set current_global_step_ to smaller value" in capsys.readouterr().err


def test_reopen_empties_and_opens_a_closed_queue():
    q = tf.FIFOQueue(10, tf.int64, shapes=[[]], shared_name="tokens")
    reopen = tf.get_default_graph().create_op(
        "SyncTokenQueueReopen", [q.queue_ref], [], name="reopen")
    with tf.Session() as sess:
        sess.run(q.enqueue_many([[1, 2]]))
        sess.run(q.close())
        assert sess.run(q.is_closed())
        sess.run(reopen)
        assert not sess.run(q.is_closed()) and sess.run(q.size()) == 0
        sess.run(q.enqueue(7))
        assert sess.run(q.dequeue()) == 7


# -- the graph ---------------------------------------------------------------------------

SPEC = tf.train.ClusterSpec({"ps": ["localhost:1", "localhost:2"],
                             "worker": ["localhost:3", "localhost:4", "localhost:5"]})


def _linear_model(replicas, total, opt=None, worker=1):
    with tf.device(replica_device_setter(cluster=SPEC, worker_device=f"/job:worker/task:{worker}")):
        gs = tf.train.get_or_create_global_step()                 # ps 0
        w = tf.Variable([[1.0], [2.0]], name="w")                  # ps 1
        b = tf.Variable(0.5, name="b")                             # ps 0
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b))
        sync = SyncReplicasOptimizer(opt or tf.train.GradientDescentOptimizer(0.1),
                                     replicas_to_aggregate=replicas, total_num_replicas=total)
        train_op = sync.minimize(loss, global_step=gs)
    return dict(gs=gs, w=w, b=b, sync=sync, train_op=train_op)


def test_graph_is_built_as_tf_builds_it():
    m = _linear_model(replicas=2, total=3)
    g = tf.get_default_graph()
    ops = g.get_operations()
    accumulators = [op for op in ops if op.type == "ConditionalAccumulator"]
    assert sorted(op.get_attr("shared_name") for op in accumulators) == \
        ["b:0/grad_accum", "w:0/grad_accum"]
    for op in accumulators:                      # each next to its variable
        var = m["w"] if op.get_attr("shared_name").startswith("w") else m["b"]
        assert op.device == var.device and var.device.startswith("/job:ps")
    applies = [op for op in ops if op.type == "AccumulatorApplyGradient"]
    assert len(applies) == 2 and all(op.get_attr("replica") == "/job:worker/task:1"
                                     for op in applies)
    takes = [op for op in ops if op.type == "AccumulatorTakeGradient"]
    assert len(takes) == 2 and all(op.device.startswith("/job:ps") for op in takes)
    # the local step: a local variable on this worker
    local = tf.get_collection(tf.GraphKeys.LOCAL_VARIABLES)
    assert [v.op.name for v in local] == ["sync_rep_local_step"]
    assert local[0].device == "/job:worker/task:1" and local[0].dtype.base_dtype == tf.int64
    assert "sync_rep_local_step" not in [v.op.name for v in tf.global_variables()]
    # the token queue, shared, on global_step's device
    (queue,) = [op for op in ops if op.name == "sync_token_q"]
    assert queue.type == "FIFOQueueV2" and queue.get_attr("shared_name") == "sync_token_q"
    assert queue.device == m["gs"].device
    # the train op: assign the dequeued token to the local step, after the accumulators
    train_op = m["train_op"]
    assert train_op.op.type == "Assign" and train_op.dtype.base_dtype == tf.int64
    (dequeue,) = [op for op in ops if op.type == "QueueDequeueV2"]
    assert set(applies) <= set(dequeue.control_inputs)
    # the chief's queue runner: tokens_per_step = max(total, replicas) tokens per round
    qr = m["sync"].get_chief_queue_runner()
    assert qr.queue.name == "dummy_queue" and len(qr.enqueue_ops) == 1
    assert qr.enqueue_ops[0].type == "QueueEnqueueManyV2"
    fill = [op for op in ops if op.type == "Fill"]
    assert np.asarray(fill[0].inputs[0].op.get_attr("value")).tolist() == [3]
    assert m["sync"].chief_init_op.type == "NoOp"
    set_steps = [op for op in ops if op.type == "AccumulatorSetGlobalStep"]
    assert len(set_steps) == 2 and all(op.name.startswith("sync_replicas/SetGlobalStep")
                                       for op in set_steps)
    assert m["sync"].local_step_init_op.op.type == "Assign"
    assert m["sync"].stale_gradients_dropped().dtype == tf.int64
    hook = m["sync"].make_session_run_hook(is_chief=True)
    assert isinstance(hook, SessionRunHook)


def test_tokens_and_argument_errors():
    m = _linear_model(replicas=4, total=3)
    fill = [op for op in tf.get_default_graph().get_operations() if op.type == "Fill"]
    assert np.asarray(fill[0].inputs[0].op.get_attr("value")).tolist() == [4]   # max(...)
    init = m["sync"].get_init_tokens_op()
    assert init.type == "QueueEnqueueManyV2"
    with pytest.raises(ValueError, match="Too few tokens to finish the first step: 0"):
        m["sync"].get_init_tokens_op(num_tokens=0)
    m2 = _linear_model(replicas=3, total=3)
    assert m2["sync"].get_init_tokens_op(num_tokens=0).name.startswith("no_init_tokens")
    fresh = SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), 2)
    with pytest.raises(ValueError, match="after apply_gradients"):
        fresh.get_chief_queue_runner()
    with pytest.raises(ValueError, match="after apply_gradients"):
        fresh.get_init_tokens_op()
    with pytest.raises(ValueError, match="apply_gradient should be called"):
        fresh.make_session_run_hook(True).begin()
    v = tf.Variable(1.0)
    with pytest.raises(ValueError, match="Global step is required"):
        fresh.apply_gradients([(tf.constant(1.0), v)])
    with pytest.raises(ValueError, match="at least one variable"):
        fresh.apply_gradients([], global_step=m["gs"])


def test_slots_and_variables_come_from_the_wrapped_optimizer():
    m = _linear_model(replicas=2, total=2, opt=tf.train.MomentumOptimizer(0.1, 0.9))
    sync = m["sync"]
    assert sync.get_slot_names() == ["momentum"]
    slot = sync.get_slot(m["w"], "momentum")
    assert slot is not None and slot.device == m["w"].device
    assert sync.variables() == sync._opt.variables() and slot in sync.variables()
    assert sync.compute_gradients(tf.reduce_sum(m["w"]), var_list=[m["w"]])[0][1] is m["w"]


# -- one worker, in this process -------------------------------------------------------

class _CaptureAtEnd(SessionRunHook):
    """Reads `fetches` when the monitored session ends."""

    def __init__(self, fetches):
        self.fetches = fetches
        self.values = None

    def end(self, session):
        self.values = session.run(self.fetches)


X = np.array([[1.0, 2.0], [2.0, -1.0], [0.5, 0.5], [-1.0, 3.0]], np.float32)
Y = X @ np.array([[2.0], [-1.0]], np.float32) + 0.5


def test_one_worker_in_lockstep_is_plain_gradient_descent():
    """With one worker and replicas_to_aggregate=1, every round applies exactly one fresh
    gradient, computed from the latest parameters: N rounds are N steps of gradient descent."""
    lr, rounds = 0.05, 12
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(tf.zeros([2, 1]), name="w")
    b = tf.Variable(0.0, name="b")
    loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(X), w) + b - tf.constant(Y)))
    sync = SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(lr), 1)
    train_op = sync.minimize(loss, global_step=gs)
    capture = _CaptureAtEnd([w, b, gs, sync.stale_gradients_dropped()])
    hooks = [capture, sync.make_session_run_hook(is_chief=True),
             StopAtStepHook(last_step=rounds)]
    runs = 0
    with MonitoredTrainingSession(master="", is_chief=True, hooks=hooks,
                                  save_checkpoint_secs=None, save_summaries_steps=None,
                                  log_step_count_steps=None) as sess:
        while not sess.should_stop():
            sess.run(train_op)
            runs += 1
    got_w, got_b, got_step, dropped = capture.values
    ew, eb = np.zeros((2, 1), np.float32), np.float32(0.0)
    for _ in range(rounds):
        err = X @ ew + eb - Y
        ew, eb = ew - lr * (2 * X.T @ err / len(X)), eb - lr * (2 * err.mean())
    assert got_step == rounds
    np.testing.assert_allclose(got_w, ew, rtol=1e-4, atol=1e-5)
    assert got_b == pytest.approx(eb, rel=1e-4)
    assert runs == rounds + 1 and dropped == 1      # the first token lets a stale step in


class _CheckedGradientDescent(tf.train.GradientDescentOptimizer):
    """Gradient descent that refuses a NaN in the (averaged) gradients it applies."""

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        checked = [(tf.check_numerics(g, "averaged gradient"), v) for g, v in grads_and_vars]
        return super().apply_gradients(checked, global_step, name)


def test_a_failing_update_ends_training_with_its_error_instead_of_a_hang(caplog):
    """The chief's queue runner fails (a NaN reaches check_numerics in the update). TF would
    leave the worker blocked on the token queue for ever; the sandbox closes the queue, the
    loop ends, and the session raises the runner's error (module docstring, rule 10)."""
    x = tf.placeholder(tf.float32, [2], name="x")
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable(tf.ones([2]), name="w")
    loss = tf.reduce_sum(w * x)
    sync = SyncReplicasOptimizer(_CheckedGradientDescent(0.1), 1)
    train_op = sync.minimize(loss, global_step=gs)
    hooks = [sync.make_session_run_hook(is_chief=True), StopAtStepHook(last_step=1000)]
    steps = 0
    with pytest.raises(tf.errors.InvalidArgumentError, match="averaged gradient"):
        with MonitoredTrainingSession(master="", is_chief=True, hooks=hooks,
                                      save_checkpoint_secs=None, save_summaries_steps=None,
                                      log_step_count_steps=None) as sess:
            while not sess.should_stop():
                value = [np.nan, 1.0] if steps == 3 else [1.0, 2.0]
                sess.run(train_op, {x: np.array(value, np.float32)})
                steps += 1
    assert steps == 3                            # the step fed the NaN is the last
    assert "Closing the sync token queue" in caplog.text


# -- three workers on a LocalCluster -----------------------------------------------------

C = [1.0, 1000.0, 1e6]      # worker i's gradient is C[i]: an update's digits say who took part


def _build_digits(i, cluster_spec, replicas, total=3):
    """loss = C[i] * w with learning rate `replicas`: each round moves w by minus the SUM of
    the C's of the gradients it averaged -- base-1000 digits count them per worker."""
    g = tf.Graph()
    with g.as_default():
        with tf.device(replica_device_setter(cluster=cluster_spec,
                                             worker_device=f"/job:worker/task:{i}")):
            gs = tf.train.get_or_create_global_step()
            w = tf.Variable(0.0, dtype=tf.float64, name="w")
            sync = SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(float(replicas)),
                                         replicas, total)
            train_op = sync.minimize(w * C[i], global_step=gs)
            init = tf.global_variables_initializer()
            accumulated = sync._accumulator_list[0][0].num_accumulated()
    return dict(graph=g, gs=gs, w=w, sync=sync, train_op=train_op, init=init,
                accumulated=accumulated)


def _digits(moved):
    s = int(round(moved))
    return [s % 1000, (s // 1000) % 1000, s // 1000000]


class _Workers:
    """Three plain training loops (one thread each) that run the train op until it fails --
    OutOfRangeError once the token queue is closed."""

    def __init__(self, models, sessions):
        self.models, self.sessions = models, sessions
        self.runs = [0] * len(models)
        self.errors = [None] * len(models)
        self.threads = [threading.Thread(target=self._loop, args=(i,), daemon=True)
                        for i in range(len(models))]

    def _loop(self, i):
        try:
            while True:
                self.runs[i] += 1
                self.sessions[i].run(self.models[i]["train_op"])
        except Exception as e:     # noqa: BLE001 -- recorded, checked by the test
            self.errors[i] = e

    def start(self):
        for t in self.threads:
            t.start()

    def join(self, timeout=10.0):
        end = time.monotonic() + timeout
        for t in self.threads:
            t.join(max(0.0, end - time.monotonic()))
        return [t.is_alive() for t in self.threads]


def _setup(cluster, replicas, workers=(0, 1, 2), config=None):
    """Graphs and sessions for `workers`; worker 0 (the chief) initializes everything and
    puts the first tokens in, the others initialize their local step."""
    models = [_build_digits(i, cluster.cluster_spec, replicas) for i in workers]
    sessions = [tf.Session(cluster.target("worker", i), graph=m["graph"],
                           config=config(i) if config else None)
                for i, m in zip(workers, models)]
    m0, s0 = models[0], sessions[0]
    s0.run(m0["init"])
    s0.run(m0["sync"].chief_init_op)
    s0.run(m0["sync"].get_init_tokens_op())
    for m, s in zip(models[1:], sessions[1:]):
        s.run(m["sync"].local_step_init_op)
    return models, sessions


def _close_all(sessions):
    for s in sessions:
        s.close()


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 3}) as c:
        yield c


@pytest.fixture
def fresh(cluster):
    """Every test starts from empty tasks (no variables, accumulators or queues left)."""
    tf.Session.reset(cluster.target("worker", 0))
    yield cluster


def test_each_update_averages_exactly_replicas_to_aggregate_fresh_gradients(fresh):
    models, sessions = _setup(fresh, replicas=3)
    m0, s0 = models[0], sessions[0]
    sync_op = m0["sync"].get_chief_queue_runner().enqueue_ops[0]
    workers = _Workers(models, sessions)
    workers.start()
    try:
        w_before, rounds = 0.0, 6
        for k in range(1, rounds + 1):
            s0.run(sync_op, options=tf.RunOptions(timeout_in_ms=10000))   # the chief's round
            w_now, step = s0.run([m0["w"], m0["gs"]])
            counts = _digits(w_before - w_now)
            assert sum(counts) == 3, f"round {k} averaged {counts} gradients of workers 0-2"
            assert step == k                       # one global step per round
            w_before = w_now
        s0.run(m0["sync"].close_token_queue_op)    # end: every waiting worker wakes
        assert not any(workers.join())
        assert all(isinstance(e, tf.errors.OutOfRangeError) for e in workers.errors)
        accumulated, dropped = s0.run([m0["accumulated"], m0["sync"].stale_gradients_dropped()])
        # every run applied one gradient: taken by a round, still waiting, or dropped as stale
        assert sum(workers.runs) == 3 * rounds + accumulated + dropped
        # the three first tokens let each worker compute one stale gradient at step 0
        assert dropped == 3
    finally:
        _close_all(sessions)


def test_backup_workers_keep_training_while_one_is_paused(fresh):
    models, sessions = _setup(fresh, replicas=2)
    m0, s0 = models[0], sessions[0]
    sync_op = m0["sync"].get_chief_queue_runner().enqueue_ops[0]
    workers = _Workers(models, sessions)
    workers.start()
    paused = False
    try:
        w_before, per_round = 0.0, []
        for k in range(1, 10):
            if k == 4:
                fresh.pause("worker", 2)
                paused = True
            s0.run(sync_op, options=tf.RunOptions(timeout_in_ms=10000))
            w_now, step = s0.run([m0["w"], m0["gs"]])
            per_round.append(_digits(w_before - w_now))
            w_before = w_now
            assert step == k
        assert all(sum(c) == 2 for c in per_round), per_round
        # worker 2 may finish the gradient it was sending when it froze, nothing more
        assert sum(c[2] for c in per_round[4:]) == 0, per_round
        assert sum(c[0] + c[1] for c in per_round[3:]) >= 10
    finally:
        if paused:
            fresh.resume("worker", 2)
    try:
        s0.run(m0["sync"].close_token_queue_op)
        assert not any(workers.join())
    finally:
        _close_all(sessions)


def _train_monitored(cluster, replicas, last_step, results, index, start_barrier):
    """One worker of a TF-style program: MonitoredTrainingSession, the sync hook and
    StopAtStepHook; records when it left its session."""
    cluster_spec = cluster.cluster_spec
    g = tf.Graph()
    rng = np.random.default_rng(index)
    x_data = rng.normal(size=(16, 2)).astype(np.float32)
    y_data = x_data @ np.array([[2.0], [-1.0]], np.float32) + 0.5
    with g.as_default():
        with tf.device(replica_device_setter(cluster=cluster_spec,
                                             worker_device=f"/job:worker/task:{index}")):
            gs = tf.train.get_or_create_global_step()
            w = tf.Variable(tf.zeros([2, 1]), name="w")
            b = tf.Variable(0.0, name="b")
            loss = tf.reduce_mean(tf.square(tf.matmul(tf.constant(x_data), w) + b
                                            - tf.constant(y_data)))
            sync = SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), replicas, 3)
            train_op = sync.minimize(loss, global_step=gs)
        hooks = [sync.make_session_run_hook(is_chief=(index == 0)),
                 StopAtStepHook(last_step=last_step)]
        start_barrier.wait()
        losses, error = [], None
        try:
            with MonitoredTrainingSession(master=cluster.target("worker", index),
                                          is_chief=(index == 0), hooks=hooks,
                                          save_checkpoint_secs=None, save_summaries_steps=None,
                                          log_step_count_steps=None) as sess:
                while not sess.should_stop():
                    losses.append(sess.run([train_op, loss])[1])
        except Exception as e:     # noqa: BLE001 -- checked by the test
            error = e
    results[index] = dict(left=time.monotonic(), losses=losses, error=error)


def _run_three_monitored(cluster, replicas, last_step):
    results = [None] * 3
    barrier = threading.Barrier(3)
    threads = [threading.Thread(target=_train_monitored, daemon=True,
                                args=(cluster, replicas, last_step, results, i, barrier))
               for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not any(t.is_alive() for t in threads), "a worker is still blocked"
    assert [r["error"] for r in results] == [None] * 3
    left = [r["left"] for r in results]
    assert max(left) - min(left) < 5.0, f"workers left {np.ptp(left):.1f} s apart"
    return results


def _global_step(cluster):
    g = tf.Graph()
    with g.as_default(), tf.device("/job:ps/task:0"):
        gs = tf.train.get_or_create_global_step()
    with tf.Session(cluster.target("worker", 0), graph=g) as sess:
        return sess.run(gs)


@pytest.mark.parametrize("replicas", [3, 2])
def test_stop_at_step_hook_ends_every_worker_cleanly(fresh, replicas):
    """All three workers leave their loops and sessions within seconds of the last round,
    whatever step each was in -- with a straggler among backup workers too -- and the global
    step equals the rounds applied."""
    last_step = 8
    if replicas == 2:
        fresh.set_straggler("worker", 2, step_delay=0.15)
    try:
        results = _run_three_monitored(fresh, replicas, last_step)
    finally:
        if replicas == 2:
            fresh.set_straggler("worker", 2, slowdown=1.0, step_delay=0.0)
    assert _global_step(fresh) == last_step
    chief_losses = results[0]["losses"]
    assert chief_losses[-1] < chief_losses[0]
    if replicas == 2:     # the straggler took part in fewer rounds than the others
        assert len(results[2]["losses"]) < max(len(results[0]["losses"]),
                                               len(results[1]["losses"]))


def test_a_worker_that_starts_after_the_end_leaves_at_once(fresh, caplog):
    """Training is over (the token queue is closed): a late worker stops at its first step
    instead of waiting forever for a round."""
    _run_three_monitored(fresh, 3, last_step=3)
    results, barrier = [None] * 3, threading.Barrier(1)
    start = time.monotonic()
    with caplog.at_level("INFO", logger="sandbox.train"):
        _train_monitored(fresh, 3, 3, results, 1, barrier)
    assert results[1]["error"] is None and len(results[1]["losses"]) == 0
    assert results[1]["left"] - start < 5.0
    assert "The sync token queue is closed" in caplog.text
    assert _global_step(fresh) == 3


def test_worker_killed_mid_run(capfd):
    """With a backup worker, training goes on without the dead one. Without, the chief's
    take_grad waits -- and the ps says every 10 s which worker it waits for."""
    with LocalCluster({"ps": 1, "worker": 3}) as c:
        # 1. replicas_to_aggregate=2 of 3: kill worker 2, the rounds go on
        models, sessions = _setup(c, replicas=2)
        m0, s0 = models[0], sessions[0]
        coord = Coordinator()
        hook = m0["sync"].make_session_run_hook(is_chief=True)
        hook.begin()
        m0["sync"].get_chief_queue_runner().create_threads(s0, coord=coord, daemon=True,
                                                           start=True)
        workers = _Workers(models, sessions)
        workers.start()
        try:
            assert wait_until(lambda: s0.run(m0["gs"]) >= 3, timeout=15)
            c.kill("worker", 2)
            at_kill = s0.run(m0["gs"])
            assert wait_until(lambda: s0.run(m0["gs"]) >= at_kill + 5, timeout=15)
            hook.end(s0)                      # the chief's clean end
            coord.request_stop()
            coord.join(stop_grace_period_secs=5)
            assert not any(workers.join())
            assert all(isinstance(e, tf.errors.OutOfRangeError) for e in workers.errors[:2])
            assert isinstance(workers.errors[2], (tf.errors.UnavailableError,
                                                  tf.errors.AbortedError))
        finally:
            _close_all(sessions)

        # 2. replicas_to_aggregate=3 of 3: kill a worker while it waits for its token
        c.restart("worker", 2)
        tf.Session.reset(c.target("worker", 0))
        models, sessions = _setup(c, replicas=3)
        m0, s0 = models[0], sessions[0]
        sync_op = m0["sync"].get_chief_queue_runner().enqueue_ops[0]
        workers = _Workers(models, sessions)
        workers.start()
        try:
            for _ in range(3):
                s0.run(sync_op, options=tf.RunOptions(timeout_in_ms=10000))
            assert wait_until(lambda: s0.run(m0["accumulated"]) == 3, timeout=15)   # all three wait for tokens
            c.kill("worker", 2)
            s0.run(sync_op, options=tf.RunOptions(timeout_in_ms=10000))   # round 4 is full
            capfd.readouterr()
            with pytest.raises(tf.errors.DeadlineExceededError):
                s0.run(sync_op, options=tf.RunOptions(timeout_in_ms=11000))
            err = capfd.readouterr().err
            assert "still waiting for 3 fresh gradients for global step 4" in err
            assert "2 arrived (from /job:worker/task:0, /job:worker/task:1)" in err or \
                "2 arrived (from /job:worker/task:1, /job:worker/task:0)" in err
            assert "waiting for /job:worker/task:2" in err
            assert s0.run(m0["gs"]) == 4
            s0.run([m0["sync"].close_token_queue_op, m0["sync"].cancel_take_grads_op])
            assert not any(workers.join())
        finally:
            _close_all(sessions)


def test_public_names():
    assert tf.ConditionalAccumulator is ConditionalAccumulator
    assert tf.train.SyncReplicasOptimizer is SyncReplicasOptimizer
