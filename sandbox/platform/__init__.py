"""TF's python/platform pieces a program calls directly: tf.gfile and tf.logging.

(Being written: issue 27.)
"""

__all__ = []
