"""Saving and restoring variables -- mirrors TensorFlow's tf.train.Saver
(python/training/saver.py).

    saver = tf.train.Saver()                                   # all global variables
    path = saver.save(sess, 'train/model.ckpt', global_step=step)   # 'train/model.ckpt-1000'
    saver.restore(sess, tf.train.latest_checkpoint('train'))

A Saver adds ops to the graph when it is built (name scope 'save'):

    save/Const              the checkpoint prefix: save() and restore() feed it
    save/SaveV2             writes the variables' values (sharded: one SaveV2 per device that
                            holds variables, ON that device, then save/MergeV2Checkpoints)
    save/control_dependency the prefix again, once the files are written: save() fetches it
    save/RestoreV2          reads values back -- one per device, on the variables' device
    save/Assign, ...        put them into the variables
    save/restore_all        runs every Assign: restore() runs it

So in a cluster the files are written and read by the tasks that run those ops. With
`sharded=True` every parameter server writes its own variables to its own shard file and
nothing crosses the network; with `sharded=False` every value travels to the saver's device
and that one task writes one file.

Partitioned variables (tf.get_variable(..., partitioner=...)) are saved as TensorFlow saves
them: each shard ('emb/part_0', 'emb/part_1', ...) is a SLICE of one tensor named after the
full variable ('emb'), written by SaveV2 with its shape-and-slice spec ('10 4 0,5:0,4'), often
by a different ps. The checkpoint then holds one tensor 'emb' of the full shape [10, 4]; a
restore reads each shard's slice of it, so a model may come back with another number of
shards, or with one whole variable 'emb'.

save() runs the save ops (data files first, then the index -- see framework/tensor_bundle.py),
then records the new checkpoint in the `checkpoint` state file (atomically, last), deletes
what `max_to_keep` no longer keeps, and writes the graph to `<prefix>.meta`.
"""
import logging
import os
import time
import uuid

import numpy as np

from ..framework import errors
from ..framework.graph import GraphKeys, get_default_graph
from ..framework.tensor import Tensor
from ..ops import io_ops
from ..framework import tensor_bundle
from ..version import __version__
from . import checkpoint_management
from .meta_graph import graph_extras, import_scoped_meta_graph, \
    write_meta_graph as _write_meta_graph

__all__ = ["Saver", "SaverDef", "export_meta_graph", "import_meta_graph"]

_log = logging.getLogger("sandbox")


class SaverDef:
    """What a built Saver is, by name (TF's SaverDef protocol buffer)."""

    LEGACY, V1, V2 = 0, 1, 2          # CheckpointFormatVersion

    def __init__(self, filename_tensor_name="", save_tensor_name="", restore_op_name="",
                 max_to_keep=5, sharded=False, keep_checkpoint_every_n_hours=10000.0,
                 version=2):
        self.filename_tensor_name = filename_tensor_name
        self.save_tensor_name = save_tensor_name
        self.restore_op_name = restore_op_name
        self.max_to_keep = max_to_keep
        self.sharded = sharded
        self.keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self.version = version

    def as_dict(self):
        return dict(vars(self))

    @classmethod
    def from_dict(cls, d):
        return cls(**d)

    def __eq__(self, other):
        return isinstance(other, SaverDef) and vars(self) == vars(other)

    def __repr__(self):
        return "SaverDef(" + ", ".join(f"{k}={v!r}" for k, v in vars(self).items()) + ")"


# -- which variables, under which names ----------------------------------------------

def _is_variable(v):
    from ..ops.variables import Variable
    return isinstance(v, Variable)


def _variable_ref(v):
    """The reference tensor of a Variable, or of a VariableV2 op's output."""
    if _is_variable(v):
        return v._ref()
    if isinstance(v, Tensor) and v.dtype.is_ref and v.op.type in ("VariableV2", "Variable"):
        return v
    raise TypeError(f"Variable to save is not a Variable: {v!r}. A Saver saves tf.Variables "
                    "(pass a list of them, or a dict {name in the checkpoint: variable}).")


def _slice_info(var):
    """The SaveSliceInfo of a shard of a partitioned variable, else None."""
    return var._get_save_slice_info() if _is_variable(var) else None


def _is_partitioned(var):
    """A PartitionedVariable (TF's variables.PartitionedVariable), recognized by its method:
    it iterates over its shards, ordinary Variables that each know their slice."""
    return not _is_variable(var) and callable(getattr(var, "_get_variable_list", None))


