"""Lesson 4's claims, measured on a real cluster: a variable on the ps is one value for every
session of every program that names it on that device; a constant never changes; and
Session.reset clears the named containers on every task -- the job-named default one too --
and closes the master's sessions."""
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster


@pytest.fixture
def cluster():
    with LocalCluster({"ps": 1, "worker": 2}) as started:
        yield started


def test_a_second_program_shares_the_variable_without_initializing_it(cluster):
    with tf.device("/job:ps/task:0"):
        shared = tf.Variable(3.0, name="shared")
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(shared.initializer)
        sess.run(shared.assign(13.0))
    with tf.Graph().as_default():
        with tf.device("/job:ps/task:0"):
            same = tf.Variable(0.0, name="shared")
            other = tf.Variable(0.0, name="other")           # another name: another variable
        with tf.Session(cluster.target("worker", 1)) as sess:
            assert sess.run(same) == 13.0
            assert sess.run(same.assign_add(1.0)) == 14.0
            assert [n.decode() for n in sess.run(tf.report_uninitialized_variables())] == \
                ["other"]
    with tf.Session(cluster.target("ps", 0)) as sess:
        assert sess.run(shared) == 14.0


def test_a_constant_is_not_state(cluster):
    with tf.device("/job:ps/task:0"):
        c = tf.constant(3.0, name="c")
    assert not hasattr(c, "assign")
    c13 = tf.constant(13.0, name="c")
    assert c13.op.name == "c_1"
    with tf.Session(cluster.target("worker", 1)) as sess:
        assert sess.run(c) == 3.0


def test_reset_clears_the_named_containers_and_closes_the_sessions(cluster):
    with tf.device("/job:ps/task:0"):
        kept = tf.Variable(1.0, name="kept")
        with tf.container("experiment"):
            scratch = tf.Variable(2.0, name="scratch")
    uninitialized = tf.report_uninitialized_variables()
    target = cluster.target("worker", 0)
    old = tf.Session(target)
    old.run(tf.global_variables_initializer())
    tf.Session.reset(target, containers=["experiment"])
    with pytest.raises(tf.errors.AbortedError):
        old.run(kept)
    with tf.Session(target) as sess:
        assert [n.decode() for n in sess.run(uninitialized)] == ["scratch"]
        assert sess.run(kept) == 1.0
    tf.Session.reset(target, containers=["ps"])           # the ps task's default container
    with tf.Session(target) as sess:
        assert sorted(n.decode() for n in sess.run(uninitialized)) == ["kept", "scratch"]


def test_a_reset_without_containers_clears_only_the_default_container():
    """TF's Worker::CleanupAll clears the default container when no name is given (checked on
    TensorFlow 2.15.1: a variable in tf.container('experiment') survives)."""
    import sandbox as tf
    from sandbox.cluster import LocalCluster
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        graph = tf.Graph()
        with graph.as_default():
            with tf.device("/job:ps/task:0"):
                tf.Variable(1.0, name="kept")
                with tf.container("experiment"):
                    tf.Variable(2.0, name="scratch")
            init = tf.global_variables_initializer()
            uninitialized = tf.report_uninitialized_variables()
        target = cluster.target("worker", 0)
        with tf.Session(target, graph=graph) as sess:
            sess.run(init)
        tf.Session.reset(target)
        with tf.Session(target, graph=graph) as sess:
            assert list(sess.run(uninitialized)) == [b"kept"]
