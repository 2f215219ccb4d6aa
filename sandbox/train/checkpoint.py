"""tf.train.Checkpoint -- object-based checkpoints, mirrors TensorFlow 1.15's
python/training/tracking/util.py as a TF-1 graph runs it.

A Saver names each variable by its op name ('dense/kernel'); a Checkpoint names it by the
path of attributes that leads to it from the objects you give it:

    ckpt = tf.train.Checkpoint(model=model, optimizer=opt, step=global_step)
    path = ckpt.save('/tmp/ckpts/ckpt', session=sess)       # '/tmp/ckpts/ckpt-1'
    ...
    ckpt.restore(path).run_restore_ops(sess)                  # in another program, maybe

    key in the file                                         the value of
    model/d1/kernel/.ATTRIBUTES/VARIABLE_VALUE              model.d1's kernel
    model/d1/kernel/.OPTIMIZER_SLOT/optimizer/m/...         opt's slot 'm' of that kernel
    optimizer/beta1_power/.ATTRIBUTES/VARIABLE_VALUE        opt's own variable
    step/.ATTRIBUTES/VARIABLE_VALUE, save_counter/...       the step; how many saves so far

So a model restores into a program whose variables are named differently (a second copy of
the model, another name scope), as long as its objects hang together the same way. What is
followed (TF's "trackable" objects): variables; lists, tuples and dicts (children '0', '1',
... or the keys); and objects that list their dependencies (`_checkpoint_dependencies()`):
Keras layers and models (their layers by attribute name -- a functional model's as
'layer_with_weights-0' and 'layer-0' -- then their weights by name, 'kernel'), tf.Module,
optimizers (their own variables by name; their slots as above). Each object is named by the
first path a breadth-first walk finds. The file also holds that graph of objects,
'_CHECKPOINTABLE_OBJECT_GRAPH' (a TrackableObjectGraph protocol buffer), as TF's does.

Restoring matches the keys of the objects that exist when the status's ops run, so a
restore() before the optimizer made its slots still restores them, if they exist by
run_restore_ops(). TF matches the saved graph of objects node by node instead, which differs
only for an object reached by two paths.
"""
import os

from ..framework.default_session import get_default_session
from ..framework import dtypes, errors
from ..framework.graph import get_default_graph
from ..ops import io_ops, state_ops
from ..ops.constant_op import placeholder
from ..ops.variables import Variable, variables_initializer
from . import checkpoint_management

__all__ = ["Checkpoint", "CheckpointManager", "ObjectGraphSaver"]

OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"
_VALUE = ".ATTRIBUTES/VARIABLE_VALUE"


def _dependencies(obj):
    """[(name, child)] of a trackable object; None for an object that is not trackable."""
    if isinstance(obj, Variable):
        return []
    if isinstance(obj, (list, tuple)):
        return [(str(i), x) for i, x in enumerate(obj)]
    if isinstance(obj, dict):
        return [(str(k), v) for k, v in obj.items()]
    deps = getattr(obj, "_checkpoint_dependencies", None)
    return deps() if callable(deps) else None


def _walk(root):
    """Breadth first from `root`: the objects in order (the root first), each one's path
    ('model/d1/kernel', '' for the root), each one's [(name, child index)], and the slot
    variables [(optimizer index, slot name, original variable, slot variable)]."""
    objects, paths, index, children = [root], [""], {id(root): 0}, []
    i = 0
    while i < len(objects):
        named = []
        for name, child in _dependencies(objects[i]) or ():
            if _dependencies(child) is None:
                continue                                   # a number, a string ...
            if id(child) not in index:
                index[id(child)] = len(objects)
                objects.append(child)
                paths.append(f"{paths[i]}/{name}" if paths[i] else name)
            named.append((name, index[id(child)]))
        children.append(named)
        i += 1
    slots = []
    variables = [obj for obj in objects if isinstance(obj, Variable)]
    for i, obj in enumerate(objects):
        slots_of = getattr(obj, "_checkpoint_slots", None)
        for slot_name, original, slot in slots_of(variables) if slots_of else ():
            if id(slot) not in index:
                slots.append((i, slot_name, original, slot))
    return objects, paths, index, children, slots


