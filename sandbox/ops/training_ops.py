"""Training ops -- mirrors TensorFlow's ApplyGradientDescent, ApplyMomentum, ApplyAdagrad,
ApplyRMSProp, ApplyCenteredRMSProp, ApplyAdam, ApplyAdadelta, ApplyFtrl, ApplyFtrlV2,
ApplyProximalGradientDescent, ApplyProximalAdagrad and ApplyAdagradDA, and the SparseApply ops
of Adadelta and FTRL (core/kernels/training_ops.cc, python/training/gen_training_ops.py; the
other SparseApply ops are in ops/sparse_training_ops.py).

An optimizer does not change a variable with `assign(var, var - lr * grad)` built from generic
ops: each optimizer has one fused "Apply" op that reads the variable and its slots (the extra
per-variable state such as Adam's m and v), computes the update, and stores the new values.
Its first inputs are variable *references* (`ref_inputs`), so the kernel gets the variable's
storage (a VariableCell) rather than its value; it is placed with the variable, so in a
cluster the update runs on the parameter server that holds it.

The kernels store *new* arrays (never modify the old ones in place), so a value that someone
read earlier stays as it was. With `use_locking=True` the read-modify-write of all the cells
is done under their locks, so two workers' updates cannot interleave.
"""
import contextlib

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_util import merge_shapes

__all__ = []   # the public functions are used by tf.train's optimizers, not exported as tf.*


# -- helpers shared by the Apply ops --------------------------------------------------

def _apply_shape(tensor_inputs, scalar_inputs):
    """Shape function: the var, its slots and the gradient (`tensor_inputs`) must agree; the
    hyper-parameters (`scalar_inputs`) must be scalars. The output has the var's shape."""
    def shape(op):
        result = op.inputs[0].get_shape()
        for i in tensor_inputs:
            result = merge_shapes(result, op.inputs[i].get_shape())
        for i in scalar_inputs:
            rank = op.inputs[i].get_shape().ndims
            if rank not in (None, 0):
                raise ValueError(f"Shape must be rank 0 but is rank {rank}")
        return result
    return shape


def _locked(cells, use_locking):
    """Holds the locks of `cells` (in a fixed order, so two updates cannot deadlock); without
    use_locking, nothing (the usual case: it costs next to nothing on every step)."""
    if not use_locking:
        return _NOTHING
    return _holding(cells)


_NOTHING = contextlib.nullcontext()


@contextlib.contextmanager
def _holding(cells):
    with contextlib.ExitStack() as stack:
        for cell in sorted(set(cells), key=id):
            stack.enter_context(cell.lock)
        yield


def _read(cell, grad):
    """The cell's current value, checked against the gradient's shape."""
    value = cell.read(cell.name)
    if value.shape != (grad.shape if grad.__class__ is np.ndarray else np.shape(grad)):
        raise errors.InvalidArgumentError(
            None, None, f"var and grad do not have the same shape{list(value.shape)} "
            f"{list(np.shape(grad))} (variable {cell.name}).")
    return value


def _apply(op_type, refs, values, attrs, name, indices_at=None, int64_at=None):
    """Adds an Apply op: `refs` are variable references, `values` the other inputs (for a
    SparseApply op, values[indices_at] is the int32/int64 row numbers; values[int64_at] is an
    int64 scalar, as ApplyAdagradDA's global_step)."""
    refs = [r._ref() if hasattr(r, "_ref") else convert_to_tensor(r, as_ref=True) for r in refs]
    for r in refs:
        if not r.dtype.is_ref:
            raise TypeError(f"{op_type} needs variable references for its first inputs; "
                            f"{r.name!r} is a plain tensor ({r.dtype.name}).")
    dtype = refs[0].dtype.base_dtype
    with refs[0].graph.as_default():
        values = [convert_to_tensor(v) if i == indices_at else
                  convert_to_tensor(v, dtype=_dtypes.int64) if i == int64_at else
                  convert_to_tensor(v, dtype=dtype) for i, v in enumerate(values)]
    if indices_at is not None:
        attrs = {**attrs, "Tindices": values[indices_at].dtype.base_dtype}
    return apply_op(op_type, refs + values, {"T": dtype, **attrs}, name=name or op_type,
                    output_dtypes=[dtype])


