"""slim.losses: the loss functions TF-Slim programs call -- mirrors TensorFlow 1.15's
contrib/losses/python/losses/loss_ops.py (tf.contrib.losses, which TF's slim exports as
slim.losses).

They compute what tf.losses computes (same ops, same LOSSES collection, the same
sum-over-nonzero-weights mean) but take the model's output FIRST, as the older API did:

    slim.losses.softmax_cross_entropy(logits, onehot_labels)     # tf.losses: (labels, logits)
    slim.losses.mean_squared_error(predictions, labels)
    total = slim.losses.get_total_loss()                          # data + regularization

so a TF-Slim program written for TF 1.15 gets the same loss. hinge_loss returns the
per-element losses, unreduced and not collected, as contrib's did.
"""
from ... import losses as _tf_losses
from ...losses import (add_loss, compute_weighted_loss, get_losses,  # noqa: F401
                       get_regularization_losses, get_total_loss)

__all__ = ["absolute_difference", "add_loss", "compute_weighted_loss", "cosine_distance",
           "get_losses", "get_regularization_losses", "get_total_loss", "hinge_loss",
           "log_loss", "mean_pairwise_squared_error", "mean_squared_error",
           "sigmoid_cross_entropy", "softmax_cross_entropy", "sparse_softmax_cross_entropy"]


def absolute_difference(predictions, labels=None, weights=1.0, scope=None):
    """mean |predictions - labels| (tf.losses.absolute_difference)."""
    return _tf_losses.absolute_difference(labels, predictions, weights, scope)


def cosine_distance(predictions, labels=None, axis=None, weights=1.0, scope=None, dim=None):
    """1 - sum(predictions * labels, axis) of unit vectors (tf.losses.cosine_distance)."""
    return _tf_losses.cosine_distance(labels, predictions, axis=axis, weights=weights,
                                      scope=scope, dim=dim)


def hinge_loss(logits, labels=None, scope=None):
    """The per-element max(0, 1 - (2 labels - 1) logits), not reduced nor collected."""
    return _tf_losses.hinge_loss(labels, logits, scope=scope, loss_collection=None,
                                 reduction=_tf_losses.Reduction.NONE)


def log_loss(predictions, labels=None, weights=1.0, epsilon=1e-7, scope=None):
    """The binary cross entropy of probabilities `predictions` (tf.losses.log_loss)."""
    return _tf_losses.log_loss(labels, predictions, weights, epsilon, scope)


def mean_pairwise_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """tf.losses.mean_pairwise_squared_error, predictions first."""
    return _tf_losses.mean_pairwise_squared_error(labels, predictions, weights, scope)


def mean_squared_error(predictions, labels=None, weights=1.0, scope=None):
    """mean (predictions - labels) ** 2 (tf.losses.mean_squared_error)."""
    return _tf_losses.mean_squared_error(labels, predictions, weights, scope)


def sigmoid_cross_entropy(logits, multi_class_labels, weights=1.0, label_smoothing=0,
                          scope=None):
    """tf.losses.sigmoid_cross_entropy, logits first."""
    return _tf_losses.sigmoid_cross_entropy(multi_class_labels, logits, weights,
                                            label_smoothing, scope)


def softmax_cross_entropy(logits, onehot_labels, weights=1.0, label_smoothing=0, scope=None):
    """tf.losses.softmax_cross_entropy, logits first."""
    return _tf_losses.softmax_cross_entropy(onehot_labels, logits, weights, label_smoothing,
                                            scope)


def sparse_softmax_cross_entropy(logits, labels, weights=1.0, scope=None):
    """tf.losses.sparse_softmax_cross_entropy, logits first."""
    return _tf_losses.sparse_softmax_cross_entropy(labels, logits, weights, scope)
