"""tf.contrib.opt's distributed optimizers -- DropStaleGradientOptimizer, ElasticAverage-,
ModelAverage- and AGNOptimizer with their custom getters -- on a real LocalCluster (2 ps,
2 workers: the variables are spread over both ps, so each conditional update spans several
devices), each worker a graph and a Session of its own, driven from this process. The expected
values are computed step by step with NumPy; the local-session tests repeat the numbers of
TF 1.15's own tests of these files."""
import threading

import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from sandbox.contrib.opt import (AGNCustomGetter, AGNOptimizer, DropStaleGradientOptimizer,
                                 ElasticAverageCustomGetter, ElasticAverageOptimizer,
                                 ModelAverageCustomGetter, ModelAverageOptimizer)

CONFIG = tf.ConfigProto(operation_timeout_in_ms=20000)


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 2, "worker": 2}) as c:
        yield c


@pytest.fixture
def fresh(cluster):
    """Every test starts from empty tasks (no variables, queues or accumulators left)."""
    tf.Session.reset(cluster.target("worker", 0))
    yield cluster


def _setter(cluster, i):
    return tf.train.replica_device_setter(cluster=cluster.cluster_spec,
                                          worker_device=f"/job:worker/task:{i}")


def _in_parallel(*calls):
    """Runs the calls in threads (steps that wait for each other) and re-raises any error."""
    errors = []

    def run(call):
        try:
            call()
        except Exception as e:      # noqa: BLE001 -- re-raised below
            errors.append(e)
    threads = [threading.Thread(target=run, args=(call,), daemon=True) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert not any(t.is_alive() for t in threads), "a step is still blocked"
    if errors:
        raise errors[0]


def _monitored(cluster, i, graph, hooks):
    with graph.as_default():
        return tf.train.MonitoredTrainingSession(
            master=cluster.target("worker", i), is_chief=(i == 0), hooks=hooks,
            config=CONFIG, save_checkpoint_secs=None, save_summaries_steps=None,
            log_step_count_steps=None)


# -- DropStaleGradientOptimizer ---------------------------------------------------------------

def _drop_stale_worker(cluster, i, staleness):
    """TF 1.15's test program: worker 1 computes its gradients first and waits; the chief
    computes and applies its own (the global step moves on), and only then does worker 1
    apply -- its gradients are exactly 1 step stale. loss = -v0 - v1: every gradient is -1."""
    g = tf.Graph()
    with g.as_default():
        with tf.device(_setter(cluster, i)):
            gs = tf.train.get_or_create_global_step()
            v0 = tf.Variable(0.0, name="v0")                # ps 1
            v1 = tf.Variable(1.0, name="v1")                # ps 0
        with tf.device("/job:ps/task:0"):
            computed = tf.FIFOQueue(-1, tf.int64, shapes=(), shared_name="computed")
            applied = tf.FIFOQueue(-1, tf.int64, shapes=(), shared_name="applied")
        with tf.device(f"/job:worker/task:{i}"):
            opt = DropStaleGradientOptimizer(tf.train.GradientDescentOptimizer(1.0), staleness)
            loss = 0 - v0 - v1
            if i == 0:
                with tf.control_dependencies([computed.dequeue()]):
                    grads_and_vars = opt.compute_gradients(loss)
                with tf.control_dependencies([opt.apply_gradients(grads_and_vars, gs)]):
                    train = applied.enqueue(gs)
            else:
                grads_and_vars = opt.compute_gradients(loss)
                with tf.control_dependencies([grad for grad, _ in grads_and_vars]):
                    done = computed.enqueue(gs)
                with tf.control_dependencies([done]), \
                        tf.control_dependencies([applied.dequeue()]), \
                        tf.control_dependencies([opt.apply_gradients(grads_and_vars, gs)]):
                    train = applied.enqueue(gs)
        counter = g.get_tensor_by_name("stale_counter:0")
        init = tf.global_variables_initializer()
    return dict(graph=g, gs=gs, v0=v0, v1=v1, train=train, counter=counter, init=init)


@pytest.mark.parametrize("staleness, applied_steps", [(0, 1), (1, 2)])
def test_drop_stale_gradient_optimizer_drops_the_stale_step(fresh, staleness, applied_steps):
    models = [_drop_stale_worker(fresh, i, staleness) for i in range(2)]
    m0 = models[0]
    sessions = [tf.Session(fresh.target("worker", i), graph=m["graph"], config=CONFIG)
                for i, m in enumerate(models)]
    try:
        sessions[0].run(m0["init"])
        _in_parallel(*[lambda s=s, m=m: s.run(m["train"]) for s, m in zip(sessions, models)])
        gs, counter, v0, v1 = sessions[0].run([m0["gs"], m0["counter"], m0["v0"], m0["v1"]])
    finally:
        for s in sessions:
            s.close()
    # staleness 0: the chief's step is applied, worker 1's (1 step stale) is dropped and
    # counted; staleness 1: both are applied. Each applied step adds 1 to v0 and v1.
    assert (gs, counter) == (applied_steps, 2 - applied_steps)
    assert (v0, v1) == (0.0 + applied_steps, 1.0 + applied_steps)


def test_drop_stale_gradient_optimizer_graph():
    g = tf.Graph()
    with g.as_default(), tf.device(tf.train.replica_device_setter(
            cluster={"ps": ["a:1", "b:1"], "worker": ["c:1"]})):
        gs = tf.train.get_or_create_global_step()
        v = tf.Variable([1.0, 2.0], name="v")                                   # ps 1
        opt = DropStaleGradientOptimizer(tf.train.MomentumOptimizer(0.1, 0.9), 2)
        train = opt.minimize(tf.reduce_sum(v * v), global_step=gs)
    counter = g.get_tensor_by_name("stale_counter:0")
    assert counter.op.type == "VariableV2" and counter.device == gs.device == "/job:ps/task:0"
    assert counter.dtype == tf.float32_ref and counter.get_shape().as_list() == []
    with g.as_default():
        assert [x.op.name for x in tf.trainable_variables()] == ["v"]
        assert "stale_counter" in [x.op.name for x in tf.global_variables()]
        assert opt.get_slot_names() == ["momentum"]
        assert opt.get_slot(v, "momentum").device == v.device == "/job:ps/task:1"
    summaries = g.get_collection(tf.GraphKeys.SUMMARIES)
    assert [s.op.name for s in summaries] == ["Gradient_staleness_percentage"]
    assert train.op.type == "AssignAdd" and train.op.inputs[0].op is counter.op
    # the update runs on the ps of the variable, the step count on the global step's
    ifs = sorted(op.device for op in g.get_operations() if op.type == "If")
    assert ifs == ["/job:ps/task:0", "/job:ps/task:1"]


def test_drop_stale_gradient_optimizer_with_adam_is_adam_on_fresh_steps():
    """One worker is never stale: the wrapped Adam's updates (slots and beta powers updated
    inside the conditional update) are plain Adam's; staleness -1 drops every step."""
    def run(wrap, staleness=0):
        tf.reset_default_graph()
        gs = tf.train.get_or_create_global_step()
        v = tf.Variable([1.0, -2.0, 3.0])
        opt = tf.train.AdamOptimizer(0.1)
        if wrap:
            opt = DropStaleGradientOptimizer(opt, staleness)
        train = opt.minimize(tf.reduce_sum(v * v * [1.0, 2.0, 3.0]), global_step=gs)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train)
            return sess.run([v, gs])
    wrapped, plain, dropped = run(True), run(False), run(True, staleness=-1)
    np.testing.assert_allclose(wrapped[0], plain[0], rtol=1e-6)
    assert wrapped[1] == plain[1] == 3
    np.testing.assert_array_equal(dropped[0], [1.0, -2.0, 3.0])
    assert dropped[1] == 0
    assert tf.get_default_graph().get_tensor_by_name("stale_counter:0") is not None


