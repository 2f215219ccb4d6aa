"""What each worker process of an Experiment runs: seed 002's worker, next to its own server.

`train_worker` is started by `LocalCluster.run_in_task` inside worker task i's process (see
cluster/task_run.py), so that, as in the seed, the loop's Session talks to the master of its
own process and the batches it feeds stay in that process. It builds the seed's graph with
replica_device_setter, then loops:

  async  a plain Session: the chief (worker 0) initializes, the others wait until the
         variables are initialized, then every worker runs train_op on its own batches;
  sync   SyncReplicasOptimizer and a MonitoredTrainingSession with its hook and a
         StopAtStepHook, as TF's examples write it.

Every step makes a record; they go back to the launcher (`report`) in small batches, about
20 a second, so that reporting costs the loop next to nothing; the function returns the
worker's final test accuracy.

With config["recover"] (the dashboard's runs), a loop rides out a ps that died or restarted,
as a MonitoredTrainingSession does: a step that fails because a task is gone is not the end
of the run; the loop waits until the cluster answers again, opens a new Session (the old
one's graph pieces were registered on the dead process), and the chief initializes the
variables again if the ps lost them. Its sessions then also name the tasks they need
(`device_filters`: the ps tasks and itself), so that a dead *worker* does not keep the others
from opening a new Session -- by default a TF session waits for every task of its cluster.
"""
import time

import numpy as np

__all__ = ["train_worker", "DATA_FILES"]

DATA_FILES = ("train_images", "train_labels", "test_images", "test_labels")


def train_worker(server, report, should_stop, config):
    """Runs worker `server`'s part of the experiment described by `config` (a dict of plain
    values, see Experiment._config); returns its final test accuracy."""
    import logging
    import sandbox as tf
    for name, level in config.get("log_levels", {}).items():
        logging.getLogger(name).setLevel(level)
    index = server.task_index
    target = server.target                        # the master of this very process
    data = {name: np.load(path, mmap_mode="r") for name, path in config["data"].items()}
    model = _build(tf, config, index, server.cluster_spec)
    model["session_config"] = _session_config(tf, config, index)
    train = _shuffled_training_set(data, config, index)
    test_feed = {model["x"]: data["test_images"], model["y_"]: data["test_labels"]}
    n = config.get("eval_examples")
    eval_feed = test_feed if not n else {model["x"]: data["test_images"][:n],
                                         model["y_"]: data["test_labels"][:n]}
    loop = _async_loop if config["mode"] == "async" else _sync_loop
    records = _Batches(report)
    try:
        loop(tf, target, model, train, eval_feed, index, config, records.add, should_stop)
    finally:
        records.flush()
    with tf.Session(target, graph=model["graph"], config=model["session_config"]) as sess:
        return float(sess.run(model["accuracy"], test_feed))


def _session_config(tf, config, index):
    """Recovering loops name the tasks their sessions need (see the module docstring)."""
    if not config.get("recover"):
        return None
    return tf.ConfigProto(device_filters=["/job:ps", f"/job:worker/task:{index}"])


class _Batches:
    """Collects records and reports them as a list at most every `period` seconds."""

    def __init__(self, report, period=0.05):
        self._report = report
        self._period = period
        self._pending = []
        self._last = time.monotonic()

    def add(self, record):
        self._pending.append(record)
        if time.monotonic() - self._last >= self._period:
            self.flush()

    def flush(self):
        if self._pending:
            self._report(self._pending)
            self._pending = []
        self._last = time.monotonic()


def _build(tf, config, index, cluster):
    from ..train.device_setter import replica_device_setter
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(replica_device_setter(worker_device=f"/job:worker/task:{index}",
                                             cluster=cluster)):
            global_step = tf.train.get_or_create_global_step()
            x = tf.placeholder(tf.float32, shape=[None, 784], name="x-input")
            y_ = tf.placeholder(tf.float32, shape=[None, 10], name="y-input")
            tf.set_random_seed(config["seed"])
            w1 = tf.Variable(tf.random_normal([784, 100]), name="w1")
            w2 = tf.Variable(tf.random_normal([100, 10]), name="w2")
            b1 = tf.Variable(tf.zeros([100]), name="b1")
            b2 = tf.Variable(tf.zeros([10]), name="b2")
            a2 = tf.nn.sigmoid(tf.add(tf.matmul(x, w1), b1))
            y = tf.nn.softmax(tf.add(tf.matmul(a2, w2), b2))
            loss = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
            opt = tf.train.GradientDescentOptimizer(config["learning_rate"])
            sync = None
            if config["mode"] == "sync":
                sync = opt = tf.train.SyncReplicasOptimizer(
                    opt, replicas_to_aggregate=config["replicas_to_aggregate"],
                    total_num_replicas=config["workers"])
            train_op = opt.minimize(loss, global_step=global_step)
            correct = tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1))
            accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
            init_op = tf.global_variables_initializer()
    # What a record calls its global step: the step this run's update reached -- the train
    # op's output (async: global_step after its assign_add; sync: the token the worker got,
    # the step after its round). Fetching global_step itself would give, as on TensorFlow,
    # the step from before this run's update (runtime/executor.py's docstring).
    return dict(graph=graph, x=x, y_=y_, loss=loss, train_op=train_op, accuracy=accuracy,
                global_step=global_step, init_op=init_op, sync=sync,
                step_reached=train_op if isinstance(train_op, tf.Tensor) else train_op.outputs[0])


