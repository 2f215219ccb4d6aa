"""Symbolic differentiation -- mirrors TensorFlow's `tf.gradients` (ops/gradients_impl.py).

`tf.gradients(ys, xs)` does not compute numbers. It adds *new ops* to the graph that compute
d(sum ys)/d(xs) when run -- reverse-mode autodiff, the same walk as micrograd's backward():

  1. find the ops that lie between xs and ys (reachable from xs and leading to ys);
  2. seed each y with grad_ys (default: ones shaped like y);
  3. visit the ops from ys back towards xs, each only after all its consumers were visited;
     sum the gradients arriving at each of its outputs (AddN) and call the op's gradient
     function (registered next to its kernel) to get gradients for its inputs;
  4. return the summed gradient arriving at each x -- None when x does not affect ys, or,
     with unconnected_gradients='zero' (tf.UnconnectedGradients.ZERO), zeros like x.

Gradient ops are named 'gradients/<op name>_grad/...' and placed by the device scope in force
where tf.gradients is called -- or next to their forward op with colocate_gradients_with_ops.

Sparse gradients. The gradient of tf.gather (along axis 0) is a tf.IndexedSlices: the rows
and their ids (framework/indexed_slices.py). It passes unchanged through the ops that only
copy (Identity -- a variable's `read` -- and Cast), so tf.gradients returns it for the
variable; any other op's gradient function gets it made dense first (tf.convert_to_tensor,
which is what TF's ops do on their own when handed one). Several IndexedSlices arriving at one
tensor are joined by concatenating their values and their indices (TF's
_AggregateIndexedSlicesGradients); IndexedSlices mixed with dense gradients are made dense and
added.
"""
import collections
import enum
import warnings

from ..framework import dtypes
from ..framework.graph import get_default_graph
from ..framework.indexed_slices import IndexedSlices
from ..framework.op_def import get_gradient_function
from ..framework.tensor import convert_to_tensor

__all__ = ["gradients", "AggregationMethod", "UnconnectedGradients"]


class AggregationMethod:
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """What tf.gradients returns for an x that ys do not depend on: None, or zeros like x."""
    NONE = "none"
    ZERO = "zero"


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]



def _trainable(dtype):
    """Whether gradients flow into a tensor of `dtype`: floats and complex numbers, as TF's
    backprop_util.IsTrainable (integers, bools and strings stop them)."""
    return dtype.is_floating or dtype.is_complex

def gradients(ys, xs, grad_ys=None, name="gradients", colocate_gradients_with_ops=False,
              gate_gradients=False, aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """Adds ops computing the gradients of sum(ys) w.r.t. each of xs; returns them as a list."""
    from . import array_ops, math_ops
    ys = [convert_to_tensor(y) for y in _as_list(ys)]
    xs = [convert_to_tensor(x, as_ref=True) for x in _as_list(xs)]
    grad_ys = _as_list(grad_ys) if grad_ys is not None else [None] * len(ys)
    if len(grad_ys) != len(ys):
        raise ValueError(f"Passed {len(grad_ys)} grad_ys for {len(ys)} ys")
    stop_ops = {convert_to_tensor(t).op for t in _as_list(stop_gradients or [])}
    g = ys[0].graph if ys else get_default_graph()
    for t in ys + xs:
        if t.graph is not g:
            raise ValueError(f"Tensor {t.name!r} belongs to another graph than {ys[0].name!r}.")

    with g.as_default(), g.name_scope(name or "gradients"):
        between = _ops_between(ys, xs, stop_ops)
        pending = collections.Counter()
        for op in between:
            for t in op.inputs:
                if t.op in between:
                    pending[t.op] += 1

        grads = collections.defaultdict(list)       # tensor -> gradients arriving at it
        for i, (y, gy) in enumerate(zip(ys, grad_ys)):
            if gy is None:
                with g.colocate_with(y.op) if colocate_gradients_with_ops else _nothing():
                    gy = array_ops.ones_like(y, name=f"grad_ys_{i}")
            else:
                gy = convert_to_tensor(gy, dtype=y.dtype.base_dtype, name=f"grad_ys_{i}")
            grads[y].append(gy)

        ready = [y.op for y in ys if pending[y.op] == 0 and y.op in between]
        ready = list(dict.fromkeys(ready))
        x_set = set(xs)
        while ready:
            op = ready.pop()
            out_grads = [_aggregate(grads.get(t), math_ops) for t in op.outputs]
            for t, gt in zip(op.outputs, out_grads):
                if gt is not None:
                    grads[t] = [gt]
            if any(gt is not None for gt in out_grads) and op not in stop_ops and \
                    not all(t in x_set for t in op.outputs):
                grad_fn = get_gradient_function(op)
                if grad_fn is not None:
                    with g.name_scope(op.name + "_grad"), \
                            (g.colocate_with(op) if colocate_gradients_with_ops else _nothing()):
                        if len(op.outputs) > 1:
                            out_grads = [gt if gt is not None else array_ops.zeros_like(t)
                                         for t, gt in zip(op.outputs, out_grads)]
                        sparse_fn = None if "_gradient_op_type" in op._attrs \
                            else _SPARSE_GRADIENTS.get(op.type)     # (an overridden gradient)
                        if sparse_fn is not None and \
                                any(isinstance(gt, IndexedSlices) for gt in out_grads):
                            in_grads = sparse_fn(op, *out_grads)
                        else:
                            densify = (_dense_no_warning if op.type in _QUIET_DENSIFY
                                       else convert_to_tensor)
                            out_grads = [densify(gt) if isinstance(gt, IndexedSlices)
                                         else gt for gt in out_grads]
                            in_grads = grad_fn(op, *out_grads)
                    in_grads = _as_list(in_grads) if in_grads is not None else []
                    if len(in_grads) != len(op.inputs):
                        raise ValueError(f"Num gradients {len(in_grads)} generated for op "
                                         f"{op.name!r} (type {op.type}) do not match num "
                                         f"inputs {len(op.inputs)}")
                    for t, gt in zip(op.inputs, in_grads):
                        if gt is not None and _trainable(t.dtype.base_dtype):
                            if not isinstance(gt, IndexedSlices):
                                gt = convert_to_tensor(gt)
                            grads[t].append(gt)
            for t in op.inputs:
                if t.op in between:
                    pending[t.op] -= 1
                    if pending[t.op] == 0:
                        ready.append(t.op)

        results = [_aggregate(grads.get(x), math_ops) for x in xs]
    # TF makes the zeros of unconnected xs after leaving the "gradients" scope: 'zeros_like'.
    with g.as_default():
        return [_unconnected(x, unconnected_gradients, array_ops) if gx is None else gx
                for x, gx in zip(xs, results)]


def _unconnected(x, unconnected_gradients, array_ops):
    """The gradient of an x that ys do not depend on (TF's _GetGrad)."""
    try:
        mode = UnconnectedGradients(unconnected_gradients)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: "
                         f"{unconnected_gradients!r}") from None
    return array_ops.zeros_like(x) if mode == UnconnectedGradients.ZERO else None


