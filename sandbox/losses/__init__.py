"""`tf.losses` -- the names of TensorFlow 1.x's tf.losses namespace (python/ops/losses/).

    losses_impl.py        the loss functions and compute_weighted_loss with its Reduction
    util.py               the LOSSES collection: add_loss, get_losses, get_total_loss ...
    weights_broadcast.py  the rules for `weights` that tf.losses and tf.metrics share
"""
from .losses_impl import *                           # noqa: F401,F403
from .util import *                                  # noqa: F401,F403
from . import losses_impl as _losses_impl, util as _util

__all__ = list(_losses_impl.__all__) + list(_util.__all__)
