"""tf.estimator.export and Estimator.export_saved_model (sandbox/estimator/export/): serving
input receivers, export outputs, EstimatorSpec(export_outputs=...), and SavedModels of a custom
model_fn, a DNNClassifier, a LinearClassifier and a LinearRegressor -- loaded back by the
sandbox's tf.saved_model.loader.load, whose signatures give what Estimator.predict gives, and,
when TF_PYTHON names a Python with TensorFlow, by TensorFlow itself.

The signature keys, method names and inputs marked 'TF 2.15' are those TF 2.15.1's
tf.compat.v1.estimator wrote for the same estimators and receivers."""
import base64
import json
import os
import subprocess
import textwrap

import numpy as np
import pytest

import sandbox as tf
from sandbox.saved_model import loader_impl

fc = tf.feature_column
export = tf.estimator.export
# A Python that has TensorFlow (CI sets it in its TensorFlow step: .ci/run); else skipped.
TF_PYTHON = os.environ.get("TF_PYTHON", "")
needs_tf = pytest.mark.skipif(
    not TF_PYTHON or not os.path.exists(TF_PYTHON),
    reason="set TF_PYTHON to a Python with tensorflow (CI does, in its TensorFlow step) to "
           "check that TensorFlow loads the exports; the sandbox's own loader checks them above")

RNG = np.random.RandomState(0)
Y3 = np.arange(30) % 3
X2 = (np.stack([Y3 * 1.0, 2.0 - Y3], 1) + RNG.normal(0, 0.3, (30, 2))).astype(np.float32)
FEATURES = {"a": X2[:, 0], "b": X2[:, 1]}
X3 = RNG.rand(16, 3).astype(np.float32)


def _input_fn(labels):
    def input_fn():
        return tf.data.Dataset.from_tensor_slices((FEATURES, labels)).repeat().batch(30)
    return input_fn


def _predict_input_fn():
    return tf.data.Dataset.from_tensor_slices(FEATURES).batch(30)


def _raw_receiver_fn():
    """Placeholders for 'a' and 'b' ([None] floats), made in a graph of their own: the
    receiver only takes their dtype, shape and op name."""
    with tf.Graph().as_default():
        spec = {"a": tf.placeholder(tf.float32, [None]),
                "b": tf.placeholder(tf.float32, [None], name="bb")}
    return export.build_raw_serving_input_receiver_fn(spec)


def _parsing_receiver_fn():
    return export.build_parsing_serving_input_receiver_fn(
        fc.make_parse_example_spec([fc.numeric_column("a"), fc.numeric_column("b")]))


def _linear_model_fn(features, labels, mode):
    """y = x w + 1 (w from 0): predictions {'y': ...}, no export_outputs (the default)."""
    w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
    pred = tf.matmul(features["x"], w) + 1.0
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"y": pred})
    loss = tf.reduce_mean(tf.square(pred - labels))
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(
        loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def _signatures(export_dir):
    """{key: (method, {input key: tensor name}, [output keys])} of the SavedModel's graph."""
    (meta,) = loader_impl.parse_saved_model(export_dir).meta_graphs
    assert list(meta.meta_info_def.tags) == ["serve"]
    return {k: (s.method_name.rsplit("/", 1)[1], {i: t.name for i, t in s.inputs.items()},
                sorted(s.outputs)) for k, s in meta.signature_def.items()}


def _load_and_run(export_dir, key, feed):
    """Runs signature `key` of the SavedModel in a new sandbox session: {output: value}."""
    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                          export_dir)
        sig = meta.signature_def[key]
        return sess.run({k: v.name for k, v in sig.outputs.items()},
                        {sig.inputs[k].name: v for k, v in feed.items()})


def _stack(predictions, key):
    return np.stack([p[key] for p in predictions])


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """The estimators, each trained 2 steps, and the base directory of their exports."""
    base = tmp_path_factory.mktemp("estimators")
    custom = tf.estimator.Estimator(_linear_model_fn, model_dir=str(base / "custom"))
    labels = X3 @ np.float32([[1.0], [2.0], [3.0]])
    custom.train(lambda: ({"x": tf.constant(X3)}, tf.constant(labels)), steps=2)
    cols = [fc.numeric_column("a"), fc.numeric_column("b")]
    dnn = tf.estimator.DNNClassifier([4], cols, n_classes=3, model_dir=str(base / "dnn"))
    dnn.train(_input_fn(Y3), steps=2)
    binary = tf.estimator.LinearClassifier(cols, model_dir=str(base / "binary"))
    binary.train(_input_fn((Y3 > 0).astype(np.int64)), steps=2)
    linear = tf.estimator.LinearRegressor(cols, model_dir=str(base / "linear"))
    linear.train(_input_fn(Y3.astype(np.float32)), steps=2)
    return {"custom": custom, "dnn": dnn, "binary": binary, "linear": linear,
            "exports": base / "exports"}


