"""Version constants -- mirrors TensorFlow's python/framework/versions.py (`tf.VERSION`,
`tf.__version__`, `tf.version.VERSION`).

The sandbox speaks the TF-1 API of TensorFlow 1.15; the suffix says it is not TensorFlow.
Saver writes this version into every meta graph (train/saver.py, as TF's meta_info_def does).
"""

__all__ = ["VERSION", "__version__"]

VERSION = "1.15.0-sandbox"      # the TF-1 API level the sandbox speaks
__version__ = VERSION