# -- the ops ---------------------------------------------------------------------------

class ApplyGradientDescent(OpDef):
    """var -= alpha * delta"""
    ref_inputs = (0,)
    stateful = True
    shape = _apply_shape(tensor_inputs=(2,), scalar_inputs=(1,))

    def kernel(var, alpha, delta, T=None, use_locking=False):
        with _locked((var,), use_locking):
            value, new = _read(var, delta), alpha * delta
            if new.__class__ is np.ndarray and new.shape == value.shape and \
                    new.dtype == value.dtype:
                np.subtract(value, new, out=new)     # one fresh array, not two
            else:
                new = value - new
            var.value = new
        return new


class ApplyMomentum(OpDef):
    """accum = accum * momentum + grad;  var -= lr * accum
    (Nesterov: var -= lr * grad + lr * momentum * accum)."""
    ref_inputs = (0, 1)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 3), scalar_inputs=(2, 4))

    def kernel(var, accum, lr, grad, momentum, T=None, use_locking=False, use_nesterov=False):
        with _locked((var, accum), use_locking):
            value = _read(var, grad)
            new_accum = _read(accum, grad) * momentum + grad
            if use_nesterov:
                new = value - (grad * lr + new_accum * momentum * lr)
            else:
                new = value - lr * new_accum
            accum.value = new_accum
            var.value = new
        return new


class ApplyAdagrad(OpDef):
    """accum += grad ** 2;  var -= lr * grad / sqrt(accum)"""
    ref_inputs = (0, 1)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 3), scalar_inputs=(2,))

    def kernel(var, accum, lr, grad, T=None, use_locking=False, update_slots=True):
        with _locked((var, accum), use_locking):
            value = _read(var, grad)
            new_accum = _read(accum, grad)
            if update_slots:
                new_accum = new_accum + grad * grad
                accum.value = new_accum
            new = value - lr * grad / np.sqrt(new_accum)
            var.value = new
        return new


class ApplyRMSProp(OpDef):
    """ms += (grad ** 2 - ms) * (1 - rho);  mom = momentum * mom + lr * grad / sqrt(ms + epsilon);
    var -= mom"""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 7), scalar_inputs=(3, 4, 5, 6))

    def kernel(var, ms, mom, lr, rho, momentum, epsilon, grad, T=None, use_locking=False):
        with _locked((var, ms, mom), use_locking):
            value = _read(var, grad)
            old_ms = _read(ms, grad)
            new_ms = old_ms + (grad * grad - old_ms) * (1 - rho)
            new_mom = _read(mom, grad) * momentum + lr * grad / np.sqrt(new_ms + epsilon)
            new = value - new_mom
            ms.value, mom.value, var.value = new_ms, new_mom, new
        return new


class ApplyCenteredRMSProp(OpDef):
    """As ApplyRMSProp, but divides by the variance estimate ms - mg ** 2, where
    mg += (grad - mg) * (1 - rho) is the running mean of the gradient."""
    ref_inputs = (0, 1, 2, 3)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 3, 8), scalar_inputs=(4, 5, 6, 7))

    def kernel(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, T=None, use_locking=False):
        with _locked((var, mg, ms, mom), use_locking):
            value = _read(var, grad)
            old_mg = _read(mg, grad)
            old_ms = _read(ms, grad)
            new_mg = old_mg + (grad - old_mg) * (1 - rho)
            new_ms = old_ms + (grad * grad - old_ms) * (1 - rho)
            denom = new_ms - new_mg * new_mg + epsilon
            new_mom = _read(mom, grad) * momentum + lr * grad / np.sqrt(denom)
            new = value - new_mom
            mg.value, ms.value, mom.value, var.value = new_mg, new_ms, new_mom, new
        return new


