"""Tests for the tf.nn, tf.losses, tf.random and top-level functions added from TF 1.15:
conv_transpose and atrous_conv2d_transpose (sandbox/ops/convolution_ops.py), raw_rnn and
static_state_saving_rnn (sandbox/ops/rnn.py), the fixed and learned unigram candidate
samplers (sandbox/ops/candidate_sampling_ops.py), mean_pairwise_squared_error
(sandbox/losses/losses_impl.py), matrix_square_root (linalg_ops.py), sparse_matmul
(matmul_ops.py), extract_volume_patches (space_ops.py) and batch_scatter_update
(state_ops.py). The expected numbers are TF 2.15.1's (tf.compat.v1 graphs)."""
import numpy as np
import pytest

import sandbox as tf
from tests.gradcheck import check_gradients


def arr(*shape):
    """The deterministic test data the TF runs used."""
    n = int(np.prod(shape))
    return ((0.37 * np.arange(n)) % 1.1 - 0.5).reshape(shape).astype(np.float32)


def weights_like(t):
    """cos(0), cos(1) ... shaped like t: sum(t * weights_like(t)) checks every element."""
    shape = t.shape.as_list()
    return tf.constant(np.cos(np.arange(int(np.prod(shape)))).reshape(shape).astype(np.float32))


def checksum(t):
    return tf.reduce_sum(t * weights_like(t))


def run(fetches, feed=None, init=False):
    with tf.Session() as sess:
        if init:
            sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_conv_transpose_dispatch_and_atrous_conv2d_transpose_match_tf():
    y1 = tf.nn.conv_transpose(arr(1, 4, 2), arr(3, 3, 2), [1, 8, 3], 2)
    y2 = tf.nn.conv_transpose(arr(1, 3, 3, 2), arr(2, 2, 1, 2), [1, 6, 6, 1], [2, 2],
                              padding="VALID")
    y3 = tf.nn.conv_transpose(arr(1, 2, 2, 2, 1), arr(2, 2, 2, 1, 1), [1, 4, 4, 4, 1], 2)
    xa, fa = tf.constant(arr(1, 5, 5, 2)), tf.constant(arr(3, 3, 1, 2))
    ya = tf.nn.atrous_conv2d_transpose(xa, fa, [1, 5, 5, 1], rate=2, padding="SAME")
    yv = tf.nn.atrous_conv2d_transpose(xa, fa, [1, 9, 9, 1], rate=2, padding="VALID")
    ga = tf.gradients(checksum(ya), [xa, fa])
    got = run([y1, ya] + [checksum(t) for t in (y1, y2, y3, ya, yv)] +
              [checksum(g) for g in ga])
    # TF 2.15.1's
    np.testing.assert_allclose(got[0], [[
        [0.2669, -0.0563, 0.0275], [0.2543, -0.0689, 0.0149], [0.1854, 0.2162, -0.149],
        [-0.0613, 0.2927, -0.1563], [-0.0388, 0.1364, -0.0844], [0.0301, -0.1487, 0.0795],
        [0.287, -0.2074, 0.1122], [0.2425, -0.0731, 0.0183]]], atol=6e-5)
    np.testing.assert_allclose(np.asarray(got[1])[0, :, :, 0], [
        [0.4604, 0.2622, -0.4496, 0.133, 0.2346], [-0.3546, 0.3932, 0.3184, -0.36, 0.1266],
        [0.1126, 0.0966, 0.0513, -0.0212, -0.0], [-0.3566, 0.3776, 0.306, -0.3756, 0.1194],
        [0.1574, -0.4174, 0.268, 0.2294, -0.3756]], atol=6e-5)
    np.testing.assert_allclose(got[2:], [0.332715, 0.279825, 0.125699, 0.326619, 1.941744,
                                         -0.546277, -0.681195], atol=1e-5)
    assert [t.shape.as_list() for t in (y1, y2, y3, ya, yv)] == \
        [[1, 8, 3], [1, 6, 6, 1], [1, 4, 4, 4, 1], [1, 5, 5, 1], [1, 9, 9, 1]]
    assert y1.name == "conv_transpose/Squeeze:0" and y2.name == "conv_transpose_1:0"
    assert y3.op.type == "Conv3DBackpropInputV2"
    with pytest.raises(ValueError, match="output_shape must be of length 3, 4 or 5"):
        tf.nn.conv_transpose(arr(1, 4, 2), arr(3, 3, 2), [8, 3], 2)
    with pytest.raises(ValueError, match="rate 0 cannot be less than one"):
        tf.nn.atrous_conv2d_transpose(xa, fa, [1, 5, 5, 1], rate=0, padding="SAME")


