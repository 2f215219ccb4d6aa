"""keras.saving -- mirrors TensorFlow 1.15's python/keras/saving/: a model to an HDF5 file and
back.

    save.py           save_model / load_model: which format a path means
    hdf5_format.py    the HDF5 layout (config, weights, optimizer state) that TF 1.15 writes
    saving_utils.py   the model's metadata (config, training config) and compile's arguments
                      read back from it
    model_config.py   model_from_config / model_from_json / model_from_yaml
"""
