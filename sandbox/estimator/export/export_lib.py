"""Signatures and directories of an export -- mirrors tensorflow_estimator/python/estimator/
export/export_lib.py, which gathers the export API, and what it takes from TensorFlow's
python/saved_model/model_utils/export_utils.py (build_all_signature_defs,
get_timestamped_export_dir, get_temp_export_dir, get_export_outputs).

    get_export_outputs(export_outputs, predictions)
        what EstimatorSpec does with export_outputs in PREDICT mode: None gives
        {'serving_default': PredictOutput(predictions)}; a dict must hold ExportOutputs
        (TypeError); a single entry is also put under 'serving_default'; several without
        'serving_default' are refused (ValueError)
    build_all_signature_defs(receiver_tensors, export_outputs, alternatives)
        one SignatureDef per export output, its inputs the receiver tensors, plus
        'alternative:key' for each receiver_tensors_alternatives entry; an output whose
        signature cannot be built (a Classify signature fed float features ...) or needs a
        placeholder that is not an input is left out and logged, as is any signature that
        is not a valid Classify, Regress or Predict signature
    get_timestamped_export_dir(base) / get_temp_export_dir(dir)
        base/<seconds since the epoch> (bytes) and its 'temp-' sibling
"""
import collections
import logging
import os
import time

from ...framework.tensor import Tensor
from ...saved_model import signature_constants, signature_def_utils
from ...saved_model.utils_impl import get_tensor_from_tensor_info
from .export import (SINGLE_FEATURE_DEFAULT_NAME, SINGLE_LABEL_DEFAULT_NAME,
                     SINGLE_RECEIVER_DEFAULT_NAME, ServingInputReceiver,
                     TensorServingInputReceiver, build_parsing_serving_input_receiver_fn,
                     build_raw_serving_input_receiver_fn)
from .export_output import ClassificationOutput, ExportOutput, PredictOutput, RegressionOutput

__all__ = ["ServingInputReceiver", "TensorServingInputReceiver",
           "build_parsing_serving_input_receiver_fn", "build_raw_serving_input_receiver_fn",
           "ExportOutput", "ClassificationOutput", "RegressionOutput", "PredictOutput",
           "build_all_signature_defs", "get_export_outputs", "get_timestamped_export_dir",
           "get_temp_export_dir", "SINGLE_FEATURE_DEFAULT_NAME", "SINGLE_LABEL_DEFAULT_NAME",
           "SINGLE_RECEIVER_DEFAULT_NAME", "EXPORT_TAG_MAP", "MAX_DIRECTORY_CREATION_ATTEMPTS"]

_log = logging.getLogger("sandbox")

EXPORT_TAG_MAP = {"infer": ["serve"], "train": ["train"], "eval": ["eval"]}
MAX_DIRECTORY_CREATION_ATTEMPTS = 10


# -- export_outputs ---------------------------------------------------------------------------

def get_export_outputs(export_outputs, predictions):
    """Checked export_outputs, or the default {'serving_default': PredictOutput}."""
    if export_outputs is None:
        export_outputs = {signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                          PredictOutput(predictions)}
    if not isinstance(export_outputs, dict):
        raise TypeError(f"`export_outputs` must be dict, received: {export_outputs}.")
    for v in export_outputs.values():
        if not isinstance(v, ExportOutput):
            raise TypeError("Values in `export_outputs` must be ExportOutput objects, "
                            f"received: {export_outputs}.")
    _maybe_add_default_serving_output(export_outputs)
    return export_outputs


def _maybe_add_default_serving_output(export_outputs):
    default_key = signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY
    if len(export_outputs) == 1:
        (key, value), = export_outputs.items()
        if key != default_key:
            export_outputs[default_key] = value
    if len(export_outputs) > 1 and default_key not in export_outputs:
        raise ValueError("Multiple `export_outputs` were provided, but none of them are "
                         "specified as the default. Use"
                         "`tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY` to specify a "
                         "default.")
    return export_outputs


# -- signatures ------------------------------------------------------------------------------

def _flatten(tensors):
    out = []
    for t in tensors:
        if isinstance(t, Tensor):
            out.append(t)
        else:                                   # a SparseTensor: its three tensors
            out.extend([t.indices, t.values, t.dense_shape])
    return out


