"""tf.saved_model (sandbox/saved_model/): SavedModels in TensorFlow's own format, both ways.

  * TF -> sandbox: tests/data/saved_model_tf215/ was written ONCE by TensorFlow 2.15.1
    (tf.compat.v1, graph mode, ref variables as in TF 1.15) with the program in
    TF215_GENERATOR below; the sandbox loads it and must give the numbers TF 2.15 gave.
  * sandbox -> TF: what the sandbox writes is checked here by what the sandbox can see itself
    (the files, the protobufs parse, TF's checkpoint format restores), and, when TF_PYTHON names a
    Python with TensorFlow (CI's TensorFlow step: .ci/run), by TF's own loader in a subprocess.
"""
import json
import os
import subprocess
import textwrap

import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from sandbox.framework import saved_model_pb2
from sandbox.saved_model import tensor_bundle

DATA = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "saved_model_tf215")
# A Python that has TensorFlow (CI sets it in its TensorFlow step: .ci/run); else skipped.
TF_PYTHON = os.environ.get("TF_PYTHON", "")
X = [[1.0, 2.0, 3.0], [3.0, 1.0, -1.0]]

# What TF 2.15.1 printed for sess.run(y, {x: X}) when it wrote tests/data/saved_model_tf215/.
TF215_Y = [[0.0, 4.300000190734863], [2.5999999046325684, 0.0]]
TF215_KERNEL = [[0.5, -1.0], [0.25, 2.0], [-0.75, 0.5]]
TF215_BIAS = [0.1, -0.2]

TF215_GENERATOR = """
import numpy as np, tensorflow as tf
tf1 = tf.compat.v1
tf1.disable_v2_behavior()                      # graph mode and ref variables, as TF 1.15
x = tf1.placeholder(tf.float32, [None, 3], name="x")
y = tf1.layers.dense(x, 2, activation=tf.nn.relu, name="dense",
    kernel_initializer=tf1.constant_initializer([[0.5, -1.0], [0.25, 2.0], [-0.75, 0.5]]),
    bias_initializer=tf1.constant_initializer([0.1, -0.2]))
with tf1.Session() as s:
    s.run(tf1.global_variables_initializer())
    tf1.saved_model.simple_save(s, "tests/data/saved_model_tf215", inputs={"x": x},
                                outputs={"y": y})
    print(s.run(y, {x: [[1, 2, 3], [3, 1, -1]]}).tolist())
"""


def _dense_model():
    """The fixture's model in the sandbox, with the kernel doubled after initialization (so a
    loader that ran the initializers instead of restoring would be caught)."""
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(np.array(TF215_KERNEL, np.float32), name="w")
    b = tf.Variable(np.array(TF215_BIAS, np.float32), name="b")
    y = tf.nn.relu(tf.matmul(x, w) + b, name="y")
    step = tf.train.get_or_create_global_step()
    return x, w, y, step


def _simple_save(export_dir):
    x, w, y, step = _dense_model()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([tf.assign(w, w * 2.0), tf.assign(step, 41)])
        tf.saved_model.simple_save(sess, str(export_dir), inputs={"x": x}, outputs={"y": y})
        return sess.run(y, {x: X})


# -- TF 2.15 wrote it, the sandbox loads it ----------------------------------------------------

