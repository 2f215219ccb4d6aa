"""How tensors, shapes and datasets print -- what a TF-1 program shows when it prints them.
The expected strings are TF 1.x's (checked against TensorFlow 2.15.1's tensorflow.compat.v1
with tf.disable_v2_behavior(), which prints as TF 1.15 does)."""
import sandbox as tf


def test_tensor_of_unknown_rank_prints_without_shape():
    g = tf.Graph()
    with g.as_default():
        a = tf.placeholder(tf.int16, name="a")
        b = tf.placeholder(tf.int16, [None, 2], name="b")
        total = tf.add(a, a)
        # TF 2.15.1 (compat.v1): Tensor("Add:0", dtype=int16)
        assert str(total) == 'Tensor("Add:0", dtype=int16)'
        assert str(b) == 'Tensor("b:0", shape=(?, 2), dtype=int16)'
        # repr keeps the shape, as TF's does
        assert repr(a) == "<tf.Tensor 'a:0' shape=<unknown> dtype=int16>"
        with g.device("/cpu:0"):
            c = tf.identity(a, name="c")
        assert str(c) == 'Tensor("c:0", dtype=int16, device=/device:CPU:0)'


def test_tensor_shape_repr_shows_dimensions_as_tf1():
    # TF 2.15.1 (compat.v1, v1 TensorShape): TensorShape([Dimension(None), Dimension(2)])
    assert repr(tf.TensorShape([None, 2])) == "TensorShape([Dimension(None), Dimension(2)])"
    assert repr(tf.TensorShape([])) == "TensorShape([])"
    assert repr(tf.TensorShape(None)) == "TensorShape(None)"
    shapes = tf.data.Dataset.from_tensor_slices(([[1., 2.]], [3])).batch(2).output_shapes
    assert repr(shapes) == ("(TensorShape([Dimension(None), Dimension(2)]), "
                            "TensorShape([Dimension(None)]))")
    assert str(shapes[0]) == "(?, 2)"


def test_dataset_prints_the_name_of_its_tf_op():
    d = tf.data.Dataset.range(3)
    # TF 1.15's format, named after the dataset's op (not a class of the sandbox's own)
    assert repr(d.repeat()) == "<RepeatDataset shapes: (), types: tf.int64>"
    assert repr(d.take(1)).startswith("<TakeDataset ")
    assert repr(d.skip(1)).startswith("<SkipDataset ")
    assert repr(d.prefetch(1)).startswith("<PrefetchDataset ")
    assert repr(d.shard(2, 0)).startswith("<ShardDataset ")
    assert repr(d.batch(2)) == "<BatchDataset shapes: (?,), types: tf.int64>"
    assert repr(tf.data.FixedLengthRecordDataset("f", 3)).startswith(
        "<FixedLengthRecordDataset ")
