"""The optimizer base class -- mirrors TensorFlow 1.x's `tf.train.Optimizer`
(python/training/optimizer.py).

`train_op = opt.minimize(loss, global_step=step)` is two graph-building steps:

  1. compute_gradients(loss)  -> [(gradient, variable), ...]  built with tf.gradients;
  2. apply_gradients(pairs)   -> one op that, when run, updates every variable.

apply_gradients creates the optimizer's slot variables (per-variable state, see
slot_creator.py), then adds one fused Apply op per variable -- in name scope
'<optimizer>/update_<variable>' and colocated with the variable, so in a cluster each update
runs on the parameter server holding that variable -- then a final op ('_finish') that groups
them, and, if a global step is given, an op that adds 1 to it once all updates are done.

Subclasses implement `_create_slots`, `_prepare` (turn hyper-parameters into tensors) and
`_apply_dense` (build the Apply op for one variable); some also override `_finish`.

Sparse gradients. The gradient of an embedding (tf.gather, tf.nn.embedding_lookup) is a
tf.IndexedSlices -- the touched rows and their row numbers. apply_gradients hands it to
`_apply_sparse_duplicate_indices`, which by default sums the rows of repeated indices
(Unique + UnsortedSegmentSum, on the variable's device) and calls `_apply_sparse`: the
subclass's sparse update (a SparseApply op, or a ScatterSub for GradientDescent), which
changes only those rows. An optimizer with no `_apply_sparse` gets the gradient made dense
next to the variable and applied by its `_apply_dense`. Either way only the rows and the
indices travel from the worker to the ps.
"""
from ..framework import dtypes
from ..framework.graph import GraphKeys, get_default_graph, name_scope
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor, convert_to_tensor

__all__ = ["Optimizer"]

# Resource variables are not implemented by the sandbox; the collection is read as TF does.
_TRAINABLE_RESOURCE_VARIABLES = getattr(GraphKeys, "TRAINABLE_RESOURCE_VARIABLES",
                                        "trainable_resource_variables")


def _var_key(var):
    """Slots are stored per variable, keyed by (graph, op name) as in TF."""
    return (var.op.graph, var.op.name)


def _cast(value, dtype):
    """`value` as a tensor of `dtype` (a Cast op only when the dtype differs), as math_ops.cast."""
    value = convert_to_tensor(value)
    if value.dtype.base_dtype == dtype:
        return value
    from ..ops import math_ops
    return math_ops.cast(value, dtype)


def _is_variable(v):
    return hasattr(v, "_ref") and hasattr(v, "initializer")


