"""`tf.contrib.rnn` -- the part of TensorFlow 1.x's tf.contrib.rnn that tutorials use: the
cells of tf.nn.rnn_cell (rnn_cell_impl.py) and static_rnn / static_bidirectional_rnn
(rnn.py), the same objects as in TF 1.15 (`tf.contrib.rnn.BasicLSTMCell is
tf.nn.rnn_cell.BasicLSTMCell`), and contrib's own LSTMBlockCell, GRUBlockCellV2 and stacked
bidirectional RNNs (contrib_rnn_cells.py). sandbox/contrib exposes this module as
tf.contrib.rnn.
"""
from .contrib_rnn_cells import (GRUBlockCellV2, LSTMBlockCell,  # noqa: F401
                                stack_bidirectional_dynamic_rnn, stack_bidirectional_rnn)
from .rnn import static_bidirectional_rnn, static_rnn  # noqa: F401
from .rnn_cell import *  # noqa: F401,F403
from .rnn_cell import __all__ as _cells

__all__ = list(_cells) + ["static_bidirectional_rnn", "static_rnn", "LSTMBlockCell",
                          "GRUBlockCellV2", "stack_bidirectional_rnn",
                          "stack_bidirectional_dynamic_rnn"]