def _ensure_servable(input_tensors, names_to_output_tensor_infos):
    """ValueError when an output depends on a Placeholder that is not among the inputs."""
    inputs = _flatten(input_tensors)
    graph = inputs[0].graph if inputs else None
    outputs = _flatten([get_tensor_from_tensor_info(info, graph=graph)
                        for info in names_to_output_tensor_infos.values()])
    fed = set(inputs)
    seen, stack = set(), [(t.op, (t.op.name,)) for t in outputs if t not in fed]
    while stack:
        op, path = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op.type == "Placeholder" and not all(o in fed for o in op.outputs):
            raise ValueError(
                f"The signature's input tensors {[t.name for t in inputs]} are insufficient "
                f"to compute its output keys {list(names_to_output_tensor_infos)} "
                f"(respectively, tensors {[t.name for t in outputs]}) because of the "
                f"dependency on `{op.name}` which is not given as a signature input, as "
                "illustrated by the following dependency path: "
                + " <- ".join(reversed(path)))
        for t in op.inputs:
            if t not in fed:
                stack.append((t.op, path + (t.op.name,)))
        stack.extend((c, path + (c.name,)) for c in op.control_inputs)


def build_all_signature_defs(receiver_tensors, export_outputs,
                             receiver_tensors_alternatives=None, serving_only=True):
    """{signature key: SignatureDef} for every export output (see the module docstring)."""
    if not isinstance(receiver_tensors, dict):
        receiver_tensors = {SINGLE_RECEIVER_DEFAULT_NAME: receiver_tensors}
    if export_outputs is None or not isinstance(export_outputs, dict):
        raise ValueError(f"`export_outputs` must be a dict. Received {export_outputs} with "
                         f"type {type(export_outputs).__name__}.")
    signature_def_map, excluded = {}, {}
    groups = [(None, receiver_tensors)]
    for receiver_name, alt in (receiver_tensors_alternatives or {}).items():
        if not isinstance(alt, dict):
            alt = {SINGLE_RECEIVER_DEFAULT_NAME: alt}
        groups.append((receiver_name or "None", alt))
    for receiver_name, tensors in groups:
        for output_key, export_output in export_outputs.items():
            name = f"{output_key or 'None'}"
            if receiver_name is not None:
                name = f"{receiver_name}:{name}"
            try:
                signature = export_output.as_signature_def(tensors)
                _ensure_servable(tensors.values(), signature.outputs)
                signature_def_map[name] = signature
            except ValueError as e:
                excluded[name] = str(e)
    _log_signature_report(signature_def_map, excluded)
    if serving_only:
        signature_def_map = {k: v for k, v in signature_def_map.items()
                             if signature_def_utils.is_valid_signature(v)}
    return signature_def_map


_FRIENDLY_METHOD_NAMES = {
    signature_constants.CLASSIFY_METHOD_NAME: "Classify",
    signature_constants.REGRESS_METHOD_NAME: "Regress",
    signature_constants.PREDICT_METHOD_NAME: "Predict",
    signature_constants.SUPPORTED_TRAIN_METHOD_NAME: "Train",
    signature_constants.SUPPORTED_EVAL_METHOD_NAME: "Eval",
}


def _log_signature_report(signature_def_map, excluded_signatures):
    by_method = collections.defaultdict(list)
    for method_name in _FRIENDLY_METHOD_NAMES:
        by_method[method_name] = []
    for name, sig in signature_def_map.items():
        by_method[sig.method_name].append(name)
    for method_name, names in by_method.items():
        _log.info("Signatures INCLUDED in export for %s: %s",
                  _FRIENDLY_METHOD_NAMES.get(method_name, method_name), names or "None")
    if excluded_signatures:
        _log.info("Signatures EXCLUDED from export because they cannot be be served via "
                  "TensorFlow Serving APIs:")
        for name, message in excluded_signatures.items():
            _log.info("'%s' : %s", name, message)
    if not signature_def_map:
        _log.warning("Export includes no signatures!")
    elif signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY not in signature_def_map:
        _log.warning("Export includes no default signature!")


# -- directories -----------------------------------------------------------------------------

def _bytes(path):
    return path if isinstance(path, bytes) else os.fspath(path).encode("utf-8")


def get_timestamped_export_dir(export_dir_base):
    """export_dir_base/<seconds since the epoch>, as bytes; not created. Waits a second and
    tries again while it exists (up to 10 times, then RuntimeError)."""
    for attempt in range(1, MAX_DIRECTORY_CREATION_ATTEMPTS + 1):
        result_dir = os.path.join(_bytes(export_dir_base), str(int(time.time())).encode())
        if not os.path.exists(result_dir):
            return result_dir
        time.sleep(1)
        _log.warning("Directory %s already exists; retrying (attempt %d/%d)",
                     result_dir.decode("utf-8"), attempt, MAX_DIRECTORY_CREATION_ATTEMPTS)
    raise RuntimeError("Failed to obtain a unique export directory name after "
                       f"{MAX_DIRECTORY_CREATION_ATTEMPTS} attempts.")


def get_temp_export_dir(timestamped_export_dir):
    """The sibling 'temp-<timestamp>' (TensorFlow Serving ignores names that are not
    numbers), where the export is written before it is renamed."""
    dirname, basename = os.path.split(_bytes(timestamped_export_dir))
    return os.path.join(dirname, b"temp-" + basename)