class ApplyAdam(OpDef):
    """lr_t = lr * sqrt(1 - beta2_power) / (1 - beta1_power);
    m += (grad - m) * (1 - beta1);  v += (grad ** 2 - v) * (1 - beta2);
    var -= lr_t * m / (sqrt(v) + epsilon)   (Nesterov: m * beta1 + grad * (1 - beta1) for m)."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 9), scalar_inputs=(3, 4, 5, 6, 7, 8))

    def kernel(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad, T=None,
               use_locking=False, use_nesterov=False):
        alpha = lr * np.sqrt(1 - beta2_power) / (1 - beta1_power)
        with _locked((var, m, v), use_locking):
            value = _read(var, grad)
            old_m = _read(m, grad)
            old_v = _read(v, grad)
            new_m = old_m + (grad - old_m) * (1 - beta1)
            new_v = old_v + (grad * grad - old_v) * (1 - beta2)
            step = (new_m * beta1 + grad * (1 - beta1)) if use_nesterov else new_m
            new = value - step * alpha / (np.sqrt(new_v) + epsilon)
            m.value, v.value, var.value = new_m, new_v, new
        return new


def _adadelta(value, accum, accum_update, lr, rho, epsilon, grad):
    """New (var, accum, accum_update) from old ones (whole variables, or some of their rows)."""
    new_accum = accum * rho + grad * grad * (1 - rho)
    update = np.sqrt(accum_update + epsilon) / np.sqrt(new_accum + epsilon) * grad
    return value - update * lr, new_accum, accum_update * rho + update * update * (1 - rho)


def _ftrl(value, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power):
    """FTRL-Proximal (McMahan et al., 2013), as TF's kernel computes it; returns new (var,
    accum, linear):  new_accum = accum + grad ** 2 (the gradient before shrinkage);
    linear += g - (new_accum ** -lr_power - accum ** -lr_power) / lr * var, where
    g = grad + 2 * l2_shrinkage * var;
    var = (sign(linear) * l1 - linear) / (new_accum ** -lr_power / lr + 2 * l2) where
    |linear| > l1, else 0."""
    new_accum = accum + grad * grad
    if lr_power == -0.5:
        new_pow, old_pow = np.sqrt(new_accum), np.sqrt(accum)
    else:
        new_pow, old_pow = np.power(new_accum, -lr_power), np.power(accum, -lr_power)
    g = grad if l2_shrinkage is None else grad + 2 * l2_shrinkage * value
    new_linear = linear + g - (new_pow - old_pow) / lr * value
    x = l1 * np.sign(new_linear) - new_linear
    y = new_pow / lr + 2 * l2
    new = np.where(np.abs(new_linear) > l1, x / y, 0).astype(value.dtype, copy=False)
    return new, new_accum, new_linear


def _dense(cells, grad, use_locking, update):
    """Reads the cells (var first), stores update(values..., grad) into them; returns var."""
    with _locked(cells, use_locking):
        results = update(*[_read(c, grad) for c in cells], grad)
        for cell, value in zip(cells, results):
            cell.value = value
    return results[0]


def _sparse(cells, grad, indices, use_locking, update):
    """The same update on the rows `indices` only (TF's SparseApply kernels): the other rows
    keep their values. Repeated indices are applied one after another, as TF's loop does."""
    with _locked(cells, use_locking):
        values = [c.read(c.name).copy() for c in cells]
        var = values[0]
        if grad.shape[:1] != indices.shape or grad.shape[1:] != var.shape[1:]:
            raise errors.InvalidArgumentError(
                None, None, f"grad must have one row per index and rows shaped like the "
                f"variable's: grad {list(grad.shape)}, indices {list(indices.shape)}, var "
                f"{list(var.shape)} (variable {cells[0].name}).")
        n = var.shape[0]
        if indices.size and (indices.min() < 0 or indices.max() >= n):
            raise errors.InvalidArgumentError(
                None, None, f"Index {int(indices[(indices < 0) | (indices >= n)][0])} in "
                f"indices is out of range [0, {n}) (variable {cells[0].name}).")
        groups = [indices] if np.unique(indices).size == indices.size else \
            [indices[i:i + 1] for i in range(indices.size)]
        at = 0
        for rows in groups:
            new_rows = update(*[v[rows] for v in values], grad[at:at + rows.size])
            at += rows.size
            for v, new in zip(values, new_rows):
                v[rows] = new
        for cell, value in zip(cells, values):
            cell.value = value
    return values[0]


def _sparse_shape(op):
    return op.inputs[0].get_shape()


class ApplyAdadelta(OpDef):
    """accum = rho * accum + (1 - rho) * grad ** 2;
    update = sqrt(accum_update + epsilon) / sqrt(accum + epsilon) * grad;  var -= lr * update;
    accum_update = rho * accum_update + (1 - rho) * update ** 2"""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 6), scalar_inputs=(3, 4, 5))

    def kernel(var, accum, accum_update, lr, rho, epsilon, grad, T=None, use_locking=False):
        return _dense((var, accum, accum_update), grad, use_locking,
                      lambda v, a, u, g: _adadelta(v, a, u, lr, rho, epsilon, g))


