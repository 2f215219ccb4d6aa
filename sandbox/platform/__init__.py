"""TF's python/platform pieces a program calls directly: `tf.gfile` (gfile.py: files and
directories) and `tf.logging` (tf_logging.py: the 'tensorflow' logger). `tf.flags` and
`tf.app`, also from TF's python/platform, are sandbox/flags.py and sandbox/app.py.
"""
from . import gfile, tf_logging  # noqa: F401

__all__ = []