@pytest.fixture(scope="module")
def raw_exports(trained):
    """Each estimator exported once with a raw receiver: {name: export dir (bytes)}."""
    custom_fn = export.build_raw_serving_input_receiver_fn(
        {"x": tf.placeholder(tf.float32, [None, 3], name="x")})
    out = {"custom": trained["custom"].export_saved_model(
        str(trained["exports"] / "custom"), custom_fn)}
    for name in ("dnn", "binary", "linear"):
        out[name] = trained[name].export_saved_model(str(trained["exports"] / name),
                                                     _raw_receiver_fn())
    return out


# -- receivers and outputs ---------------------------------------------------------------------

def test_receivers_check_and_wrap_as_tf():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    receiver = export.ServingInputReceiver(x, x)
    assert receiver.features == {"feature": x} and receiver.receiver_tensors == {"input": x}
    assert receiver.receiver_tensors_alternatives is None
    assert export.TensorServingInputReceiver(x, {"x": x}).features is x
    with pytest.raises(ValueError, match="^features must be defined.$"):
        export.ServingInputReceiver(None, x)
    with pytest.raises(ValueError, match="^feature y must be a Tensor, SparseTensor, or "
                                         "RaggedTensor.$"):
        export.ServingInputReceiver({"y": [1.0]}, x)
    with pytest.raises(ValueError, match="^receiver_tensor keys must be strings: 1.$"):
        export.ServingInputReceiver(x, {1: x})
    with pytest.raises(ValueError, match="receiver_tensors_alternatives must be a dict"):
        export.ServingInputReceiver(x, x, receiver_tensors_alternatives=x)

    with tf.Graph().as_default():
        given = {"img": tf.placeholder(tf.float32, [8, 4, 4], name="pixels")}
    with tf.Graph().as_default():
        raw = export.build_raw_serving_input_receiver_fn(given)()
        assert raw.features is raw.receiver_tensors or raw.features == raw.receiver_tensors
        img = raw.receiver_tensors["img"]
        assert (img.op.name, img.get_shape().as_list(), img.dtype) == \
            ("pixels", [None, 4, 4], tf.float32)
        parsed = _parsing_receiver_fn()()
        assert list(parsed.receiver_tensors) == ["examples"]
        assert parsed.receiver_tensors["examples"].name == "input_example_tensor:0"
        assert sorted(parsed.features) == ["a", "b"]


def test_export_outputs_check_and_give_signatures_as_tf():
    examples = tf.placeholder(tf.string, [None], name="examples")
    scores = tf.placeholder(tf.float32, [None, 3], name="scores")
    classes = tf.placeholder(tf.string, [None, 3], name="classes")
    with pytest.raises(ValueError, match="Classification scores must be a float32 Tensor"):
        export.ClassificationOutput(scores=classes)
    with pytest.raises(ValueError, match="Classification classes must be a string Tensor"):
        export.ClassificationOutput(classes=scores)
    with pytest.raises(ValueError, match="Cannot create a ClassificationOutput with empty "):
        export.ClassificationOutput()
    with pytest.raises(ValueError, match="Regression output value must be a float32 Tensor"):
        export.RegressionOutput(classes)
    with pytest.raises(ValueError, match="^Prediction output value must be a Tensor; got 3.$"):
        export.PredictOutput({"a": 3})
    assert list(export.PredictOutput(scores).outputs) == ["output"]
    sig = export.ClassificationOutput(scores, classes).as_signature_def({"in": examples})
    assert sig.method_name == "tensorflow/serving/classify"
    assert sorted(sig.outputs) == ["classes", "scores"] and list(sig.inputs) == ["inputs"]
    with pytest.raises(ValueError, match="Regression signatures can only accept a single "
                                         "tensor input of type tf.string"):
        export.RegressionOutput(scores).as_signature_def({"x": scores})
    assert isinstance(export.PredictOutput(scores), export.ExportOutput)


