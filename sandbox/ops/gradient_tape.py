"""tf.GradientTape in graph mode -- mirrors TensorFlow's python/eager/backprop.py GradientTape as
a TF-1 graph runs it: the tape records the ops built inside its `with` block, and gradient()
adds the backward ops (tf.gradients' walk, ops/gradients.py) through those ops only.

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)                 # a tensor is differentiated only if watched ...
        y = x * x * v                 # ... a trainable variable read inside, by itself
    dx, dv = tape.gradient(y, [x, v])       # tensors: run them in a Session

What TF's tape does, and this one too:
  * Only ops built while recording count: the gradient of a tensor computed before the
    `with` is None (or zeros, unconnected_gradients='zero'); `tape.stop_recording()` pauses.
  * A source is differentiated if it is watched: tape.watch(t), a trainable variable that a
    recorded op reads (watch_accessed_variables=True), or a tensor a recorded op made.
  * A tape that is not `persistent` gives one set of gradients (or jacobians); a second call
    raises RuntimeError.
  * gradient() takes nests (lists, tuples, dicts) of targets and sources and returns the
    sources' structure; output_gradients weigh the targets (tf.gradients' grad_ys).
  * jacobian and batch_jacobian differentiate each entry of the target (TF runs that loop
    with pfor; here it is unrolled, so the target's shape must be fully known).
In eager TF the tape keeps the forward values to differentiate at once; in a graph the
gradients are ops like any other, computed when a Session runs them.
"""
import contextlib

from ..framework.graph import get_default_graph
from ..framework.tensor import Tensor, convert_to_tensor
from . import array_ops
from .gradients import UnconnectedGradients, gradients

__all__ = ["GradientTape"]


def _flatten(structure):
    if isinstance(structure, dict):
        return [x for key in sorted(structure) for x in _flatten(structure[key])]
    if isinstance(structure, (list, tuple)):
        return [x for item in structure for x in _flatten(item)]
    return [structure]


def _pack(structure, flat):
    """`flat` (an iterator) in the shape of `structure`."""
    if isinstance(structure, dict):
        packed = {key: _pack(structure[key], flat) for key in sorted(structure)}
        return type(structure)((key, packed[key]) for key in structure)
    if isinstance(structure, (list, tuple)):
        items = [_pack(item, flat) for item in structure]
        return items if isinstance(structure, list) else type(structure)(items)
    return next(flat)


def _is_variable(x):
    return hasattr(x, "_as_graph_element") and hasattr(x, "initializer") and \
        not isinstance(x, Tensor)


