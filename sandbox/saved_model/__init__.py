"""`tf.saved_model` -- TensorFlow 1.15's SavedModel API (the TF-1 one, tf.compat.v1.saved_model):
a model written for serving, in TensorFlow's own format, so TF and TensorFlow Serving load what
the sandbox writes and the sandbox loads what TF writes.

    tf.saved_model.simple_save(sess, 'export/1', inputs={'x': x}, outputs={'y': y})

    with tf.Session(graph=tf.Graph()) as sess:
        meta = tf.saved_model.loader.load(sess, [tf.saved_model.tag_constants.SERVING],
                                          'export/1')
        sig = meta.signature_def[tf.saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY]
        sess.run(sig.outputs['y'].name, {sig.inputs['x'].name: batch})

Modules (TF's names): builder_impl.py (SavedModelBuilder), loader_impl.py (load),
simple_save.py, signature_def_utils.py, utils_impl.py (TensorInfo), main_op_impl.py, the
constants; tensor_bundle.py (TF's checkpoint format, in which the variables are written). The
protobufs are framework/saved_model_pb2.py (tf.MetaGraphDef and tf.TensorInfo are theirs).
tf.saved_model.load is loader.load, as in TF 1.x; tf.saved_model.save (TF-2's object-based
saving) is not here.
"""
import types as _types

from . import constants, signature_constants, signature_def_utils, tag_constants
from .builder_impl import SavedModelBuilder
from .constants import ASSETS_DIRECTORY, ASSETS_KEY, DEBUG_DIRECTORY, DEBUG_INFO_FILENAME_PB, \
    LEGACY_INIT_OP_KEY, MAIN_OP_KEY, SAVED_MODEL_FILENAME_PB, SAVED_MODEL_FILENAME_PBTXT, \
    SAVED_MODEL_SCHEMA_VERSION, VARIABLES_DIRECTORY, VARIABLES_FILENAME
from .loader_impl import contains_saved_model, load, maybe_saved_model_directory
from .main_op_impl import main_op_with_restore
from .signature_constants import CLASSIFY_INPUTS, CLASSIFY_METHOD_NAME, \
    CLASSIFY_OUTPUT_CLASSES, CLASSIFY_OUTPUT_SCORES, DEFAULT_SERVING_SIGNATURE_DEF_KEY, \
    PREDICT_INPUTS, PREDICT_METHOD_NAME, PREDICT_OUTPUTS, REGRESS_INPUTS, \
    REGRESS_METHOD_NAME, REGRESS_OUTPUTS
from .signature_def_utils import build_signature_def, classification_signature_def, \
    is_valid_signature, predict_signature_def, regression_signature_def
from .simple_save import simple_save
from .tag_constants import GPU, SERVING, TPU, TRAINING
from .utils_impl import build_tensor_info, get_tensor_from_tensor_info
from . import main_op_impl as _main_op_impl


def _namespace(name, doc, **members):
    module = _types.ModuleType(f"{__name__}.{name}", doc)
    module.__dict__.update(members)
    module.__all__ = sorted(members)
    return module


# TF 1.15's submodules of tf.saved_model, by their public names.
builder = _namespace("builder", "tf.saved_model.builder (builder_impl.py).",
                     SavedModelBuilder=SavedModelBuilder)
loader = _namespace("loader", "tf.saved_model.loader (loader_impl.py).", load=load,
                    maybe_saved_model_directory=maybe_saved_model_directory)
utils = _namespace("utils", "tf.saved_model.utils (utils_impl.py).",
                   build_tensor_info=build_tensor_info,
                   get_tensor_from_tensor_info=get_tensor_from_tensor_info)
main_op = _namespace("main_op", "tf.saved_model.main_op (main_op_impl.py).",
                     main_op=_main_op_impl.main_op, main_op_with_restore=main_op_with_restore)
Builder = SavedModelBuilder

__all__ = ["builder", "loader", "utils", "main_op", "constants", "signature_constants",
           "signature_def_utils", "tag_constants", "Builder", "simple_save", "load",
           "contains_saved_model", "maybe_saved_model_directory", "main_op_with_restore",
           "build_tensor_info", "get_tensor_from_tensor_info", "build_signature_def",
           "classification_signature_def", "is_valid_signature", "predict_signature_def",
           "regression_signature_def", "SERVING", "TRAINING", "GPU", "TPU",
           "ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
           "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY",
           "VARIABLES_FILENAME", "CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME",
           "CLASSIFY_OUTPUT_CLASSES", "CLASSIFY_OUTPUT_SCORES",
           "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_INPUTS", "PREDICT_METHOD_NAME",
           "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME", "REGRESS_OUTPUTS"]
