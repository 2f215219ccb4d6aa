"""Levenshtein distance between sequences held in SparseTensors -- mirrors TensorFlow's
core/kernels/edit_distance_op.cc (python/ops/array_ops.py: tf.edit_distance).

    hypothesis = tf.SparseTensor([[0, 0], [0, 1]], ["a", "b"], [1, 2])    # one sequence: a b
    truth = tf.SparseTensor([[0, 0]], ["a"], [1, 1])                        # one sequence: a
    tf.edit_distance(hypothesis, truth)             # [1.0]: 1 edit / truth length 1

The last dimension of each SparseTensor runs along a sequence; the others say which sequence.
The result, float32, has the dense shape of the inputs without that last dimension (each
dimension the larger of the two). normalize=True divides by the truth's length: a sequence
with an empty truth gives inf (0 when the hypothesis is empty too). Entries are read in the
order of their indices, which TF requires sorted. No gradient (TF: NotDifferentiable).
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor, SparseTensorValue
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value

__all__ = ["edit_distance"]


def levenshtein(a, b):
    """The number of insertions, deletions and substitutions that turn `a` into `b`."""
    prev = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        cur = [i]
        for j, y in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x != y)))
        prev = cur
    return prev[-1]


def _groups(indices, values):
    out = {}
    for row, v in zip(indices, values):
        out.setdefault(tuple(int(i) for i in row[:-1]), []).append(v)
    return out


class EditDistance(OpDef):
    """Inputs: hypothesis indices, values, shape; truth indices, values, shape."""
    differentiable = False

    def shape(op):
        h, t = constant_value(op.inputs[2]), constant_value(op.inputs[5])
        if h is None or t is None:
            return unknown_shape()
        if h.size != t.size:
            raise ValueError("Num elements of hypothesis_shape does not match truth_shape: "
                             f"{h.size} vs. {t.size}")
        return TensorShape([int(max(a, b)) for a, b in zip(h[:-1], t[:-1])])

    def kernel(hypothesis_indices, hypothesis_values, hypothesis_shape, truth_indices,
               truth_values, truth_shape, normalize=True, T=None):  # noqa: N803
        h_shape = np.asarray(hypothesis_shape, np.int64).reshape(-1)
        t_shape = np.asarray(truth_shape, np.int64).reshape(-1)
        if h_shape.size != t_shape.size:
            raise errors.InvalidArgumentError(
                None, None, "hypothesis_shape and truth_shape must have the same rank: "
                f"{h_shape.size} vs. {t_shape.size}")
        rank = h_shape.size
        if rank < 1:
            raise errors.InvalidArgumentError(None, None, "Input SparseTensors must have "
                                              "rank at least 1")
        out_shape = tuple(int(d) for d in np.maximum(h_shape, t_shape)[:-1])
        out = np.zeros(out_shape, np.float32)
        hyp = _groups(np.asarray(hypothesis_indices, np.int64).reshape(-1, rank),
                      np.asarray(hypothesis_values).reshape(-1))
        truth = _groups(np.asarray(truth_indices, np.int64).reshape(-1, rank),
                        np.asarray(truth_values).reshape(-1))
        for loc in set(hyp) | set(truth):
            a, b = hyp.get(loc, []), truth.get(loc, [])
            d = float(levenshtein(a, b))
            if normalize:
                d = d / len(b) if b else (np.inf if d else 0.0)
            out[loc] = d
        return out


def _sparse(x, what):
    if isinstance(x, SparseTensorValue):
        return SparseTensor.from_value(x)
    if not isinstance(x, SparseTensor):
        raise TypeError(f"{what} must be a SparseTensor.")
    return x


def edit_distance(hypothesis, truth, normalize=True, name="edit_distance"):
    """The Levenshtein distance of each hypothesis sequence to its truth, float32
    (tf.edit_distance); normalize=True divides by the truth's length."""
    h = _sparse(hypothesis, "Hypothesis")
    t = _sparse(truth, "Truth")
    hd, td = h.values.dtype.base_dtype, t.values.dtype.base_dtype
    if hd != td:
        raise TypeError(f"Input 'truth_values' of 'EditDistance' Op has type {td.name} that "
                        f"does not match type {hd.name} of argument 'hypothesis_values'.")
    return apply_op("EditDistance", [h.indices, h.values, h.dense_shape, t.indices, t.values,
                                     t.dense_shape],
                    {"normalize": bool(normalize), "T": hd}, name=name or "edit_distance",
                    output_dtypes=[_dtypes.float32])
