"""`tf.contrib` -- the commonly used pieces of TensorFlow 1.x's contrib, each in its folder:
layers (tf.contrib.layers), framework (arg_scope, the variable helpers), slim (TF-Slim built on
those two; its losses are tf.contrib.losses), lookup (hash tables and vocabularies), training
(HParams, and the ps strategies of replica_device_setter: GreedyLoadBalancingStrategy,
RandomStrategy), crf, opt (AdamW, lazy Adam ..., and the distributed optimizers:
DropStaleGradientOptimizer, ElasticAverageOptimizer, ModelAverageOptimizer, AGNOptimizer),
metrics (the streaming_* names), distributions, seq2seq (decoders and attention),
feature_column (sequence_input_layer), and rnn (the cells of tf.nn.rnn_cell, as TF 1.15
shares them, with static_rnn, LSTMBlockCell and the stacked bidirectional RNNs:
sandbox/ops/contrib_rnn.py).
It sits in the train layer: slim, opt and training build on the optimizers and sessions of
sandbox/train."""
from . import layers, lookup
from . import crf, distributions, framework, metrics, opt, seq2seq, slim, training
from ..ops import contrib_rnn as rnn
from .slim import losses          # tf.contrib.losses: the older loss API slim exports
from . import feature_column      # tf.contrib.feature_column: sequence_input_layer

__all__ = ["layers", "lookup", "rnn", "crf", "distributions", "framework", "losses",
           "metrics", "opt", "seq2seq", "slim", "training",
           "feature_column"]              # tf.contrib.feature_column (sequence_input_layer)
