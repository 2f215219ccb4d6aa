"""tf.train.noisy_linear_cosine_decay, match_filenames_once and summary_iterator, checked
against TensorFlow 2.15.1's tf.compat.v1.train (expected numbers printed by TF, hard-coded)."""
import os

import numpy as np
import pytest

import sandbox as tf


# -- noisy_linear_cosine_decay ------------------------------------------------------------

def test_noisy_linear_cosine_decay_without_noise_matches_tf():
    # initial_variance=0 makes the noise 0 * N(0, 1): the deterministic part of the formula.
    # TF: noisy_linear_cosine_decay(0.5, g, 40, initial_variance=0.0, num_periods=1.5,
    #     alpha=0.1, beta=0.01, name="nl") at steps 0, 5, 13, 40, 60
    g = tf.placeholder(tf.int64, [])
    lr = tf.train.noisy_linear_cosine_decay(0.5, g, 40, initial_variance=0.0, num_periods=1.5,
                                            alpha=0.1, beta=0.01, name="nl")
    assert lr.name == "nl:0" and lr.dtype == tf.float32
    tf_values = [0.5550000071525574, 0.34202906489372253, 0.005597259849309921,
                 0.004999999888241291, 0.004999999888241291]
    with tf.Session() as sess:
        got = [sess.run(lr, {g: step}) for step in (0, 5, 13, 40, 60)]
    np.testing.assert_allclose(got, tf_values, rtol=1e-6)


def test_noisy_linear_cosine_decay_with_graph_seed_matches_tf():
    # TF: tf.set_random_seed(7); noisy_linear_cosine_decay(0.1, g, 100) at steps
    # 0, 10, 50, 100, 150 (the noise is a random_normal without op seed, as in TF).
    tf.set_random_seed(7)
    g = tf.placeholder(tf.int64, [])
    lr = tf.train.noisy_linear_cosine_decay(0.1, g, 100)
    assert lr.name == "NoisyLinearCosineDecay:0"
    tf_values = [0.13546912372112274, 0.05815102532505989, 0.00395117187872529,
                 0.00010000000474974513, 0.00010000000474974513]
    with tf.Session() as sess:
        got = [sess.run(lr, {g: step}) for step in (0, 10, 50, 100, 150)]
    np.testing.assert_allclose(got, tf_values, rtol=1e-6)


def test_noisy_linear_cosine_decay_noise_statistics():
    # At step 0: lr * ((0 + 1 + eps) * 1 + beta) with eps ~ N(0, initial_variance).
    g = tf.placeholder(tf.int64, [])
    lr = tf.train.noisy_linear_cosine_decay(1.0, g, 1000, initial_variance=0.25)
    with tf.Session() as sess:
        xs = np.array([sess.run(lr, {g: 0}) for _ in range(2000)])
        late = np.array([sess.run(lr, {g: 999}) for _ in range(200)])
    assert np.ndim(xs[0]) == 0
    assert abs(xs.mean() - 1.001) < 0.05 and abs(xs.std() - 0.5) < 0.05
    # variance shrinks as 1 / (1 + step) ** 0.55, and the cosine is ~0 near decay_steps
    assert late.std() < 1e-4 and abs(late.mean() - 0.001) < 1e-4


def test_noisy_linear_cosine_decay_errors_like_tf():
    g = tf.placeholder(tf.int64, [])
    with pytest.raises(ValueError):
        tf.train.noisy_linear_cosine_decay(0.1, None, 100)
    with pytest.raises(ValueError):      # TF's noise is float32: a float64 rate fails too
        tf.train.noisy_linear_cosine_decay(tf.constant(0.1, tf.float64), g, 100)


# -- match_filenames_once ---------------------------------------------------------------------

def test_match_filenames_once(tmp_path):
    for name in ("b.txt", "a.txt", "c.txt", "x.csv"):
        (tmp_path / name).write_text("")
    d = str(tmp_path)
    v = tf.train.match_filenames_once(os.path.join(d, "*.txt"))
    v2 = tf.train.match_filenames_once([os.path.join(d, "c*"), os.path.join(d, "a*")],
                                       name="two")
    # as TF: names, a string local variable of unknown shape, not global
    assert v.name == "matching_filenames:0" and v2.name == "two:0"
    assert v.initial_value.name == "matching_filenames/MatchingFiles:0"
    assert v.dtype.base_dtype == tf.string
    assert v.get_shape().ndims is None
    assert v in tf.local_variables() and v2 in tf.local_variables()
    assert tf.global_variables() == [] and tf.trainable_variables() == []
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        got, got2 = sess.run([v, v2])
    # TF: sorted; several patterns -> the matches of each, sorted together
    assert [os.path.basename(f.decode()) for f in got] == ["a.txt", "b.txt", "c.txt"]
    assert [os.path.basename(f.decode()) for f in got2] == ["a.txt", "c.txt"]


# -- summary_iterator ---------------------------------------------------------------------

def test_summary_iterator_reads_back_file_writer_scalars(tmp_path):
    pytest.importorskip("tensorboardX")
    x = tf.placeholder(tf.float32, [])
    summ = tf.summary.scalar("loss", x)
    logdir = str(tmp_path)
    writer = tf.summary.FileWriter(logdir)
    with tf.Session() as sess:
        for step in range(3):
            writer.add_summary(sess.run(summ, {x: 1.5 * step}), global_step=step)
    writer.close()
    files = [f for f in os.listdir(logdir) if "tfevents" in f]
    assert len(files) == 1
    it = tf.train.summary_iterator(os.path.join(logdir, files[0]))
    assert iter(it) is it
    events = list(it)
    assert events[0].file_version == "brain.Event:2"
    scalars = [(e.step, v.tag, v.simple_value) for e in events[1:] for v in e.summary.value]
    assert scalars == [(0, "loss", 0.0), (1, "loss", 1.5), (2, "loss", 3.0)]
    assert all(e.wall_time > 0 for e in events)
    with pytest.raises(StopIteration):
        next(it)
