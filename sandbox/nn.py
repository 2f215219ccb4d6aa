"""`tf.nn` -- mirrors TensorFlow's `tf.nn` namespace: the neural-network functions.

This module only gathers names; the ops live in sandbox/ops/nn_ops.py (activations, softmax,
the softmax cross-entropy losses, bias_add, dropout), sandbox/ops/nn_impl.py (what TF builds
from those: moments, sufficient_statistics, normalize_moments, weighted_moments,
batch_normalization, l2_normalize, swish, crelu, sigmoid_cross_entropy_with_logits,
weighted_cross_entropy_with_logits, log_poisson_loss, compute_average_loss,
scale_regularization_loss ...; and top_k, in_top_k, lrn, embedding_lookup,
embedding_lookup_sparse, safe_embedding_lookup_sparse), sandbox/ops/conv_ops.py (convolution,
its transpose, and pooling: conv2d, max_pool, avg_pool), sandbox/ops/convolution_ops.py
(conv1d, convolution, max_pool1d, avg_pool1d, max_pool_v2 and avg_pool_v2, atrous_conv2d,
conv1d_transpose, pool and with_space_to_batch, built from them), sandbox/ops/batch_norm_ops.py
(fused_batch_norm, batch_norm_with_global_normalization),
sandbox/ops/depthwise_conv_ops.py (depthwise and separable convolution),
sandbox/ops/basic_math_ops.py (sigmoid, tanh), and the recurrent networks: sandbox/ops/rnn.py
(dynamic_rnn, static_rnn, raw_rnn, static_state_saving_rnn ...) with the cells of tf.nn.rnn_cell (sandbox/ops/rnn_cell.py); the
sampled losses nce_loss and sampled_softmax_loss (sandbox/ops/sampled_losses.py) and their
candidate samplers (sandbox/ops/candidate_sampling_ops.py); CTC (sandbox/ops/ctc_ops.py:
ctc_loss, ctc_loss_v2, the greedy and beam search decoders, ctc_unique_labels,
collapse_repeated); dilation2d and erosion2d (sandbox/ops/morphological_ops.py);
max_pool_with_argmax (sandbox/ops/pool_argmax_ops.py); the fractional pools
(sandbox/ops/fractional_pool_ops.py); and the TF-1 names of the depthwise and conv3d gradient
ops (sandbox/ops/conv_backprop_ops.py). A layer
of the MNIST tutorial reads:

    h = tf.nn.relu(tf.matmul(x, W) + b)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels=y_, logits=y))
"""
from .ops.basic_math_ops import sigmoid, tanh  # noqa: F401
from .ops.nn_ops import (  # noqa: F401
    relu, relu6, elu, selu, leaky_relu, softplus, softsign,
    softmax, log_softmax,
    softmax_cross_entropy_with_logits, softmax_cross_entropy_with_logits_v2,
    sparse_softmax_cross_entropy_with_logits,
    l2_loss, bias_add, xw_plus_b, dropout,
)
from .ops.nn_impl import (  # noqa: F401
    sigmoid_cross_entropy_with_logits, relu_layer,
    moments, l2_normalize, zero_fraction, batch_normalization,
    local_response_normalization, lrn, embedding_lookup, embedding_lookup_sparse,
    safe_embedding_lookup_sparse, in_top_k, top_k,
    swish, crelu, sufficient_statistics, normalize_moments, weighted_moments,
    weighted_cross_entropy_with_logits, log_poisson_loss, compute_average_loss,
    scale_regularization_loss,
)
from .ops.conv_ops import (  # noqa: F401
    conv2d, conv2d_backprop_input, conv2d_backprop_filter, conv2d_transpose, max_pool, avg_pool,
)
from .ops.convolution_ops import (  # noqa: F401
    conv1d, convolution, max_pool1d, avg_pool1d, max_pool_v2, avg_pool_v2,
    atrous_conv2d, conv1d_transpose, pool, with_space_to_batch, conv_transpose,
    atrous_conv2d_transpose,
)
from .ops.batch_norm_ops import (  # noqa: F401
    fused_batch_norm, batch_norm_with_global_normalization,
)
from .ops.depthwise_conv_ops import (  # noqa: F401
    depthwise_conv2d, depthwise_conv2d_native, depthwise_conv2d_native_backprop_input,
    depthwise_conv2d_native_backprop_filter, separable_conv2d,
)
from .ops.rnn import (  # noqa: F401
    dynamic_rnn, static_rnn, bidirectional_dynamic_rnn, static_bidirectional_rnn, raw_rnn,
    static_state_saving_rnn,
)
from .ops import rnn_cell  # noqa: F401
from .ops.conv3d_ops import conv3d, conv3d_transpose, max_pool3d, avg_pool3d  # noqa: F401
from .ops.space_ops import depth_to_space, space_to_batch, space_to_depth  # noqa: F401
from .ops.conv_ops import avg_pool as avg_pool2d, max_pool as max_pool2d  # noqa: F401
from .ops.sampled_losses import nce_loss, sampled_softmax_loss  # noqa: F401
from .ops.candidate_sampling_ops import (  # noqa: F401
    all_candidate_sampler, compute_accidental_hits, log_uniform_candidate_sampler,
    uniform_candidate_sampler, fixed_unigram_candidate_sampler,
    learned_unigram_candidate_sampler,
)
from .ops.ctc_ops import (  # noqa: F401
    ctc_loss, ctc_loss_v2, ctc_greedy_decoder, ctc_beam_search_decoder,
    ctc_beam_search_decoder_v2, ctc_unique_labels, collapse_repeated,
)
from .ops.morphological_ops import dilation2d, erosion2d  # noqa: F401
from .ops.pool_argmax_ops import max_pool_with_argmax  # noqa: F401
from .ops.fractional_pool_ops import fractional_avg_pool, fractional_max_pool  # noqa: F401
from .ops.conv_backprop_ops import (  # noqa: F401
    depthwise_conv2d_backprop_input, depthwise_conv2d_backprop_filter,
    conv3d_backprop_filter, conv3d_backprop_filter_v2,
)
