"""gather_tree -- mirrors TF 1.15's contrib/seq2seq/python/ops/beam_search_ops.py (the
GatherTree kernel of contrib/seq2seq/kernels/beam_search_ops.cc).

A beam search records, at every step t, each beam's new token step_ids[t, b, k] and the beam
it continued, parent_ids[t, b, k]. gather_tree walks back from the last step to read each
final beam's whole sequence:

    beams[T-1, b, k] = step_ids[T-1, b, k];  parent = parent_ids[T-1, b, k]
    for t = T-2 .. 0:  beams[t, b, k] = step_ids[t, b, parent];  parent = parent_ids[t, b, parent]

with T = min(max_time, max_sequence_lengths[b]); the steps past T, and those after the first
end_token, are end_token.
"""
import numpy as np

from ...framework import errors
from ...framework.op_def import OpDef, apply_op
from ...framework.tensor import convert_to_tensor
from ...framework.graph import name_scope

__all__ = ["gather_tree"]


class GatherTree(OpDef):
    """The full beams [max_time, batch, beam] from step_ids and parent_ids."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(step_ids, parent_ids, max_sequence_lengths, end_token, T=None):
        max_time, batch_size, beam_width = step_ids.shape
        beams = np.full_like(step_ids, end_token)
        for b in range(batch_size):
            length = min(max_time, int(max_sequence_lengths[b]))
            for k in range(beam_width):
                if length <= 0:
                    continue
                beams[length - 1, b, k] = step_ids[length - 1, b, k]
                parent = parent_ids[length - 1, b, k]
                for level in range(length - 2, -1, -1):
                    if parent < 0 or parent > beam_width:
                        raise errors.InvalidArgumentError(
                            None, None, f"Saw invalid parent id {parent} at (batch, time, "
                            f"beam) == ({b}, {level}, {k})")
                    beams[level, b, k] = step_ids[level, b, parent]
                    parent = parent_ids[level, b, parent]
                finished = False    # everything after the first end_token is end_token
                for t in range(length):
                    if finished:
                        beams[t, b, k] = end_token
                    elif beams[t, b, k] == end_token:
                        finished = True
        return beams


def gather_tree(step_ids, parent_ids, max_sequence_lengths, end_token, name=None):
    """The beams [max_time, batch, beam_width] read back through parent_ids (see above)."""
    with name_scope(name, "GatherTree", [step_ids, parent_ids]) as scope:
        step_ids = convert_to_tensor(step_ids, name="step_ids")
        parent_ids = convert_to_tensor(parent_ids, dtype=step_ids.dtype.base_dtype,
                                       name="parent_ids")
        lengths = convert_to_tensor(max_sequence_lengths, dtype=step_ids.dtype.base_dtype,
                                    name="max_sequence_lengths")
        end_token = convert_to_tensor(end_token, dtype=step_ids.dtype.base_dtype,
                                      name="end_token")
        for t, what, rank in ((step_ids, "step_ids", 3), (parent_ids, "parent_ids", 3),
                              (lengths, "max_sequence_lengths", 1), (end_token, "end_token", 0)):
            if t.get_shape().ndims not in (None, rank):
                raise ValueError(f"gather_tree: {what} must be of rank {rank}, got shape "
                                 f"{t.get_shape()}")
        return apply_op("GatherTree", [step_ids, parent_ids, lengths, end_token],
                        {"T": step_ids.dtype.base_dtype}, name=scope,
                        output_dtypes=[step_ids.dtype.base_dtype])
