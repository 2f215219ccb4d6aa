"""RNN cells -- mirrors TensorFlow 1.x's python/ops/rnn_cell_impl.py (BasicLSTMCell, GRUCell ...).

(Being written: issue 27.)
"""

__all__ = []