def test_estimator_spec_export_outputs_as_tf():
    x = tf.placeholder(tf.float32, [None, 1])
    spec = tf.estimator.EstimatorSpec(tf.estimator.ModeKeys.PREDICT, predictions=x)
    (key, default), = spec.export_outputs.items()
    assert key == "serving_default" and default.outputs == {"output": x}
    regress = export.RegressionOutput(x)
    spec = tf.estimator.EstimatorSpec("infer", predictions={"y": x},
                                      export_outputs={"regress": regress})
    assert spec.export_outputs == {"regress": regress, "serving_default": regress}
    with pytest.raises(ValueError, match="Multiple `export_outputs` were provided, but none "
                                         "of them are specified as the default"):
        tf.estimator.EstimatorSpec("infer", predictions=x, export_outputs={
            "a": regress, "b": export.PredictOutput(x)})
    with pytest.raises(TypeError, match="`export_outputs` must be dict"):
        tf.estimator.EstimatorSpec("infer", predictions=x, export_outputs=[regress])
    with pytest.raises(TypeError, match="Values in `export_outputs` must be ExportOutput"):
        tf.estimator.EstimatorSpec("infer", predictions=x, export_outputs={"a": x})
    loss = tf.reduce_sum(x)
    assert tf.estimator.EstimatorSpec("eval", loss=loss).export_outputs is None  # as TF


def test_build_all_signature_defs_as_tf():
    from sandbox.estimator.export import export_lib
    examples = tf.placeholder(tf.string, [None], name="examples")
    x = tf.placeholder(tf.float32, [None, 1], name="x")
    other = tf.placeholder(tf.float32, [None, 1], name="other")
    y = tf.identity(x * 2.0, name="y")
    outputs = {"serving_default": export.RegressionOutput(y),
               "predict": export.PredictOutput({"y": y}),
               "needs_other": export.PredictOutput({"z": y + other})}
    sigs = export_lib.build_all_signature_defs({"examples": examples}, outputs,
                                               receiver_tensors_alternatives={"raw": x})
    # TF 2.15 gives the same: on `examples` no output can be computed (x is not an input);
    # on the raw x the Regress output needs a string input and 'needs_other' needs `other`
    assert sorted(sigs) == ["raw:predict"]
    assert sigs["raw:predict"].method_name == "tensorflow/serving/predict"
    assert sigs["raw:predict"].inputs["input"].name == "x:0"
    with pytest.raises(ValueError, match="^`export_outputs` must be a dict. Received None"):
        export_lib.build_all_signature_defs(x, None)
    with pytest.raises(ValueError, match=r"insufficient to compute its output keys \['z'\]"):
        export_lib._ensure_servable([x], outputs["needs_other"].as_signature_def(
            {"x": x}).outputs)
    assert export_lib.get_temp_export_dir(b"/base/123") == b"/base/temp-123"


# -- exports the sandbox loads -----------------------------------------------------------------

def test_custom_model_fn_export_loads_and_predicts_as_predict(trained, raw_exports, tmp_path):
    est, export_dir = trained["custom"], raw_exports["custom"]
    assert isinstance(export_dir, bytes)
    base, stamp = os.path.split(export_dir.decode())
    assert stamp.isdigit() and os.listdir(base) == [stamp]          # temp- renamed away
    assert sorted(os.listdir(export_dir.decode())) == ["saved_model.pb", "variables"]
    # no export_outputs: TF's default PredictOutput of the predictions
    assert _signatures(export_dir) == {"serving_default": ("predict", {"x": "x:0"}, ["y"])}
    got = _load_and_run(export_dir, "serving_default", {"x": X3})
    expected = list(est.predict(lambda: tf.data.Dataset.from_tensor_slices({"x": X3}).batch(16)))
    np.testing.assert_allclose(got["y"], _stack(expected, "y"), rtol=1e-6)
    assert not np.allclose(got["y"], 1.0)                         # trained weights restored

    extra = tmp_path / "notes.txt"
    extra.write_text("hello")
    fn = export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 3],
                                                                         name="x")})
    text_dir = est.export_savedmodel(str(tmp_path / "text"), fn, as_text=True,
                                     assets_extra={"sub/notes.txt": str(extra)},
                                     checkpoint_path=est.latest_checkpoint())
    assert sorted(os.listdir(text_dir.decode())) == ["assets.extra", "saved_model.pbtxt",
                                                     "variables"]
    assert (tmp_path / "text" / os.path.basename(text_dir.decode()) / "assets.extra" / "sub" /
            "notes.txt").read_text() == "hello"
    np.testing.assert_allclose(_load_and_run(text_dir, "serving_default", {"x": X3})["y"],
                               got["y"])


