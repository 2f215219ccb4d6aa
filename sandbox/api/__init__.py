"""TF-1 namespaces that only gather names (tf.math, tf.random, tf.io, tf.debugging), as TF's generated API modules do.

(Being written: issue 27.)
"""

__all__ = []
