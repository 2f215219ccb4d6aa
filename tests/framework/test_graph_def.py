"""Graph.as_graph_def and sess.graph_def (framework/graph_def.py): the graph as data, read as
TF's GraphDef protobuf is -- `.node`, `.versions.producer`, `SerializeToString()`, text form --
and the classic freeze of a TF-1 tutorial: as_graph_def -> convert_variables_to_constants ->
bytes -> tf.GraphDef.ParseFromString -> import_graph_def, giving the trained values back."""
import pickle

import numpy as np
import pytest

import sandbox as tf


def _model():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(tf.fill([3, 2], 0.5), name="w")
    y = tf.identity(tf.matmul(x, w), name="y")
    return x, w, y


def test_as_graph_def_reads_as_tfs_protobuf():
    with tf.Graph().as_default() as graph:
        _model()
        graph_def = graph.as_graph_def()
        assert [n.name for n in graph_def.node] == [op.name for op in graph.get_operations()]
        assert graph_def.node[0].op == "Placeholder" and graph_def.node[0].attr["dtype"] == \
            tf.float32
        assert graph_def.versions.producer == tf.GRAPH_DEF_VERSION
        proto = tf.GraphDef()
        proto.ParseFromString(graph_def.SerializeToString())
        assert [n.name for n in proto.node] == [n.name for n in graph_def.node]
        assert proto.versions.producer == tf.GRAPH_DEF_VERSION
        assert 'name: "x"' in str(graph_def) and 'op: "MatMul"' in str(graph_def)
        assert graph_def.ByteSize() == len(graph_def.SerializeToString())
        with tf.Session() as sess:
            assert [n.name for n in sess.graph_def.node] == [n.name for n in graph_def.node]
        copy = pickle.loads(pickle.dumps(graph_def))
        assert type(copy) is type(graph_def) and copy.versions.producer == tf.GRAPH_DEF_VERSION
        assert copy.SerializeToString() == graph_def.SerializeToString()


def test_from_version_and_add_shapes():
    with tf.Graph().as_default() as graph:
        a = tf.constant([1.0, 2.0], name="a")
        version = graph.version
        tf.square(a, name="b")
        assert [n.name for n in graph.as_graph_def(from_version=version).node] == ["b"]
        assert "_output_shapes" not in graph.as_graph_def().node[1].attr
        shaped = graph.as_graph_def(add_shapes=True)
        assert shaped.node[1].attr["_output_shapes"] == [tf.TensorShape([2])]
        proto = shaped.as_proto()
        assert [d.size for d in proto.node[1].attr["_output_shapes"].list.shape[0].dim] == [2]
        assert "_output_shapes" not in graph.as_graph_def().as_proto().node[1].attr


def test_a_frozen_graph_goes_through_bytes_and_gives_the_trained_values(tmp_path):
    with tf.Graph().as_default() as graph:
        x, w, y = _model()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(tf.assign(w, w * 4.0))
            frozen = tf.graph_util.convert_variables_to_constants(
                sess, graph.as_graph_def(), ["y"])
    assert [n.op for n in frozen.node] == ["Placeholder", "Const", "Identity", "MatMul",
                                           "Identity"]
    path = tmp_path / "frozen.pb"
    with tf.gfile.GFile(str(path), "wb") as f:
        f.write(frozen.SerializeToString())
    with tf.Graph().as_default():
        graph_def = tf.GraphDef()
        with tf.gfile.GFile(str(path), "rb") as f:
            graph_def.ParseFromString(f.read())
        y, = tf.import_graph_def(graph_def, return_elements=["y:0"], name="")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(y, {"x:0": np.ones([1, 3])}), [[6.0, 6.0]])


def test_function_bodies_stay_in_the_graph_def_but_not_in_its_bytes():
    with tf.Graph().as_default() as graph:
        r = tf.while_loop(lambda i: i < 5, lambda i: i + 1, [tf.constant(0)], name="loop")
        graph_def = graph.as_graph_def()
        proto = graph_def.as_proto()
    body = [n for n in proto.node if n.op == "While"][0].attr["body"]
    assert body.func.name == graph_def.node[-1].attr["body"]["name"]   # named, as in TF
    with tf.Graph().as_default():
        out, = tf.import_graph_def(graph_def, return_elements=[r.name])
        with tf.Session() as sess:
            assert sess.run(out) == 5
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="calls the function .* GraphDef.library"):
            tf.import_graph_def(proto)
