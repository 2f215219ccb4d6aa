"""tf.SparseConditionalAccumulator (sandbox/ops/accumulator_ops.py), tf.recompute_grad and
tf.grad_pass_through (custom_gradient.py), tf.io.decode_and_crop_jpeg (image_codec_ops.py).
The expected values, names and messages are TF 2.15.1's tf.compat.v1."""
import numpy as np
import pytest

import sandbox as tf


def test_sparse_accumulator_averages_per_index():
    q = tf.SparseConditionalAccumulator(tf.float32, shape=[4, 2], name="acc")
    assert (q.accumulator_ref.op.type, q.name) == ("SparseConditionalAccumulator", "acc")
    a1 = q.apply_grad(grad_indices=[0, 2], grad_values=[[3.0, 4.0], [1.0, 2.0]],
                      grad_shape=[4, 2])
    a2 = q.apply_indexed_slices_grad(tf.IndexedSlices(
        tf.constant([[10.0, 20.0]]), tf.constant([2], tf.int64), tf.constant([4, 2], tf.int64)))
    n = q.num_accumulated()
    taken = q.take_indexed_slices_grad(2)
    indices, values, shape = q.take_grad(1)
    # TF 2.15.1's op names
    assert (a1.type, a1.name, a2.name) == ("SparseAccumulatorApplyGradient",
                                           "SparseAccumulatorApplyGradient",
                                           "SparseAccumulatorApplyGradient_1")
    assert (n.op.name, taken.indices.op.type) == ("acc_NumAccumulated",
                                                  "SparseAccumulatorTakeGradient")
    assert taken.indices.dtype == tf.int64 and shape.dtype == tf.int64
    with tf.Session() as sess:
        sess.run(a1)
        sess.run(a2)
        assert sess.run(n) == 2
        got = sess.run(taken)
        # index 2 came twice: (1+10)/2, (2+20)/2; index 0 once
        np.testing.assert_array_equal(got.indices, [0, 2])
        np.testing.assert_array_equal(got.values, [[3.0, 4.0], [5.5, 11.0]])
        np.testing.assert_array_equal(got.dense_shape, [4, 2])
        sess.run(q.apply_grad([1], [[5.0, 5.0]], local_step=0))     # stale: step is now 1
        assert sess.run(n) == 0
        sess.run(q.set_global_step(5))
        sess.run(q.apply_grad([1], [[5.0, 5.0]], local_step=5))
        got = sess.run([indices, values, shape])
        np.testing.assert_array_equal(got[0], [1])
        np.testing.assert_array_equal(got[1], [[5.0, 5.0]])
        np.testing.assert_array_equal(got[2], [4, 2])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="expected values dim 1 to be 2, got 3"):
            sess.run(q.apply_grad([1], [[5.0, 5.0, 5.0]], local_step=9))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="index of slice 0 exceeded limits of shape; index is 7 "
                                 "exceeded 4"):
            sess.run(q.apply_grad([7], [[5.0, 5.0]], grad_shape=[4, 2], local_step=9))
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="num_required must be positive, but was 0"):
            sess.run(q.take_grad(0))

    q2 = tf.SparseConditionalAccumulator(tf.float32, name="acc2", reduction_type="SUM")
    a, b = q2.apply_grad([1, 3], [[2.0], [1.0]]), q2.apply_grad([3], [[4.0]])
    with tf.Session() as sess:
        sess.run(a)
        sess.run(b)
        got = sess.run(q2.take_grad(2))
    np.testing.assert_array_equal(got.indices, [1, 3])
    np.testing.assert_array_equal(got.values, [[2.0], [5.0]])
    np.testing.assert_array_equal(got.shape, [-1, 1])      # unknown rows: -1, as TF


