"""`tf.losses` -- mirrors TensorFlow 1.x's python/ops/losses/losses_impl.py and util.py.

(Being written: issue 27.)
"""

__all__ = []
