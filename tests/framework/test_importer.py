"""tf.import_graph_def (framework/importer.py), checked against TF 2.15's tf.compat.v1: round
trips of sess.graph_def and of the GraphDef protobuf tf.train.write_graph writes, input_map,
return_elements, name scopes, a Variable's initializer, and TF's errors (texts taken from TF
2.15 by running the same calls there)."""
import os

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors


def _source_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3], name="x")
        w = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2), name="w")
        y = tf.matmul(x, w, name="y")
        tf.argmax(y, 1, name="am")
        tf.cast(tf.argmax(y, 1), tf.float32, name="cast")
        tf.shape(y, name="shape")
        tf.reduce_sum(y, axis=1, name="sum")
        tf.unstack(tf.ones([2, 3]), name="unstack")
        tf.split(tf.ones([4, 2]), 2, name="split")
        tf.greater(y, 3.0, name="gt")
        tf.add(y, 1.0, name="out")
        with tf.control_dependencies([y]):
            tf.identity(x, name="after")
    return g


def _graph_def(g):
    with tf.Session(graph=g) as sess:
        return sess.graph_def


FEED = np.array([[1., 2., 3.], [4., 5., 6.]], np.float32)
FETCHES = ["y:0", "am:0", "cast:0", "shape:0", "sum:0", "unstack:1", "split:1", "gt:0",
           "out:0", "after:0"]


def _run(g, prefix, feed_name="x:0"):
    with tf.Session(graph=g) as sess:
        return sess.run([prefix + f for f in FETCHES], {prefix + feed_name: FEED})


def test_round_trip_of_sess_graph_def_same_values_and_dtypes():
    src = _source_graph()
    expected = _run(src, "")
    gd = _graph_def(src)
    g = tf.Graph()
    with g.as_default():
        assert tf.import_graph_def(gd, name="imp") is None
    got = _run(g, "imp/")
    for a, b in zip(expected, got):
        np.testing.assert_array_equal(a, b)
        assert np.asarray(a).dtype == np.asarray(b).dtype
    for op in src.get_operations():
        new = g.get_operation_by_name("imp/" + op.name)
        assert new.type == op.type
        assert [t.dtype for t in new.outputs] == [t.dtype for t in op.outputs], op.name
        assert [t.get_shape() for t in new.outputs] == [t.get_shape() for t in op.outputs]
        assert [c.name for c in new.control_inputs] == ["imp/" + c.name
                                                        for c in op.control_inputs]


def test_default_name_scope_is_import_and_unique_and_nests():
    gd = _graph_def(_source_graph())
    with tf.Graph().as_default():
        a, = tf.import_graph_def(gd, return_elements=["y:0"])
        b, = tf.import_graph_def(gd, return_elements=["y:0"])
        with tf.name_scope("outer"):
            c, = tf.import_graph_def(gd, return_elements=["y:0"])
        d, = tf.import_graph_def(gd, return_elements=["y:0"], name="foo/")
        e, = tf.import_graph_def(gd, return_elements=["y:0"], name="")
        f, = tf.import_graph_def(gd, return_elements=["y:0"], name="")
    # TF 2.15: import/y:0, import_1/y:0, outer/import/y:0, foo/y:0, y:0, y_1:0
    assert [t.name for t in (a, b, c, d, e, f)] == [
        "import/y:0", "import_1/y:0", "outer/import/y:0", "foo/y:0", "y:0", "y_1:0"]


def test_return_elements_ops_and_tensors():
    gd = _graph_def(_source_graph())
    with tf.Graph().as_default():
        y, y_op, x_op, part = tf.import_graph_def(gd, return_elements=["y:0", "y", "x",
                                                                       "split:1"])
    assert isinstance(y, tf.Tensor) and y.name == "import/y:0"
    assert y.get_shape().as_list() == [None, 2] and y.dtype == tf.float32
    assert isinstance(y_op, tf.Operation) and y_op.name == "import/y" and y_op.type == "MatMul"
    assert x_op.type == "Placeholder"
    assert part.name == "import/split:1"


def test_input_map_replaces_a_placeholder():
    gd = _graph_def(_source_graph())
    with tf.Graph().as_default():
        new_x = tf.constant(FEED * 2)
        out, = tf.import_graph_def(gd, input_map={"x:0": new_x}, return_elements=["out:0"])
        assert out.get_shape().as_list() == [2, 2]          # TF: shape=(2, 2) as well
        by_op_name, = tf.import_graph_def(gd, input_map={"x": 1.0 + new_x},
                                          return_elements=["out:0"])
        scalar, = tf.import_graph_def(gd, input_map={"x:0": [[0., 0., 1.]]},
                                      return_elements=["out:0"])
        with tf.Session() as sess:
            a, b, c = sess.run([out, by_op_name, scalar])
    w = np.arange(6, dtype=np.float32).reshape(3, 2)
    np.testing.assert_allclose(a, FEED * 2 @ w + 1)
    np.testing.assert_allclose(b, (FEED * 2 + 1) @ w + 1)
    np.testing.assert_allclose(c, [[5., 6.]])