def test_export_errors_as_tf(tmp_path):
    est = tf.estimator.Estimator(_linear_model_fn, model_dir=str(tmp_path / "untrained"))
    fn = export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 3])})
    with pytest.raises(ValueError, match=r"^Couldn't find trained model at .*untrained\.$"):
        est.export_saved_model(str(tmp_path / "export"), fn)
    with pytest.raises(ValueError, match="An input_receiver_fn must be defined."):
        est.export_saved_model(str(tmp_path / "export"), None)
    assert not (tmp_path / "export").exists()


def test_export_restore_errors_as_tf(trained, tmp_path):
    def model_fn(features, labels, mode):      # PREDICT wants a variable never trained
        extra = tf.get_variable("extra", [1])
        spec = _linear_model_fn(features, labels, mode)
        return spec._replace(predictions={"y": spec.predictions["y"] + extra}) \
            if mode == tf.estimator.ModeKeys.PREDICT else spec
    est = tf.estimator.Estimator(model_fn, model_dir=trained["custom"].model_dir)
    fn = export.build_raw_serving_input_receiver_fn({"x": tf.placeholder(tf.float32, [None, 3])})
    with pytest.raises(ValueError, match=r"(?s)^Could not load all requested variables from "
                                         r"checkpoint.*Encountered error with mode `infer`.*"
                                         r"Key extra not found in checkpoint"):
        est.export_saved_model(str(tmp_path / "export"), fn)
    with pytest.raises(NotImplementedError, match="PREDICT graphs only"):
        est.export_saved_model(str(tmp_path / "export"), fn, experimental_mode="train")


def test_canned_raw_exports_give_predict_signatures_as_tf(trained, raw_exports):
    a = {"a": "Placeholder:0", "b": "bb:0"}
    # TF 2.15: with float inputs the Classify and Regress outputs are left out (they take
    # serialized tf.Examples), so only 'predict' remains -- and no default signature
    assert _signatures(raw_exports["dnn"]) == {"predict": ("predict", a, [
        "all_class_ids", "all_classes", "class_ids", "classes", "logits", "probabilities"])}
    assert _signatures(raw_exports["binary"]) == {"predict": ("predict", a, [
        "all_class_ids", "all_classes", "class_ids", "classes", "logistic", "logits",
        "probabilities"])}
    assert _signatures(raw_exports["linear"]) == {"predict": ("predict", a, ["predictions"])}
    feed = {"a": FEATURES["a"], "b": FEATURES["b"]}
    for name, keys in [("dnn", ["probabilities", "class_ids", "classes", "all_classes"]),
                       ("binary", ["logistic", "probabilities", "class_ids", "classes"]),
                       ("linear", ["predictions"])]:
        got = _load_and_run(raw_exports[name], "predict", feed)
        expected = list(trained[name].predict(_predict_input_fn))
        for key in keys:
            want = _stack(expected, key)
            if want.dtype == object:
                assert got[key].tolist() == want.tolist(), (name, key)
            else:
                np.testing.assert_allclose(got[key], want, rtol=1e-6, err_msg=f"{name} {key}")


def test_canned_parsing_exports_have_tfs_signatures(trained, tmp_path):
    tf_examples = {"inputs": "input_example_tensor:0"}
    classify = ("classify", tf_examples, ["classes", "scores"])
    regress = ("regress", tf_examples, ["outputs"])
    expected = {   # TF 2.15
        "dnn": {"serving_default": classify, "classification": classify,
                "predict": ("predict", {"examples": "input_example_tensor:0"}, [
                    "all_class_ids", "all_classes", "class_ids", "classes", "logits",
                    "probabilities"])},
        "binary": {"serving_default": classify, "classification": classify,
                   "regression": regress,
                   "predict": ("predict", {"examples": "input_example_tensor:0"}, [
                       "all_class_ids", "all_classes", "class_ids", "classes", "logistic",
                       "logits", "probabilities"])},
        "linear": {"serving_default": regress, "regression": regress,
                   "predict": ("predict", {"examples": "input_example_tensor:0"},
                               ["predictions"])}}
    for name, signatures in expected.items():
        export_dir = trained[name].export_saved_model(str(tmp_path / name),
                                                      _parsing_receiver_fn())
        assert _signatures(export_dir) == signatures, name


