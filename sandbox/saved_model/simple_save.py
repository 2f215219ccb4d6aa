"""tf.saved_model.simple_save -- TF's python/saved_model/simple_save.py: the common case of
SavedModelBuilder in one call.

    tf.saved_model.simple_save(sess, 'export/1', inputs={'x': x}, outputs={'y': y})

writes the session's graph and variables under the tag 'serve' with one Predict signature,
'serving_default', of those inputs and outputs -- what TensorFlow Serving loads by default.
"""
from ..framework.graph import GraphKeys
from . import signature_constants, tag_constants
from .builder_impl import SavedModelBuilder
from .signature_def_utils import predict_signature_def

__all__ = ["simple_save"]


def simple_save(session, export_dir, inputs, outputs, legacy_init_op=None):
    """Saves `session`'s graph and variables to `export_dir` (which must not exist, or be
    empty) as a SavedModel tagged SERVING with the Predict signature 'serving_default'
    {key: Tensor} `inputs` -> `outputs`; `legacy_init_op` runs when it is loaded."""
    signature_def_map = {
        signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
            predict_signature_def(inputs, outputs)}
    builder = SavedModelBuilder(export_dir)
    builder.add_meta_graph_and_variables(session, tags=[tag_constants.SERVING],
                                         signature_def_map=signature_def_map,
                                         assets_collection=session.graph.get_collection(
                                             GraphKeys.ASSET_FILEPATHS),
                                         main_op=legacy_init_op, clear_devices=True)
    builder.save()
