"""Starting a model from a checkpoint, and watching a directory for new checkpoints --
mirrors TensorFlow's python/training/checkpoint_utils.py (init_from_checkpoint,
checkpoints_iterator, wait_for_new_checkpoint). Reading a checkpoint's tensors
(load_checkpoint, list_variables, load_variable) is in checkpoint_management.py.

    with tf.variable_scope('new_scope'):
        w = tf.get_variable('w', [784, 10])
    tf.train.init_from_checkpoint('/tmp/pretrained', {'old_scope/': 'new_scope/'})
    sess.run(tf.global_variables_initializer())        # w = old_scope/w of the checkpoint

init_from_checkpoint runs nothing: it replaces each variable's initializer. The new one is a
RestoreV2 that reads the variable's tensor (for a shard of a partitioned variable: the shard's
slice of it) and an Assign of that value, both colocated with the variable -- so on a cluster
each parameter server reads its own variables from the checkpoint files, like Saver.restore.

The assignment map, {name in the checkpoint: variable in the graph}:

    {'old_scope/': 'new_scope/'}       every variable under new_scope/ from old_scope/
    {'/': 'new_scope/'}                every variable under new_scope/ from the checkpoint's root
    {'old_scope/': '/'}                every variable of the graph from old_scope/
    {'old_scope/v': 'new_scope/v'}     one variable, by name
    {'old_scope/v': v}                 one variable, the object (also one made by tf.Variable)
    {'old_scope/emb': emb}             a partitioned variable (or the list of its shards): each
                                       shard reads its slice, whatever partitioning was saved

Names are looked up, as in TF, among the variables tf.get_variable made (the graph's variable
store): a variable made by tf.Variable has to be passed as the object. The map may also be a
list of pairs, to initialize several variables from one tensor.
"""
import collections.abc
import logging
import os
import time

from ..framework.tensor_shape import TensorShape
from ..ops import io_ops, state_ops
from ..ops.variable_scope import _get_default_variable_store
from ..ops.variables import Variable
from . import checkpoint_management

__all__ = ["init_from_checkpoint", "checkpoints_iterator", "wait_for_new_checkpoint"]

_log = logging.getLogger("sandbox")


# -- watching a directory ------------------------------------------------------------------