def test_recompute_grad_rebuilds_the_function_and_matches_plain_gradients():
    x = tf.constant([1.0, 2.0, 3.0])
    w = tf.get_variable("w", initializer=[0.5, 1.0, 2.0])

    def f(x):
        return tf.square(x) * w + tf.sin(x)

    y = tf.recompute_grad(f)(x)
    grads = tf.gradients(tf.reduce_sum(y), [x, w])
    sins = [op for op in tf.get_default_graph().get_operations() if op.type == "Sin"]
    assert len(sins) == 2               # the forward one, and the one built for the gradient

    def block(x):
        with tf.variable_scope("blk"):
            u = tf.get_variable("u", initializer=[2.0, 2.0, 2.0])
        return x * u

    with tf.variable_scope("outer"):
        yb = tf.recompute_grad(block)(x)
    assert [v.name for v in tf.trainable_variables("outer")] == ["outer/blk/u:0"]
    grads_b = tf.gradients(tf.reduce_sum(yb * yb), [x] + tf.trainable_variables("outer"))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        gx, gw = sess.run(grads)
        bx, bu = sess.run(grads_b)
    # TF 2.15.1's
    np.testing.assert_allclose(gx, [1.5403023, 3.5838532, 11.010008], rtol=1e-6)
    np.testing.assert_allclose(gw, [1.0, 4.0, 9.0])
    np.testing.assert_allclose(bx, [8.0, 16.0, 24.0])
    np.testing.assert_allclose(bu, [4.0, 16.0, 36.0])


def test_grad_pass_through():
    z = tf.placeholder(tf.float32, [])
    v = tf.Variable(1.0)
    p = tf.grad_pass_through(lambda t: tf.assign(v, t))(z ** 2)
    gp = tf.gradients(p, z)
    x = tf.constant([1.0, 2.0, 3.0])
    q = tf.grad_pass_through(tf.round)(x * 1.3)
    gq = tf.gradients(tf.reduce_sum(q * x), x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        got_p, got_gp = sess.run([p, gp], {z: 3.0})
        got_q, got_gq = sess.run([q, gq])
    # TF 2.15.1's
    assert got_p == 9.0 and got_gp == [6.0]
    np.testing.assert_array_equal(got_q, [1.0, 3.0, 4.0])
    np.testing.assert_allclose(got_gq[0], [2.3, 5.6, 7.8999996], rtol=1e-6)


def test_decode_and_crop_jpeg_is_decode_then_crop():
    image = (np.arange(20 * 30 * 3) % 251).astype(np.uint8).reshape(20, 30, 3)
    with tf.Session() as sess:
        data = sess.run(tf.image.encode_jpeg(image))
    contents = tf.placeholder(tf.string)
    cropped = tf.io.decode_and_crop_jpeg(contents, [2, 3, 5, 7], channels=3)
    any_channels = tf.image.decode_and_crop_jpeg(contents, tf.constant([2, 3, 5, 7]))
    full = tf.image.decode_jpeg(contents, channels=3)
    # TF 2.15.1's name, input and static shapes
    assert (cropped.name, cropped.op.type) == ("DecodeAndCropJpeg:0", "DecodeAndCropJpeg")
    assert cropped.op.inputs[1].name == "DecodeAndCropJpeg/crop_window:0"
    assert cropped.get_shape().as_list() == [5, 7, 3]
    assert any_channels.get_shape().as_list() == [5, 7, None]
    with tf.Session() as sess:
        got, whole = sess.run([cropped, full], {contents: data})
        assert got.dtype == np.uint8 and got.shape == (5, 7, 3)
        np.testing.assert_array_equal(got, whole[2:7, 3:10])
        for window in ([15, 3, 10, 7], [0, 0, 0, 5], [-1, 0, 2, 2]):
            with pytest.raises(tf.errors.InvalidArgumentError,
                               match="Invalid JPEG data or crop window"):
                sess.run(tf.io.decode_and_crop_jpeg(contents, window), {contents: data})
    with pytest.raises(ValueError, match="Dimension must be 4 but is 3"):
        tf.io.decode_and_crop_jpeg(contents, [1, 2, 3])