def op_list_to_dict(op_list):
    """A list of variables -> {checkpoint name: variable, or list of slices} (TF's
    saveable_object_util.op_list_to_dict). A variable is saved under its op name
    ('layer1/weights'); a shard of a partitioned variable under the full variable's name
    ('emb'), beside the other shards: a PartitionedVariable counts as its shards."""
    if not isinstance(op_list, (list, tuple, set)):
        raise TypeError(f"Variables to save should be passed in a dict or a list: {op_list!r}")
    if isinstance(op_list, set):
        op_list = sorted(op_list, key=lambda x: x.name)
    names = {}
    for item in op_list:
        for var in item._get_variable_list() if _is_partitioned(item) else [item]:
            info = _slice_info(var)
            name = info.full_name if info is not None else _variable_ref(var).op.name
            if name in names and isinstance(names[name], list) != (info is not None):
                raise ValueError(f"Mixing slices and non-slices with the same name: {name} (a "
                                 f"variable and the shards of a partitioned variable are both "
                                 f"called {name!r}: rename one, or pass a dict of names)")
            if info is not None:
                names.setdefault(name, []).append(var)
            elif name in names:
                raise ValueError(f"At least two variables have the same name: {name}")
            else:
                names[name] = var
    return names


def _saveables(var_list):
    """[(name, shape_and_slice, ref tensor)] sorted by name, each variable once; the spec is
    '' for a whole variable, the slice's spec ('10 4 5,5:0,4') for a shard."""
    names = var_list if isinstance(var_list, dict) else op_list_to_dict(var_list)
    items, seen = [], set()
    for name, value in sorted(names.items(), key=lambda kv: kv[0]):
        if not isinstance(name, str):
            raise TypeError(f"Checkpoint names must be strings, got {name!r}")
        if _is_partitioned(value) or isinstance(value, (list, tuple)):
            shards = list(value._get_variable_list() if _is_partitioned(value) else value)
            entries = [(name, spec, var._ref())
                       for var, spec in zip(shards, _slice_specs(shards, name))]
        else:
            entries = [(name, "", _variable_ref(value))]
        for entry in entries:
            if entry[2].op in seen:
                raise ValueError(f"The same saveable will be restored with two names: {name}")
            seen.add(entry[2].op)
            items.append(entry)
    return items


def _slice_specs(shards, name):
    """The specs of the slices saved under `name`, after TF's checks (saveable_objects_for_op):
    every one a Variable with a save_slice_info, all of the same full variable."""
    specs, full_name = [], None
    for var in shards:
        if not _is_variable(var):
            raise ValueError(f"Slices must all be Variables: {var!r} (saving {name!r})")
        info = _slice_info(var)
        if info is None:
            raise ValueError(f"Slices must all be slices: {var.name} has no save_slice_info "
                             f"(saving {name!r})")
        full_name = full_name or info.full_name
        if info.full_name != full_name:
            raise ValueError(f"Slices must all be from the same tensor: {full_name} != "
                             f"{info.full_name} (saving {name!r})")
        specs.append(info.spec)
    return specs


def _group_by_device(items):
    """[(device, [(name, spec, ref), ...])] sorted by device name (TF's _GroupByDevices)."""
    per_device = {}
    for item in items:
        per_device.setdefault(item[2].op.device, []).append(item)
    return sorted(per_device.items(), key=lambda t: t[0])


# -- building the ops ----------------------------------------------------------------------