def _ops_between(ys, xs, stop_ops):
    """Ops reachable forward from xs that also lead to ys (plus the ys' own ops)."""
    reached = set()
    queue = [x.op for x in xs]
    while queue:
        op = queue.pop()
        if op in reached:
            continue
        reached.add(op)
        if op in stop_ops:
            continue
        for t in op.outputs:
            queue.extend(t.consumers())
    between = set()
    queue = [y.op for y in ys]
    while queue:
        op = queue.pop()
        if op in between or op not in reached:
            continue
        between.add(op)
        queue.extend(t.op for t in op.inputs)
    return between


def _aggregate(grad_list, math_ops):
    """One gradient from the several arriving at a tensor: dense ones are added (AddN);
    IndexedSlices are concatenated; a mix is made dense and added, as TF 1.15 does."""
    if not grad_list:
        return None
    if len(grad_list) == 1:
        return grad_list[0]
    if not any(isinstance(g, IndexedSlices) for g in grad_list):
        return math_ops.add_n(grad_list)
    if any(not isinstance(g, IndexedSlices) for g in grad_list):
        return math_ops.add_n([convert_to_tensor(g) for g in grad_list])
    return _aggregate_indexed_slices(grad_list)


def _aggregate_indexed_slices(grads):
    """IndexedSlices(concat(values), concat(indices), the first one's dense_shape); the indices
    are all made int64 when their dtypes differ (TF's _as_indexed_slices_list)."""
    from . import math_ops
    from .slicing_ops import concat
    index_dtypes = {g.indices.dtype.base_dtype for g in grads}
    if len(index_dtypes) > 1:
        grads = [g if g.indices.dtype.base_dtype == dtypes.int64 else
                 IndexedSlices(g.values, math_ops.cast(g.indices, dtypes.int64), g.dense_shape)
                 for g in grads]
    return IndexedSlices(concat([g.values for g in grads], axis=0),
                         concat([g.indices for g in grads], axis=0), grads[0].dense_shape)


def _identity_sparse_gradient(op, grad):
    """Identity passes an IndexedSlices on unchanged (a variable's `read` is one)."""
    return [grad]


def _cast_sparse_gradient(op, grad):
    """Cast's gradient keeps the slices sparse: the values cast back, the same indices (TF's
    _CastGrad)."""
    from . import math_ops
    src = op.inputs[0].dtype.base_dtype
    if not (src.is_floating and grad.dtype.base_dtype.is_floating):
        return [None]
    return [IndexedSlices(math_ops.cast(grad.values, src), grad.indices, grad.dense_shape)]


# The op types whose gradient passes an IndexedSlices through without making it dense.
# TF's gradients of the gathers and of the reshapes densify the rows they are given without
# its "unknown shape" warning (array_grad.py, _IndexedSlicesToTensorNoWarning): rows gathered
# from gathered rows are expected. So does DynamicStitch's, whose part the ScatterNd of a
# sharded embedding_lookup plays here.
_QUIET_DENSIFY = {"Gather", "GatherV2", "ResourceGather", "Reshape", "ExpandDims", "Squeeze",
                  "ScatterNd"}


def _dense_no_warning(slices):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return convert_to_tensor(slices)


_SPARSE_GRADIENTS = {"Identity": _identity_sparse_gradient, "Cast": _cast_sparse_gradient}


class _nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False