class SparseApplyAdadelta(OpDef):
    """ApplyAdadelta on the rows `indices` of var and its slots (grad: one row per index)."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _sparse_shape

    def kernel(var, accum, accum_update, lr, rho, epsilon, grad, indices, T=None,
               Tindices=None, use_locking=False):
        return _sparse((var, accum, accum_update), grad, indices, use_locking,
                       lambda v, a, u, g: _adadelta(v, a, u, lr, rho, epsilon, g))


class ApplyFtrl(OpDef):
    """FTRL-Proximal with l1 and l2 regularization (see _ftrl)."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 3), scalar_inputs=(4, 5, 6, 7))

    def kernel(var, accum, linear, grad, lr, l1, l2, lr_power, T=None, use_locking=False):
        return _dense((var, accum, linear), grad, use_locking,
                      lambda v, a, n, g: _ftrl(v, a, n, g, lr, l1, l2, None, lr_power))


class ApplyFtrlV2(OpDef):
    """FTRL-Proximal with an extra l2 shrinkage of the weights (see _ftrl)."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 3), scalar_inputs=(4, 5, 6, 7, 8))

    def kernel(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power, T=None,
               use_locking=False):
        return _dense((var, accum, linear), grad, use_locking,
                      lambda v, a, n, g: _ftrl(v, a, n, g, lr, l1, l2, l2_shrinkage, lr_power))


class SparseApplyFtrl(OpDef):
    """ApplyFtrl on the rows `indices` only: untouched rows keep their weights (the dense
    update would recompute them from `linear` -- and zero them at the start)."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _sparse_shape

    def kernel(var, accum, linear, grad, indices, lr, l1, l2, lr_power, T=None, Tindices=None,
               use_locking=False):
        return _sparse((var, accum, linear), grad, indices, use_locking,
                       lambda v, a, n, g: _ftrl(v, a, n, g, lr, l1, l2, None, lr_power))