def test_raw_rnn_runs_a_while_loop_as_tf_and_static_state_saving_rnn_saves_state():
    max_time, batch, depth, units = 4, 3, 2, 5
    inputs = tf.constant(np.arange(max_time * batch * depth, dtype=np.float32)
                         .reshape(max_time, batch, depth) / 10. - 1.)
    sequence_length = tf.constant([4, 2, 3], tf.int32)
    inputs_ta = tf.TensorArray(dtype=tf.float32, size=max_time).unstack(inputs)
    cell = tf.nn.rnn_cell.BasicRNNCell(units)

    def loop_fn(time, cell_output, cell_state, loop_state):       # TF's docstring example
        if cell_output is None:
            next_state, next_loop_state = cell.zero_state(batch, tf.float32), tf.zeros([batch])
        else:
            next_state = cell_state
            next_loop_state = loop_state + tf.reduce_sum(cell_output, 1)
        finished = time >= sequence_length
        next_input = tf.cond(tf.reduce_all(finished), lambda: tf.zeros([batch, depth]),
                             lambda: inputs_ta.read(time))
        return finished, next_input, next_state, cell_output, next_loop_state

    emit_ta, final_state, final_loop_state = tf.nn.raw_rnn(cell, loop_fn)
    outputs = emit_ta.stack()
    grad = tf.gradients(tf.reduce_sum(outputs) + tf.reduce_sum(final_state), inputs)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for v in tf.global_variables():           # the values the TF run assigned
            n = int(np.prod(v.shape.as_list()))
            sess.run(v.assign((0.37 * np.arange(n) % 1.3 - 0.6).reshape(v.shape.as_list())))
        out, state, loop_state, g = sess.run([outputs, final_state, final_loop_state, grad])
    assert out.shape == (4, 3, 5) and outputs.shape.as_list() == [None, 3, 5]
    np.testing.assert_array_equal(out[2:, 1], 0)             # example 1 stopped at step 2
    cos = np.cos(np.arange(out.size)).reshape(out.shape)
    # TF 2.15.1's
    assert abs((out * cos).sum() - -3.0143021710159505) < 2e-5
    np.testing.assert_allclose(state, [
        [-0.940167, 0.062218, 0.841449, 0.845402, -0.879451],
        [-0.613956, -0.536411, 0.183702, 0.581305, -0.612162],
        [-0.902532, -0.016975, 0.734207, 0.808816, -0.840648]], atol=2e-6)
    np.testing.assert_allclose(loop_state, [-2.528652, -2.346962, -1.490758], atol=2e-6)
    assert abs((g * np.cos(np.arange(g.size)).reshape(g.shape)).sum() - 1.2020387220927151) \
        < 2e-5
    assert [v.name for v in tf.global_variables()] == ["rnn/basic_rnn_cell/kernel:0",
                                                      "rnn/basic_rnn_cell/bias:0"]

    class Saver:                                       # a minimal state saver
        def __init__(self):
            self.vars = {}

        def state(self, name):
            self.vars[name] = tf.Variable(np.full((2, 3), 0.1, np.float32), name=name)
            return tf.identity(self.vars[name])

        def save_state(self, name, value):
            return tf.assign(self.vars[name], value)

    with tf.Graph().as_default():
        lstm = tf.nn.rnn_cell.LSTMCell(3, state_is_tuple=True)
        xs = [tf.constant(((0.3 * np.arange(4) + t) % 1.0 - 0.5).reshape(2, 2)
                          .astype(np.float32)) for t in range(3)]
        outs, st = tf.nn.static_state_saving_rnn(lstm, xs, Saver(), ("c", "h"))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for v in tf.global_variables():
                if "lstm" in v.name:
                    n = int(np.prod(v.shape.as_list()))
                    sess.run(v.assign((0.37 * np.arange(n) % 1.3 - 0.6)
                                      .reshape(v.shape.as_list())))
            first = sess.run(outs[-1])
            second, second_state = sess.run([outs[-1], st])   # starts from the saved state
    # TF 2.15.1's
    np.testing.assert_allclose(first, [[0.175665, -0.067688, -0.057373],
                                       [0.243127, -0.168393, 0.0464]], atol=2e-6)
    np.testing.assert_allclose(second, [[0.249908, -0.110918, -0.093686],
                                        [0.336498, -0.2493, 0.010196]], atol=2e-6)
    np.testing.assert_allclose(second_state.c, [[0.588426, -0.186613, -0.201225],
                                                [0.682088, -0.399997, 0.022539]], atol=2e-6)
    with pytest.raises(ValueError, match="state_name should be the same type"):
        tf.nn.static_state_saving_rnn(tf.nn.rnn_cell.LSTMCell(3), xs, Saver(), "c")


