"""Iterator ops -- mirrors TensorFlow's iterator kernels (core/kernels/data/iterator_ops.cc:
IteratorV2, MakeIterator, OneShotIterator, IteratorGetNext).

An iterator is state, like a queue (ops/data_flow_ops.py): the graph only names it; the
iterator itself -- where it is in the dataset, its shuffle buffer -- lives in the resource
manager of the task its op is placed on. So under `tf.device('/job:worker/task:0')` the
elements are made on that worker, and a `get_next` run from any client of the cluster asks
that task for the next one.

    IteratorV2         the iterator's handle (a reference output, as a queue's)
    MakeIterator       (re)starts it on a dataset: the initializer of an initializable
                       iterator. Its inputs are the tensors the dataset reads (a placeholder,
                       a captured variable), its attr `dataset` the plan
                       (ops/dataset_pipeline.py)
    OneShotIterator    handle and dataset in one: it starts itself the first time it runs,
                       computing the dataset's tensors with its `factory` function (TF's
                       dataset_factory), so it cannot read a placeholder or a variable
    IteratorGetNext    the next element, one output per component; OutOfRangeError, naming
                       the iterator, at the end

Without a `shared_name` each session gets a fresh iterator, as in TF (whose kernel then makes
up a unique resource name): a session's first use of the op starts over. The state stays in
the task's resource manager under the op's name -- one per op and task, so two sessions that
use the same unshared iterator at the same time share it (TF would give each its own).
"""
import threading

import numpy as np

from ..framework import errors
from ..framework.op_def import OpDef
from ..framework.tensor_shape import TensorShape
from .dataset_function import FunctionRunner
from .dataset_pipeline import PipelineEnv, iterate

__all__ = []


class _IteratorResource:
    """The state of one iterator: the running pipeline (None until initialized)."""

    def __init__(self, name, owner, output_types, output_shapes):
        self.name = name
        self.owner = owner
        self.output_types = output_types
        self.output_shapes = output_shapes
        self.lock = threading.Lock()
        self.start_lock = threading.Lock()
        self.pipeline = None
        self.env = None
        self.exhausted = False
        self.elements_produced = 0

    def start(self, plan, inputs, env):
        with self.lock:
            self.pipeline = iterate(plan, list(inputs), env)
            self.env = env
            self.exhausted = False
            self.elements_produced = 0

    def reset(self):
        with self.lock:
            self.pipeline = None
            self.env = None
            self.exhausted = False

    def get_next(self, step, node):
        with self.lock:
            if self.pipeline is None:
                raise errors.FailedPreconditionError(
                    node, None, "GetNext() failed because the iterator has not been "
                    "initialized. Ensure that you have run the initializer operation for this "
                    f"iterator before getting the next element (iterator {self.name!r}"
                    f"{_on(self.owner)}: sess.run(iterator.initializer)).")
            self.env.step = step
            element = None if self.exhausted else next(self.pipeline, None)
            if element is None:
                self.exhausted = True
                raise errors.OutOfRangeError(
                    node, None, f"End of sequence: iterator {self.name!r}{_on(self.owner)} "
                    f"has no more elements (it gave {self.elements_produced}). Catch "
                    "tf.errors.OutOfRangeError to end the loop; an initializable iterator "
                    "starts over when its initializer runs again.")
            self.elements_produced += 1
            return element


def _on(owner):
    return f" on {owner}" if owner else ""


def _iterator(ctx, shared_name, container, output_types, output_shapes):
    """The iterator resource of this op on this task; a session's first use of an unshared
    iterator starts it over (a fresh iterator per session, as in TF)."""
    name = shared_name or ctx.name
    resource = ctx.resources.lookup_or_create(
        container, name, lambda: _IteratorResource(name, ctx.resources.owner, output_types,
                                                   output_shapes))
    if not shared_name and "claimed" not in ctx.state:
        ctx.state["claimed"] = True
        resource.reset()
    return resource


class IteratorV2(OpDef):
    """Outputs a reference to the iterator stored on this task (created on first use)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)

    def shape(op):
        return TensorShape([])

    def kernel(ctx, step, shared_name="", container="", output_types=(), output_shapes=()):
        return _iterator(ctx, shared_name, container, output_types, output_shapes)


class MakeIterator(OpDef):
    """Starts (or restarts) the iterator on the dataset `dataset`, whose tensors are the
    inputs after the first."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(ctx, step, iterator, *inputs, dataset=None):
        env = PipelineEnv(ctx.name, ctx.resources, ctx.device)
        iterator.start(dataset, inputs, env)


class OneShotIterator(OpDef):
    """An iterator that starts itself on its dataset the first time it runs (per session)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)

    def shape(op):
        return TensorShape([])

    def kernel(ctx, step, dataset=None, factory=None, shared_name="", container="",
               output_types=(), output_shapes=()):
        resource = _iterator(ctx, shared_name, container, output_types, output_shapes)
        with resource.start_lock:              # two first runs at once start it once
            if resource.pipeline is None and not resource.exhausted:
                inputs = FunctionRunner(factory, f"the dataset of {ctx.name!r}",
                                        ctx.resources, ctx.device)(step=step)
                resource.start(dataset, inputs, PipelineEnv(ctx.name, ctx.resources,
                                                            ctx.device))
        return resource


class IteratorGetNext(OpDef):
    """The next element of the iterator: one output per component."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    multi_output = True

    def shape(op):
        return [TensorShape(s) for s in op.get_attr("output_shapes")]

    def kernel(ctx, step, iterator, output_types=(), output_shapes=()):
        element = iterator.get_next(step, ctx.name)
        for value, dtype, shape in zip(element, output_types, output_shapes):
            shape = TensorShape(shape)
            if not shape.is_compatible_with(np.shape(value)):
                raise errors.InvalidArgumentError(
                    ctx.name, None, f"The iterator {iterator.name!r} produced a component of "
                    f"shape {list(np.shape(value))}, but its output_shapes say {shape}.")
        return element