class SparseApplyFtrlV2(OpDef):
    """ApplyFtrlV2 on the rows `indices` only."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _sparse_shape

    def kernel(var, accum, linear, grad, indices, lr, l1, l2, l2_shrinkage, lr_power, T=None,
               Tindices=None, use_locking=False):
        return _sparse((var, accum, linear), grad, indices, use_locking,
                       lambda v, a, n, g: _ftrl(v, a, n, g, lr, l1, l2, l2_shrinkage, lr_power))


def _proximal(prox, lr, l1, l2):
    """The proximal step of FOBOS (Duchi & Singer, 2009) on prox = var - lr * grad, as TF's
    kernels compute it: sign(prox) * max(|prox| - lr * l1, 0) / (1 + l2 * lr) when l1 > 0,
    else prox / (1 + l2 * lr). `lr` is a scalar (ProximalGradientDescent) or an array
    (ProximalAdagrad's per-weight lr / sqrt(accum))."""
    if l1 > 0:
        return np.sign(prox) * np.maximum(np.abs(prox) - lr * l1, 0) / (1 + l2 * lr)
    return prox / (1 + l2 * lr)


def _proximal_adagrad(value, accum, grad, lr, l1, l2):
    """New (var, accum): accum += grad ** 2;  lr_t = lr / sqrt(accum);
    var = _proximal(var - lr_t * grad, lr_t, l1, l2)."""
    new_accum = accum + grad * grad
    learning_rate = lr / np.sqrt(new_accum)
    return _proximal(value - grad * learning_rate, learning_rate, l1, l2), new_accum


def _adagrad_da(grad_accum, grad_squared_accum, grad, lr, l1, l2, global_step):
    """New (var, gradient_accumulator, gradient_squared_accumulator), as TF's dense kernel
    computes it (T: global_step):  g += grad;  gg += grad ** 2;
    var = -sign(g) * lr * max(|g| - l1 * T, 0) / (l2 * T * lr + sqrt(gg))  (l1 > 0)
    var = -lr * g / (l2 * T * lr + sqrt(gg))                                   (l1 == 0)
    The variable's old value is not used: dual averaging recomputes it from the sums."""
    g = grad_accum + grad
    gg = grad_squared_accum + grad * grad
    step = np.asarray(global_step).astype(g.dtype)
    denom = l2 * (step * lr) + np.sqrt(gg)
    if l1 > 0:
        new = lr * -1 * np.sign(g) * np.maximum(np.abs(g) - step * l1, 0) / denom
    else:
        new = lr * g * -1 / denom
    return new.astype(g.dtype, copy=False), g, gg


class ApplyProximalGradientDescent(OpDef):
    """prox = var - alpha * delta;  var = sign(prox) * max(|prox| - alpha * l1, 0) /
    (1 + alpha * l2)   (FOBOS; without l1, prox / (1 + alpha * l2))."""
    ref_inputs = (0,)
    stateful = True
    shape = _apply_shape(tensor_inputs=(4,), scalar_inputs=(1, 2, 3))

    def kernel(var, alpha, l1, l2, delta, T=None, use_locking=False):
        return _dense((var,), delta, use_locking,
                      lambda v, g: (_proximal(v - g * alpha, alpha, l1, l2),))


class ApplyProximalAdagrad(OpDef):
    """accum += grad ** 2;  then ApplyProximalGradientDescent's step with the Adagrad rate
    lr / sqrt(accum) (see _proximal_adagrad)."""
    ref_inputs = (0, 1)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 5), scalar_inputs=(2, 3, 4))

    def kernel(var, accum, lr, l1, l2, grad, T=None, use_locking=False):
        return _dense((var, accum), grad, use_locking,
                      lambda v, a, g: _proximal_adagrad(v, a, g, lr, l1, l2))


