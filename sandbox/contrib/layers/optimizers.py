"""optimize_loss of tf.contrib.layers -- mirrors TensorFlow 1.15's
contrib/layers/python/layers/optimizers.py.

    train_op = tf.contrib.layers.optimize_loss(loss, tf.train.get_or_create_global_step(),
                                               learning_rate=0.1, optimizer='Adam',
                                               clip_gradients=5.0)
    sess.run(train_op)            # one step; the value is the loss (before the step)

It builds, in variable scope 'OptimizeLoss': the UPDATE_OPS (batch norm's moving averages)
as dependencies of the loss; a non-trainable 'OptimizeLoss/learning_rate' variable when
learning_rate is a float (a scalar tensor is used as it is), optionally decayed by
learning_rate_decay_fn(lr, global_step); the optimizer -- a name of OPTIMIZER_CLS_NAMES
('SGD', 'Adam', 'Adagrad', 'Ftrl', 'Momentum' (0.9), 'RMSProp'), an Optimizer subclass, an
instance, or a function of the learning rate; the gradients, with optional noise,
per-variable multipliers and clipping (a float: by global norm; a function of the
(gradient, variable) list); the summaries named in `summaries` (default loss, learning_rate,
global_gradient_norm); and apply_gradients, which increments global_step. The returned
tensor is the loss, which can only be fetched once the update has run (its value is the loss
before the step).
"""
from ...framework.graph import GraphKeys, get_collection
from ...framework.indexed_slices import IndexedSlices
from ...framework.tensor import Tensor, convert_to_tensor
from ...ops import clip_ops, init_ops, math_ops, random_ops
from ...ops import summary_ops as summary
from ...ops import variable_scope as vs
from ...ops.sparse_array_ops import _with_dependencies as with_dependencies
from ...ops.variables import trainable_variables
from ...train import training_util
from ...train.adagrad import AdagradOptimizer
from ...train.adam import AdamOptimizer
from ...train.ftrl import FtrlOptimizer
from ...train.gradient_descent import GradientDescentOptimizer
from ...train.momentum import MomentumOptimizer
from ...train.optimizer import Optimizer
from ...train.rmsprop import RMSPropOptimizer

__all__ = ["optimize_loss", "OPTIMIZER_CLS_NAMES", "OPTIMIZER_SUMMARIES"]

OPTIMIZER_CLS_NAMES = {
    "Adagrad": AdagradOptimizer,
    "Adam": AdamOptimizer,
    "Ftrl": FtrlOptimizer,
    "Momentum": lambda learning_rate: MomentumOptimizer(learning_rate, momentum=0.9),
    "RMSProp": RMSPropOptimizer,
    "SGD": GradientDescentOptimizer,
}

OPTIMIZER_SUMMARIES = ["learning_rate", "loss", "gradients", "gradient_norm",
                       "global_gradient_norm"]


def _learning_rate(learning_rate):
    """A scalar tensor as it is; a float as the 'learning_rate' variable of the scope."""
    if learning_rate is None:
        return None
    if isinstance(learning_rate, Tensor) and learning_rate.get_shape().ndims == 0:
        return learning_rate
    if isinstance(learning_rate, float):
        if learning_rate < 0.0:
            raise ValueError(f"Invalid learning_rate {learning_rate}.")
        return vs.get_variable("learning_rate", [], trainable=False,
                               initializer=init_ops.constant_initializer(learning_rate))
    raise ValueError("Learning rate should be 0d Tensor or float. "
                     f"Got {learning_rate} of type {type(learning_rate)}")


def _make_optimizer(optimizer, lr, learning_rate):
    """The Optimizer that `optimizer` (a name, class, instance or function) stands for."""
    if isinstance(optimizer, str):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is "
                             f"string ({optimizer}).")
        if optimizer not in OPTIMIZER_CLS_NAMES:
            raise ValueError(f"Optimizer name should be one of "
                             f"[{', '.join(OPTIMIZER_CLS_NAMES)}], you provided {optimizer}.")
        return OPTIMIZER_CLS_NAMES[optimizer](learning_rate=lr)
    if isinstance(optimizer, type) and issubclass(optimizer, Optimizer):
        if lr is None:
            raise ValueError("Learning rate is None, but should be specified if optimizer is "
                             f"class ({optimizer}).")
        return optimizer(learning_rate=lr)
    if isinstance(optimizer, Optimizer):
        return optimizer
    if callable(optimizer):
        opt = optimizer(lr) if learning_rate is not None else optimizer()
        if not isinstance(opt, Optimizer):
            raise ValueError("Unrecognized optimizer: function should return subclass of "
                             f"Optimizer. Got {opt}.")
        return opt
    raise ValueError("Unrecognized optimizer: should be string, subclass of Optimizer, "
                     "instance of subclass of Optimizer or function with one argument. "
                     f"Got {optimizer}.")