def _serialized_examples():
    return [tf.train.Example(features=tf.train.Features(feature={
        "a": tf.train.Feature(float_list=tf.train.FloatList(value=[a])),
        "b": tf.train.Feature(float_list=tf.train.FloatList(value=[b]))})).SerializeToString()
        for a, b in zip(FEATURES["a"], FEATURES["b"])]


def test_parsing_export_loads_and_classifies_as_predict(trained, tmp_path):
    export_dir = trained["dnn"].export_saved_model(str(tmp_path / "dnn"),
                                                   _parsing_receiver_fn())
    got = _load_and_run(export_dir, "classification", {"inputs": _serialized_examples()})
    expected = list(trained["dnn"].predict(_predict_input_fn))
    np.testing.assert_allclose(got["scores"], _stack(expected, "probabilities"), rtol=1e-6)


# -- TensorFlow loads them ---------------------------------------------------------------------

_TF_LOADER = textwrap.dedent("""
    import base64, json, sys
    import tensorflow as tf
    tf1 = tf.compat.v1
    tf1.disable_eager_execution()
    out = {}
    for name, export_dir, key, feed in json.loads(sys.argv[1]):
        feed = {k: [base64.b64decode(s) for s in v["b64"]] if isinstance(v, dict) else v
                for k, v in feed.items()}               # serialized tf.Examples
        with tf1.Session(graph=tf.Graph()) as sess:
            meta = tf1.saved_model.loader.load(sess, ["serve"], export_dir)
            sig = meta.signature_def[key]
            values = sess.run({k: v.name for k, v in sig.outputs.items()},
                              {sig.inputs[k].name: v for k, v in feed.items()})
            out[name] = {"signatures": sorted(meta.signature_def),
                         "outputs": {k: v.tolist() if v.dtype != object else
                                     [[c.decode() for c in row] for row in v]
                                     for k, v in values.items()}}
    print("RESULT" + json.dumps(out))
""")


@needs_tf
def test_tensorflow_loads_the_exports_and_gives_the_same_outputs(trained, raw_exports,
                                                                  tmp_path):
    feed = {"a": FEATURES["a"].tolist(), "b": FEATURES["b"].tolist()}
    jobs = [("custom", raw_exports["custom"].decode(), "serving_default", {"x": X3.tolist()})]
    jobs += [(name, raw_exports[name].decode(), "predict", feed)
             for name in ("dnn", "binary", "linear")]
    parsing = trained["dnn"].export_saved_model(str(tmp_path / "parsing"),
                                                _parsing_receiver_fn())
    examples = [base64.b64encode(e).decode() for e in _serialized_examples()]
    jobs.append(("parsing", parsing.decode(), "classification", {"inputs": {"b64": examples}}))
    proc = subprocess.run([TF_PYTHON, "-c", _TF_LOADER, json.dumps(jobs)],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    result = json.loads(proc.stdout.split("RESULT", 1)[1])
    for name, export_dir, key, job_feed in jobs:
        ours = _load_and_run(export_dir, key, {
            k: np.array([base64.b64decode(e) for e in v["b64"]], object)
            if isinstance(v, dict) else np.asarray(v, np.float32) for k, v in job_feed.items()})
        theirs = result[name]["outputs"]
        assert sorted(theirs) == sorted(ours), name
        for k, value in ours.items():
            if value.dtype == object:
                assert theirs[k] == [[c.decode() for c in row] for row in value], (name, k)
            else:
                np.testing.assert_allclose(theirs[k], value, rtol=1e-5, err_msg=f"{name} {k}")
        assert result[name]["signatures"] == (
            ["serving_default"] if name == "custom" else
            ["classification", "predict", "serving_default"]
            if name == "parsing" else ["predict"]), name
