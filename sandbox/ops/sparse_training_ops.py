"""Sparse training ops -- mirrors TensorFlow's SparseApplyMomentum, SparseApplyAdagrad,
SparseApplyRMSProp, SparseApplyCenteredRMSProp, SparseApplyProximalGradientDescent,
SparseApplyProximalAdagrad and SparseApplyAdagradDA (core/kernels/training_ops.cc,
python/training/gen_training_ops.py).

The dense Apply ops (ops/training_ops.py) take a gradient shaped like the whole variable. When
the gradient is an IndexedSlices -- a few rows of an embedding, and their row numbers -- the
optimizers use these ops instead: they take `grad` (the rows) and `indices` (which rows), and
update only those rows of the variable and of its slots, with the same formula as the dense
op. The rows that no index names are left as they were: their momentum (or mean square) is not
decayed, which is why a sparse step is not the same as a dense step with zero rows.

Like every Apply op they take the variable and its slots by reference and are placed with the
variable -- so on a cluster only the rows and the indices cross the wire to the ps. The
optimizers sum the rows of repeated indices first (Optimizer._apply_sparse_duplicate_indices);
given repeated indices directly, these kernels apply them one after another, as TF's CPU
kernels do. (GradientDescent needs no such op: its sparse step is a ScatterSub, and Adam's is
built from ScatterAdd and dense ops -- see train/gradient_descent.py and train/adam.py.)

Like the dense kernels, they store new arrays and never modify the old ones in place.
"""
import contextlib

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor

__all__ = []   # used by tf.train's optimizers' _apply_sparse, not exported as tf.*


# -- helpers shared by the SparseApply ops -----------------------------------------------

def _sparse_apply_shape(slot_inputs, scalar_inputs, grad_input):
    """Shape function: var and its slots agree; grad is [n] + var.shape[1:] with indices [n];
    the hyper-parameters are scalars. The output has the var's shape."""
    def shape(op):
        var = op.inputs[0].get_shape()
        for i in slot_inputs:
            var = var.merge_with(op.inputs[i].get_shape())
        for i in scalar_inputs:
            rank = op.inputs[i].get_shape().ndims
            if rank not in (None, 0):
                raise ValueError(f"Shape must be rank 0 but is rank {rank}")
        grad = op.inputs[grad_input].get_shape()
        indices = op.inputs[grad_input + 1].get_shape().with_rank(1)
        if var.ndims is not None and grad.ndims is not None:
            if grad.ndims != var.ndims:
                raise ValueError(f"var and grad must have the same rank: var {var}, grad {grad}")
            grad[1:].merge_with(var[1:])
        if grad.ndims is not None:
            grad[:1].merge_with(indices)
        return var
    return shape


@contextlib.contextmanager
def _holding(cells, use_locking):
    """The cells' locks (in a fixed order, so two updates cannot deadlock), if use_locking."""
    with contextlib.ExitStack() as stack:
        if use_locking:
            for cell in sorted(set(cells), key=id):
                stack.enter_context(cell.lock)
        yield


def _rows(cells, grad, indices):
    """Copies of the cells' values (to be changed and stored), after checking that `grad` has
    one row per index and every index names a row of the variable."""
    values = [c.read(c.name).copy() for c in cells]
    var, name = values[0], cells[0].name
    if grad.shape[:1] != indices.shape or grad.shape[1:] != var.shape[1:]:
        raise errors.InvalidArgumentError(
            None, None, f"grad must have one row per index and rows shaped like the "
            f"variable's: grad {list(grad.shape)}, indices {list(indices.shape)}, var "
            f"{list(var.shape)} (variable {name}).")
    n = var.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= n):
        bad = int(indices[(indices < 0) | (indices >= n)][0])
        raise errors.InvalidArgumentError(
            None, None, f"Index {bad} at offset {int(np.argmax(indices == bad))} in indices is "
            f"out of range [0, {n}) (variable {name}).")
    return values


def _update_rows(cells, grad, indices, update):
    """Runs update(rows..., grad_rows) -> new rows on the touched rows of copies of the cells,
    and stores the copies. Unique indices: once, on all rows; repeated ones: row by row in
    order, as TF's kernels do."""
    values = _rows(cells, grad, indices)
    if np.unique(indices).size == indices.size:
        new_rows = update(*[v[indices] for v in values], grad)
        for v, rows in zip(values, new_rows):
            v[indices] = rows
    else:
        for i, index in enumerate(indices):
            new_rows = update(*[v[index] for v in values], grad[i])
            for v, rows in zip(values, new_rows):
                v[index] = rows
    for cell, v in zip(cells, values):
        cell.value = v
    return values[0]