def test_a_variable_and_its_initializer_after_import():
    src = tf.Graph()
    with src.as_default():
        v = tf.Variable([[1., 2.], [3., 4.]], name="v")
        tf.assign_add(v, tf.ones([2, 2]), name="inc")
        tf.identity(v * 10.0, name="read")
    gd = _graph_def(src)
    g = tf.Graph()
    with g.as_default():
        init, inc, read = tf.import_graph_def(
            gd, return_elements=["v/Assign", "inc", "read:0"], name="m")
        assert g.get_operation_by_name("m/v").outputs[0].dtype == tf.float32._as_ref
        with tf.Session() as sess:
            sess.run(init)
            sess.run(inc)
            np.testing.assert_array_equal(sess.run(read), [[20., 30.], [40., 50.]])
            np.testing.assert_array_equal(sess.run("m/v:0"), [[2., 3.], [4., 5.]])


def test_graph_def_protobuf_written_by_write_graph(tmp_path):
    from tensorboardX.proto import graph_pb2
    src = _source_graph()
    expected = _run(src, "")
    path = tf.train.write_graph(src, str(tmp_path), "g.pb", as_text=False)
    proto = graph_pb2.GraphDef()
    with open(path, "rb") as f:
        proto.ParseFromString(f.read())
    g = tf.Graph()
    with g.as_default():
        tf.import_graph_def(proto, name="pb")
    for a, b in zip(expected, _run(g, "pb/")):
        np.testing.assert_array_equal(a, b)
    assert g.get_operation_by_name("pb/x").outputs[0].get_shape().as_list() == [None, 3]
    assert os.path.getsize(path) > 0


def test_errors_as_tf():
    gd = _graph_def(_source_graph())
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match=r"Attempted to map inputs that were not found in "
                                             r"graph_def: \[nope:0\]"):
            tf.import_graph_def(gd, input_map={"nope:0": tf.constant(1.0)})
        with pytest.raises(ValueError, match="Requested return tensor 'nope:0' not found in "
                                             "graph def"):
            tf.import_graph_def(gd, return_elements=["nope:0"])
        with pytest.raises(ValueError, match="Requested return node 'nope' not found in "
                                             "graph def"):
            tf.import_graph_def(gd, return_elements=["nope"])
        with pytest.raises(ValueError, match=r"Invalid return output 1 of node 'y', which has "
                                             r"1 output\(s\)"):
            tf.import_graph_def(gd, return_elements=["y:1"])
        bad = {"node": [dict(nd) for nd in gd["node"]]}
        bad["node"][1]["op"] = "FooBar"
        with pytest.raises(errors.NotFoundError, match="Op type not registered 'FooBar'"):
            tf.import_graph_def(bad)
        with pytest.raises(TypeError, match="Argument `graph_def` must be a GraphDef proto."):
            tf.import_graph_def({"nodes": []})
        with pytest.raises(TypeError, match="Argument `input_map` must be a dictionary"):
            tf.import_graph_def(gd, input_map=[1])


