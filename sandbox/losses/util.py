"""The LOSSES collection -- mirrors TensorFlow 1.x's python/ops/losses/util.py.

Every tf.losses function adds the loss it builds to the graph collection GraphKeys.LOSSES;
tf.get_variable(..., regularizer=fn) adds fn(variable) to GraphKeys.REGULARIZATION_LOSSES.
A training script can then ask for the sum of everything it declared:

    tf.losses.softmax_cross_entropy(onehot_labels, logits)     # -> LOSSES
    loss = tf.losses.get_total_loss()                           # LOSSES + REGULARIZATION_LOSSES
"""
from ..framework.graph import GraphKeys, get_collection, get_default_graph

__all__ = ["add_loss", "get_losses", "get_regularization_losses", "get_regularization_loss",
           "get_total_loss"]


def add_loss(loss, loss_collection=GraphKeys.LOSSES):
    """Adds `loss` to the collection `loss_collection` (nothing when it is None or '')."""
    if loss_collection:
        get_default_graph().add_to_collection(loss_collection, loss)


def get_losses(scope=None, loss_collection=GraphKeys.LOSSES):
    """The losses in `loss_collection` (those whose name starts with `scope`, if given)."""
    return get_collection(loss_collection, scope)


def get_regularization_losses(scope=None):
    """The regularization losses (tf.get_variable's regularizers, tf.layers' ...)."""
    return get_collection(GraphKeys.REGULARIZATION_LOSSES, scope)


def get_regularization_loss(scope=None, name="total_regularization_loss"):
    """The sum of the regularization losses, or the constant 0.0 when there are none."""
    losses = get_regularization_losses(scope)
    if losses:
        from ..ops import math_ops
        return math_ops.add_n(losses, name=name)
    from ..ops.constant_op import constant
    return constant(0.0)


def get_total_loss(add_regularization_losses=True, name="total_loss", scope=None):
    """The sum of the losses in LOSSES (and of the regularization losses, by default).
    Raises ValueError when there is nothing to add, as TF's add_n does."""
    losses = get_losses(scope=scope)
    if add_regularization_losses:
        losses += get_regularization_losses(scope=scope)
    if not losses:
        raise ValueError("get_total_loss: there are no losses to add. Build a loss with a "
                         "tf.losses function (or tf.losses.add_loss) first.")
    from ..ops import math_ops
    return math_ops.add_n(losses, name=name)