class ApplyAdagradDA(OpDef):
    """Adagrad dual averaging (see _adagrad_da); global_step is an int64 scalar."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _apply_shape(tensor_inputs=(1, 2, 3), scalar_inputs=(4, 5, 6, 7))

    def kernel(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,
               global_step, T=None, use_locking=False):
        return _dense((var, gradient_accumulator, gradient_squared_accumulator), grad,
                      use_locking,
                      lambda v, g, gg, d: _adagrad_da(g, gg, d, lr, l1, l2, global_step))


# -- public functions (gen_training_ops) ------------------------------------------------

def apply_gradient_descent(var, alpha, delta, use_locking=False, name=None):
    return _apply("ApplyGradientDescent", [var], [alpha, delta],
                  {"use_locking": use_locking}, name)


def apply_momentum(var, accum, lr, grad, momentum, use_locking=False, use_nesterov=False,
                   name=None):
    return _apply("ApplyMomentum", [var, accum], [lr, grad, momentum],
                  {"use_locking": use_locking, "use_nesterov": use_nesterov}, name)


def apply_adagrad(var, accum, lr, grad, use_locking=False, update_slots=True, name=None):
    return _apply("ApplyAdagrad", [var, accum], [lr, grad],
                  {"use_locking": use_locking, "update_slots": update_slots}, name)


def apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, use_locking=False,
                   name=None):
    return _apply("ApplyRMSProp", [var, ms, mom], [lr, rho, momentum, epsilon, grad],
                  {"use_locking": use_locking}, name)


def apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad,
                            use_locking=False, name=None):
    return _apply("ApplyCenteredRMSProp", [var, mg, ms, mom], [lr, rho, momentum, epsilon, grad],
                  {"use_locking": use_locking}, name)


def apply_adam(var, m, v, beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad,
               use_locking=False, use_nesterov=False, name=None):
    return _apply("ApplyAdam", [var, m, v],
                  [beta1_power, beta2_power, lr, beta1, beta2, epsilon, grad],
                  {"use_locking": use_locking, "use_nesterov": use_nesterov}, name)


def apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, use_locking=False,
                   name=None):
    return _apply("ApplyAdadelta", [var, accum, accum_update], [lr, rho, epsilon, grad],
                  {"use_locking": use_locking}, name)


def apply_ftrl(var, accum, linear, grad, lr, l1, l2, lr_power, use_locking=False, name=None):
    return _apply("ApplyFtrl", [var, accum, linear], [grad, lr, l1, l2, lr_power],
                  {"use_locking": use_locking}, name)


def apply_ftrl_v2(var, accum, linear, grad, lr, l1, l2, l2_shrinkage, lr_power,
                  use_locking=False, name=None):
    return _apply("ApplyFtrlV2", [var, accum, linear], [grad, lr, l1, l2, l2_shrinkage, lr_power],
                  {"use_locking": use_locking}, name)


def sparse_apply_adadelta(var, accum, accum_update, lr, rho, epsilon, grad, indices,
                          use_locking=False, name=None):
    return _apply("SparseApplyAdadelta", [var, accum, accum_update],
                  [lr, rho, epsilon, grad, indices], {"use_locking": use_locking}, name,
                  indices_at=4)


def sparse_apply_ftrl(var, accum, linear, grad, indices, lr, l1, l2, lr_power,
                      use_locking=False, name=None):
    return _apply("SparseApplyFtrl", [var, accum, linear], [grad, indices, lr, l1, l2, lr_power],
                  {"use_locking": use_locking}, name, indices_at=1)


def sparse_apply_ftrl_v2(var, accum, linear, grad, indices, lr, l1, l2, l2_shrinkage, lr_power,
                         use_locking=False, name=None):
    return _apply("SparseApplyFtrlV2", [var, accum, linear],
                  [grad, indices, lr, l1, l2, l2_shrinkage, lr_power],
                  {"use_locking": use_locking}, name, indices_at=1)


def apply_proximal_gradient_descent(var, alpha, l1, l2, delta, use_locking=False, name=None):
    return _apply("ApplyProximalGradientDescent", [var], [alpha, l1, l2, delta],
                  {"use_locking": use_locking}, name)


def apply_proximal_adagrad(var, accum, lr, l1, l2, grad, use_locking=False, name=None):
    return _apply("ApplyProximalAdagrad", [var, accum], [lr, l1, l2, grad],
                  {"use_locking": use_locking}, name)


def apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad, lr, l1, l2,
                     global_step, use_locking=False, name=None):
    return _apply("ApplyAdagradDA", [var, gradient_accumulator, gradient_squared_accumulator],
                  [grad, lr, l1, l2, global_step], {"use_locking": use_locking}, name,
                  int64_at=4)