def test_inferred_output_dtypes_match_the_source_over_many_ops():
    """A node_def does not say its outputs' dtypes: import_graph_def infers them from the
    attributes as TF's OpDefs do. Every op of a broad graph gets the dtypes (and count) of
    outputs it had."""
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 4], name="x")
        lab = tf.placeholder(tf.int32, [None], name="lab")
        tf.nn.top_k(x, 2)
        tf.unique(lab)
        tf.unique_with_counts(lab)
        tf.setdiff1d(lab, lab)
        tf.dynamic_partition(x, lab, 3)
        tf.shape_n([x, x])
        tf.qr(tf.ones([3, 3]))
        tf.svd(tf.ones([3, 3]))
        tf.self_adjoint_eig(tf.eye(3))
        tf.nn.softmax_cross_entropy_with_logits_v2(labels=x, logits=x)
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=lab, logits=x)
        tf.nn.dropout(x, keep_prob=0.5)
        tf.nn.in_top_k(x, lab, 1)
        tf.is_finite(x)
        tf.logical_not(tf.cast(x, tf.bool))
        tf.where(x > 0)
        tf.size(x)
        tf.rank(x)
        tf.one_hot(lab, 3)
        tf.random_uniform([2])
        tf.multinomial(x, 2)
        tf.reduce_any(x > 0)
        tf.argmin(x, 1, output_type=tf.int32)
        tf.gather(x, lab)
        tf.linspace(0., 1., 3)
        tf.string_join(["a", "b"])
        tf.as_string(x)
        tf.count_nonzero(x)
        tf.nn.moments(x, [0])
        tf.meshgrid(tf.range(2), tf.range(3))
        q = tf.FIFOQueue(3, [tf.float32, tf.int32])
        q.enqueue([1.0, 2])
        q.dequeue()
        q.size()
        q.close()
        tf.TextLineReader().read(tf.FIFOQueue(2, tf.string))
        tf.ConditionalAccumulator(tf.float32).apply_grad(tf.ones([2]), 0)
        tf.is_variable_initialized(tf.Variable(1.0))
        tf.assert_equal(lab, lab)
        tf.nn.max_pool(tf.ones([1, 4, 4, 1]), [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
        tf.train.AdamOptimizer().minimize(tf.reduce_sum(tf.Variable(tf.ones([2])) * 2.0))
        tf.train.Saver()
    gd = _graph_def(g)
    g2 = tf.Graph()
    with g2.as_default():
        tf.import_graph_def(gd, name="i")
    for op in g.get_operations():
        new = g2.get_operation_by_name("i/" + op.name)
        assert [t.dtype for t in new.outputs] == [t.dtype for t in op.outputs], op.name


def test_training_step_runs_after_import():
    src = tf.Graph()
    with src.as_default():
        w = tf.Variable([1.0, -2.0], name="w")
        loss = tf.reduce_sum(tf.square(w), name="loss")
        tf.train.GradientDescentOptimizer(0.25).minimize(loss, name="train")
    gd = _graph_def(src)
    g = tf.Graph()
    with g.as_default():
        init, train, loss = tf.import_graph_def(
            gd, return_elements=["w/Assign", "train", "loss:0"], name="m")
        with tf.Session() as sess:
            sess.run(init)
            sess.run(train)
            np.testing.assert_allclose(sess.run("m/w:0"), [0.5, -1.0])
            assert sess.run(loss) == pytest.approx(1.25)


# A GraphDef that TF 2.15 wrote (graph.as_graph_def().SerializeToString().hex()) for
#   x = tf.placeholder(tf.float32, [None, 2], name='x')
#   w = tf.constant([[1., 2.], [3., 4.]], name='w')
#   y = tf.nn.relu(tf.matmul(x, w) - 5.0, name='y')
#   z = tf.reduce_mean(y, axis=1, name='z')
TF_GRAPH_DEF_HEX = (
    "0a3b0a0178120b506c616365686f6c6465722a0b0a056474797065120230012a1c0a05736861706512133a11"
    "120b08ffffffffffffffffff01120208020a420a01771205436f6e73742a0b0a056474797065120230012a29"
    "0a0576616c75651220421e08011208120208021202080222100000803f0000004000004040000080400a450a"
    "064d61744d756c12064d61744d756c1a01781a01772a110a0b7472616e73706f73655f62120228002a070a01"
    "54120230012a110a0b7472616e73706f73655f61120228000a320a057375622f791205436f6e73742a0b0a05"
    "6474797065120230012a150a0576616c7565120c420a080112002a040000a0400a220a037375621203537562"
    "1a064d61744d756c1a057375622f792a070a0154120230010a170a0179120452656c751a037375622a070a01"
    "54120230010a3d0a137a2f726564756374696f6e5f696e64696365731205436f6e73742a0b0a056474797065"
    "120230032a120a0576616c756512094207080312003a01010a470a017a12044d65616e1a01791a137a2f7265"
    "64756374696f6e5f696e64696365732a0f0a096b6565705f64696d73120228002a0a0a045469647812023003"
    "2a070a015412023001220308ed0c")


def test_a_graph_def_that_tensorflow_wrote():
    from tensorboardX.proto import graph_pb2
    proto = graph_pb2.GraphDef()
    proto.ParseFromString(bytes.fromhex(TF_GRAPH_DEF_HEX))
    with tf.Graph().as_default():
        z, = tf.import_graph_def(proto, return_elements=["z:0"])
        with tf.Session() as sess:
            got = sess.run(z, {"import/x:0": [[1., 2.], [3., 1.]]})
    np.testing.assert_allclose(got, [3.5, 3.0])       # TF 2.15 gives [3.5, 3.]