def test_fixed_and_learned_unigram_candidate_samplers():
    tc = tf.constant([[1, 3], [0, 4]], tf.int64)
    fixed = tf.random.fixed_unigram_candidate_sampler(
        tc, 2, 3, True, 5, unigrams=[1., 2., 3., 4., 10.], distortion=0.5, seed=7)
    sharded = tf.nn.fixed_unigram_candidate_sampler(
        tf.constant([[1, 3], [0, 2]], tf.int64), 2, 4, False, 4,
        unigrams=[1., 2., 3., 4., 10., 6.], num_reserved_ids=2, num_shards=2, shard=0, seed=3)
    learned = tf.random.learned_unigram_candidate_sampler(tc, 2, 3, False, 6, seed=5)
    assert tf.nn.learned_unigram_candidate_sampler is tf.random.learned_unigram_candidate_sampler
    assert not hasattr(tf, "fixed_unigram_candidate_sampler")         # as TF 1.15
    assert [t.shape.as_list() for t in fixed] == [[3], [2, 2], [3]]
    assert [t.dtype for t in fixed] == [tf.int64, tf.float32, tf.float32]
    assert fixed[0].op.type == "FixedUnigramCandidateSampler"
    assert learned[0].name == "LearnedUnigramCandidateSampler:0"
    with tf.Session() as sess:
        f, s, l1, l2 = sess.run(fixed), sess.run(sharded), sess.run(learned), sess.run(learned)
    with tf.Session() as sess:                       # the same seed: the same draws
        assert sess.run(fixed)[0].tolist() == f[0].tolist()
        assert sess.run(learned)[0].tolist() == l1[0].tolist()
    # P(c) = sqrt(count) / sum: TF 2.15.1's true expected counts (unique draws of 3)
    np.testing.assert_allclose(f[1], [[0.4557793, 0.6445693], [0.3222846, 1.0191535]],
                               rtol=1e-6)
    assert len(set(f[0].tolist())) == 3
    # Sharded: the reserved ids of shard 0 get weight 0, and (as TF's range_sampler.cc) the
    # counts' ids start after them -- TF 2.15.1's expected counts: 4 draws * [0, 2, 4, 6] / 12
    np.testing.assert_allclose(s[1], [[0.6666667, 2.], [0., 1.3333334]], rtol=1e-6)
    np.testing.assert_allclose(s[2], 4 * np.array([0, 2, 4, 6])[s[0]] / 12, rtol=1e-6)
    assert 0 not in s[0]
    # learned: uniform at first (3 draws / 6 classes), then 1 + count of the true classes seen
    np.testing.assert_allclose(l1[1], np.full([2, 2], 0.5))
    counts = np.array([2, 2, 1, 2, 2, 1.])                # after classes 1, 3, 0, 4
    np.testing.assert_allclose(l2[1], np.full([2, 2], 0.6), rtol=1e-6)   # TF 2.15.1's
    np.testing.assert_allclose(l2[2], 3 * counts[l2[0]] / counts.sum(), rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="range_max=4"):
        run(tf.random.fixed_unigram_candidate_sampler(tc, 2, 1, False, 4, unigrams=[1., 2.]))


def test_mean_pairwise_squared_error_matches_tf():
    labels = tf.constant([[1., 2., 3.], [4., -1., 0.5]])
    predictions = tf.constant([[1.5, 1., 3.5], [3., 0., 2.]])
    plain = tf.losses.mean_pairwise_squared_error(labels, predictions)
    weighted = tf.losses.mean_pairwise_squared_error(labels, predictions,
                                                     weights=[[2.], [0.5]])
    zero = tf.losses.mean_pairwise_squared_error(labels, predictions, weights=0.)
    grad = tf.gradients(weighted, predictions)[0]
    got = run([plain, weighted, zero, grad])
    # TF 2.15.1's
    np.testing.assert_allclose(got[:3], [5.0, 4.75, 0.0], rtol=1e-6)
    np.testing.assert_allclose(got[3], [[2., -4., 2.], [-1.5, 0.5, 1.]], rtol=1e-6)
    assert plain.name == "mean_pairwise_squared_error/value_2:0"
    assert len(tf.get_collection(tf.GraphKeys.LOSSES)) == 3