def test_drop_stale_gradient_optimizer_keeps_sparse_gradients_sparse():
    """An embedding's gradient stays an IndexedSlices through the conditional update: the
    wrapped Adagrad's sparse update, as without the wrapper."""
    def run(wrap):
        tf.reset_default_graph()
        gs = tf.train.get_or_create_global_step()
        emb = tf.Variable(np.ones((5, 2), np.float32))
        loss = tf.reduce_sum(tf.nn.embedding_lookup(emb, [0, 3, 3]) * 2.0)
        opt = tf.train.AdagradOptimizer(0.5)
        if wrap:
            opt = DropStaleGradientOptimizer(opt, 0)
        grads_and_vars = opt.compute_gradients(loss)
        assert isinstance(grads_and_vars[0][0], tf.IndexedSlices)
        train = opt.apply_gradients(grads_and_vars, gs)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(train)
            sess.run(train)
            return sess.run(emb)
    wrapped, plain = run(True), run(False)
    np.testing.assert_allclose(wrapped, plain, rtol=1e-6)
    np.testing.assert_array_equal(wrapped[[1, 2, 4]], 1.0)       # rows not looked up


def test_drop_stale_gradient_optimizer_errors():
    v = tf.Variable(1.0)
    opt = DropStaleGradientOptimizer(tf.train.GradientDescentOptimizer(0.1), 0)
    with pytest.raises(ValueError, match="needs a global step"):
        opt.compute_gradients(v * v)
    gs = tf.train.get_or_create_global_step()
    with pytest.raises(ValueError, match="call compute_gradients"):
        opt.apply_gradients([(tf.constant(1.0), v)], gs)
    wrapped = DropStaleGradientOptimizer(tf.contrib.opt.MovingAverageOptimizer(
        tf.train.GradientDescentOptimizer(0.1)), 0)
    grads = wrapped.compute_gradients(v * v)
    with pytest.raises(TypeError, match="apply_gradients of its own"):
        wrapped.apply_gradients(grads, gs)