class Optimizer:
    """Base class for optimizers. Use a subclass such as GradientDescentOptimizer."""

    # Values for the gate_gradients argument of compute_gradients / minimize.
    GATE_NONE = 0
    GATE_OP = 1
    GATE_GRAPH = 2

    def __init__(self, use_locking, name):
        if not name:
            raise ValueError("Must specify the optimizer name")
        self._use_locking = use_locking
        self._name = name
        self._slots = {}          # slot name -> {variable key -> slot variable}
        self._non_slot_dict = {}  # (name, graph) -> variable (e.g. Adam's beta1_power)

    def get_name(self):
        return self._name

    # -- the two steps -------------------------------------------------------------
    def minimize(self, loss, global_step=None, var_list=None, gate_gradients=GATE_OP,
                 aggregation_method=None, colocate_gradients_with_ops=False, name=None,
                 grad_loss=None):
        """Adds ops that compute the gradients of `loss` and apply them; returns the update op
        (which also increments `global_step` when one is given)."""
        grads_and_vars = self.compute_gradients(
            loss, var_list=var_list, gate_gradients=gate_gradients,
            aggregation_method=aggregation_method,
            colocate_gradients_with_ops=colocate_gradients_with_ops, grad_loss=grad_loss)
        vars_with_grad = [v for g, v in grads_and_vars if g is not None]
        if not vars_with_grad:
            raise ValueError(
                "No gradients provided for any variable, check your graph for ops that do not "
                f"support gradients, between variables {[str(v) for _, v in grads_and_vars]} "
                f"and loss {loss}.")
        return self.apply_gradients(grads_and_vars, global_step=global_step, name=name)

    def compute_gradients(self, loss, var_list=None, gate_gradients=GATE_OP,
                          aggregation_method=None, colocate_gradients_with_ops=False,
                          grad_loss=None):
        """Returns a list of (gradient, variable) pairs; the gradient is None for a variable
        that `loss` does not depend on."""
        if callable(loss):
            raise RuntimeError("`loss` passed to Optimizer.compute_gradients should be a "
                               "Tensor, not a function: the sandbox runs TF-1 graphs (a "
                               "callable loss is for eager execution).")
        if gate_gradients not in (Optimizer.GATE_NONE, Optimizer.GATE_OP, Optimizer.GATE_GRAPH):
            raise ValueError("gate_gradients must be one of: Optimizer.GATE_NONE, "
                             f"Optimizer.GATE_OP, Optimizer.GATE_GRAPH.  Not {gate_gradients}")
        self._assert_valid_dtypes([loss])
        if grad_loss is not None:
            self._assert_valid_dtypes([grad_loss])
        if var_list is None:
            g = getattr(loss, "graph", None) or get_default_graph()
            var_list = (g.get_collection(GraphKeys.TRAINABLE_VARIABLES)
                        + g.get_collection(_TRAINABLE_RESOURCE_VARIABLES))
        else:
            var_list = list(_flatten(var_list))
        if not var_list:
            raise ValueError("No variables to optimize.")
        from ..ops.gradients import gradients
        grads = gradients(loss, var_list, grad_ys=grad_loss,
                          gate_gradients=(gate_gradients == Optimizer.GATE_OP),
                          aggregation_method=aggregation_method,
                          colocate_gradients_with_ops=colocate_gradients_with_ops)
        if gate_gradients == Optimizer.GATE_GRAPH:
            # No gradient is available before all of them are computed.
            from ..ops.control_flow_ops import tuple as _tuple
            present = [t for g in grads if g is not None for t in _parts(g)]
            gated = iter(_tuple(present)) if present else iter(())
            grads = [None if g is None else _rebuilt(g, gated) for g in grads]
        grads_and_vars = list(zip(grads, var_list))
        self._assert_valid_dtypes([v for g, v in grads_and_vars if g is not None])
        return grads_and_vars

    def apply_gradients(self, grads_and_vars, global_step=None, name=None):
        """Returns an op that applies the gradients to the variables (and then adds 1 to
        `global_step`, if given). The op is named `name` (default: the optimizer's name)."""
        grads_and_vars = tuple(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("No variables provided.")
        converted = []
        for g, v in grads_and_vars:
            if g is not None and not isinstance(g, IndexedSlices):
                try:
                    g = convert_to_tensor(g)
                except (TypeError, ValueError):
                    raise TypeError("Gradient must be convertible to a Tensor or "
                                    f"IndexedSlices, or None: {g}") from None
            if not _is_variable(v):
                raise NotImplementedError(f"Trying to update a Tensor {v}: only a tf.Variable "
                                          "can be optimized.")
            converted.append((g, v))
        var_list = [v for g, v in converted if g is not None]
        if not var_list:
            raise ValueError("No gradients provided for any variable: "
                             f"{[str(v) for _, v in converted]}.")
        graph = var_list[0].graph
        with graph.as_default():
            # Slots are state, created once, outside any control-dependency scope.
            with graph.control_dependencies(None):
                self._create_slots(var_list)
            update_ops = []
            with name_scope(name, self._name) as name:
                self._prepare()
                for grad, var in converted:
                    if grad is None:
                        continue
                    with name_scope("update_" + var.op.name), graph.colocate_with(var):
                        update_ops.append(self._apply_update(grad, var))
                if global_step is None:
                    apply_updates = self._finish(update_ops, name)
                else:
                    with graph.control_dependencies([self._finish(update_ops, "update")]):
                        with graph.colocate_with(global_step):
                            from ..ops import state_ops
                            apply_updates = state_ops.assign_add(global_step, 1, name=name).op
                if isinstance(apply_updates, Tensor):
                    apply_updates = apply_updates.op
                train_ops = graph.get_collection_ref(GraphKeys.TRAIN_OP)
                if apply_updates not in train_ops:
                    train_ops.append(apply_updates)
                return apply_updates

    def _apply_update(self, grad, var):
        """The dense update, then the variable's constraint (if any); or, for an IndexedSlices,
        the sparse update -- as TF's _RefVariableProcessor does."""
        if isinstance(grad, IndexedSlices):
            if var.constraint is not None:
                raise RuntimeError(f"Cannot use a constraint function on a sparse variable "
                                   f"({var.op.name}): its gradient is an IndexedSlices.")
            return self._apply_sparse_duplicate_indices(grad, var)
        update_op = self._apply_dense(grad, var)
        if var.constraint is None:
            return update_op
        with var.graph.control_dependencies([update_op]):
            return var.assign(var.constraint(var)).op

    # -- slots -----------------------------------------------------------------------
    def get_slot_names(self):
        """Names of the slots this optimizer creates, e.g. ['m', 'v'] for Adam."""
        return sorted(self._slots)

    def get_slot(self, var, name):
        """The slot variable `name` of `var`, or None."""
        named_slots = self._slots.get(name)
        if not named_slots:
            return None
        return named_slots.get(_var_key(var))

    def variables(self):
        """The optimizer's own variables (slots and non-slot ones) in the default graph,
        sorted by name."""
        current = get_default_graph()
        found = [v for (_, graph), v in self._non_slot_dict.items() if graph is current]
        for slots in self._slots.values():
            found.extend(v for v in slots.values() if v.graph is current)
        return sorted(found, key=lambda v: v.name)

    # -- what tf.train.Checkpoint saves of it (train/checkpoint.py) ---------------------
    def _checkpoint_dependencies(self):
        """Its own variables, by name ('beta1_power'), in the default graph."""
        current = get_default_graph()
        return [(name, v) for (name, graph), v in sorted(self._non_slot_dict.items(),
                                                          key=lambda item: item[0][0])
                if graph is current]

    def _checkpoint_slots(self, variables):
        """(slot name, variable, its slot) for each of `variables` that has slots."""
        return [(name, var, slot) for name in self.get_slot_names() for var in variables
                for slot in [self.get_slot(var, name)] if slot is not None]

    def _slot_dict(self, slot_name):
        return self._slots.setdefault(slot_name, {})

    def _zeros_slot(self, var, slot_name, op_name):
        """The slot `slot_name` of `var`, created full of zeros the first time."""
        from . import slot_creator
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_zeros_slot(var, op_name)
        return named_slots[_var_key(var)]

    def _get_or_make_slot(self, var, val, slot_name, op_name):
        from . import slot_creator
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_slot(var, val, op_name)
        return named_slots[_var_key(var)]

    def _get_or_make_slot_with_initializer(self, var, initializer, shape, dtype, slot_name,
                                           op_name):
        from . import slot_creator
        named_slots = self._slot_dict(slot_name)
        if _var_key(var) not in named_slots:
            named_slots[_var_key(var)] = slot_creator.create_slot_with_initializer(
                var, initializer, shape, dtype, op_name)
        return named_slots[_var_key(var)]

    def _create_non_slot_variable(self, initial_value, name, colocate_with):
        """A variable of the optimizer itself (not per variable), one per graph."""
        from ..ops.variables import Variable
        graph = colocate_with.graph
        key = (name, graph)
        v = self._non_slot_dict.get(key)
        if v is None:
            with graph.as_default(), graph.colocate_with(colocate_with):
                v = Variable(initial_value, name=name, trainable=False)
            self._non_slot_dict[key] = v
        return v

    def _get_non_slot_variable(self, name, graph=None):
        return self._non_slot_dict.get((name, graph))

    def _non_slot_variables(self):
        return self._non_slot_dict.values()

    # -- what subclasses implement ----------------------------------------------------
    def _create_slots(self, var_list):
        """Creates the slot variables of each variable in `var_list` (none by default)."""

    def _prepare(self):
        """Turns the hyper-parameters into tensors (called inside the optimizer's scope)."""

    def _apply_dense(self, grad, var):
        raise NotImplementedError(f"{type(self).__name__} does not implement _apply_dense")

    def _apply_sparse_duplicate_indices(self, grad, var):
        """The sparse update of `var` by the IndexedSlices `grad`, whose indices may repeat:
        by default the rows of each index are summed first (a correct update must see one
        row per index: squaring the sum is not summing the squares), then `_apply_sparse`.
        An optimizer that handles repeats itself overrides this (GradientDescent)."""
        if not self._has_apply_sparse():
            return self._apply_dense(self._densified(grad, var), var)
        summed_values, unique_indices = _deduplicate_indexed_slices(grad.values, grad.indices)
        return self._apply_sparse(IndexedSlices(summed_values, unique_indices,
                                                grad.dense_shape), var)

    def _apply_sparse(self, grad, var):
        """The update of the rows `grad.indices` (unique) of `var` by `grad.values`. The base
        class has none: the gradient is made dense (beside the variable) and applied by
        _apply_dense."""
        return self._apply_dense(self._densified(grad, var), var)

    def _has_apply_sparse(self):
        return type(self)._apply_sparse is not Optimizer._apply_sparse

    @staticmethod
    def _densified(grad, var):
        """The IndexedSlices `grad` as a dense tensor shaped like `var` (an
        UnsortedSegmentSum: repeated indices add up)."""
        from ..ops.indexing_ops import unsorted_segment_sum
        if grad.dense_shape is not None:
            return convert_to_tensor(grad)
        rows = var.get_shape()[0].value
        if rows is None:
            from ..ops import array_ops
            rows = array_ops.shape(var)[0]
        return unsorted_segment_sum(grad.values, grad.indices, rows)

    def _finish(self, update_ops, name_scope):
        """The op that completes the step: by default, one op grouping all updates."""
        from ..ops.control_flow_ops import group
        return group(*update_ops, name=name_scope)

    # -- helpers ------------------------------------------------------------------------
    def _valid_dtypes(self):
        return {dtypes.float16, dtypes.float32, dtypes.float64}

    def _assert_valid_dtypes(self, tensors):
        valid = self._valid_dtypes()
        for t in tensors:
            dtype = t.dtype.base_dtype
            if dtype not in valid:
                raise ValueError(f"Invalid type {dtype.name} for {t.name}, expected: "
                                 f"{[v.name for v in sorted(valid, key=lambda d: d.name)]}.")

    def _call_if_callable(self, param):
        """Hyper-parameters may be given as functions returning the value."""
        return param() if callable(param) else param


def _deduplicate_indexed_slices(values, indices):
    """(summed_values, unique_indices): the rows of `values` that share an index added up,
    one row per distinct index in order of first appearance (TF's
    optimizer._deduplicate_indexed_slices: Unique, then UnsortedSegmentSum)."""
    from ..ops import array_ops
    from ..ops.indexing_ops import unique, unsorted_segment_sum
    unique_indices, new_index_positions = unique(indices)
    summed_values = unsorted_segment_sum(values, new_index_positions,
                                         array_ops.shape(unique_indices)[0])
    return summed_values, unique_indices


def _parts(grad):
    """The tensors a gradient is made of: itself, or an IndexedSlices' values, indices (and
    dense_shape)."""
    if isinstance(grad, IndexedSlices):
        return [t for t in (grad.values, grad.indices, grad.dense_shape) if t is not None]
    return [grad]


def _rebuilt(grad, tensors):
    """`grad` again, from the next of `tensors` (as many as _parts(grad) gave)."""
    if isinstance(grad, IndexedSlices):
        values, indices = next(tensors), next(tensors)
        dense_shape = next(tensors) if grad.dense_shape is not None else None
        return IndexedSlices(values, indices, dense_shape)
    return next(tensors)


def _flatten(items):
    for item in items:
        if isinstance(item, (list, tuple)):
            yield from _flatten(item)
        else:
            yield item