class GradientTape:
    """Records the ops built inside it, to differentiate through them (see the module)."""

    def __init__(self, persistent=False, watch_accessed_variables=True):
        self._persistent = persistent
        self._watch_accessed_variables = watch_accessed_variables
        self._graph = None
        self._ranges = []              # [start, end) op indices recorded (end None: open)
        self._watched = []             # tensors and variables watched explicitly
        self._used = False
        self._recording = False

    # -- recording ------------------------------------------------------------------------------
    def __enter__(self):
        if self._recording:
            raise ValueError("Tape is still recording, This can happen if you try to re-enter "
                             "an already-active tape.")
        self._graph = self._graph or get_default_graph()
        self._start()
        return self

    def __exit__(self, *exc):
        if self._recording:
            self._stop()

    def _start(self):
        self._ranges.append([len(self._graph._nodes), None])
        self._recording = True

    def _stop(self):
        self._ranges[-1][1] = len(self._graph._nodes)
        self._recording = False

    @contextlib.contextmanager
    def stop_recording(self):
        """Ops built inside this block are not recorded."""
        if not self._recording:
            raise ValueError("Tape must be recording when stop_recording is called "
                             "(call it inside the tape's `with` block).")
        self._stop()
        try:
            yield
        finally:
            self._start()

    def reset(self):
        """Forgets everything recorded and watched so far (and records on, inside `with`)."""
        recording = self._recording
        self._ranges, self._watched = [], []
        if recording:
            self._start()

    def watch(self, tensor):
        """Differentiates with respect to `tensor` (a tensor, a variable or a nest of them)."""
        for item in _flatten(tensor):
            if not (_is_variable(item) or isinstance(item, Tensor)):
                raise ValueError(f"Passed in object of type {type(item).__name__}, not "
                                 "tf.Tensor or tf.Variable, to GradientTape.watch.")
            if not any(item is w for w in self._watched):
                self._watched.append(item)

    def _recorded_ops(self):
        ops = self._graph._nodes
        return {op for start, end in self._ranges
                for op in ops[start:len(ops) if end is None else end]}

    def watched_variables(self):
        """The variables watched: by watch(), or read by a recorded op (trainable ones)."""
        return self._watched_variables(self._recorded_ops())

    def _watched_variables(self, recorded):
        found = [w for w in self._watched if _is_variable(w)]
        if self._watch_accessed_variables:
            for variable in self._graph.get_collection("trainable_variables"):
                if any(item is variable for item in found):
                    continue
                if any(consumer in recorded for t in _variable_tensors(variable)
                       for consumer in t.consumers()):
                    found.append(variable)
        return found

    # -- differentiating ------------------------------------------------------------------------
    def _claim(self):
        if self._used and not self._persistent:
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")
        self._used = True

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(sum of `target`)/d(each of `sources`), through the recorded ops; in the
        structure of `sources`. None (or zeros) for a source the target does not reach."""
        if self._graph is None:
            raise ValueError("The tape recorded nothing: build the ops inside "
                             "`with tf.GradientTape() as tape:`.")
        self._claim()
        return self._gradient(target, sources, output_gradients, unconnected_gradients)

    def _gradient(self, target, sources, output_gradients, unconnected_gradients, also=()):
        flat_sources = _flatten(sources)
        targets = [convert_to_tensor(t) for t in _flatten(target)]
        recorded = self._recorded_ops()
        watched = self._watched_variables(recorded) + [w for w in self._watched
                                                      if not _is_variable(w)]
        connected, xs = [], []
        for source in flat_sources:
            if _is_variable(source):
                ok = any(source is w for w in watched)
            elif isinstance(source, Tensor):
                ok = any(source is w for w in watched) or source.op in recorded
            else:
                raise ValueError(f"GradientTape.gradient: a source must be a tf.Tensor or a "
                                 f"tf.Variable, not {type(source).__name__}.")
            connected.append(ok)
            if ok:
                xs.append(source)
        results = iter(())
        if xs and targets:
            # the gradient flows through recorded ops only: all others are constants, except
            # the sources' own ops and a variable's read (which TF's tape sees inside)
            keep = {convert_to_tensor(x, as_ref=True).op for x in xs} | set(also)
            for x in xs:
                if _is_variable(x):
                    keep.update(c for t in _variable_tensors(x) for c in t.consumers()
                                if c.type == "Identity")
            stop = [op.outputs[0] for op in self._graph._nodes
                    if op not in recorded and op not in keep and op.outputs]
            grad_ys = None if output_gradients is None else _flatten(output_gradients)
            with self._paused():
                results = iter(gradients(targets, xs, grad_ys=grad_ys, name="gradient_tape/",
                                         stop_gradients=stop,
                                         unconnected_gradients=unconnected_gradients))
        out = []
        for source, ok in zip(flat_sources, connected):
            if ok:
                out.append(next(results))
            elif UnconnectedGradients(unconnected_gradients) == UnconnectedGradients.ZERO:
                with self._paused():
                    out.append(array_ops.zeros_like(source))
            else:
                out.append(None)
        return _pack(sources, iter(out))

    @contextlib.contextmanager
    def _paused(self):
        """The backward ops are not recorded (TF records them only on a persistent tape, for
        higher derivatives: then they are)."""
        if self._recording and not self._persistent:
            self._stop()
            try:
                yield
            finally:
                self._start()
        else:
            yield

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor=True):
        """d target[i..] / d source[j..] for each source: target.shape + source.shape."""
        self._claim()
        target = convert_to_tensor(target)
        rows, shape, also = self._entries(target, target.get_shape().as_list(), "jacobian")
        flat = _flatten(sources)
        per_row = [_flatten(self._gradient(row, flat, None, unconnected_gradients, also))
                   for row in rows]
        out = []
        for j, source in enumerate(flat):
            grads = [g[j] for g in per_row]
            if any(g is None for g in grads):
                out.append(None)
                continue
            with self._paused():
                source_shape = convert_to_tensor(source).get_shape().as_list()
                out.append(array_ops.reshape(array_ops.stack(grads), shape + source_shape))
        return _pack(sources, iter(out))

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor=True):
        """d target[b, i..] / d source[b, j..] for each example b: target.shape +
        source.shape[1:] (each example's target depends on that example's source only)."""
        self._claim()
        target = convert_to_tensor(target)
        shape = target.get_shape().as_list()
        if len(shape) < 1:
            raise ValueError("batch_jacobian needs a target with a batch axis")
        columns, inner, also = self._entries(target, shape[1:], "batch_jacobian", batch=True)
        grads = []
        for column in columns:
            g = self._gradient(column, source, None, unconnected_gradients, also)
            if g is None:
                return None
            grads.append(g)
        with self._paused():
            stacked = array_ops.stack(grads, axis=1)
            source_shape = convert_to_tensor(source).get_shape().as_list()[1:]
            batch = -1 if shape[0] is None else shape[0]
            return array_ops.reshape(stacked, [batch] + inner + source_shape)

    def _entries(self, target, shape, what, batch=False):
        """Each entry of `target` (each column of its examples, with `batch`) as a tensor,
        `shape` (which must be fully known), and the ops that slice them (the gradient
        flows through those too)."""
        if any(d is None for d in shape):
            raise ValueError(f"GradientTape.{what} needs a target of fully known shape (the "
                             f"sandbox unrolls TF's loop over its entries); got {shape}.")
        n = 1
        for d in shape:
            n *= d
        first = len(self._graph._nodes)
        with self._paused():
            if batch:
                flat = array_ops.reshape(target, [-1, n])
                entries = [flat[:, i] for i in range(n)]
            else:
                flat = array_ops.reshape(target, [-1])
                entries = [flat[i] for i in range(n)]
        return entries, shape, set(self._graph._nodes[first:])


def _variable_tensors(variable):
    """The tensors through which ops read `variable`: its reference and its value."""
    tensors = [convert_to_tensor(variable, as_ref=True)]
    value = getattr(variable, "_snapshot", None)
    if value is not None:
        tensors.append(value)
    return tensors