def _keyed_variables(root):
    """{checkpoint key: variable} of what `root` reaches, and the TrackableObjectGraph."""
    from ..framework.saved_model_pb2 import TrackableObjectGraph
    objects, paths, index, children, slots = _walk(root)
    graph = TrackableObjectGraph()
    keyed = {}
    for obj, path, named in zip(objects, paths, children):
        node = graph.nodes.add()
        for name, child in named:
            node.children.add(node_id=child, local_name=name)
        if isinstance(obj, Variable):
            key = f"{path}/{_VALUE}"
            keyed[key] = obj
            node.attributes.add(name="VARIABLE_VALUE", full_name=obj.op.name,
                                checkpoint_key=key)
    for owner, slot_name, original, slot in slots:
        key = (f"{paths[index[id(original)]]}/.OPTIMIZER_SLOT/{paths[owner]}/{slot_name}/"
               f"{_VALUE}")
        keyed[key] = slot
        graph.nodes[owner].slot_variables.add(
            original_variable_node_id=index[id(original)], slot_name=slot_name,
            slot_variable_node_id=len(graph.nodes))
        graph.nodes.add().attributes.add(name="VARIABLE_VALUE", full_name=slot.op.name,
                                         checkpoint_key=key)
    return keyed, graph


def _session(session, what):
    session = session or get_default_session()
    if session is None:
        raise ValueError(f"{what} runs ops in a graph: pass `session=sess`, or call it inside "
                         "`with sess.as_default():`.")
    return session


class ObjectGraphSaver:
    """Writes and restores what `root` reaches, keyed by path from it: a Checkpoint's
    engine, and Keras's save_weights in TensorFlow's format (the model is the root)."""

    def __init__(self, root):
        self._root = root
        self._writers = {}

    def write(self, file_prefix, session):
        """Writes the checkpoint `file_prefix` (its .index and .data files); returns it."""
        keyed, graph = _keyed_variables(self._root)
        keys = sorted(keyed)
        writer = self._writers.get((id(session.graph), tuple(keys)))
        if writer is None:
            with session.graph.as_default(), session.graph.name_scope("save"):
                prefix = placeholder(dtypes.string, [], name="file_prefix")
                objects = placeholder(dtypes.string, [], name="object_graph")
                tensors = [keyed[k]._ref() for k in keys] + [objects]
                op = io_ops.save_v2(prefix, keys + [OBJECT_GRAPH_KEY], [""] * len(tensors),
                                    tensors)
            writer = self._writers[(id(session.graph), tuple(keys))] = (prefix, objects, op)
        prefix, objects, op = writer
        directory = os.path.dirname(str(file_prefix))
        if directory:
            os.makedirs(directory, exist_ok=True)
        session.run(op, {prefix: str(file_prefix), objects: graph.SerializeToString()})
        return str(file_prefix)

    def restore(self, save_path):
        return _CheckpointLoadStatus(self._root, str(save_path))


def is_object_based(save_path):
    """Whether the checkpoint `save_path` was written by object (it has the graph of them)."""
    reader = checkpoint_management.load_checkpoint(save_path)
    return reader.has_tensor(OBJECT_GRAPH_KEY)