def test_tf215_saved_model_loads_and_gives_tfs_numbers(tmp_path):
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING], DATA)
        sig = meta.signature_def[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        assert sig.method_name == tf.saved_model.PREDICT_METHOD_NAME
        assert (sig.inputs["x"].name, sig.outputs["y"].name) == ("x:0", "dense/Relu:0")
        y = sess.run(sig.outputs["y"].name, {sig.inputs["x"].name: X})
        np.testing.assert_allclose(y, TF215_Y, rtol=1e-6)            # TF 2.15's numbers
        assert [v.op.name for v in tf.trainable_variables()] == ["dense/kernel", "dense/bias"]
        np.testing.assert_array_equal(sess.run("dense/kernel:0"),
                                      np.float32(TF215_KERNEL))
        graph = sess.graph
        # TF's Saver came with the graph, both branches: its save branch (StaticRegexFullMatch,
        # MergeV2Checkpoints with TF 2's allow_missing_files) writes a checkpoint here too.
        assert graph.get_operation_by_name("save/restore_all").type == "NoOp"
        assert graph.get_operation_by_name("save/StaticRegexFullMatch").type == \
            "StaticRegexFullMatch"
        saver_def = meta.saver_def
        prefix = os.path.join(str(tmp_path), "ckpt")
        assert sess.run(saver_def.save_tensor_name,
                        {saver_def.filename_tensor_name: prefix}) == prefix.encode()
        np.testing.assert_array_equal(tf.train.load_variable(prefix, "dense/kernel"),
                                      np.float32(TF215_KERNEL))
        assert tf.saved_model.utils.get_tensor_from_tensor_info(sig.inputs["x"]) is \
            graph.get_tensor_by_name("x:0")


def test_tf215_checkpoint_reads_and_the_sandbox_writes_it_byte_for_byte(tmp_path):
    prefix = os.path.join(DATA, "variables", "variables")
    reader = tensor_bundle.BundleReader(prefix)
    assert reader.keys() == ["dense/bias", "dense/kernel"]
    assert reader.shape("dense/kernel") == [3, 2]
    tensors = {k: reader.get_tensor(k) for k in reader.keys()}
    np.testing.assert_array_equal(tensors["dense/bias"], np.float32(TF215_BIAS))
    tensor_bundle.write_bundle(str(tmp_path / "v"), tensors)
    with open(tmp_path / "v.data-00000-of-00001", "rb") as ours, \
            open(prefix + ".data-00000-of-00001", "rb") as tfs:
        assert ours.read() == tfs.read()
    again = tensor_bundle.BundleReader(str(tmp_path / "v"))
    np.testing.assert_array_equal(again.get_tensor("dense/kernel"), tensors["dense/kernel"])


# -- the sandbox writes it: what the sandbox can check itself ----------------------------------

def test_simple_save_writes_tfs_layout_and_protobufs(tmp_path):
    export = tmp_path / "export"
    _simple_save(export)
    assert sorted(os.listdir(export)) == ["saved_model.pb", "variables"]
    assert sorted(os.listdir(export / "variables")) == [
        "variables.data-00000-of-00001", "variables.index"]
    assert tf.saved_model.contains_saved_model(str(export))
    assert tf.saved_model.loader.maybe_saved_model_directory(str(export))
    saved = saved_model_pb2.SavedModel.FromString((export / "saved_model.pb").read_bytes())
    assert saved.saved_model_schema_version == 1
    (meta,) = saved.meta_graphs
    assert list(meta.meta_info_def.tags) == ["serve"]
    assert meta.meta_info_def.tensorflow_version == "1.15.0"
    assert {n.op for n in meta.graph_def.node} >= {"Placeholder", "VariableV2", "MatMul",
                                                    "RestoreV2", "SaveV2"}
    assert meta.saver_def.restore_op_name == "save/restore_all" and meta.saver_def.sharded
    sig = meta.signature_def["serving_default"]
    assert sig.inputs["x"].name == "x:0" and sig.outputs["y"].name == "y:0"
    assert [d.size for d in sig.inputs["x"].tensor_shape.dim] == [-1, 3]
    variables = [saved_model_pb2.VariableDef.FromString(b)
                 for b in meta.collection_def["variables"].bytes_list.value]
    assert [(v.variable_name, v.initializer_name, v.snapshot_name) for v in variables][0] == \
        ("w:0", "w/Assign", "w/read:0")
    reader = tensor_bundle.BundleReader(str(export / "variables" / "variables"))
    assert reader.keys() == ["b", "global_step", "w"]
    np.testing.assert_array_equal(reader.get_tensor("w"), 2 * np.float32(TF215_KERNEL))
    assert reader.get_tensor("global_step").dtype == np.int64


def test_sandbox_saved_model_round_trip(tmp_path):
    ref = _simple_save(tmp_path / "export")
    for scope in (None, "imported"):
        with tf.Session(graph=tf.Graph()) as sess:
            meta = tf.saved_model.load(sess, ["serve"], str(tmp_path / "export"),
                                       import_scope=scope)
            sig = meta.signature_def["serving_default"]
            x = tf.saved_model.get_tensor_from_tensor_info(sig.inputs["x"],
                                                           import_scope=scope)
            y = tf.saved_model.get_tensor_from_tensor_info(sig.outputs["y"],
                                                           import_scope=scope)
            np.testing.assert_allclose(sess.run(y, {x: X}), ref)
            prefix = "imported/" if scope else ""
            assert [v.name for v in tf.global_variables()] == [
                f"{prefix}w:0", f"{prefix}b:0", f"{prefix}global_step:0"]
            assert sess.run(prefix + "global_step:0") == 41


def _builder_model(export, vocab):
    """Two meta graphs, a main op, an asset, a Regress signature, written as text."""
    x, w, y, step = _dense_model()
    counter = tf.Variable(0.0, name="counter", trainable=False,
                          collections=[tf.GraphKeys.LOCAL_VARIABLES])
    z = tf.add(y, counter, name="z")
    asset = tf.constant(str(vocab), name="vocab_path")
    tf.add_to_collection(tf.GraphKeys.ASSET_FILEPATHS, asset)
    main_op = tf.group(tf.assign(counter, 7.0), name="my_main_op")
    examples = tf.placeholder(tf.string, [None], name="examples")
    builder = tf.saved_model.builder.SavedModelBuilder(str(export))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        builder.add_meta_graph_and_variables(
            sess, [tf.saved_model.tag_constants.SERVING],
            signature_def_map={
                "serving_default": tf.saved_model.predict_signature_def({"x": x}, {"z": z}),
                "regress": tf.saved_model.regression_signature_def(examples, z)},
            assets_collection=tf.get_collection(tf.GraphKeys.ASSET_FILEPATHS),
            main_op=main_op)
        with pytest.raises(AssertionError, match="already been saved"):
            builder.add_meta_graph_and_variables(sess, ["other"])
    builder.add_meta_graph([tf.saved_model.TRAINING, tf.saved_model.GPU])
    return builder.save(as_text=True)


def test_builder_meta_graphs_main_op_assets_and_text(tmp_path):
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\nb\n")
    path = _builder_model(tmp_path / "export", vocab)
    assert path == str(tmp_path / "export" / "saved_model.pbtxt").encode()
    assert (tmp_path / "export" / "assets" / "vocab.txt").read_text() == "a\nb\n"
    for tags in (["serve"], ["gpu", "train"]):
        with tf.Session(graph=tf.Graph()) as sess:
            meta = tf.saved_model.loader.load(sess, tags, str(tmp_path / "export"))
            z = sess.run("z:0", {"x:0": X})           # the main op set counter to 7
            np.testing.assert_allclose(z, np.maximum(np.dot(X, TF215_KERNEL) + TF215_BIAS,
                                                     0) + 7.0, rtol=1e-6)
            assert [a.filename for a in meta.asset_file_def] == \
                (["vocab.txt"] if tags == ["serve"] else [])    # add_meta_graph: none given
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, ["serve"], str(tmp_path / "export"))
        assert sorted(meta.signature_def) == ["regress", "serving_default"]
        assert tf.saved_model.is_valid_signature(meta.signature_def["regress"])
        assert tf.saved_model.is_valid_signature(meta.signature_def["serving_default"])


