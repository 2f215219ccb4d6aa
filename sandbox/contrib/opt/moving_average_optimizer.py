"""MovingAverageOptimizer -- mirrors TF 1.15's
contrib/opt/python/training/moving_average_optimizer.py.

Wraps an optimizer: after each step it updates an exponential moving average of every
trained variable (tf.train.ExponentialMovingAverage, zero_debias=True). The averages usually
evaluate better than the last weights. `swapping_saver()` is a Saver that writes each
average under its variable's name (and the variable under the average's), so a model
restored from the checkpoint -- by an ordinary Saver -- gets the averaged weights:

    opt = tf.contrib.opt.MovingAverageOptimizer(tf.train.AdamOptimizer(1e-3), 0.999)
    train_op = opt.minimize(loss)
    saver = opt.swapping_saver()          # after minimize
"""
from ...framework.graph import get_default_graph
from ...ops.control_flow_ops import group
from ...ops.variables import global_variables
from ...train import moving_averages, saver as saver_lib
from ...train.optimizer import Optimizer

__all__ = ["MovingAverageOptimizer"]


class MovingAverageOptimizer(Optimizer):
    """`opt`'s updates, then the moving averages of the variables updated."""

    def __init__(self, opt, average_decay=0.9999, num_updates=None, sequential_update=True):
        # TF does not call Optimizer.__init__: everything is delegated to `opt`.
        self._optimizer = opt
        self._ema = moving_averages.ExponentialMovingAverage(
            average_decay, num_updates=num_updates, zero_debias=True)
        self._swapped_variable_name_map = None
        self._sequential_update = sequential_update

    def compute_gradients(self, *args, **kwargs):
        return self._optimizer.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        grads_and_vars = list(grads_and_vars)
        train_op = self._optimizer.apply_gradients(grads_and_vars, global_step=global_step,
                                                   name=name)
        var_list = [v for g, v in grads_and_vars if g is not None]
        self._swapped_variable_name_map = {}
        if self._sequential_update:        # average the variables after their update
            with get_default_graph().control_dependencies([train_op]):
                ma_op = self._ema.apply(var_list)
        else:
            ma_op = self._ema.apply(var_list)
        for v in var_list:
            v_avg = self._ema.average(v)
            self._swapped_variable_name_map[v.op.name] = v_avg.op.name
            self._swapped_variable_name_map[v_avg.op.name] = v.op.name
        return group(train_op, ma_op, name="train_with_avg")

    def _find_swapped_variable(self, v_name_to_tensor, v_name, tensor):
        swapped_v_name = self._swapped_variable_name_map.get(v_name)
        if swapped_v_name is None:
            return tensor
        if swapped_v_name in v_name_to_tensor:
            return v_name_to_tensor[swapped_v_name]
        raise ValueError(f"Variable to swap {swapped_v_name} is not part of variables to "
                         "save. This breaks MovingAverageOptimizer.")

    def swapping_saver(self, var_list=None, name="swapping_saver", **kwargs):
        """A Saver that saves each average under its variable's name and vice versa."""
        if self._swapped_variable_name_map is None:
            raise RuntimeError("Must call apply_gradients or minimize before creating the "
                               "swapping_saver")
        if var_list is None:
            var_list = global_variables()
        if not isinstance(var_list, dict):
            var_list = saver_lib.op_list_to_dict(var_list)
        swapped_var_list = {k: self._find_swapped_variable(var_list, k, v)
                            for k, v in var_list.items()}
        return saver_lib.Saver(swapped_var_list, name=name, **kwargs)