# -- ElasticAverageOptimizer ------------------------------------------------------------------

TARGETS = [np.linspace(-1.0, 1.0, 64).astype(np.float32),
           np.linspace(2.0, 0.0, 64).astype(np.float32)]


def _elastic_worker(cluster, i, period, moving_rate, rho, lr):
    """Worker i fits w (64 floats) and b to its own target: loss = 0.5 |w - t_i|^2 + 0.5 b^2."""
    g = tf.Graph()
    with g.as_default():
        ea = ElasticAverageCustomGetter(worker_device=f"/job:worker/task:{i}")
        with tf.device(_setter(cluster, i)), tf.variable_scope("", custom_getter=ea):
            gs = tf.train.get_or_create_global_step()
            w = tf.get_variable("w", initializer=tf.zeros([64]))
            b = tf.get_variable("b", initializer=1.0)
        with tf.device(f"/job:worker/task:{i}"):
            loss = 0.5 * tf.reduce_sum(tf.square(w - TARGETS[i])) + 0.5 * b * b
            opt = ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(lr), num_worker=2,
                                          ea_custom_getter=ea, communication_period=period,
                                          moving_rate=moving_rate, rho=rho)
            train = opt.minimize(loss, global_step=gs)
            hook = opt.make_session_run_hook(is_chief=(i == 0), task_index=i)
    centers = [g.get_tensor_by_name(f"global_center_variable/{n}:0") for n in ("w", "b")]
    local_centers = [g.get_tensor_by_name(f"local_center_variable/{n}:0") for n in ("w", "b")]
    return dict(graph=g, ea=ea, gs=gs, w=w, b=b, train=train, hook=hook, centers=centers,
                local_centers=local_centers, opt=opt)


