"""`tf.nn.rnn_cell` -- the names of TensorFlow 1.x's tf.nn.rnn_cell namespace (TF's generated
api/_v1/nn/rnn_cell/__init__.py); the cells are in rnn_cell_impl.py:

    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.BasicLSTMCell(128) for _ in range(2)])
"""
from .rnn_cell_impl import (  # noqa: F401
    BasicLSTMCell, BasicRNNCell, DeviceWrapper, DropoutWrapper, GRUCell, LSTMCell,
    LSTMStateTuple, MultiRNNCell, ResidualWrapper, RNNCell,
)

__all__ = ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell",
           "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"]