def _shuffled_training_set(data, config, index):
    """Each worker shuffles its own copy of the training set (its own seed), as each process
    of seed 002 does."""
    from ..datasets.mnist import DataSet
    from ..framework import dtypes
    # dtype=uint8 means "keep the values as they are" (they are already in [0, 1])
    return DataSet(data["train_images"], data["train_labels"], dtype=dtypes.uint8,
                   reshape=False, seed=config["seed"] * 1000 + index)


def _record(report, config, worker, global_step, step, loss, accuracy, dropped):
    report({"worker": worker, "global_step": int(global_step), "step": step,
            "time": time.time() - config["started"], "loss": float(loss),
            "test_accuracy": accuracy, "stale_dropped": dropped})


def _async_loop(tf, target, m, train, test_feed, index, config, report, should_stop):
    is_chief = index == 0
    total_steps = config["epochs"] * config["steps_per_epoch"]
    with m["graph"].as_default():
        m["uninitialized"] = tf.report_uninitialized_variables()
    sess = tf.Session(target, graph=m["graph"], config=m["session_config"])
    try:
        _wait_for_init(sess, m, is_chief, should_stop)
        step = config.get("start_step", 0)
        while step < total_steps and not should_stop():
            bx, by = train.next_batch(config["batch_size"])
            try:
                gstep, loss = sess.run([m["step_reached"], m["loss"]],
                                       {m["x"]: bx, m["y_"]: by})
                step += 1
                accuracy = None
                if is_chief and (step % config["eval_every"] == 0 or step == total_steps):
                    accuracy = float(sess.run(m["accuracy"], test_feed))
            except _gone(tf) as e:
                if not config.get("recover"):
                    raise
                sess = _recover(tf, sess, target, m, is_chief, e, should_stop)
                continue
            _record(report, config, index, gstep, step, loss, accuracy, None)
    finally:
        sess.close()


def _gone(tf):
    """The errors of a step whose task died or restarted."""
    e = tf.errors
    return (e.UnavailableError, e.AbortedError, e.FailedPreconditionError,
            e.DeadlineExceededError)


def _recover(tf, sess, target, m, is_chief, error, should_stop):
    """After a task died or restarted: waits until every task this worker needs answers,
    opens a new Session, and (the chief) initializes whatever the ps lost."""
    import logging
    logging.getLogger("sandbox").info("Worker lost a task (%s: %s); waiting for it to come "
                                      "back.", type(error).__name__, error.message)
    sess.close()
    probe_config = tf.ConfigProto(operation_timeout_in_ms=1000,
                                  device_filters=list(m["session_config"].device_filters))
    while not should_stop():
        try:
            with tf.Session(target, graph=m["graph"], config=probe_config) as probe:
                probe.run(m["uninitialized"])
            break
        except _gone(tf):
            time.sleep(0.2)
    sess = tf.Session(target, graph=m["graph"], config=m["session_config"])
    if not should_stop():
        _wait_for_init(sess, m, is_chief, should_stop)
    return sess


def _wait_for_init(sess, m, is_chief, should_stop):
    """The chief initializes the variables if they are not (a fresh cluster, or a ps that
    restarted empty); the other workers wait until they are -- as TF's SessionManager
    does."""
    if is_chief:
        if len(sess.run(m["uninitialized"])):
            sess.run(m["init_op"])
        return
    while len(sess.run(m["uninitialized"])) and not should_stop():
        time.sleep(0.1)


def _sync_loop(tf, target, m, train, test_feed, index, config, report, should_stop):
    is_chief = index == 0
    total_steps = config["epochs"] * config["steps_per_epoch"]
    with m["graph"].as_default():
        hooks = [m["sync"].make_session_run_hook(is_chief),
                 tf.train.StopAtStepHook(last_step=total_steps)]
        dropped_op = m["sync"].stale_gradients_dropped()
        step = config.get("start_step", 0)
        with tf.train.MonitoredTrainingSession(
                master=target, is_chief=is_chief, hooks=hooks, save_checkpoint_secs=None,
                save_summaries_steps=None, log_step_count_steps=None,
                config=m["session_config"]) as sess:
            while not sess.should_stop() and not should_stop():
                bx, by = train.next_batch(config["batch_size"])
                gstep, loss, dropped = sess.run(
                    [m["step_reached"], m["loss"], dropped_op], {m["x"]: bx, m["y_"]: by})
                step += 1
                accuracy = None
                if is_chief and step % config["eval_every"] == 0:
                    accuracy = _evaluate(sess, m["accuracy"], test_feed)
                _record(report, config, index, gstep, step, loss, accuracy, int(dropped))


def _evaluate(sess, accuracy, test_feed):
    """Test accuracy on a MonitoredSession, through its raw session: the step just run may be
    the one at which StopAtStepHook asked to stop, and a MonitoredSession refuses any run
    after that ("Run called even after should_stop requested."), as TF's does."""
    def step_fn(step_context):
        return float(step_context.session.run(accuracy, test_feed))
    return sess.run_step_fn(step_fn)