class _SaverBuilder:
    """Adds the save and restore ops for a list of (name, shape_and_slice, variable
    reference)."""

    def __init__(self, graph):
        self.g = graph

    def build(self, items, reshape, sharded, max_to_keep, keep_checkpoint_every_n_hours, name,
              filename, version, build_save=True, build_restore=True):
        from ..ops.constant_op import constant, placeholder_with_default
        g = self.g
        with g.as_default(), g.name_scope(name or "save"):
            default = constant(filename or "model", name="filename/input")
            filename_tensor = placeholder_with_default(default, shape=(), name="filename")
            # TF keeps the name "Const" for the tensor save() and restore() feed.
            filename_tensor = placeholder_with_default(filename_tensor, shape=(), name="Const")
            per_device = _group_by_device(items)
            save_tensor = restore_op = None
            if sharded:
                if build_save:
                    save_tensor = self._sharded_save(filename_tensor, per_device)
                if build_restore:
                    restore_op = self._restore(filename_tensor, per_device, reshape,
                                               shard_name="restore_shard")
            else:
                if build_save:
                    save_tensor = self._save(filename_tensor, items)
                if build_restore:
                    restore_op = self._restore(filename_tensor, per_device, reshape)
        return SaverDef(filename_tensor_name=filename_tensor.name,
                        save_tensor_name=save_tensor.name if save_tensor is not None else "",
                        restore_op_name=restore_op.name if restore_op is not None else "",
                        max_to_keep=max_to_keep or 0, sharded=bool(sharded),
                        keep_checkpoint_every_n_hours=keep_checkpoint_every_n_hours,
                        version=version)

    def _save_op(self, prefix, items):
        return io_ops.save_v2(prefix, [n for n, _, _ in items], [s for _, s, _ in items],
                              [ref for _, _, ref in items])

    def _save(self, filename_tensor, items):
        """One SaveV2 on the saver's device; returns the prefix, available once saved."""
        from ..ops.control_flow_ops import identity
        save = self._save_op(filename_tensor, items)
        with self.g.control_dependencies([save]):
            return identity(filename_tensor, name="control_dependency")

    def _sharded_save(self, filename_tensor, per_device):
        """A SaveV2 per device, colocated with its variables, each writing a one-shard
        checkpoint in '<prefix>_temp_<id>/'; then MergeV2Checkpoints (on the last of those
        devices) renames the data files into place and writes the index."""
        from ..ops.array_ops import stack
        from ..ops.constant_op import constant
        from ..ops.control_flow_ops import identity
        g = self.g
        tmp_prefix = io_ops.string_join([filename_tensor, f"_temp_{uuid.uuid4().hex}/part"])
        num_shards = constant(len(per_device), name="num_shards")
        saves, prefixes, anchor = [], [], None
        for shard, (_, items) in enumerate(per_device):
            anchor = items[0][2]
            with g.colocate_with(anchor.op):
                prefix = io_ops.sharded_filename(tmp_prefix, shard, num_shards)
                prefixes.append(prefix)
                saves.append(self._save_op(prefix, items))
        with g.control_dependencies(saves), g.colocate_with(anchor.op):
            merge = io_ops.merge_v2_checkpoints(stack(prefixes), filename_tensor,
                                                delete_old_dirs=True)
        with g.control_dependencies([merge]):
            return identity(filename_tensor)

    def _restore(self, filename_tensor, per_device, reshape, shard_name=None):
        """Per device: a RestoreV2 and the Assigns, all colocated with the variables."""
        from ..ops import state_ops
        from ..ops.array_ops import reshape as reshape_op
        from ..ops.control_flow_ops import group
        g = self.g
        shards = []
        for _, items in per_device:
            with g.colocate_with(items[0][2].op):
                tensors = io_ops.restore_v2(filename_tensor, [n for n, _, _ in items],
                                            [spec for _, spec, _ in items],
                                            [ref.dtype.base_dtype for _, _, ref in items])
            assigns = []
            for (_, _, ref), tensor in zip(items, tensors):
                shape = ref.get_shape()
                with g.colocate_with(ref.op):
                    if reshape and shape.is_fully_defined():
                        tensor = reshape_op(tensor, shape.as_list())
                    else:
                        tensor.set_shape(shape)
                    assigns.append(state_ops.assign(
                        ref, tensor, validate_shape=not reshape and shape.is_fully_defined()))
            if shard_name is None:
                shards.extend(assigns)
            else:
                shards.append(group(*assigns, name=shard_name))
        return group(*shards, name="restore_all")


# -- the Saver ---------------------------------------------------------------------------