# -- the errors TF gives -------------------------------------------------------------------------

def test_errors_as_tf(tmp_path):
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "something").write_text("x")
    with pytest.raises(AssertionError, match=r"Export directory .*full already exists, and "
                                             r"isn't empty"):
        tf.saved_model.builder.SavedModelBuilder(str(tmp_path / "full"))
    builder = tf.saved_model.builder.SavedModelBuilder(str(tmp_path / "new"))
    with pytest.raises(AssertionError, match="has not been saved yet"):
        builder.add_meta_graph(["serve"])
    with tf.Session() as sess:
        x = tf.placeholder(tf.float32, name="x")
        bad = tf.saved_model.build_signature_def(
            {"x": saved_model_pb2.TensorInfo(name="x:0")}, {}, "m")
        with pytest.raises(AssertionError, match="must have the dtype field set"):
            builder.add_meta_graph_and_variables(sess, ["serve"], {"bad": bad})
        with pytest.raises(KeyError, match="reserved"):
            builder.add_meta_graph_and_variables(sess, ["serve"], {
                "__saved_model_init_op": tf.saved_model.predict_signature_def({"x": x},
                                                                              {"x": x})})
    with pytest.raises(OSError, match=r"SavedModel file does not exist at: .*nowhere"):
        tf.saved_model.loader.load(tf.Session(graph=tf.Graph()), ["serve"],
                                   str(tmp_path / "nowhere"))
    with tf.Session(graph=tf.Graph()) as sess:
        with pytest.raises(RuntimeError, match=r"MetaGraphDef associated with tags 'train' "
                                               r"could not be found in SavedModel, with "
                                               r"available tags '\[\{'serve'\}\]'"):
            tf.saved_model.loader.load(sess, ["train"], DATA)