class _ElasticModel:
    """EASGD in NumPy: (w, b) of each worker, their local centers, the center, the steps."""

    def __init__(self, period, moving_rate, rho, lr):
        self.period, self.alpha, self.rho, self.lr = period, moving_rate, rho, lr
        self.center = [np.zeros(64, np.float32), np.float32(1.0)]
        self.local = [[c.copy() for c in self.center] for _ in range(2)]    # the hook's copy
        self.local_center = [[c.copy() for c in self.center] for _ in range(2)]
        self.steps, self.global_step = [0, 0], 0

    def step(self, i):
        w, b = self.local[i]
        lw, lb = self.local_center[i]
        grads = [(w - TARGETS[i]) + self.rho * (w - lw), b + self.rho * (b - lb)]
        self.local[i] = [w - self.lr * grads[0], b - self.lr * grads[1]]
        self.steps[i] += 1
        if self.steps[i] % self.period == 0:
            self.local_center[i] = [c.copy() for c in self.center]
            diffs = [x - c for x, c in zip(self.local[i], self.center)]
            self.local[i] = [x - self.alpha * d for x, d in zip(self.local[i], diffs)]
            self.center = [c + self.alpha * d for c, d in zip(self.center, diffs)]
            self.global_step += 1


def _received(cluster, job, index, since, src):
    return sum(r.nbytes for r in cluster.trace(job, index, since)
               if r.kind == "recv" and r.src == src)


