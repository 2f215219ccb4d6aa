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


# TF 1.15's other tf.contrib modules: a program that reaches for one learns it is not here
# (rather than Python's bare "has no attribute").
_TF115_ONLY = (
    "all_reduce", "autograph", "batching", "bayesflow", "checkpoint", "cloud",
    "cluster_resolver", "compiler", "constrained_optimization", "copy_graph", "cudnn_rnn",
    "data", "decision_trees", "deprecated", "distribute", "eager", "estimator",
    "factorization", "ffmpeg", "gan", "graph_editor", "grid_rnn", "image", "input_pipeline",
    "integrate", "keras", "kernel_methods", "labeled_tensor", "learn", "legacy_seq2seq",
    "linear_optimizer", "memory_stats", "mixed_precision", "model_pruning", "nccl",
    "nearest_neighbor", "nn", "optimizer_v2", "periodic_resample", "predictor", "proto",
    "quantization", "quantize", "rate", "receptive_field", "recurrent", "reduce_slice_ops",
    "remote_fused_graph", "resampler", "rpc", "saved_model", "signal", "solvers", "sparsemax",
    "specs", "staging", "stat_summarizer", "stateless", "summary", "tensor_forest",
    "tensorboard", "testing", "text", "tfprof", "timeseries", "tpu", "util")


def __getattr__(name):
    if name in _TF115_ONLY:
        raise AttributeError(
            f"module 'sandbox.contrib' has no attribute {name!r}: TensorFlow 1.15's "
            f"tf.contrib.{name} is not part of the sandbox. Its tf.contrib has "
            f"{', '.join(sorted(__all__))}.")
    raise AttributeError(f"module 'sandbox.contrib' has no attribute {name!r}")