def test_damaged_variables_are_refused(tmp_path):
    tensor_bundle.write_bundle(str(tmp_path / "v"), {"a": np.arange(4, dtype=np.int32)})
    data = tmp_path / "v.data-00000-of-00001"
    data.write_bytes(b"\x07" + data.read_bytes()[1:])
    with pytest.raises(errors.DataLossError, match="checksum does not match"):
        tensor_bundle.BundleReader(str(tmp_path / "v")).get_tensor("a")
    (tmp_path / "v.index").write_bytes(b"not a table at all" * 4)
    with pytest.raises(errors.DataLossError, match="bad magic"):
        tensor_bundle.BundleReader(str(tmp_path / "v"))


# -- signatures and TensorInfo --------------------------------------------------------------------

def test_signature_defs_and_tensor_info():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    ex = tf.placeholder(tf.string, [None], name="ex")
    classes = tf.constant(["a", "b"], name="classes")
    sp = tf.SparseTensor(indices=[[0, 0]], values=[1.0], dense_shape=[2, 2])
    info = tf.saved_model.utils.build_tensor_info(x)
    assert (info.name, info.dtype, [d.size for d in info.tensor_shape.dim]) == \
        ("x:0", 1, [-1, 3])
    sparse = tf.saved_model.build_tensor_info(sp)
    assert sparse.WhichOneof("encoding") == "coo_sparse"
    back = tf.saved_model.utils.get_tensor_from_tensor_info(sparse)
    assert back.values.name == sp.values.name
    classify = tf.saved_model.classification_signature_def(ex, classes, x)
    assert classify.method_name == tf.saved_model.signature_constants.CLASSIFY_METHOD_NAME
    assert sorted(classify.outputs) == ["classes", "scores"]
    assert tf.saved_model.signature_def_utils.is_valid_signature(classify)
    assert not tf.saved_model.is_valid_signature(
        tf.saved_model.build_signature_def({"x": info}, {}, "tensorflow/serving/predict"))
    with pytest.raises(ValueError, match="must be of type string"):
        tf.saved_model.regression_signature_def(x, x)
    with pytest.raises(ValueError, match="cannot be None or empty"):
        tf.saved_model.predict_signature_def({}, {"x": x})
    assert tf.saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY == \
        tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY == "serving_default"
    assert (tf.saved_model.tag_constants.SERVING, tf.saved_model.TRAINING,
            tf.saved_model.GPU, tf.saved_model.TPU) == ("serve", "train", "gpu", "tpu")
    assert tf.saved_model.main_op.main_op().type == "NoOp"


# -- TensorFlow loads what the sandbox wrote (only where a Python with TF is) ---------------------

_TF_LOADER = textwrap.dedent("""
    import json, sys
    import tensorflow as tf
    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    out = {}
    for export, tags, fetch in json.loads(sys.argv[1]):
        with tf1.Session(graph=tf.Graph()) as sess:
            meta = tf1.saved_model.loader.load(sess, tags, export)
            y = sess.run(fetch, {"x:0": %r})
            out[export + str(tags)] = {
                "y": y.tolist(), "signatures": sorted(meta.signature_def),
                "variables": [v.name for v in tf1.global_variables()],
                "step": int(sess.run("global_step:0"))}
    print("RESULT" + json.dumps(out))
""" % (X,))


@pytest.mark.skipif(not TF_PYTHON or not os.path.exists(TF_PYTHON),
                    reason="set TF_PYTHON to a Python with tensorflow (CI does, in its TensorFlow "
                           "step); the "
                           "files the sandbox writes are checked by the tests above instead")
def test_tensorflow_loads_what_the_sandbox_wrote(tmp_path):
    ref = _simple_save(tmp_path / "simple")
    tf.reset_default_graph()
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a\n")
    _builder_model(tmp_path / "built", vocab)
    jobs = [(str(tmp_path / "simple"), ["serve"], "y:0"),
            (str(tmp_path / "built"), ["serve"], "z:0"),
            (str(tmp_path / "built"), ["train", "gpu"], "z:0")]
    proc = subprocess.run([TF_PYTHON, "-c", _TF_LOADER, json.dumps(jobs)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.split("RESULT", 1)[1])
    simple = result[str(tmp_path / "simple") + "['serve']"]
    np.testing.assert_allclose(simple["y"], ref, rtol=1e-6)
    assert simple["variables"] == ["w:0", "b:0", "global_step:0"] and simple["step"] == 41
    built = result[str(tmp_path / "built") + "['serve']"]
    np.testing.assert_allclose(built["y"], np.maximum(np.dot(X, TF215_KERNEL) + TF215_BIAS,
                                                      0) + 7.0, rtol=1e-6)   # main op ran
    assert built["signatures"] == ["regress", "serving_default"]
    assert result[str(tmp_path / "built") + "['train', 'gpu']"]["y"] == built["y"]