class Saver:
    """Saves and restores variables; see the module docstring."""

    def __init__(self, var_list=None, reshape=False, sharded=False, max_to_keep=5,
                 keep_checkpoint_every_n_hours=10000.0, name=None, restore_sequentially=False,
                 saver_def=None, builder=None, defer_build=False, allow_empty=False,
                 write_version=SaverDef.V2, pad_step_number=False, save_relative_paths=False,
                 filename=None):
        if var_list is not None and not isinstance(var_list, (list, tuple, set, dict)):
            raise TypeError(f"Variables to save should be passed in a dict or a list: "
                            f"{var_list!r}")
        if defer_build and var_list:
            raise ValueError("If `var_list` is provided then build cannot be deferred. "
                             "Either set defer_build=False or var_list=None.")
        if write_version not in (SaverDef.V1, SaverDef.V2):
            raise ValueError(f"write_version must be SaverDef.V1 or SaverDef.V2, got "
                             f"{write_version!r}")
        if write_version == SaverDef.V1:
            _log.warning("Saver: write_version=V1 asked for TF's old format; the sandbox "
                         "writes its own checkpoint format either way.")
        if isinstance(saver_def, dict):
            saver_def = SaverDef.from_dict(saver_def)
        if saver_def is not None and not isinstance(saver_def, SaverDef):
            raise ValueError(f"saver_def must be a SaverDef: {saver_def!r}")
        self._var_list = var_list
        self._reshape = reshape
        self._sharded = sharded
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._name = name
        self._restore_sequentially = restore_sequentially   # one device at a time anyway
        self.saver_def = saver_def
        self._builder = builder
        self._is_built = False
        self._allow_empty = allow_empty
        self._is_empty = None
        self._write_version = write_version
        self._pad_step_number = pad_step_number
        self._filename = filename
        self._last_checkpoints = []
        self._checkpoints_to_be_deleted = []
        self._save_relative_paths = save_relative_paths
        self._graph = get_default_graph()
        if not defer_build:
            self.build()
        if self.saver_def:
            self._check_saver_def()
            self._write_version = self.saver_def.version

    # -- building ------------------------------------------------------------------
    def build(self):
        """Adds the save and restore ops (done by the constructor unless defer_build)."""
        if self._is_built:
            return
        self._is_built = True
        if not self.saver_def:
            if self._var_list is None:
                from ..ops.variables import global_variables
                self._var_list = global_variables() + \
                    get_default_graph().get_collection("saveable_objects")
            if not self._var_list:
                if self._allow_empty:
                    self._is_empty = True
                    return
                raise ValueError("No variables to save")
            self._is_empty = False
            items = _saveables(self._var_list)
            self._graph = items[0][2].graph
            self.saver_def = _SaverBuilder(self._graph).build(
                items, self._reshape, self._sharded, self._max_to_keep,
                self._keep_checkpoint_every_n_hours, self._name, self._filename,
                self._write_version)
        else:
            self._is_empty = False
        self._check_saver_def()
        self._sharded = self.saver_def.sharded
        self._next_checkpoint_time = (time.time() +
                                      self.saver_def.keep_checkpoint_every_n_hours * 3600)

    def _check_saver_def(self):
        if not self.saver_def.save_tensor_name:
            raise ValueError(f"saver_def must specify the save_tensor_name: {self.saver_def}")
        if not self.saver_def.restore_op_name:
            raise ValueError(f"saver_def must specify the restore_op_name: {self.saver_def}")

    def as_saver_def(self):
        return self.saver_def

    to_proto = as_saver_def

    # -- the list of kept checkpoints -------------------------------------------------
    @property
    def last_checkpoints(self):
        """The prefixes of the checkpoints this saver keeps, oldest first."""
        return [path for path, _ in self._last_checkpoints]

    def set_last_checkpoints(self, last_checkpoints):
        if not isinstance(last_checkpoints, list):
            raise TypeError("last_checkpoints must be a list")
        self._last_checkpoints = [(p, np.inf) for p in last_checkpoints]

    def set_last_checkpoints_with_time(self, last_checkpoints_with_time):
        if not isinstance(last_checkpoints_with_time, list):
            raise TypeError("last_checkpoints_with_time must be a list")
        self._last_checkpoints = list(last_checkpoints_with_time)

    def recover_last_checkpoints(self, checkpoint_paths):
        """Takes over the checkpoints another saver (a previous run) left, so that
        max_to_keep counts and deletes them too."""
        with_times = []
        for path in checkpoint_paths:
            mtimes = checkpoint_management.get_checkpoint_mtimes([path])
            if mtimes:
                with_times.append((path, mtimes[0]))
        self.set_last_checkpoints_with_time(with_times)

    def _record_last_checkpoint(self, latest_save_path):
        if not self.saver_def.max_to_keep:
            return
        self._last_checkpoints = [(p, t) for p, t in self._last_checkpoints
                                  if p != latest_save_path]
        self._last_checkpoints.append((latest_save_path, time.time()))
        if len(self._last_checkpoints) > self.saver_def.max_to_keep:
            self._checkpoints_to_be_deleted.append(self._last_checkpoints.pop(0))

    def _maybe_delete_old_checkpoints(self, meta_graph_suffix="meta"):
        if not self._checkpoints_to_be_deleted:
            return
        path, saved_at = self._checkpoints_to_be_deleted.pop(0)
        # keep_checkpoint_every_n_hours: one checkpoint per N hours survives max_to_keep.
        if saved_at > self._next_checkpoint_time:
            self._next_checkpoint_time += self.saver_def.keep_checkpoint_every_n_hours * 3600
            return
        try:
            checkpoint_management.remove_checkpoint(path, self.saver_def.version,
                                                    meta_graph_suffix)
        except OSError as e:
            _log.warning("Ignoring: %s", e)

    # -- save and restore -----------------------------------------------------------
    def save(self, sess, save_path, global_step=None, latest_filename=None,
             meta_graph_suffix="meta", write_meta_graph=True, write_state=True,
             strip_default_attrs=False, save_debug_info=False):
        """Saves the variables to a new checkpoint; returns its prefix, e.g.
        'train/model.ckpt-1000' (None for a saver with nothing to save)."""
        if not self._is_built:
            raise RuntimeError("`build()` should be called before save if defer_build==True")
        if latest_filename is None:
            latest_filename = "checkpoint"
        if os.path.split(latest_filename)[0]:
            raise ValueError("'latest_filename' must not contain path components")
        save_path = tensor_bundle._text(os.fspath(save_path))
        if global_step is not None:
            if not isinstance(global_step, (int, np.integer)):
                from .training_util import global_step as read_global_step
                global_step = read_global_step(sess, global_step)
            step = int(global_step)
            checkpoint_file = (f"{save_path}-{step:08d}" if self._pad_step_number
                               else f"{save_path}-{step}")
        else:
            checkpoint_file = save_path
            if os.path.basename(save_path) == latest_filename and not self._sharded:
                raise ValueError(f"'latest_filename' collides with 'save_path': "
                                 f"'{latest_filename}' and '{save_path}'")
        if not callable(getattr(sess, "run", None)):
            raise TypeError(f"'sess' must be a Session; {sess}")
        save_path_parent = os.path.dirname(save_path)
        model_checkpoint_path = None
        if not self._is_empty:
            try:
                # The tasks that run the save ops may have another working directory: give
                # them an absolute path. The checkpoint keeps the name the program gave.
                sess.run(self.saver_def.save_tensor_name,
                         {self.saver_def.filename_tensor_name:
                          os.path.abspath(checkpoint_file).encode("utf-8")})
                model_checkpoint_path = checkpoint_file
                if write_state:
                    self._record_last_checkpoint(model_checkpoint_path)
                    checkpoint_management.update_checkpoint_state(
                        save_dir=save_path_parent, model_checkpoint_path=model_checkpoint_path,
                        all_model_checkpoint_paths=self.last_checkpoints,
                        latest_filename=latest_filename,
                        save_relative_paths=self._save_relative_paths)
                    self._maybe_delete_old_checkpoints(meta_graph_suffix)
            except (errors.FailedPreconditionError, errors.NotFoundError) as exc:
                if not os.path.isdir(save_path_parent or "."):
                    raise ValueError(f"Parent directory of {save_path} doesn't exist, can't "
                                     "save.") from exc
                raise
        if write_meta_graph:
            filename = checkpoint_management.meta_graph_filename(checkpoint_file,
                                                                 meta_graph_suffix)
            self.export_meta_graph(filename, graph=getattr(sess, "graph", None),
                                   strip_default_attrs=strip_default_attrs)
        return model_checkpoint_path

    def restore(self, sess, save_path):
        """Restores the variables from checkpoint `save_path` (a prefix such as
        'train/model.ckpt-1000', e.g. from tf.train.latest_checkpoint). The restore ops run on
        the tasks that hold the variables; a damaged checkpoint raises DataLossError."""
        if self._is_empty:
            return
        if save_path is None:
            raise ValueError("Can't load save_path when it is None.")
        prefix = tensor_bundle._text(os.fspath(save_path))
        if not checkpoint_management.checkpoint_exists(prefix):
            raise ValueError("The passed save_path is not a valid checkpoint: " + prefix)
        _log.info("Restoring parameters from %s", prefix)
        try:
            sess.run(self.saver_def.restore_op_name,
                     {self.saver_def.filename_tensor_name:
                      os.path.abspath(prefix).encode("utf-8")})
        except errors.NotFoundError as err:
            raise _wrap_restore_error(err, "a Variable name or other graph key that is "
                                           "missing") from None
        except errors.InvalidArgumentError as err:
            raise _wrap_restore_error(err, "a mismatch between the current graph and the "
                                           "graph") from None

    # -- the meta graph ---------------------------------------------------------------
    def export_meta_graph(self, filename=None, collection_list=None, as_text=False,
                          export_scope=None, clear_devices=False,
                          clear_extraneous_savers=False, strip_default_attrs=False,
                          save_debug_info=False, graph=None):
        """Writes the graph, this saver's SaverDef and the collections' names to `filename`
        (sandbox format: data, no pickle). Returns the meta graph as a dict."""
        return export_meta_graph(filename, graph=graph or self._graph,
                                 saver_def=self.saver_def, collection_list=collection_list,
                                 clear_devices=clear_devices)