class Checkpoint:
    """Groups trackable objects, saved and restored by their paths (see the module)."""

    def __init__(self, **kwargs):
        object.__setattr__(self, "_deps", {})
        object.__setattr__(self, "_save_counter", None)
        object.__setattr__(self, "_increment", None)     # save_counter += 1, built once
        object.__setattr__(self, "_saver", ObjectGraphSaver(self))
        for name, value in sorted(kwargs.items(), key=lambda item: item[0]):
            setattr(self, name, value)

    def __setattr__(self, name, value):
        if _dependencies(value) is None:
            raise ValueError(f"`Checkpoint` was expecting a trackable object (a variable, a "
                             f"Keras model or layer, an optimizer, a tf.Module, or a list or "
                             f"dict of them), got {value!r} for {name!r}.")
        self._deps[name] = value
        object.__setattr__(self, name, value)

    def _checkpoint_dependencies(self):
        deps = list(self._deps.items())
        if self._save_counter is not None:
            deps.append(("save_counter", self._save_counter))
        return deps

    @property
    def save_counter(self):
        """How many times save() has run (an int64 variable, made by the first save)."""
        return self._save_counter

    def _make_save_counter(self, session):
        if self._save_counter is None:
            with get_default_graph().name_scope(None):
                counter = Variable(0, dtype=dtypes.int64, trainable=False, name="save_counter")
            object.__setattr__(self, "_save_counter", counter)
            session.run(counter.initializer)

    def _count_save(self, session):
        """save_counter += 1 (made by the first save); returns its new value."""
        self._make_save_counter(session)
        if self._increment is None:
            with session.graph.as_default():
                object.__setattr__(self, "_increment",
                                   state_ops.assign_add(self._save_counter, 1))
        return session.run(self._increment)

    # -- saving ------------------------------------------------------------------------------------
    def write(self, file_prefix, session=None):
        """Writes the checkpoint `file_prefix` (its .index and .data files); returns it."""
        return self._saver.write(file_prefix, _session(session, "Checkpoint.write"))

    def save(self, file_prefix, session=None):
        """save_counter += 1, then writes '<file_prefix>-<save_counter>' and names it the
        latest checkpoint of its directory (the 'checkpoint' file); returns its path."""
        session = _session(session, "Checkpoint.save")
        number = self._count_save(session)
        path = self.write(f"{file_prefix}-{number}", session=session)
        checkpoint_management.update_checkpoint_state(
            os.path.dirname(path) or ".", path, [path], save_relative_paths=True)
        return path

    # -- restoring ---------------------------------------------------------------------------------
    def restore(self, save_path):
        """The status of restoring `save_path` (None: nothing to restore, only initialize):
        run its ops with status.run_restore_ops(sess) or status.initialize_or_restore(sess)."""
        if save_path is None:
            return _InitializationOnlyStatus(self)
        return self._saver.restore(save_path)


class _CheckpointLoadStatus:
    """What restore() returns: restores on run_restore_ops, and checks what matched."""

    def __init__(self, root, save_path):
        self._root, self._save_path = root, save_path
        reader = checkpoint_management.load_checkpoint(save_path)
        self._saved = {k: v for k, v in reader.get_variable_to_dtype_map().items()
                       if k != OBJECT_GRAPH_KEY}
        self._restored = {}

    def _matched(self):
        keyed, _ = _keyed_variables(self._root)
        return {k: v for k, v in keyed.items() if k in self._saved}, keyed

    def run_restore_ops(self, session=None):
        """Assigns the saved values to the variables that exist now."""
        session = _session(session, "run_restore_ops")
        matched, _ = self._matched()
        if isinstance(self._root, Checkpoint) and self._root.save_counter is None and \
                "save_counter/" + _VALUE in self._saved:
            self._root._make_save_counter(session)       # restored too, as TF does
            matched["save_counter/" + _VALUE] = self._root.save_counter
        keys = sorted(matched)
        if not keys:
            return
        with session.graph.as_default(), session.graph.name_scope("restore"):
            values = io_ops.restore_v2(self._save_path, keys, [""] * len(keys),
                                       [matched[k].dtype.base_dtype for k in keys])
            assigns = [state_ops.assign(matched[k]._ref(), value, validate_shape=False)
                       for k, value in zip(keys, values)]
        try:
            session.run(assigns)
        except errors.InvalidArgumentError as e:
            raise errors.InvalidArgumentError(None, None, f"Restoring {self._save_path} "
                                              f"failed: {e.message}") from None
        self._restored.update(matched)

    def initialize_or_restore(self, session=None):
        """Restores what the checkpoint has, and initializes the other variables reached."""
        session = _session(session, "initialize_or_restore")
        self.run_restore_ops(session)
        _, keyed = self._matched()
        missing = [v for k, v in keyed.items() if k not in self._restored]
        if missing:
            session.run(variables_initializer(missing))

    def assert_consumed(self):
        """Raises AssertionError unless every value of the checkpoint was restored and
        every variable reached has a value in it."""
        _, keyed = self._matched()
        unused = sorted(set(self._saved) - set(self._restored) - {"save_counter/" + _VALUE})
        if unused:
            raise AssertionError(f"Unresolved object in checkpoint: {unused[0]} (and "
                                 f"{len(unused) - 1} more) has no object here to restore to.")
        self.assert_existing_objects_matched()
        return self

    def assert_existing_objects_matched(self):
        """Raises AssertionError if a variable reached has no value in the checkpoint."""
        _, keyed = self._matched()
        missing = sorted(k for k in keyed if k not in self._saved)
        if missing:
            raise AssertionError(f"Object {missing[0]} was not found in the checkpoint "
                                 f"{self._save_path} (nor {len(missing) - 1} more).")
        return self

    def assert_nontrivial_match(self):
        if not self._restored:
            raise AssertionError(f"Nothing of {self._save_path} was restored (run "
                                 "run_restore_ops first, or the objects do not match).")
        return self

    def expect_partial(self):
        return self


