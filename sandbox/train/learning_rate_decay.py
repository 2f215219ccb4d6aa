"""Learning-rate schedules -- mirrors TensorFlow 1.x's learning_rate_decay
(python/training/learning_rate_decay.py; TF 1.15 computes them with the classes of
python/keras/optimizer_v2/learning_rate_schedule.py, with the same formulas and op names).

A schedule is a small graph computing the learning rate from the global step, so the rate
changes as training advances without rebuilding anything:

    lr = tf.train.exponential_decay(0.1, global_step, decay_steps=1000, decay_rate=0.96)
    train_op = tf.train.GradientDescentOptimizer(lr).minimize(loss, global_step=global_step)

Each function returns one scalar tensor of the learning rate's dtype, named after the schedule
('ExponentialDecay', 'PolynomialDecay', 'CosineDecay/...', 'SGDRDecay' ...), so a student can
fetch it and plot it against the step. Where TF's graph branches with tf.cond / tf.case
(piecewise_constant, the cycle of polynomial_decay) the sandbox computes both branches and
picks one with tf.where: the same value, and no control flow to explain.

    exponential_decay     lr * rate ** (step / decay_steps)
    natural_exp_decay     lr * exp(-rate * step / decay_steps)
    inverse_time_decay    lr / (1 + rate * step / decay_steps)
    piecewise_constant    values[i] while boundaries[i-1] < step <= boundaries[i]
    polynomial_decay      (lr - end) * (1 - step / decay_steps) ** power + end
    cosine_decay          lr * ((1 - alpha) * 0.5 * (1 + cos(pi * step / decay_steps)) + alpha)
    cosine_decay_restarts the same, restarting after first_decay_steps * t_mul ** i steps (SGDR)
    linear_cosine_decay   lr * ((alpha + linear) * cosine + beta)
    noisy_linear_cosine_decay  the same with gaussian noise added to linear
(staircase=True rounds step / decay_steps down, so the rate drops in steps.)
"""
import math

from ..framework import dtypes
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor

__all__ = ["exponential_decay", "natural_exp_decay", "inverse_time_decay", "piecewise_constant",
           "piecewise_constant_decay", "polynomial_decay", "cosine_decay",
           "cosine_decay_restarts", "linear_cosine_decay", "noisy_linear_cosine_decay"]


def _ops():
    from ..ops import basic_math_ops, comparison_ops, math_ops
    return math_ops, basic_math_ops, comparison_ops


def _need_step(global_step, schedule):
    if global_step is None:
        raise ValueError(f"global_step is required for {schedule}: pass the training step "
                         "(e.g. tf.train.get_or_create_global_step()).")