def add_scaled_noise_to_gradients(grads_and_vars, gradient_noise_scale):
    """Each gradient plus truncated-normal noise times gradient_noise_scale."""
    noisy = []
    for gradient, variable in grads_and_vars:
        if gradient is not None:
            shape = (gradient.dense_shape if isinstance(gradient, IndexedSlices)
                     else gradient.get_shape())
            gradient = gradient + random_ops.truncated_normal(shape) * gradient_noise_scale
        noisy.append((gradient, variable))
    return noisy


def multiply_gradients(grads_and_vars, gradient_multipliers):
    """The gradients of the variables in gradient_multipliers (keyed by variable or by its
    name) multiplied by their factor."""
    multiplied = []
    for grad, var in grads_and_vars:
        key = var if var in gradient_multipliers else var.name
        if grad is not None and key in gradient_multipliers:
            multiplier = gradient_multipliers[key]
            if isinstance(grad, IndexedSlices):
                grad = IndexedSlices(grad.values * multiplier, grad.indices, grad.dense_shape)
            else:
                grad = grad * math_ops.cast(multiplier, grad.dtype)
        multiplied.append((grad, var))
    return multiplied


def clip_gradients_by_global_norm(grads_and_vars, clip_norm):
    """The gradients scaled together so that their global norm is at most clip_norm."""
    gradients, variables = zip(*grads_and_vars)
    clipped, _ = clip_ops.clip_by_global_norm(gradients, clip_norm)
    return list(zip(clipped, variables))


def _global_norm_of(grads_and_vars):
    return clip_ops.global_norm([g for g, _ in grads_and_vars])


def optimize_loss(loss, global_step, learning_rate, optimizer, gradient_noise_scale=None,
                  gradient_multipliers=None, clip_gradients=None, learning_rate_decay_fn=None,
                  update_ops=None, variables=None, name=None, summaries=None,
                  colocate_gradients_with_ops=False, increment_global_step=True):
    """The loss, fetchable once one optimizer step has run (see the module docstring)."""
    loss = convert_to_tensor(loss)
    if loss.get_shape().ndims not in (0, None):
        raise ValueError(f"Expected scalar shape for {loss.name}, saw shape: "
                         f"{loss.get_shape()}.")
    if global_step is None:
        global_step = training_util.get_global_step()
    else:
        training_util.assert_global_step(global_step)
    with vs.variable_scope(name, "OptimizeLoss", [loss, global_step]):
        if update_ops is None:
            update_ops = list(dict.fromkeys(get_collection(GraphKeys.UPDATE_OPS)))
        if update_ops:
            loss = with_dependencies(list(update_ops), loss)
        lr = _learning_rate(learning_rate)
        if summaries is None:
            summaries = ["loss", "learning_rate", "global_gradient_norm"]
        for summ in summaries:
            if summ not in OPTIMIZER_SUMMARIES:
                raise ValueError(f"Summaries should be one of [{', '.join(OPTIMIZER_SUMMARIES)}]"
                                 f", you provided {summ}.")
        if learning_rate is not None and learning_rate_decay_fn is not None:
            if global_step is None:
                raise ValueError("global_step is required for learning_rate_decay_fn.")
            lr = learning_rate_decay_fn(lr, global_step)
            if "learning_rate" in summaries:
                summary.scalar("learning_rate", lr)
        opt = _make_optimizer(optimizer, lr, learning_rate)
        if variables is None:
            variables = trainable_variables()
        gradients = opt.compute_gradients(
            loss, variables, colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gradient_noise_scale is not None:
            gradients = add_scaled_noise_to_gradients(gradients, gradient_noise_scale)
        if gradient_multipliers is not None:
            gradients = multiply_gradients(gradients, gradient_multipliers)
            if not gradients:
                raise ValueError("Empty list of (gradient, var) pairs encountered. This is most "
                                 "likely to be caused by an improper value of "
                                 "gradient_multipliers.")
        norms_wanted = "global_gradient_norm" in summaries or "gradient_norm" in summaries
        if norms_wanted:
            summary.scalar("global_norm/gradient_norm", _global_norm_of(gradients))
        if isinstance(clip_gradients, float):
            gradients = clip_gradients_by_global_norm(gradients, clip_gradients)
        elif callable(clip_gradients):
            gradients = clip_gradients(gradients)
        elif clip_gradients is not None:
            raise ValueError(f"Unknown type {type(clip_gradients)} for clip_gradients")
        if "loss" in summaries:
            summary.scalar("loss", loss)
        for gradient, variable in gradients:
            values = gradient.values if isinstance(gradient, IndexedSlices) else gradient
            if values is not None:
                var_name = variable.name.replace(":", "_")
                if "gradients" in summaries:
                    summary.histogram(f"gradients/{var_name}", values)
                if "gradient_norm" in summaries:
                    summary.scalar(f"gradient_norm/{var_name}", clip_ops.global_norm([values]))
        if clip_gradients is not None and norms_wanted:
            summary.scalar("global_norm/clipped_gradient_norm", _global_norm_of(gradients))
        grad_updates = opt.apply_gradients(
            gradients, global_step=global_step if increment_global_step else None,
            name="train")
        return with_dependencies([grad_updates], loss)
