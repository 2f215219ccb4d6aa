"""The names a SavedModel is made of -- TF's python/saved_model/constants.py
(tf.saved_model.constants.X, and tf.saved_model.X).

    export_dir/
        saved_model.pb                       the SavedModel protobuf (saved_model.pbtxt: text)
        variables/variables.index            TF's checkpoint of the variables (tensor_bundle.py)
        variables/variables.data-00000-of-00001
        assets/                              files the graph reads (vocabularies ...)
"""
__all__ = ["ASSETS_DIRECTORY", "ASSETS_KEY", "DEBUG_DIRECTORY", "DEBUG_INFO_FILENAME_PB",
           "LEGACY_INIT_OP_KEY", "MAIN_OP_KEY", "SAVED_MODEL_FILENAME_PB",
           "SAVED_MODEL_FILENAME_PBTXT", "SAVED_MODEL_SCHEMA_VERSION", "VARIABLES_DIRECTORY",
           "VARIABLES_FILENAME"]

ASSETS_DIRECTORY = "assets"                 # subdirectory of the asset files
ASSETS_KEY = "saved_model_assets"           # collection of the asset file paths
DEBUG_DIRECTORY = "debug"
DEBUG_INFO_FILENAME_PB = "saved_model_debug_info.pb"
LEGACY_INIT_OP_KEY = "legacy_init_op"       # collection: the op run after loading (old name)
MAIN_OP_KEY = "saved_model_main_op"         # collection: the op run after loading
TRAIN_OP_KEY = "saved_model_train_op"
INIT_OP_SIGNATURE_KEY = "__saved_model_init_op"    # reserved SignatureDef keys (TF-2)
TRAIN_OP_SIGNATURE_KEY = "__saved_model_train_op"
SAVED_MODEL_SCHEMA_VERSION = 1
SAVED_MODEL_FILENAME_PB = "saved_model.pb"
SAVED_MODEL_FILENAME_PBTXT = "saved_model.pbtxt"
VARIABLES_DIRECTORY = "variables"
VARIABLES_FILENAME = "variables"            # the checkpoint prefix inside variables/
