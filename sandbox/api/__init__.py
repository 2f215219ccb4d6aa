"""TF-1 namespaces that only gather names, as TF's generated API modules do (TF:
python/api/_v1/...): `tf.math` (math.py), `tf.random` (random.py), `tf.io` (io.py, with
tf.io.gfile) and `tf.debugging` (debugging.py). The facade imports them as modules.
"""

__all__ = []