def exponential_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * decay_rate ** (global_step / decay_steps); with staircase=True the
    exponent is rounded down, so the rate drops in steps every `decay_steps` steps."""
    _need_step(global_step, "exponential_decay")
    math_ops, _, _ = _ops()
    with name_scope(name, "ExponentialDecay",
                    [learning_rate, global_step, decay_steps, decay_rate]) as name:
        learning_rate = convert_to_tensor(learning_rate, name="learning_rate")
        dtype = learning_rate.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        decay_rate = math_ops.cast(decay_rate, dtype)
        p = math_ops.cast(global_step, dtype) / decay_steps
        if staircase:
            p = math_ops.floor(p)
        return math_ops.multiply(learning_rate, math_ops.pow(decay_rate, p), name=name)


def natural_exp_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                      name=None):
    """learning_rate * exp(-decay_rate * global_step / decay_steps): exponential_decay with
    the rate exp(-decay_rate) (TF builds it that way too: its op is named ExponentialDecay)."""
    _need_step(global_step, "natural_exp_decay")
    _, basic_math_ops, _ = _ops()
    rate = basic_math_ops.exp(basic_math_ops.negative(
        convert_to_tensor(decay_rate, dtype=dtypes.float32)))
    return exponential_decay(learning_rate, global_step, decay_steps, rate,
                             staircase=staircase, name=name or "ExponentialDecay")


def inverse_time_decay(learning_rate, global_step, decay_steps, decay_rate, staircase=False,
                       name=None):
    """learning_rate / (1 + decay_rate * global_step / decay_steps)."""
    _need_step(global_step, "inverse_time_decay")
    math_ops, _, _ = _ops()
    with name_scope(name, "InverseTimeDecay", [learning_rate, global_step, decay_rate]) as name:
        learning_rate = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        p = math_ops.cast(global_step, dtype) / math_ops.cast(decay_steps, dtype)
        if staircase:
            p = math_ops.floor(p)
        denom = math_ops.add(math_ops.cast(1, dtype),
                             math_ops.multiply(math_ops.cast(decay_rate, dtype), p))
        return math_ops.divide(learning_rate, denom, name=name)


def piecewise_constant(x, boundaries, values, name=None):
    """values[0] while x <= boundaries[0], values[i] while boundaries[i-1] < x <= boundaries[i],
    values[-1] once x > boundaries[-1]. The result has the dtype of `values`."""
    if len(values) != len(boundaries) + 1:
        raise ValueError("The length of boundaries should be 1 less than the length of "
                         f"values: {len(boundaries)} boundaries, {len(values)} values.")
    math_ops, _, comparison_ops = _ops()
    with name_scope(name, "PiecewiseConstant", [x] + list(boundaries) + list(values)) as name:
        x = convert_to_tensor(x)
        values = [convert_to_tensor(v) for v in values]
        for v in values[1:]:
            if v.dtype.base_dtype != values[0].dtype.base_dtype:
                raise ValueError(f"Values must have elements all with the same dtype "
                                 f"({values[0].dtype.name} != {v.dtype.name}).")
        bounds = []
        for b in boundaries:
            b = convert_to_tensor(b)
            if b.dtype.base_dtype != x.dtype.base_dtype:
                b = math_ops.cast(b, x.dtype.base_dtype)
            bounds.append(b)
        # From the last piece down: where x <= boundary i, the value is values[i].
        result = values[-1]
        for i in reversed(range(len(bounds))):
            result = comparison_ops.where(comparison_ops.less_equal(x, bounds[i]), values[i],
                                          result, name=name if i == 0 else None)
        return result


piecewise_constant_decay = piecewise_constant


def polynomial_decay(learning_rate, global_step, decay_steps, end_learning_rate=0.0001,
                     power=1.0, cycle=False, name=None):
    """(learning_rate - end) * (1 - step / decay_steps) ** power + end. The step stops at
    decay_steps; with cycle=True decay_steps grows instead to the next multiple of itself
    above the step, so the rate jumps back up and decays again."""
    _need_step(global_step, "polynomial_decay")
    math_ops, basic_math_ops, comparison_ops = _ops()
    with name_scope(name, "PolynomialDecay",
                    [learning_rate, global_step, decay_steps, end_learning_rate, power]) as name:
        learning_rate = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        end_learning_rate = math_ops.cast(end_learning_rate, dtype)
        power = math_ops.cast(power, dtype)
        step = math_ops.cast(global_step, dtype)
        decay_steps_t = math_ops.cast(decay_steps, dtype)
        if cycle:
            multiplier = comparison_ops.where(
                comparison_ops.equal(step, 0), math_ops.cast(1.0, dtype),
                math_ops.ceil(step / decay_steps_t))
            decay_steps_t = math_ops.multiply(decay_steps_t, multiplier)
        else:
            step = basic_math_ops.minimum(step, decay_steps_t)
        p = math_ops.divide(step, decay_steps_t)
        return math_ops.add(math_ops.multiply(learning_rate - end_learning_rate,
                                              math_ops.pow(1 - p, power)),
                            end_learning_rate, name=name)


def cosine_decay(learning_rate, global_step, decay_steps, alpha=0.0, name=None):
    """learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * step / decay_steps)) + alpha), the
    step stopping at decay_steps (Loshchilov & Hutter, SGDR without restarts)."""
    _need_step(global_step, "cosine_decay")
    math_ops, basic_math_ops, _ = _ops()
    with name_scope(name, "CosineDecay", [learning_rate, global_step]):
        learning_rate = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        step = basic_math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        completed_fraction = step / decay_steps
        cosine_decayed = 0.5 * (1.0 + basic_math_ops.cos(
            convert_to_tensor(math.pi, dtype=dtype) * completed_fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(learning_rate, decayed)


def cosine_decay_restarts(learning_rate, global_step, first_decay_steps, t_mul=2.0, m_mul=1.0,
                          alpha=0.0, name=None):
    """Cosine decay with warm restarts (SGDR): the first period lasts first_decay_steps, each
    next one t_mul times longer and starting m_mul times lower."""
    _need_step(global_step, "cosine_decay_restarts")
    math_ops, basic_math_ops, comparison_ops = _ops()
    with name_scope(name, "SGDRDecay", [learning_rate, global_step]) as name:
        learning_rate = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        first_decay_steps = math_ops.cast(first_decay_steps, dtype)
        alpha = math_ops.cast(alpha, dtype)
        m_mul_t = math_ops.cast(m_mul, dtype)
        t_mul_t = math_ops.cast(t_mul, dtype)
        completed_fraction = math_ops.cast(global_step, dtype) / first_decay_steps

        def restarts(geometric):
            if geometric:      # periods of length t_mul ** i: which one, and how far into it
                i_restart = math_ops.floor(
                    basic_math_ops.log(1.0 - completed_fraction * (1.0 - t_mul_t)) /
                    basic_math_ops.log(t_mul_t))
                sum_r = (1.0 - t_mul_t ** i_restart) / (1.0 - t_mul_t)
                return i_restart, (completed_fraction - sum_r) / t_mul_t ** i_restart
            i_restart = math_ops.floor(completed_fraction)
            return i_restart, completed_fraction - i_restart

        if isinstance(t_mul, (int, float)):          # known now: build one branch, as TF runs
            i_restart, fraction = restarts(geometric=t_mul != 1.0)
        else:
            same = comparison_ops.equal(t_mul_t, 1.0)
            (i_lin, f_lin), (i_geo, f_geo) = restarts(False), restarts(True)
            i_restart = comparison_ops.where(same, i_lin, i_geo)
            fraction = comparison_ops.where(same, f_lin, f_geo)
        m_fac = m_mul_t ** i_restart
        cosine_decayed = 0.5 * m_fac * (1.0 + basic_math_ops.cos(
            convert_to_tensor(math.pi, dtype=dtype) * fraction))
        decayed = (1 - alpha) * cosine_decayed + alpha
        return math_ops.multiply(learning_rate, decayed, name=name)


def linear_cosine_decay(learning_rate, global_step, decay_steps, num_periods=0.5, alpha=0.0,
                        beta=0.001, name=None):
    """learning_rate * ((alpha + linear) * cosine + beta), where linear falls from 1 to 0 over
    decay_steps and cosine makes num_periods periods (Bello et al., 2017)."""
    _need_step(global_step, "linear_cosine_decay")
    math_ops, basic_math_ops, _ = _ops()
    with name_scope(name, "LinearCosineDecay", [learning_rate, global_step]) as name:
        learning_rate = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = basic_math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        fraction = 2.0 * num_periods * (step / decay_steps)
        cosine_decayed = 0.5 * (1.0 + basic_math_ops.cos(
            convert_to_tensor(math.pi, dtype=dtype) * fraction))
        return math_ops.multiply(learning_rate, (alpha + linear_decayed) * cosine_decayed + beta,
                                 name=name)


def noisy_linear_cosine_decay(learning_rate, global_step, decay_steps, initial_variance=1.0,
                              variance_decay=0.55, num_periods=0.5, alpha=0.0, beta=0.001,
                              name=None):
    """linear_cosine_decay with noise: learning_rate * ((alpha + linear + eps) * cosine + beta),
    eps drawn (each run) from a normal distribution of mean 0 and variance
    initial_variance / (1 + step) ** variance_decay. As in TF the noise is a random_normal
    without an op seed, so only a graph-level seed (tf.set_random_seed) makes it repeatable;
    and as in TF the noise is float32, so a float64 learning_rate raises ValueError."""
    _need_step(global_step, "noisy_linear_cosine_decay")
    math_ops, basic_math_ops, _ = _ops()
    from ..ops import random_ops
    with name_scope(name, "NoisyLinearCosineDecay", [learning_rate, global_step]) as name:
        learning_rate = convert_to_tensor(learning_rate, name="initial_learning_rate")
        dtype = learning_rate.dtype
        decay_steps = math_ops.cast(decay_steps, dtype)
        initial_variance = math_ops.cast(initial_variance, dtype)
        variance_decay = math_ops.cast(variance_decay, dtype)
        num_periods = math_ops.cast(num_periods, dtype)
        alpha = math_ops.cast(alpha, dtype)
        beta = math_ops.cast(beta, dtype)
        step = basic_math_ops.minimum(math_ops.cast(global_step, dtype), decay_steps)
        linear_decayed = (decay_steps - step) / decay_steps
        variance = initial_variance / math_ops.pow(1.0 + step, variance_decay)
        std = basic_math_ops.sqrt(variance)
        noisy_linear_decayed = linear_decayed + random_ops.random_normal(
            linear_decayed.shape, stddev=std)    # float32, as TF draws it
        fraction = 2.0 * num_periods * (step / decay_steps)
        cosine_decayed = 0.5 * (1.0 + basic_math_ops.cos(
            convert_to_tensor(math.pi, dtype=dtype) * fraction))
        return math_ops.multiply(learning_rate,
                                 (alpha + noisy_linear_decayed) * cosine_decayed + beta,
                                 name=name)