def test_elastic_average_optimizer_on_a_cluster(fresh):
    period, moving_rate, rho, lr = 3, 0.25, 0.5, 0.2
    models = [_elastic_worker(fresh, i, period, moving_rate, rho, lr) for i in range(2)]
    m0 = models[0]
    # where TF puts them: the local copies and local centers on the worker (LOCAL_VARIABLES),
    # the centers and the global step on the ps (GLOBAL_VARIABLES)
    g0 = m0["graph"]
    devices = {op.name: op.device for op in g0.get_operations() if op.type == "VariableV2"}
    assert devices == {"global_step": "/job:ps/task:0", "w": "/job:worker/task:0",
                       "global_center_variable/w": "/job:ps/task:1",
                       "local_center_variable/w": "/job:worker/task:0",
                       "b": "/job:worker/task:0", "global_center_variable/b": "/job:ps/task:0",
                       "local_center_variable/b": "/job:worker/task:0",
                       "local_step": "/job:worker/task:0"}
    with g0.as_default():
        assert [v.op.name for v in tf.global_variables()] == [
            "global_step", "global_center_variable/w", "global_center_variable/b"]
        assert [v.op.name for v in tf.local_variables()] == [
            "w", "local_center_variable/w", "b", "local_center_variable/b", "local_step"]
        assert [v.op.name for v in tf.trainable_variables()] == ["w", "b"]
    assert m0["opt"]._local_step.dtype == tf.int32_ref

    expected = _ElasticModel(period, moving_rate, rho, lr)
    sessions = [_monitored(fresh, i, m["graph"], [m["hook"]]) for i, m in enumerate(models)]
    try:
        schedule = [0, 1, 0, 0, 1, 1, 0, 1]          # worker 0 communicates at its 3rd step
        for i in schedule:
            since = max([r.seq for r in fresh.trace("ps", 1)], default=0)
            sessions[i].run(models[i]["train"])
            expected.step(i)
            # the centre of w (64 floats, on ps 1) is read and moved only when communicating
            moved = _received(fresh, "ps", 1, since, f"/job:worker/replica:0/task:{i}")
            if expected.steps[i] % period == 0:
                assert moved >= 64 * 4
            else:
                assert moved < 64
        for i, (s, m) in enumerate(zip(sessions, models)):
            w, b, lw, lb = s.run([m["w"], m["b"]] + m["local_centers"])
            np.testing.assert_allclose(w, expected.local[i][0], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(b, expected.local[i][1], rtol=1e-5)
            np.testing.assert_allclose(lw, expected.local_center[i][0], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(lb, expected.local_center[i][1], rtol=1e-5)
        cw, cb, gs = sessions[0].run(m0["centers"] + [m0["gs"]])
        np.testing.assert_allclose(cw, expected.center[0], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(cb, expected.center[1], rtol=1e-5)
        assert gs == expected.global_step == 2
    finally:
        for s in sessions:
            s.close()


def test_elastic_average_optimizer_synchronous_start_waits_for_every_worker(fresh):
    """synchronous=True: the hook's init op ends with a barrier (one queue per worker), so a
    worker's session is ready only once every worker has copied the centers."""
    models = []
    for i in range(2):
        g = tf.Graph()
        with g.as_default():
            ea = ElasticAverageCustomGetter(worker_device=f"/job:worker/task:{i}")
            with tf.device(_setter(fresh, i)), tf.variable_scope("", custom_getter=ea):
                gs = tf.train.get_or_create_global_step()
                v = tf.get_variable("v", initializer=[3.0, 4.0])
            with tf.device(f"/job:worker/task:{i}"):
                opt = ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(1.0), 2, ea,
                                              communication_period=1, moving_rate=0.5,
                                              synchronous=True)
                train = opt.apply_gradients([(tf.constant([1.0, 1.0]), v)], gs)
                hook = opt.make_session_run_hook(is_chief=(i == 0), task_index=i)
        models.append(dict(graph=g, hook=hook, train=train, v=v))
    sessions = [None, None]

    def start(i):
        sessions[i] = _monitored(fresh, i, models[i]["graph"], [models[i]["hook"]])
    chief = threading.Thread(target=start, args=(0,), daemon=True)
    chief.start()
    chief.join(0.5)
    assert chief.is_alive(), "the chief's session did not wait for worker 1"
    _in_parallel(lambda: start(1), lambda: chief.join(30))
    try:
        sessions[1].run(models[1]["train"])           # v = [2, 3]; center -> [2.5, 3.5]
        np.testing.assert_allclose(sessions[1].run(models[1]["v"]), [2.5, 3.5])
    finally:
        for s in sessions:
            s.close()


def test_elastic_average_optimizer_tf_test_numbers_and_swapping_saver(tmp_path):
    """TF 1.15's test1Workers2Period: one worker, moving_rate 1, period 2, gradients -1; then
    the swapping saver writes the centers under the local names."""
    ea = ElasticAverageCustomGetter(worker_device="")
    with tf.variable_scope("", custom_getter=ea):
        gs = tf.train.get_or_create_global_step()
        v0 = tf.get_variable(initializer=0.0, name="v0")
        v1 = tf.get_variable(initializer=1.0, name="v1")
    opt = ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(1.0), num_worker=1,
                                  ea_custom_getter=ea, communication_period=2,
                                  moving_rate=1.0)
    train = opt.apply_gradients([(tf.constant(-1.0), v0), (tf.constant(-1.0), v1)], gs)
    saver = opt.swapping_saver()
    g = tf.get_default_graph()
    c0, c1 = (g.get_tensor_by_name(f"global_center_variable/{n}:0") for n in ("v0", "v1"))
    got = []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        for _ in range(4):
            sess.run(train)
            got.append(sess.run([v0, v1, c0, c1, gs]).copy())
        path = saver.save(sess, str(tmp_path / "model"))
    assert [[float(x) for x in row] for row in got] == [
        [1, 2, 0, 1, 0], [0, 1, 2, 3, 1], [1, 2, 2, 3, 1], [2, 3, 2, 3, 2]]
    tf.reset_default_graph()
    a = tf.get_variable(initializer=0.0, name="v0")
    b = tf.get_variable(initializer=1.0, name="v1")
    with tf.Session() as sess:
        tf.train.Saver([b, a]).restore(sess, path)
        assert sess.run([a, b]) == [2.0, 3.0]


def test_elastic_average_optimizer_defaults_and_errors():
    ea = ElasticAverageCustomGetter(worker_device="")
    with tf.variable_scope("", custom_getter=ea):
        tf.get_variable("w", initializer=[1.0])
    opt = ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(0.5), num_worker=3,
                                  ea_custom_getter=ea)
    assert opt.BETA == 0.9 and opt._period == 10
    assert opt._moving_rate == pytest.approx(0.9 / 10 / 3)
    assert opt._rho == pytest.approx(0.9 / 10 / 3 / 0.5)
    with pytest.raises(AttributeError, match="Pass rho="):
        ElasticAverageOptimizer(tf.train.AdamOptimizer(), num_worker=3, ea_custom_getter=ea)
    with tf.Graph().as_default(), \
            pytest.raises(RuntimeError, match="global_center_variable is empty"):
        ElasticAverageOptimizer(tf.train.GradientDescentOptimizer(0.5), 1,
                                ElasticAverageCustomGetter("")).swapping_saver()


