"""ExponentialMovingAverage -- mirrors TensorFlow 1.x's python/training/moving_averages.py.

Evaluating a model with averaged weights is often better than with the last ones. An
ExponentialMovingAverage keeps a *shadow variable* per variable (or tensor) and, each time
the op from `apply()` runs, moves it towards the current value:

    shadow -= (1 - decay) * (shadow - value)

    ema = tf.train.ExponentialMovingAverage(decay=0.999, num_updates=global_step)
    with tf.control_dependencies([train_op]):
        train_op = ema.apply(tf.trainable_variables())    # train, then average
    ...
    saver = tf.train.Saver(ema.variables_to_restore())    # evaluate: load the averages
                                                           # into the variables themselves

The shadow of variable 'w' is the non-trainable variable 'w/ExponentialMovingAverage',
started at w's initial value and colocated with w, so in a cluster it lives on w's parameter
server and the averaging runs there; w is added to GraphKeys.MOVING_AVERAGE_VARIABLES (the
*variable*, as in TF, not its shadow). The shadow of a tensor starts at zero and goes where
the device function puts it. With num_updates, the decay is min(decay, (1 + n) / (10 + n)):
small at first, so early averages follow the value quickly.

zero_debias=True (tensors only, as in TF) divides out the bias of a zero start: it keeps
'<shadow>/biased' and '<shadow>/local_step' and sets shadow = biased / (1 - decay ** step).
"""
from ..framework import dtypes
from ..framework.graph import GraphKeys, get_default_graph, name_scope
from ..framework.tensor import convert_to_tensor

__all__ = ["ExponentialMovingAverage"]


def _is_variable(v):
    return hasattr(v, "_ref") and hasattr(v, "initializer")


def assign_moving_average(variable, value, decay, zero_debias=True, name=None):
    """variable -= (1 - decay) * (variable - value); returns the new value. With zero_debias
    the variable gets the debiased average instead (see the module docstring)."""
    from ..ops import math_ops, state_ops
    with name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        decay = convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype.base_dtype != variable.dtype.base_dtype:
            decay = math_ops.cast(decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay)
        return state_ops.assign_sub(variable, (variable - value) * decay, name=scope)


def _zero_debias(unbiased_var, value, decay):
    """biased -= (biased - value) * decay;  local_step += 1;
    unbiased = biased / (1 - (1 - decay) ** local_step)   (decay here is 1 - the EMA's)."""
    from ..ops import init_ops, math_ops, state_ops
    from ..ops.variable_scope import get_variable, variable_scope
    g = get_default_graph()
    with variable_scope(unbiased_var.op.name, values=[unbiased_var, value, decay]):
        with g.control_dependencies(None), g.colocate_with(unbiased_var):
            biased_var = get_variable("biased", initializer=init_ops.zeros_initializer(),
                                      shape=unbiased_var.get_shape(),
                                      dtype=unbiased_var.dtype.base_dtype, trainable=False)
            local_step = get_variable("local_step", shape=[],
                                      dtype=unbiased_var.dtype.base_dtype,
                                      initializer=init_ops.zeros_initializer(),
                                      trainable=False)
    update_biased = state_ops.assign_sub(biased_var, (biased_var - value) * decay)
    update_local_step = state_ops.assign_add(local_step, 1)
    bias_factor = 1 - math_ops.pow(1.0 - decay, update_local_step)
    return state_ops.assign(unbiased_var, update_biased / bias_factor,
                            name=g.get_name_scope() + "/")


class ExponentialMovingAverage:
    """Maintains moving averages of variables (and tensors) by an exponential decay."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}

    @property
    def name(self):
        return self._name

    def apply(self, var_list=None):
        """Creates the shadow variables (the first time for each) and returns an op that
        updates every average of `var_list` (default: the trainable variables) once."""
        if var_list is None:
            from ..ops.variables import trainable_variables
            var_list = trainable_variables()
        var_list = list(var_list)
        g = get_default_graph()
        zero_debias_true = set()
        for var in var_list:
            if var.dtype.base_dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
                raise TypeError(f"The variables must be half, float, or double: {var.name} is "
                                f"{var.dtype.base_dtype.name}. Average a float copy instead "
                                "(tf.cast).")
            if var in self._averages:
                continue
            with g.control_dependencies(None):              # TF's init_scope
                if _is_variable(var):
                    from . import slot_creator
                    avg = slot_creator.create_slot(var, var.initialized_value(), self._name)
                    g.add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                else:
                    avg = self._zeros_shadow(convert_to_tensor(var))
                    if self._zero_debias:
                        zero_debias_true.add(avg)
            self._averages[var] = avg
        with name_scope(self._name) as scope:
            decay = convert_to_tensor(self._decay, name="decay")
            if self._num_updates is not None:
                from ..ops import basic_math_ops, math_ops
                num_updates = math_ops.cast(self._num_updates, dtypes.float32,
                                            name="num_updates")
                decay = basic_math_ops.minimum(decay,
                                               (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[var]
                updates.append(assign_moving_average(avg, var, decay,
                                                     zero_debias=avg in zero_debias_true))
            from ..ops.control_flow_ops import group
            return group(*updates, name=scope)

    def _zeros_shadow(self, tensor):
        """A zero-started shadow for a tensor. Not colocated with the op computing it (that
        op may run on a worker): the device function places it, as TF does."""
        from ..ops import array_ops
        from ..ops.variable_scope import get_variable_scope
        from ..ops.variables import Variable
        g = tensor.graph
        scope = get_variable_scope().name
        name = f"{tensor.op.name}/{self._name}"
        shape = tensor.get_shape()
        with g.as_default(), g.name_scope(None):
            if shape.is_fully_defined():
                initial = (lambda: array_ops.zeros(shape.as_list(), tensor.dtype.base_dtype))
            else:
                initial = array_ops.zeros_like(tensor)
            return Variable(initial, trainable=False, name=f"{scope}/{name}" if scope else name,
                            validate_shape=shape.is_fully_defined())

    def average(self, var):
        """The shadow variable of `var`, or None if `var` is not averaged."""
        return self._averages.get(var, None)

    def average_name(self, var):
        """The name of the shadow variable of `var` -- also for a variable not averaged
        here, which is what a Saver restoring averages needs (variables_to_restore)."""
        if var in self._averages:
            return self._averages[var].op.name
        return get_default_graph().unique_name(var.op.name + "/" + self._name,
                                               mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables=None):
        """{checkpoint name: variable} for a Saver that loads the averages into the
        variables: an averaged variable takes its shadow's name, every other global
        variable keeps its own."""
        from ..ops.variables import global_variables, moving_average_variables, \
            trainable_variables
        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + moving_average_variables()
        moving_avg_variables = set(moving_avg_variables)
        name_map = {}
        for v in moving_avg_variables:
            name_map[self.average_name(v)] = v
        for v in global_variables():
            if v not in moving_avg_variables and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