def _wrap_restore_error(err, extra_verbiage):
    message = ("Restoring from checkpoint failed. This is most likely due to "
               f"{extra_verbiage} from the checkpoint. Please ensure that you have not altered "
               f"the graph expected based on the checkpoint. Original error:\n\n{err.message}")
    return err.__class__(err.node_def, err.op, message)


def export_meta_graph(filename=None, meta_info_def=None, graph_def=None, saver_def=None,
                      collection_list=None, as_text=False, graph=None, export_scope=None,
                      clear_devices=False, clear_extraneous_savers=False,
                      strip_default_attrs=False, save_debug_info=False, **unused):
    """The graph as a meta graph (a dict: graph_def, saver_def, collections), written to
    `filename` when given; tf.train.import_meta_graph reads it back (train/meta_graph.py).
    Beside the node_defs it records each op's output dtypes and shapes and the variables'
    VariableDefs; collection items that are not ops, tensors or variables are left out."""
    graph = graph or get_default_graph()
    if isinstance(saver_def, dict):
        saver_def = SaverDef.from_dict(saver_def)
    ops = graph.get_operations()
    nodes = []
    for op in ops:
        nd = dict(op.node_def)             # plain data, whatever class node_def returns
        if clear_devices:
            nd["device"] = ""
        nodes.append(nd)
    collections = {}
    keys = collection_list or graph.get_all_collection_keys()
    for key in keys:
        names = [getattr(item, "name", None) for item in graph.get_collection(key)]
        if names and all(isinstance(n, str) for n in names):
            collections[str(key)] = names
    outputs, variable_defs = graph_extras(graph, ops, list(collections))
    meta = {"meta_info_def": {"tensorflow_version": __version__,
                              "stripped_op_list": sorted({nd["op"] for nd in nodes})},
            "graph_def": {"node": nodes, "outputs": outputs},
            "saver_def": saver_def.as_dict() if saver_def is not None else None,
            "collection_def": collections,
            "variable_defs": variable_defs}
    if filename:
        try:
            _write_meta_graph(filename, meta)
        except TypeError as e:
            _log.warning("Could not write the meta graph %s: %s", filename, e)
    return meta