def _sparse_apply(op_type, refs, scalars_before, grad, indices, scalars_after, attrs, name,
                  global_step=None):
    """Adds a SparseApply op: refs (variable references), then the hyper-parameters, grad and
    indices in TF's order (and last, for SparseApplyAdagradDA, the int64 `global_step`)."""
    refs = [r._ref() if hasattr(r, "_ref") else convert_to_tensor(r, as_ref=True) for r in refs]
    for r in refs:
        if not r.dtype.is_ref:
            raise TypeError(f"{op_type} needs variable references for its first inputs; "
                            f"{r.name!r} is a plain tensor ({r.dtype.name}).")
    dtype = refs[0].dtype.base_dtype
    with refs[0].graph.as_default():
        before = [convert_to_tensor(v, dtype=dtype) for v in scalars_before]
        grad = convert_to_tensor(grad, dtype=dtype)
        indices = convert_to_tensor(indices)
        if indices.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"{op_type}: indices must be int32 or int64, got "
                            f"{indices.dtype.name}")
        after = [convert_to_tensor(v, dtype=dtype) for v in scalars_after]
        if global_step is not None:
            after.append(convert_to_tensor(global_step, dtype=_dtypes.int64))
    return apply_op(op_type, refs + before + [grad, indices] + after,
                    {"T": dtype, "Tindices": indices.dtype.base_dtype, **attrs},
                    name=name or op_type, output_dtypes=[dtype])


# -- the ops -----------------------------------------------------------------------------

class SparseApplyMomentum(OpDef):
    """For each touched row: accum = accum * momentum + grad;  var -= lr * accum
    (Nesterov: var -= lr * grad + lr * momentum * accum)."""
    ref_inputs = (0, 1)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(1,), scalar_inputs=(2, 5), grad_input=3)

    def kernel(var, accum, lr, grad, indices, momentum, T=None, Tindices=None,
               use_locking=False, use_nesterov=False):
        def update(v, a, g):
            a = a * momentum + g
            if use_nesterov:
                return v - (g * lr + a * momentum * lr), a
            return v - lr * a, a
        with _holding((var, accum), use_locking):
            return _update_rows((var, accum), grad, indices, update)


class SparseApplyAdagrad(OpDef):
    """For each touched row: accum += grad ** 2;  var -= lr * grad / sqrt(accum)."""
    ref_inputs = (0, 1)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(1,), scalar_inputs=(2,), grad_input=3)

    def kernel(var, accum, lr, grad, indices, T=None, Tindices=None, use_locking=False,
               update_slots=True):
        def update(v, a, g):
            if update_slots:
                a = a + g * g
            return v - lr * g / np.sqrt(a), a
        with _holding((var, accum), use_locking):
            return _update_rows((var, accum), grad, indices, update)