# -- ModelAverageOptimizer --------------------------------------------------------------------

def _model_average_worker(cluster, i, interval, lr):
    g = tf.Graph()
    with g.as_default():
        ma = ModelAverageCustomGetter(worker_device=f"/job:worker/task:{i}")
        with tf.device(_setter(cluster, i)), tf.variable_scope("", custom_getter=ma):
            gs = tf.train.get_or_create_global_step()
            w = tf.get_variable("w", initializer=tf.zeros([64]))
            b = tf.get_variable("b", initializer=1.0)
        with tf.device(f"/job:worker/task:{i}"):
            loss = 0.5 * tf.reduce_sum(tf.square(w - TARGETS[i])) + 0.5 * b * b
            opt = ModelAverageOptimizer(tf.train.GradientDescentOptimizer(lr), num_worker=2,
                                        is_chief=(i == 0), ma_custom_getter=ma,
                                        interval_steps=interval)
            train = opt.minimize(loss, global_step=gs)
            hook = opt.make_session_run_hook()
    globals_ = [g.get_tensor_by_name(f"global_center_variable/{n}:0") for n in ("w", "b")]
    return dict(graph=g, ma=ma, gs=gs, w=w, b=b, train=train, hook=hook, globals=globals_,
                opt=opt)


def test_model_average_optimizer_on_a_cluster(fresh):
    interval, lr = 3, 0.3
    models = [_model_average_worker(fresh, i, interval, lr) for i in range(2)]
    g0 = models[0]["graph"]
    devices = {op.name: op.device for op in g0.get_operations() if op.type == "VariableV2"}
    assert devices == {"global_step": "/job:ps/task:0", "w": "/job:worker/task:0",
                       "global_center_variable/w": "/job:ps/task:1",
                       "b": "/job:worker/task:0", "global_center_variable/b": "/job:ps/task:0",
                       "local_step": "/job:worker/task:0"}
    with g0.as_default():
        assert [v.op.name for v in tf.local_variables()] == ["w", "b", "local_step"]
        assert [v.op.name for v in tf.trainable_variables()] == ["w", "b"]
    accumulators = models[0]["opt"]._accumulator_list
    assert [(a.accumulator_ref.op.get_attr("shared_name"), d) for a, d in accumulators] == [
        ("global_center_variable/w:0/var_accum", "/job:ps/task:1"),
        ("global_center_variable/b:0/var_accum", "/job:ps/task:0")]

    local = [[np.zeros(64, np.float32), np.float32(1.0)] for _ in range(2)]
    average = [np.zeros(64, np.float32), np.float32(1.0)]

    def local_step(i):
        w, b = local[i]
        local[i] = [w - lr * (w - TARGETS[i]), b - lr * b]
    sessions = [_monitored(fresh, i, m["graph"], [m["hook"]]) for i, m in enumerate(models)]
    done = [0, 0]

    def run(i):
        """A step without averaging: nothing of the model crosses to the ps (w is on ps 1)."""
        since = max([r.seq for r in fresh.trace("ps", 1)], default=0)
        sessions[i].run(models[i]["train"])
        assert _received(fresh, "ps", 1, since, f"/job:worker/replica:0/task:{i}") < 64
        local_step(i)
        done[i] += 1
    try:
        for _ in range(2):                               # two averagings
            while (done[0] + 1) % interval:              # the steps in between: one by one
                run(1)
                run(0)
            # the last step of an interval: both push, the chief averages, both pull
            _in_parallel(*[lambda s=s, m=m: s.run(m["train"])
                           for s, m in zip(sessions, models)])
            local_step(0), local_step(1)
            done = [d + 1 for d in done]
            average = [(x + y) / 2 for x, y in zip(*local)]
            local = [[a.copy() for a in average] for _ in range(2)]
            run(0)                                       # one more step: no communication
            for i, (s, m) in enumerate(zip(sessions, models)):
                np.testing.assert_allclose(s.run(m["w"]), local[i][0], rtol=1e-5, atol=1e-6)
                np.testing.assert_allclose(s.run(m["b"]), local[i][1], rtol=1e-5)
            gw, gb = sessions[1].run(models[1]["globals"])
            np.testing.assert_allclose(gw, average[0], rtol=1e-5, atol=1e-6)
            np.testing.assert_allclose(gb, average[1], rtol=1e-5)
            run(1)                                       # worker 1 catches up
        assert sessions[0].run(models[0]["gs"]) == 2
    finally:
        for s in sessions:
            s.close()


