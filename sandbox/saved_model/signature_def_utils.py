"""SignatureDefs: what a SavedModel's caller feeds and fetches, by name -- TF's
python/saved_model/signature_def_utils_impl.py (tf.saved_model.signature_def_utils.X, and
tf.saved_model.X).

    sig = tf.saved_model.predict_signature_def(inputs={'x': x}, outputs={'y': y})
    builder.add_meta_graph_and_variables(sess, [tag_constants.SERVING],
                                         signature_def_map={'serving_default': sig})

A loader then runs `sig.outputs['y'].name` feeding `sig.inputs['x'].name`. The classify and
regress signatures keep TensorFlow Serving's rules (a string input of serialized tf.Examples;
string classes, float scores and predictions), checked as TF checks them.
"""
from ..framework.tensor_proto import make_tensor_proto
from . import signature_constants
from .utils_impl import build_tensor_info

__all__ = ["build_signature_def", "classification_signature_def", "is_valid_signature",
           "predict_signature_def", "regression_signature_def"]

_DT_STRING = 7     # TF's DataType enum: DT_STRING (enum_of_dtype(dtypes.string))
_DT_FLOAT = 1      # DT_FLOAT


def build_signature_def(inputs=None, outputs=None, method_name=None, defaults=None):
    """A SignatureDef of {key: TensorInfo} inputs and outputs and a method name; `defaults`
    {input key: a Const tensor} gives inputs a default value (as a TensorProto)."""
    from ..framework.saved_model_pb2 import SignatureDef    # protobuf: loaded on first use
    signature_def = SignatureDef()
    for key in inputs or {}:
        signature_def.inputs[key].CopyFrom(inputs[key])
    for key in outputs or {}:
        signature_def.outputs[key].CopyFrom(outputs[key])
    if method_name is not None:
        signature_def.method_name = method_name
    for key, default in (defaults or {}).items():
        op = getattr(default, "op", None)
        if op is None or op.type != "Const":
            raise ValueError(f"Unable to convert object {default} of type {type(default)} "
                             "to TensorProto.")
        signature_def.defaults[key].ParseFromString(
            make_tensor_proto(op.get_attr("value")).SerializeToString())
    return signature_def


def _is_tensor(x):
    return hasattr(x, "op") and hasattr(x, "dtype") and hasattr(x, "get_shape")


def regression_signature_def(examples, predictions):
    """A Regress signature (TensorFlow Serving): string `examples` -> float `predictions`."""
    if examples is None:
        raise ValueError("Regression `examples` cannot be None.")
    if not _is_tensor(examples):
        raise ValueError("Expected regression `examples` to be of type Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if predictions is None:
        raise ValueError("Regression `predictions` cannot be None.")
    input_info = build_tensor_info(examples)
    if input_info.dtype != _DT_STRING:
        raise ValueError("Regression input tensors must be of type string. Found tensors "
                         f"with type {input_info.dtype}.")
    output_info = build_tensor_info(predictions)
    if output_info.dtype != _DT_FLOAT:
        raise ValueError("Regression output tensors must be of type float. Found tensors "
                         f"with type {output_info.dtype}.")
    return build_signature_def({signature_constants.REGRESS_INPUTS: input_info},
                               {signature_constants.REGRESS_OUTPUTS: output_info},
                               signature_constants.REGRESS_METHOD_NAME)


def classification_signature_def(examples, classes, scores):
    """A Classify signature (TensorFlow Serving): string `examples` -> string `classes`
    and/or float `scores`."""
    if examples is None:
        raise ValueError("Classification `examples` cannot be None.")
    if not _is_tensor(examples):
        raise ValueError("Classification `examples` must be a string Tensor. Found "
                         f"`examples` of type {type(examples)}.")
    if classes is None and scores is None:
        raise ValueError("Classification `classes` and `scores` cannot both be None.")
    input_info = build_tensor_info(examples)
    if input_info.dtype != _DT_STRING:
        raise ValueError("Classification input tensors must be of type string. Found "
                         f"tensors of type {input_info.dtype}")
    outputs = {}
    if classes is not None:
        info = build_tensor_info(classes)
        if info.dtype != _DT_STRING:
            raise ValueError("Classification classes must be of type string Tensor. Found "
                             f"tensors of type {info.dtype}.`")
        outputs[signature_constants.CLASSIFY_OUTPUT_CLASSES] = info
    if scores is not None:
        info = build_tensor_info(scores)
        if info.dtype != _DT_FLOAT:
            raise ValueError("Classification scores must be a float Tensor.")
        outputs[signature_constants.CLASSIFY_OUTPUT_SCORES] = info
    return build_signature_def({signature_constants.CLASSIFY_INPUTS: input_info}, outputs,
                               signature_constants.CLASSIFY_METHOD_NAME)


def predict_signature_def(inputs, outputs):
    """A Predict signature: any {key: Tensor} inputs and outputs (none may be empty)."""
    if not inputs:
        raise ValueError("Prediction `inputs` cannot be None or empty.")
    if not outputs:
        raise ValueError("Prediction `outputs` cannot be None or empty.")
    return build_signature_def({k: build_tensor_info(t) for k, t in inputs.items()},
                               {k: build_tensor_info(t) for k, t in outputs.items()},
                               signature_constants.PREDICT_METHOD_NAME)


def is_valid_signature(signature_def):
    """Whether `signature_def` is a valid Classify, Regress or Predict signature."""
    if signature_def is None:
        return False
    return (_is_valid_classification(signature_def) or _is_valid_regression(signature_def)
            or _is_valid_predict(signature_def))


def _is_valid_predict(sig):
    return (sig.method_name == signature_constants.PREDICT_METHOD_NAME and
            bool(sig.inputs.keys()) and bool(sig.outputs.keys()))


def _is_valid_regression(sig):
    c = signature_constants
    return (sig.method_name == c.REGRESS_METHOD_NAME and
            set(sig.inputs.keys()) == {c.REGRESS_INPUTS} and
            sig.inputs[c.REGRESS_INPUTS].dtype == _DT_STRING and
            set(sig.outputs.keys()) == {c.REGRESS_OUTPUTS} and
            sig.outputs[c.REGRESS_OUTPUTS].dtype == _DT_FLOAT)


def _is_valid_classification(sig):
    c = signature_constants
    if sig.method_name != c.CLASSIFY_METHOD_NAME:
        return False
    if set(sig.inputs.keys()) != {c.CLASSIFY_INPUTS} or \
            sig.inputs[c.CLASSIFY_INPUTS].dtype != _DT_STRING:
        return False
    outputs = set(sig.outputs.keys())
    if not outputs or outputs - {c.CLASSIFY_OUTPUT_CLASSES, c.CLASSIFY_OUTPUT_SCORES}:
        return False
    if c.CLASSIFY_OUTPUT_CLASSES in outputs and \
            sig.outputs[c.CLASSIFY_OUTPUT_CLASSES].dtype != _DT_STRING:
        return False
    if c.CLASSIFY_OUTPUT_SCORES in outputs and \
            sig.outputs[c.CLASSIFY_OUTPUT_SCORES].dtype != _DT_FLOAT:
        return False
    return True