def wait_for_new_checkpoint(checkpoint_dir, last_checkpoint=None, seconds_to_sleep=1,
                            timeout=None):
    """The newest checkpoint of `checkpoint_dir` once it is not `last_checkpoint` (TF's
    wait_for_new_checkpoint): polls latest_checkpoint every `seconds_to_sleep`; None when
    `timeout` seconds pass first."""
    _log.info("Waiting for new checkpoint at %s", checkpoint_dir)
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        checkpoint_path = checkpoint_management.latest_checkpoint(checkpoint_dir)
        if checkpoint_path is None or checkpoint_path == last_checkpoint:
            if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
                return None
            time.sleep(seconds_to_sleep)
        else:
            _log.info("Found new checkpoint at %s", checkpoint_path)
            return checkpoint_path


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new checkpoint of `checkpoint_dir` (its latest_checkpoint) as it appears --
    TF's tf.train.checkpoints_iterator. After `timeout` seconds with no new one it stops, or,
    with a `timeout_fn`, stops if timeout_fn() is true and waits again otherwise. It yields at
    most one checkpoint per `min_interval_secs`, and only the newest: checkpoints written while
    the caller works on one are skipped."""
    checkpoint_path = None
    while True:
        new_checkpoint_path = wait_for_new_checkpoint(checkpoint_dir, checkpoint_path,
                                                      timeout=timeout)
        if new_checkpoint_path is None:
            if not timeout_fn:
                _log.info("Timed-out waiting for a checkpoint.")
                return
            if timeout_fn():
                return
            continue
        start = time.time()
        checkpoint_path = new_checkpoint_path
        yield checkpoint_path
        time_to_next_eval = start + min_interval_secs - time.time()
        if time_to_next_eval > 0:
            time.sleep(time_to_next_eval)


# -- initializing variables from a checkpoint -------------------------------------------------

def _is_variable(x):
    return isinstance(x, Variable)


def _is_partitioned(x):
    """A PartitionedVariable (recognized by its method, as the Saver does)."""
    return not _is_variable(x) and callable(getattr(x, "_get_variable_list", None))


def _collect_partitioned_variable(name, all_vars):
    """The shards name/part_0, name/part_1 ... of the store, or None (TF's
    _collect_partitioned_variable)."""
    if name + "/part_0" not in all_vars:
        return None
    shards, i = [], 0
    while f"{name}/part_{i}" in all_vars:
        shards.append(all_vars[f"{name}/part_{i}"])
        i += 1
    return shards


def _not_found(tensor_name, ckpt_dir_or_file, variable_map, what):
    names = sorted(variable_map)
    listed = ", ".join(names[:20]) + (f" ... ({len(names)} in all)" if len(names) > 20 else "")
    return ValueError(f"Tensor {tensor_name} is not found in {ckpt_dir_or_file} checkpoint "
                      f"(wanted for {what}). The checkpoint holds: {listed or 'nothing'}. Fix "
                      f"the name in the assignment_map (tf.train.list_variables lists the "
                      f"checkpoint's names).")


def _check_shape(var, tensor_name, ckpt_shape):
    """ValueError naming the variable if its shape (for shards: the full variable's) is not
    the checkpoint tensor's."""
    if _is_variable(var):
        if not var.get_shape().is_compatible_with(ckpt_shape):
            raise ValueError(f"Shape of variable {var.name} ({var.get_shape()}) doesn't match "
                             f"with shape of tensor {tensor_name} ({ckpt_shape}) from "
                             f"checkpoint reader. Initialize {var.name} from a tensor of its "
                             f"shape, or give the variable the checkpoint's shape.")
        return
    # TF finds a wrong full shape of shards only when their initializers run.
    for v in var:
        info = v._get_save_slice_info()
        if info is not None and not TensorShape(info.full_shape).is_compatible_with(ckpt_shape):
            raise ValueError(f"Shape of partitioned variable {info.full_name} "
                             f"({TensorShape(info.full_shape)}) doesn't match with shape of "
                             f"tensor {tensor_name} ({ckpt_shape}) from checkpoint reader: its "
                             f"shard {v.name} would read a slice that is not there. Initialize "
                             f"{info.full_name} from a tensor of its shape, or give it the "
                             f"checkpoint's shape.")


def _set_checkpoint_initializer(variable, ckpt_file, tensor_name, slice_spec,
                                name="checkpoint_initializer"):
    """Makes `variable`'s initializer read `tensor_name` (its slice `slice_spec`, '' for the
    whole tensor) from the checkpoint -- TF's _set_checkpoint_initializer: a RestoreV2 and an
    Assign, colocated with the variable, outside any control-dependency scope. Sets the
    variable's _initializer_op and _initial_value, as TF does."""
    g = variable.graph
    ref = variable._ref()
    with g.as_default(), g.control_dependencies(None), g.colocate_with(ref.op):
        restore = io_ops.restore_v2(ckpt_file, [tensor_name], [slice_spec],
                                    [variable.dtype.base_dtype], name=name)[0]
        restore.set_shape(variable.get_shape())
        shape = variable.get_shape()
        init_op = state_ops.assign(ref, restore,
                                   validate_shape=shape.is_fully_defined()).op
    variable._initializer_op = init_op
    variable._initial_value = restore


def _set_variable_or_list_initializer(variable_or_list, ckpt_file, tensor_name):
    """One variable reads the whole tensor; each shard of a list reads its slice (TF's
    _set_variable_or_list_initializer)."""
    if isinstance(variable_or_list, (list, tuple)):
        slice_name = None
        for v in variable_or_list:
            info = v._get_save_slice_info()
            if info is None:
                raise ValueError(f"Variable {v.name} in the list for tensor {tensor_name} is "
                                 f"not a shard of a partitioned variable (it has no "
                                 f"save_slice_info). Map a whole variable by itself, not in a "
                                 f"list.")
            if slice_name is None:
                slice_name = info.full_name
            elif slice_name != info.full_name:
                raise ValueError(f"Slices must all be from the same tensor: {slice_name} != "
                                 f"{info.full_name} (initializing from {tensor_name}). List "
                                 f"the shards of one partitioned variable only.")
            _set_checkpoint_initializer(v, ckpt_file, tensor_name, info.spec)
    else:
        _set_checkpoint_initializer(variable_or_list, ckpt_file, tensor_name, "")


def _check_and_set(var, tensor_name, variable_map, ckpt_dir_or_file, ckpt_file):
    """Checks `var` (a Variable or a list of shards) against the checkpoint's tensor, then
    sets its initializer(s)."""
    if tensor_name not in variable_map:
        what = var.name if _is_variable(var) else ",".join(v.name for v in var)
        raise _not_found(tensor_name, ckpt_dir_or_file, variable_map, f"variable {what}")
    _check_shape(var, tensor_name, variable_map[tensor_name])
    _set_variable_or_list_initializer(var, ckpt_file, tensor_name)
    _log.debug("Initialize variable %s from checkpoint %s with %s",
               var.name if _is_variable(var) else [v.name for v in var], ckpt_dir_or_file,
               tensor_name)


def init_from_checkpoint(ckpt_dir_or_file, assignment_map):
    """Replaces the initializers of the variables `assignment_map` names so that they load
    their values from the checkpoint when they run (tf.global_variables_initializer()) -- TF's
    tf.train.init_from_checkpoint; see the module docstring for the map's forms.
    `ckpt_dir_or_file` is a checkpoint prefix or a directory (its latest checkpoint).

    ValueError, naming the variable, for a tensor the checkpoint does not hold, a shape that
    differs from the checkpoint's, or a scope mapped to a variable name."""
    ckpt_dir_or_file = os.fspath(ckpt_dir_or_file)
    with checkpoint_management.load_checkpoint(ckpt_dir_or_file) as reader:
        variable_map = reader.get_variable_to_shape_map()
        # The RestoreV2 ops may run on tasks with another working directory.
        ckpt_file = os.path.abspath(reader.prefix)
    if isinstance(assignment_map, collections.abc.Mapping):
        assignment_map = assignment_map.items()
    store_vars = _get_default_variable_store()._vars
    for tensor_name_in_ckpt, current in sorted(assignment_map, key=lambda pair: pair[0]):
        var = None
        if _is_variable(current) or (isinstance(current, (list, tuple)) and current and
                                     all(_is_variable(v) for v in current)):
            var = list(current) if isinstance(current, tuple) else current
        elif _is_partitioned(current):
            var = list(current._get_variable_list())
        elif isinstance(current, str):
            var = store_vars.get(current)
            if var is None:
                var = _collect_partitioned_variable(current, store_vars)
        else:
            raise TypeError(f"assignment_map[{tensor_name_in_ckpt!r}] is {current!r}: give a "
                            f"variable, a list of the shards of a partitioned variable, a "
                            f"variable's name or a scope name ending in '/'.")
        if var is not None:
            _check_and_set(var, tensor_name_in_ckpt, variable_map, ckpt_dir_or_file, ckpt_file)
            continue
        # -- a scope: every variable of the store under it ----------------------------------
        scopes = current[:current.rindex("/")] if "/" in current else ""
        if not tensor_name_in_ckpt.endswith("/"):
            raise ValueError(
                f"Assignment map with scope only name {scopes} should map to scope only "
                f"{tensor_name_in_ckpt}. Should be 'scope/': 'other_scope/'. (No variable "
                f"named {current!r} was made by tf.get_variable: to initialize one variable "
                f"give its name as get_variable made it, or the Variable itself -- needed for "
                f"a variable made by tf.Variable; to initialize a scope, end both names in "
                f"'/'.)")
        scope_variables = set()
        for var_name in store_vars:
            if not scopes or var_name.startswith(scopes + "/"):
                if "/part_" in var_name:
                    var_name = var_name[:var_name.index("/part_")]
                scope_variables.add(var_name)
        for var_name in sorted(scope_variables):
            full_tensor_name = var_name[len(scopes):]
            if current != "/":
                full_tensor_name = full_tensor_name[1:]
            if tensor_name_in_ckpt != "/":
                full_tensor_name = tensor_name_in_ckpt + full_tensor_name
            if full_tensor_name.endswith("/"):
                full_tensor_name = full_tensor_name[:-1]
            if full_tensor_name not in variable_map:
                raise _not_found(full_tensor_name, ckpt_dir_or_file, variable_map,
                                 f"variable {var_name}, by {tensor_name_in_ckpt!r}: "
                                 f"{current!r}")
            var = store_vars.get(var_name)
            if var is None:
                var = _collect_partitioned_variable(var_name, store_vars)
            _check_and_set(var, full_tensor_name, variable_map, ckpt_dir_or_file, ckpt_file)
