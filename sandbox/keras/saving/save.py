"""model.save and keras.models.load_model -- mirrors TensorFlow 1.15's
python/keras/saving/save.py.

In TF 1.15, save_format=None means 'h5' unless TF 2 behaviour is enabled (then 'tf', a
SavedModel directory): `default_format = 'tf' if tf2.enabled() else 'h5'`. So in a TF-1
program model.save('my_model') writes an HDF5 *file* named my_model, whatever the extension,
and so does the sandbox. save_format='tf' (a Keras SavedModel) is not in the sandbox: it
says so. load_model reads any file that is HDF5.
"""
import os

from .hdf5_format import _h5py, is_hdf5_file, load_model_from_hdf5, save_model_to_hdf5

__all__ = ["save_model", "load_model"]


def save_model(model, filepath, overwrite=True, include_optimizer=True, save_format=None,
               signatures=None, options=None):
    """Saves `model` (Sequential or functional) -- config, weights, optimizer -- to HDF5."""
    save_format = (save_format or "h5").lower().strip()
    if save_format in ("tf", "tensorflow"):
        raise NotImplementedError("save_format='tf' (a Keras SavedModel) is not in the "
                                  "sandbox's keras: save to HDF5 (save_format='h5', the TF 1.x "
                                  "default), or export with tf.saved_model / an Estimator.")
    if save_format not in ("h5", "hdf5", "keras"):
        raise ValueError(f"Unknown format \"{save_format}\". Was expecting one of "
                         '{"tf", "h5"}.')
    if getattr(model, "_subclassed", False):
        raise NotImplementedError(
            "Saving the model to HDF5 format requires the model to be a Functional model or a "
            "Sequential model. It does not work for subclassed models, because such models "
            "are defined via the body of a Python method, which isn't safely serializable. "
            "Use `save_weights` (and make the model again with its class to load them).")
    save_model_to_hdf5(model, filepath, overwrite, include_optimizer)


def load_model(filepath, custom_objects=None, compile=True):  # noqa: A002 (TF's name)
    """The model that model.save wrote (compiled again when it was compiled)."""
    if isinstance(filepath, _h5py().File) or is_hdf5_file(filepath):
        return load_model_from_hdf5(filepath, custom_objects, compile)
    if not os.path.exists(str(filepath)):
        raise IOError(f"SavedModel file does not exist at: {filepath}")
    raise IOError("Unable to load model. Filepath is not an hdf5 file or SavedModel (the "
                  "sandbox's keras reads HDF5 only).")
