"""`tf.contrib` -- the commonly used pieces of TensorFlow 1.x's contrib: tf.contrib.layers
(see sandbox/contrib/layers/) and tf.contrib.rnn (the cells of tf.nn.rnn_cell, as TF 1.15
shares them, with static_rnn: sandbox/ops/contrib_rnn.py)."""
from . import layers
from ..ops import contrib_rnn as rnn

__all__ = ["layers", "rnn"]
