"""Recurrent networks -- mirrors TensorFlow 1.x's python/ops/rnn.py (tf.nn.dynamic_rnn, static_rnn).

(Being written: issue 27.)
"""

__all__ = []