class SparseApplyRMSProp(OpDef):
    """For each touched row: ms += (grad ** 2 - ms) * (1 - rho);
    mom = mom * momentum + lr * grad / sqrt(ms + epsilon);  var -= mom."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(1, 2), scalar_inputs=(3, 4, 5, 6), grad_input=7)

    def kernel(var, ms, mom, lr, rho, momentum, epsilon, grad, indices, T=None,
               Tindices=None, use_locking=False):
        def update(v, s, m, g):
            s = s + (g * g - s) * (1 - rho)
            m = m * momentum + lr * g / np.sqrt(s + epsilon)
            return v - m, s, m
        with _holding((var, ms, mom), use_locking):
            return _update_rows((var, ms, mom), grad, indices, update)


class SparseApplyCenteredRMSProp(OpDef):
    """As SparseApplyRMSProp, dividing by ms - mg ** 2 where mg += (grad - mg) * (1 - rho)
    is the running mean of the gradient."""
    ref_inputs = (0, 1, 2, 3)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(1, 2, 3), scalar_inputs=(4, 5, 6, 7),
                                grad_input=8)

    def kernel(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices, T=None,
               Tindices=None, use_locking=False):
        def update(v, a, s, m, g):
            a = a + (g - a) * (1 - rho)
            s = s + (g * g - s) * (1 - rho)
            m = m * momentum + lr * g / np.sqrt(s - a * a + epsilon)
            return v - m, a, s, m
        with _holding((var, mg, ms, mom), use_locking):
            return _update_rows((var, mg, ms, mom), grad, indices, update)


def _proximal(prox, lr, l1, l2):
    """FOBOS's proximal step on prox = var - lr * grad (as ops/training_ops.py's _proximal):
    sign(prox) * max(|prox| - lr * l1, 0) / (1 + l2 * lr), or prox / (1 + l2 * lr) if l1 is 0."""
    if l1 > 0:
        return np.sign(prox) * np.maximum(np.abs(prox) - lr * l1, 0) / (1 + l2 * lr)
    return prox / (1 + l2 * lr)


class SparseApplyProximalGradientDescent(OpDef):
    """For each touched row: prox = var - alpha * grad;
    var = sign(prox) * max(|prox| - alpha * l1, 0) / (1 + alpha * l2)."""
    ref_inputs = (0,)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(), scalar_inputs=(1, 2, 3), grad_input=4)

    def kernel(var, alpha, l1, l2, grad, indices, T=None, Tindices=None, use_locking=False):
        def update(v, g):
            return (_proximal(v - g * alpha, alpha, l1, l2),)
        with _holding((var,), use_locking):
            return _update_rows((var,), grad, indices, update)


class SparseApplyProximalAdagrad(OpDef):
    """For each touched row: accum += grad ** 2;  lr_t = lr / sqrt(accum);
    prox = var - lr_t * grad;  var = sign(prox) * max(|prox| - lr_t * l1, 0) / (1 + lr_t * l2)."""
    ref_inputs = (0, 1)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(1,), scalar_inputs=(2, 3, 4), grad_input=5)

    def kernel(var, accum, lr, l1, l2, grad, indices, T=None, Tindices=None,
               use_locking=False):
        def update(v, a, g):
            a = a + g * g
            learning_rate = lr / np.sqrt(a)
            return _proximal(v - g * learning_rate, learning_rate, l1, l2), a
        with _holding((var, accum), use_locking):
            return _update_rows((var, accum), grad, indices, update)


class SparseApplyAdagradDA(OpDef):
    """For each touched row (T: global_step, an int64 scalar): g += grad;  gg += grad ** 2;
    var = -sign(g) * max(|g| / T - l1, 0) / (l2 + sqrt(gg) / (T * lr))   (l1 > 0; else
    -(g / T) / (...)) -- the dense formula divided through by T * lr, as TF's sparse kernel
    writes it. Rows not looked up keep their weights until they are: their sums then bring them
    to where every step's regularization would have put them."""
    ref_inputs = (0, 1, 2)
    stateful = True
    shape = _sparse_apply_shape(slot_inputs=(1, 2), scalar_inputs=(5, 6, 7, 8), grad_input=3)

    def kernel(var, gradient_accumulator, gradient_squared_accumulator, grad, indices, lr, l1,
               l2, global_step, T=None, Tindices=None, use_locking=False):
        step = np.asarray(global_step).astype(grad.dtype)
        gs_lr = step * lr

        def update(v, ga, da, g):
            ga = ga + g
            da = da + g * g
            if l1 > 0:
                new = -1 * np.sign(ga) * np.maximum(np.abs(ga) / step - l1, 0) / \
                    (l2 + np.sqrt(da) / gs_lr)
            else:
                new = -1 * (ga / step) / (l2 + np.sqrt(da) / gs_lr)
            return new.astype(v.dtype, copy=False), ga, da
        cells = (var, gradient_accumulator, gradient_squared_accumulator)
        with _holding(cells, use_locking):
            return _update_rows(cells, grad, indices, update)


# -- public functions (gen_training_ops) --------------------------------------------------

def sparse_apply_momentum(var, accum, lr, grad, indices, momentum, use_locking=False,
                          use_nesterov=False, name=None):
    return _sparse_apply("SparseApplyMomentum", [var, accum], [lr], grad, indices, [momentum],
                         {"use_locking": use_locking, "use_nesterov": use_nesterov}, name)


def sparse_apply_adagrad(var, accum, lr, grad, indices, use_locking=False, update_slots=True,
                         name=None):
    return _sparse_apply("SparseApplyAdagrad", [var, accum], [lr], grad, indices, [],
                         {"use_locking": use_locking, "update_slots": update_slots}, name)


def sparse_apply_rms_prop(var, ms, mom, lr, rho, momentum, epsilon, grad, indices,
                          use_locking=False, name=None):
    return _sparse_apply("SparseApplyRMSProp", [var, ms, mom], [lr, rho, momentum, epsilon],
                         grad, indices, [], {"use_locking": use_locking}, name)


def sparse_apply_centered_rms_prop(var, mg, ms, mom, lr, rho, momentum, epsilon, grad, indices,
                                   use_locking=False, name=None):
    return _sparse_apply("SparseApplyCenteredRMSProp", [var, mg, ms, mom],
                         [lr, rho, momentum, epsilon], grad, indices, [],
                         {"use_locking": use_locking}, name)


def sparse_apply_proximal_gradient_descent(var, alpha, l1, l2, grad, indices, use_locking=False,
                                           name=None):
    return _sparse_apply("SparseApplyProximalGradientDescent", [var], [alpha, l1, l2], grad,
                         indices, [], {"use_locking": use_locking}, name)


def sparse_apply_proximal_adagrad(var, accum, lr, l1, l2, grad, indices, use_locking=False,
                                  name=None):
    return _sparse_apply("SparseApplyProximalAdagrad", [var, accum], [lr, l1, l2], grad,
                         indices, [], {"use_locking": use_locking}, name)


def sparse_apply_adagrad_da(var, gradient_accumulator, gradient_squared_accumulator, grad,
                            indices, lr, l1, l2, global_step, use_locking=False, name=None):
    return _sparse_apply("SparseApplyAdagradDA",
                         [var, gradient_accumulator, gradient_squared_accumulator], [], grad,
                         indices, [lr, l1, l2], {"use_locking": use_locking}, name,
                         global_step=global_step)