class _InitializationOnlyStatus:
    """restore(None): nothing to restore; initialize_or_restore initializes."""

    def __init__(self, root):
        self._root = root

    def run_restore_ops(self, session=None):
        pass

    def initialize_or_restore(self, session=None):
        session = _session(session, "initialize_or_restore")
        keyed, _ = _keyed_variables(self._root)
        if keyed:
            session.run(variables_initializer(list(keyed.values())))

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    assert_existing_objects_matched = assert_nontrivial_match = assert_consumed

    def expect_partial(self):
        return self


class CheckpointManager:
    """Numbered saves of a Checkpoint in `directory`, keeping the last `max_to_keep`
    (TF's checkpoint_management.CheckpointManager)."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt"):
        if not isinstance(checkpoint, Checkpoint):
            raise TypeError("CheckpointManager manages a tf.train.Checkpoint, not "
                            f"{type(checkpoint).__name__}.")
        self._checkpoint, self._directory = checkpoint, str(directory)
        self._max_to_keep, self._prefix = max_to_keep, os.path.join(str(directory),
                                                                    checkpoint_name)
        state = checkpoint_management.get_checkpoint_state(self._directory)
        self._kept = list(state.all_model_checkpoint_paths) if state else []
        if state and state.model_checkpoint_path and \
                state.model_checkpoint_path not in self._kept:
            self._kept.append(state.model_checkpoint_path)
        self._kept = [p if os.path.isabs(p) else os.path.join(self._directory, p)
                      for p in self._kept]

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoints(self):
        """The paths kept, oldest first."""
        return list(self._kept)

    @property
    def latest_checkpoint(self):
        return self._kept[-1] if self._kept else None

    def save(self, checkpoint_number=None, session=None):
        """Writes '<directory>/ckpt-<n>' (n: `checkpoint_number`, else the checkpoint's
        save_counter after adding one), forgets the oldest beyond max_to_keep; returns it."""
        session = _session(session, "CheckpointManager.save")
        counted = self._checkpoint._count_save(session)
        number = counted if checkpoint_number is None else int(checkpoint_number)
        path = self._checkpoint.write(f"{self._prefix}-{number}", session=session)
        self._kept = [p for p in self._kept if p != path] + [path]
        if self._max_to_keep is not None:
            while len(self._kept) > self._max_to_keep:
                checkpoint_management.remove_checkpoint(self._kept.pop(0))
        checkpoint_management.update_checkpoint_state(
            self._directory, path, self._kept, save_relative_paths=True)
        return path
