"""`tf.contrib.slim` (TF-Slim) -- mirrors TensorFlow 1.15's contrib/slim/__init__.py: one
namespace gathering what slim models are written with.

    slim = tf.contrib.slim
    with slim.arg_scope([slim.conv2d, slim.fully_connected],
                        weights_regularizer=slim.l2_regularizer(0.0005),
                        normalizer_fn=slim.batch_norm):
        net = slim.conv2d(images, 20, [5, 5], scope='conv1')    # 'conv1/weights',
        net = slim.max_pool2d(net, [2, 2], scope='pool1')       # 'conv1/BatchNorm/beta' ...
        net = slim.flatten(net)
        logits = slim.fully_connected(net, 10, activation_fn=None, normalizer_fn=None,
                                      scope='logits')
    slim.losses.softmax_cross_entropy(logits, onehot_labels)
    train_op = slim.learning.create_train_op(slim.losses.get_total_loss(), optimizer)
    slim.learning.train(train_op, logdir, number_of_steps=100)

From tf.contrib.framework: arg_scope, add_arg_scope, variable, model_variable,
get_variables*, get_variables_to_restore, assign_from_checkpoint_fn, the global step.
From tf.contrib.layers: every layer (conv2d, fully_connected, batch_norm, repeat, stack ...),
the initializers and regularizers. slim.losses is losses.py: tf.contrib.losses, TF 1.15's
older loss API, the model's output first (softmax_cross_entropy(logits, onehot_labels));
slim.metrics is tf.contrib.metrics, slim.learning is learning.py (create_train_op, train),
slim.model_analyzer is model_analyzer.py.
"""
from .. import metrics
from ..framework.arg_scope import *  # noqa: F401,F403
from ..framework.variables import *  # noqa: F401,F403
from ..framework import (get_or_create_global_step, get_global_step, create_global_step,
                         assert_global_step)
from ..layers import *  # noqa: F401,F403
from . import learning, losses, model_analyzer
from ..framework.arg_scope import __all__ as _ARG_SCOPE_NAMES
from ..framework.variables import __all__ as _VARIABLE_NAMES
from ..layers import __all__ as _LAYER_NAMES

__all__ = (["losses", "metrics", "learning", "model_analyzer", "get_or_create_global_step",
            "get_global_step", "create_global_step", "assert_global_step"]
           + _ARG_SCOPE_NAMES + _VARIABLE_NAMES + _LAYER_NAMES)