def test_model_average_optimizer_tf_test_numbers_and_errors(fresh):
    """TF 1.15's test1Workers2Period: two workers, interval 2, gradients -1 and -2."""
    def worker(i):
        g = tf.Graph()
        with g.as_default():
            ma = ModelAverageCustomGetter(worker_device=f"/job:worker/task:{i}")
            with tf.variable_scope("", custom_getter=ma), tf.device(_setter(fresh, i)):
                gs = tf.Variable(0, name="global_step", trainable=False)
                v0 = tf.get_variable(initializer=0.0, name="v0")
                v1 = tf.get_variable(initializer=1.0, name="v1")
            with tf.device(f"/job:worker/task:{i}"):
                grad = tf.constant(-1.0 - i)
                opt = ModelAverageOptimizer(tf.train.GradientDescentOptimizer(1.0), 2,
                                            is_chief=(i == 0), ma_custom_getter=ma,
                                            interval_steps=2)
                train = opt.apply_gradients([(grad, v0), (grad, v1)], gs)
                with pytest.raises(ValueError, match="Global step is required"):
                    opt.apply_gradients([(grad, v0)])
                with pytest.raises(ValueError, match="at least one variable"):
                    opt.apply_gradients([], gs)
            hook = opt.make_session_run_hook()
        center = g.get_tensor_by_name("global_center_variable/v0:0")
        return dict(graph=g, train=train, hook=hook, fetch=[v0, v1, center, gs])
    models = [worker(i) for i in range(2)]
    sessions = [_monitored(fresh, i, m["graph"], [m["hook"]]) for i, m in enumerate(models)]
    try:
        sessions[0].run(models[0]["train"])
        sessions[1].run(models[1]["train"])
        assert sessions[0].run(models[0]["fetch"]) == [1.0, 2.0, 0.0, 0]
        _in_parallel(*[lambda s=s, m=m: s.run(m["train"]) for s, m in zip(sessions, models)])
        assert sessions[0].run(models[0]["fetch"]) == [3.0, 4.0, 3.0, 1]
        assert sessions[1].run(models[1]["fetch"])[:2] == [3.0, 4.0]
        sessions[0].run(models[0]["train"])
        assert sessions[0].run(models[0]["fetch"]) == [4.0, 5.0, 3.0, 1]
    finally:
        for s in sessions:
            s.close()


# -- AGNOptimizer -----------------------------------------------------------------------------

def test_agn_optimizer_tf_test_numbers_with_adam():
    """TF 1.15's test1Workers2Period: one worker, Adam(0.1, beta1=0, beta2=0), period 4: the
    local copies climb by 0.1 a step; every 4th step the global copy takes one Adam step
    along the mean gradient and the local copies restart from it. Adam's beta powers and
    the local copies' slots are LOCAL variables."""
    getter = AGNCustomGetter(worker_device="")
    with tf.variable_scope("", custom_getter=getter):
        gs = tf.train.get_or_create_global_step()
        v0 = tf.get_variable(initializer=0.0, name="v0")
        v1 = tf.get_variable(initializer=0.5, name="v1")
    opt = AGNOptimizer(tf.train.AdamOptimizer(0.1, beta1=0.0, beta2=0.0), num_worker=1,
                       custom_getter=getter, communication_period=4)
    train = opt.apply_gradients([(tf.constant(-1.0), v0), (tf.constant(-1.0), v1)], gs)
    for v in tf.global_variables():
        assert "beta" not in v.op.name
        assert "Adam" not in v.op.name or v.op.name.startswith("global_center_variable/")
    assert [v.op.name for v in tf.local_variables()][:5] == [
        "v0", "grad_variable/v0", "v1", "grad_variable/v1", "local_step"]
    g = tf.get_default_graph()
    c0, c1 = (g.get_tensor_by_name(f"global_center_variable/{n}:0") for n in ("v0", "v1"))
    got = []
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        for _ in range(8):
            sess.run(train)
            got.append(sess.run([v0, v1, c0, c1, gs]))
    expected = [[0.1, 0.6, 0.0, 0.5, 0], [0.2, 0.7, 0.0, 0.5, 0], [0.3, 0.8, 0.0, 0.5, 0],
                [0.1, 0.6, 0.1, 0.6, 1], [0.2, 0.7, 0.1, 0.6, 1], [0.3, 0.8, 0.1, 0.6, 1],
                [0.4, 0.9, 0.1, 0.6, 1], [0.2, 0.7, 0.2, 0.7, 2]]
    np.testing.assert_allclose(np.array(got, np.float64), expected, atol=1e-6)


