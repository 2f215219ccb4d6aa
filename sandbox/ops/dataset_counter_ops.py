"""CountUpTo -- mirrors TensorFlow's count_up_to (python/ops/state_ops.py,
core/kernels/count_up_to_op.cc), the epoch counter of queue-based input.

`count_up_to(ref, limit)` adds one to an integer variable and outputs the value it had
before, until that value reaches `limit`: then the op fails with OutOfRangeError and leaves
the variable alone. `tf.train.limit_epochs` (train/input.py) puts one in front of every
element an input producer enqueues, so after `num_epochs` passes the enqueue fails, its
queue runner closes the queue, and the training loop's dequeue ends with OutOfRangeError.
The counter is a *local* variable (tf.local_variables_initializer), as in TF.
"""
import numpy as np

from ..framework import errors
from ..framework.op_def import OpDef, apply_op, scalar_shape

__all__ = []


class CountUpTo(OpDef):
    """Outputs the variable's value and adds one to it; OutOfRangeError at `limit`."""
    ref_inputs = (0,)
    stateful = True
    differentiable = False
    shape = scalar_shape

    def kernel(cell, limit, T=None):
        with cell.lock:
            before = cell.read(cell.name)
            if before >= limit:
                raise errors.OutOfRangeError(None, None, f"Reached limit of {limit} (the "
                                             f"counter {cell.name} counted {int(before)}).")
            cell.value = np.asarray(before + 1, dtype=before.dtype)
        return before


def count_up_to(ref, limit, name=None):
    """Increments `ref` until it reaches `limit`; outputs its value before the increment."""
    from .state_ops import _ref_of
    ref = _ref_of(ref)
    return apply_op("CountUpTo", [ref], {"limit": int(limit), "T": ref.dtype.base_dtype},
                    name=name or "CountUpTo", output_dtypes=[ref.dtype.base_dtype])
