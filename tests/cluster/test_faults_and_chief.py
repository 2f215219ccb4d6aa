"""Async training survives a killed worker; a separate `chief` job (TF_CONFIG style) can be the
chief of a MonitoredTrainingSession."""
import threading
import time

import numpy as np

import sandbox as tf
from sandbox.cluster import LocalCluster


def _model(cluster_spec, worker_device):
    g = tf.Graph()
    with g.as_default(), tf.device(tf.train.replica_device_setter(
            worker_device=worker_device, cluster=cluster_spec)):
        gs = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 4])
        w = tf.Variable(tf.zeros([4, 1]))
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - 1.0))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
        init = tf.global_variables_initializer()
    return g, x, gs, train, init


def test_async_training_goes_on_when_a_worker_is_killed():
    data = np.ones((8, 4), np.float32)
    with LocalCluster({"ps": 1, "worker": 2}) as c:
        models = [_model(c.cluster_spec, f"/job:worker/task:{i}") for i in range(2)]
        with tf.Session(c.target("worker", 0), graph=models[0][0]) as s:
            s.run(models[0][4])
        stop = threading.Event()
        steps, failures = [0, 0], []

        def loop(i):
            g, x, gs, train, _ = models[i]
            with tf.Session(c.target("worker", i), graph=g) as sess:
                while not stop.is_set():
                    try:
                        sess.run(train, {x: data})
                        steps[i] += 1
                    except tf.errors.OpError as e:
                        failures.append((i, e))
                        return
        threads = [threading.Thread(target=loop, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        time.sleep(0.5)
        c.kill("worker", 1)
        time.sleep(0.3)
        before = steps[0]
        time.sleep(1.0)
        after = steps[0]
        stop.set()
        for t in threads:
            t.join(10)
        assert after > before                         # worker 0 kept training
        assert all(i == 1 for i, _ in failures)       # only the dead worker's loop failed
        assert failures and "/job:worker/replica:0/task:1" in str(failures[0][1])
        # A new session would wait for the dead worker (as in TF) unless device_filters
        # says which tasks it needs.
        config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:0"])
        with tf.Session(c.target("worker", 0), graph=models[0][0], config=config) as s:
            # no update lost; the killed worker's last step may have reached the ps after
            # the kill cut off its reply (an update applied but never reported)
            assert steps[0] + steps[1] <= s.run(models[0][2]) <= steps[0] + steps[1] + 1


def test_a_separate_chief_job_initializes_and_workers_follow():
    with LocalCluster({"chief": 1, "ps": 1, "worker": 1}) as c:
        assert c.cluster_spec.jobs == ["chief", "ps", "worker"]
        results = {}

        def run(job, is_chief):
            g, x, gs, train, _ = _model(c.cluster_spec, f"/job:{job}/task:0")
            with g.as_default():
                hooks = [tf.train.StopAtStepHook(last_step=20)]
                with tf.train.MonitoredTrainingSession(
                        master=c.target(job, 0), is_chief=is_chief, hooks=hooks,
                        save_checkpoint_secs=None, save_summaries_steps=None,
                        log_step_count_steps=None) as sess:
                    n = 0
                    while not sess.should_stop():
                        sess.run(train, {x: np.ones((8, 4), np.float32)})
                        n += 1
            results[job] = n
        threads = [threading.Thread(target=run, args=("worker", False)),
                   threading.Thread(target=run, args=("chief", True))]
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
        assert results["chief"] > 0 and results["worker"] > 0
        assert results["chief"] + results["worker"] >= 20
