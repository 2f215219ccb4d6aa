"""When is a fetched variable read? TensorFlow's answers, measured on TensorFlow 1.15.5
(`sess.run([train_op, global_step])` six times, `minimize(loss, global_step=global_step)`):

  1 ps + 1 worker, variables on the ps (replica_device_setter), session on the worker  0..5
  1 ps + 1 worker, everything on the worker, session on the worker                   1..6
  1 ps + 1 worker, variables on the ps, session on the ps                            1..6
  1 ps + 1 worker, everything on the ps, session on the worker                       1..6 (*)
  a local Session                                                                    1..6

(*) TF races there; 1..6 is what it gave in most runs. A variable's value that leaves its task
is copied when it goes on the wire: the ps must wait for the worker's gradients before it adds
one to the step, and by then the step's value has gone -- the value from before the update.
A fetch that stays in the master's task (or a local Session) shares the variable's buffer
until the run ends, so it shows the update. runtime/executor.py's docstring says how the
sandbox does the same; these tests pin TF's numbers on real clusters.
"""
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        yield c


def train_graph(device):
    g = tf.Graph()
    with g.as_default(), tf.device(device):
        global_step = tf.train.get_or_create_global_step()
        w = tf.Variable(1.0, name="w")
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(w - 3.0),
                                                                   global_step=global_step)
        init = tf.global_variables_initializer()
    return g, global_step, train_op, init


def six_runs(target, device):
    g, global_step, train_op, init = train_graph(device)
    with tf.Session(target, graph=g) as sess:
        sess.run(init)
        returned = [int(sess.run([train_op, global_step])[1]) for _ in range(6)]
        return returned, int(sess.run(global_step))


def test_a_ps_global_step_fetched_with_the_train_op_is_the_step_before_the_update(cluster):
    returned, after = six_runs(cluster.target("worker", 0),
                               tf.train.replica_device_setter(ps_tasks=1))
    assert returned == [0, 1, 2, 3, 4, 5]
    assert after == 6


@pytest.mark.parametrize("device, session_on", [
    ("/job:worker/task:0", "worker"),               # everything in the master's task
    ("rds", "ps"),                                  # the variables in the master's task
    ("/job:ps/task:0", "worker"),                   # nothing makes the ps wait (TF races)
])
def test_where_tf_shows_the_update_the_sandbox_does_too(cluster, device, session_on):
    if device == "rds":
        device = tf.train.replica_device_setter(ps_tasks=1)
    returned, after = six_runs(cluster.target(session_on, 0), device)
    assert returned == [1, 2, 3, 4, 5, 6]
    assert after == 6


def test_a_local_session_shows_the_update():
    returned, after = six_runs("", None)
    assert returned == [1, 2, 3, 4, 5, 6]
    assert after == 6


def test_a_variable_sent_to_a_worker_is_its_value_before_the_update(cluster):
    """The same rule for a _Send: the worker reads w (to compute the loss) before the ps
    applies the gradient computed from it -- the loss fetched is the one of the old w."""
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            w = tf.Variable(1.0, name="w")
        with tf.device("/job:worker/task:0"):
            loss = tf.square(w - 3.0)
            w_seen = w * 1.0
        train_op = tf.train.GradientDescentOptimizer(0.25).minimize(loss)
        with tf.Session(cluster.target("worker", 0)) as sess:
            sess.run(w.initializer)
            seen = [float(sess.run([train_op, w_seen])[1]) for _ in range(3)]
            final = float(sess.run(w))
    assert seen == [1.0, 2.0, 2.5]              # w += 0.25 * 2 * (3 - w) after each read
    assert final == 2.75


def test_a_published_loop_that_compares_the_returned_step(cluster):
    """mnist_replica.py's loop (TF's distributed example): run, read the step returned, stop
    once it reaches the number of steps -- with a MonitoredTrainingSession whose
    StopAtStepHook stops at the same step. With TF's order the loop's last run is the one that
    takes the global step to last_step, before the hook asks to stop; reading the step after
    the update would stop the loop one run early and leave should_stop() False."""
    last_step = 6
    g = tf.Graph()
    with g.as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
            global_step = tf.train.get_or_create_global_step()
            w = tf.Variable(1.0, name="w")
            train_op = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(w - 3.0),
                                                                       global_step=global_step)
        hooks = [tf.train.StopAtStepHook(last_step=last_step)]
        returned = []
        with tf.train.MonitoredTrainingSession(master=cluster.target("worker", 0),
                                               is_chief=True, hooks=hooks) as sess:
            while True:
                _, step = sess.run([train_op, global_step])
                returned.append(int(step))
                if step + 1 >= last_step:      # the step this run made
                    break
            assert sess.should_stop()
    assert returned == [0, 1, 2, 3, 4, 5]