def _get_saver_or_default():
    """The graph's one Saver (collection SAVERS), or a new sharded Saver added to it."""
    savers = get_default_graph().get_collection(GraphKeys.SAVERS)
    if savers:
        if len(savers) > 1:
            raise RuntimeError(f"More than one item in collection {GraphKeys.SAVERS}. Please "
                               "indicate which one to use by passing it to the constructor.")
        return savers[0]
    saver = Saver(sharded=True, allow_empty=True)
    get_default_graph().add_to_collection(GraphKeys.SAVERS, saver)
    return saver


def import_meta_graph(meta_graph_or_file, clear_devices=False, import_scope=None,
                      input_map=None, **kwargs):
    """tf.train.import_meta_graph: adds a meta graph's ops and collections to the default graph
    (train/meta_graph.py) and returns a Saver for them -- the saved SaverDef's, else a new one
    over the variables, else None when there is nothing to restore."""
    saver_def = import_scoped_meta_graph(meta_graph_or_file, clear_devices, import_scope,
                                         input_map, **kwargs)
    if saver_def:
        return Saver(saver_def=SaverDef.from_dict(saver_def))
    from ..ops.variables import global_variables
    if global_variables() or get_default_graph().get_collection("saveable_objects"):
        return Saver()
    _log.info("Saver not created because there are no variables in the graph to restore")
    return None