def test_matrix_square_root_sparse_matmul_volume_patches_batch_scatter_update():
    a = tf.constant([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]], tf.float64)
    b = tf.constant([[2., 1.], [0.5, 3.]], tf.float64)       # not symmetric
    s1, s2 = tf.matrix_square_root(a), tf.matrix_square_root(b)
    g1 = tf.gradients(tf.reduce_sum(s1 * np.arange(9.).reshape(3, 3)), a)[0]
    g2 = tf.gradients(tf.reduce_sum(s2 * np.array([[1., -2.], [0.5, 3.]])), b)[0]
    x, y = tf.constant(arr(2, 3)), tf.constant(arr(4, 3))
    sm = tf.sparse_matmul(x, y, transpose_b=True, a_is_sparse=True)
    gsm = tf.gradients(tf.reduce_sum(sm * (arr(2, 4) + 1.)), [x, y])
    v = tf.constant(arr(1, 3, 4, 4, 2))
    same = tf.extract_volume_patches(v, [1, 2, 2, 3, 1], [1, 1, 2, 2, 1], "SAME")
    valid = tf.extract_volume_patches(v, [1, 2, 2, 2, 1], [1, 1, 2, 2, 1], "VALID")
    ref = tf.Variable(np.arange(24., dtype=np.float32).reshape(2, 3, 4))
    update = tf.batch_scatter_update(ref, [[[2, 0], [1, 3], [0, 0]], [[3, 3], [1, 2], [0, 1]]],
                                     -np.arange(12., dtype=np.float32).reshape(2, 3, 2) - 1)
    got = run([s1, s2, g1, g2, sm, gsm, checksum(same), checksum(valid), valid[0, 0, 0, 0],
               update], init=True)
    # TF 2.15.1's
    np.testing.assert_allclose(got[0], [[1.976581, 0.26922, 0.143698],
                                        [0.26922, 1.710217, 0.051767],
                                        [0.143698, 0.051767, 1.405941]], atol=1e-6)
    np.testing.assert_allclose(got[1], [[1.395852, 0.321239], [0.16062, 1.717091]], atol=1e-6)
    np.testing.assert_allclose(got[2], [[-0.120862, 0.118089, 0.362701],
                                        [0.666917, 1.054226, 1.480328],
                                        [1.491516, 2.049928, 2.685319]], atol=1e-6)
    np.testing.assert_allclose(got[3], [[0.439264, -0.713618], [0.018342, 0.939465]],
                               atol=1e-6)
    np.testing.assert_allclose(got[4], [[0.3245, 0.3206, 0.3167, 0.3128],
                                        [0.3206, 0.317, 0.3134, 0.3098]], atol=1e-6)
    np.testing.assert_allclose(got[5][0], [[-1.5112, -0.3568, 0.7976],
                                           [-1.7204, -0.4106, 0.8992]], atol=1e-5)
    np.testing.assert_allclose(got[5][1], [[-0.6812, -0.1706, 0.34], [-1.0475, -0.2631, 0.5213],
                                           [-0.8748, -0.2236, 0.4276],
                                           [-0.6911, -0.1731, 0.3449]], atol=1e-5)
    np.testing.assert_allclose(got[6:8], [0.13026, 0.111265], atol=1e-5)
    np.testing.assert_allclose(got[8], [-0.5, -0.13, 0.24, -0.49, 0.26, -0.47, -0.1, 0.27,
                                        0.34, -0.39, -0.02, 0.35, -0.0, 0.37, -0.36, 0.01],
                               atol=1e-6)
    np.testing.assert_array_equal(got[9], [[[-2, 1, -1, 3], [4, -3, 6, -4], [-6, 9, 10, 11]],
                                           [[12, 13, 14, -8], [16, -9, -10, 19],
                                            [-11, -12, 22, 23]]])
    assert same.shape.as_list() == [1, 3, 2, 2, 24] and valid.shape.as_list() == [1, 2, 2, 2, 16]
    assert (s1.name, sm.name, same.name) == ("MatrixSquareRoot:0", "SparseMatMul:0",
                                             "ExtractVolumePatches:0")
    assert sm.dtype == tf.float32 and update.op.type == "ScatterNdUpdate"
    with pytest.raises(TypeError, match="SparseMatMul"):
        tf.sparse_matmul(tf.constant([[1.]], tf.float64), tf.constant([[1.]], tf.float64))
    with pytest.raises(ValueError, match=r"\[1, planes, rows, cols, 1\]"):
        tf.extract_volume_patches(v, [2, 2, 2, 2, 1], [1, 1, 1, 1, 1], "VALID")
    assert check_gradients(tf.matrix_square_root, [[[3., 1.], [0.5, 2.]]])
    assert check_gradients(lambda t: tf.extract_volume_patches(t, [1, 2, 1, 2, 1],
                                                               [1, 1, 2, 1, 1], "SAME"),
                           [np.linspace(-1, 1, 24).reshape(1, 2, 3, 2, 2)])
