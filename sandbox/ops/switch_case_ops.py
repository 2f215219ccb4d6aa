"""`tf.switch_case` -- mirrors TensorFlow 1.15's control_flow_ops.switch_case (TF 2's
control_flow_switch_case.py), which builds one functional `Case` op (cond_v2.indexed_case).

    r = tf.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(20)])
    r = tf.switch_case(i, {0: f0, 1: f1}, default=f_other)

`branch_index` is an int32 scalar; an index out of [0, N) runs `default`, or without one the
LAST branch, as TF's Case kernel does. branch_fns is a list of callables, a list of
(int, callable) pairs or a dict {int: callable} whose keys are 0..N-1.

What differs from TF: the sandbox has no Case op. The branches become nested tf.conds
(cond_v2.py's If ops) -- `i == 0 ? f0 : (i == 1 ? f1 : ... default)` -- so still only the taken
branch's ops run, and the gradient is the taken branch's (If's gradient), as with Case.
"""
import functools

from ..framework import dtypes as _dtypes
from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import cond_v2
from .comparison_ops import equal

__all__ = ["switch_case"]


def _canonical_branches(branch_fns, default):
    """TF's _indexed_case_verify_and_canonicalize_args: the callables in index order."""
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = branch_fns.items()
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for key_fn_pair in branch_fns:
        if not isinstance(key_fn_pair, tuple) or len(key_fn_pair) != 2:
            raise TypeError("Each entry in 'branch_fns' must be a 2-tuple. "
                            f"Received {key_fn_pair}.")
        key, branch_fn = key_fn_pair
        if not isinstance(key, int) or isinstance(key, bool):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(branch_fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in branch_fns]
    if min(keys, default=0) < 0 or max(keys, default=-1) >= len(keys) or \
            len(set(keys)) != len(keys):
        raise ValueError("branch indices (keys) must form contiguous range of [0 to "
                         f"{len(keys)}) but found {{{','.join(map(str, sorted(keys)))}}}")
    fns = [fn for _, fn in sorted(branch_fns, key=lambda p: p[0])]
    if not fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if default is not None:
        if not callable(default):
            raise TypeError(f"'{type(default).__name__}' object is not callable")
        fns.append(default)
    return fns


def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """The result of branch_fns[branch_index]() -- or of `default` (else the last branch)
    when branch_index is out of range. Only that branch's ops run."""
    fns = _canonical_branches(branch_fns, default)
    with name_scope(name, "switch_case", [branch_index]):
        index = convert_to_tensor(branch_index, name="branch_index")
        if not index.dtype.base_dtype.is_integer:
            raise TypeError(f"'branch_index' must be an integer Tensor, got {index.dtype}")
        if index.dtype.base_dtype != _dtypes.int32:
            raise TypeError(f"Input 'branch_index' of 'Case' Op has type "
                            f"{index.dtype.base_dtype.name} that does not match expected type "
                            "of int32.")
        # i == 0 ? f0 : (i == 1 ? f1 : ... : f_last), the last (the default) taking the rest
        fn = fns[-1]
        for k in reversed(range(len(fns) - 1)):
            fn = functools.partial(cond_v2.cond, equal(index, k), fns[k], fn)
        return fn()