def test_agn_optimizer_on_a_cluster(fresh):
    period, lr = 2, 0.25

    def worker(i):
        g = tf.Graph()
        with g.as_default():
            getter = AGNCustomGetter(worker_device=f"/job:worker/task:{i}")
            with tf.device(_setter(fresh, i)), tf.variable_scope("", custom_getter=getter):
                gs = tf.train.get_or_create_global_step()
                w = tf.get_variable("w", initializer=tf.zeros([64]))
            with tf.device(f"/job:worker/task:{i}"):
                loss = 0.5 * tf.reduce_sum(tf.square(w - TARGETS[i]))
                opt = AGNOptimizer(tf.train.GradientDescentOptimizer(lr), num_worker=2,
                                   custom_getter=getter, communication_period=period)
                train = opt.minimize(loss, global_step=gs)
                hook = opt.make_session_run_hook(is_chief=(i == 0), task_index=i)
        devices = {op.name: op.device for op in g.get_operations() if op.type == "VariableV2"}
        assert devices == {"global_step": "/job:ps/task:0",
                           "w": f"/job:worker/task:{i}",
                           "global_center_variable/w": "/job:ps/task:1",
                           "grad_variable/w": f"/job:worker/task:{i}",
                           "local_step": f"/job:worker/task:{i}"}
        center = g.get_tensor_by_name("global_center_variable/w:0")
        return dict(graph=g, train=train, hook=hook, w=w, center=center, gs=gs)
    models = [worker(i) for i in range(2)]
    local = [np.zeros(64, np.float32) for _ in range(2)]
    sums = [np.zeros(64, np.float32) for _ in range(2)]
    center, steps = np.zeros(64, np.float32), [0, 0]
    sessions = [_monitored(fresh, i, m["graph"], [m["hook"]]) for i, m in enumerate(models)]
    try:
        for i in [0, 1, 1, 0, 0, 1, 0]:
            sessions[i].run(models[i]["train"])
            grad = local[i] - TARGETS[i]
            local[i], sums[i] = local[i] - lr * grad, sums[i] + grad
            steps[i] += 1
            if steps[i] % period == 0:
                center = center - lr * sums[i] / period
                local[i], sums[i] = center.copy(), np.zeros(64, np.float32)
        for i in range(2):
            np.testing.assert_allclose(sessions[i].run(models[i]["w"]), local[i], rtol=1e-5,
                                       atol=1e-6)
        np.testing.assert_allclose(sessions[0].run(models[0]["center"]), center, rtol=1e-5,
                                   atol=1e-6)
        assert sessions[1].run(models[1]["gs"]) == 3
    finally:
        for s in sessions:
            s.close()


def test_public_names():
    for name in ("DropStaleGradientOptimizer", "ElasticAverageOptimizer",
                 "ElasticAverageCustomGetter", "ModelAverageOptimizer",
                 "ModelAverageCustomGetter", "AGNOptimizer", "AGNCustomGetter"):
        assert getattr(tf.contrib.opt, name).__name__ == name
