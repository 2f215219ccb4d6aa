"""Iterators over datasets -- mirrors TensorFlow 1.15's python/data/ops/iterator_ops.py
(`tf.data.Iterator`, `tf.data.make_one_shot_iterator`, `tf.data.make_initializable_iterator`).

An iterator is a stateful op, placed like any op by the device scope around its creation; its
state lives on that task (ops/dataset_ops.py). The usual TF-1 loop:

    it = dataset.make_one_shot_iterator()        # or make_initializable_iterator()
    next_batch = it.get_next()                   # same structure as the elements
    while True:
        try:
            x, y = sess.run(next_batch)
        except tf.errors.OutOfRangeError:        # "End of sequence", naming the iterator
            break

An initializable iterator starts (and restarts) when `it.initializer` runs, reading the
values of any placeholder the dataset uses from that run's feed_dict. A one-shot iterator
starts by itself, so its dataset may not depend on placeholders or variables (ValueError, as
in TF). `Iterator.from_structure` makes an iterator that any dataset of that structure can
start, with `it.make_initializer(dataset)`.

A *feedable* iterator switches between iterators by a fed string, as TF-1 tutorials switch
between training and validation data:

    handle = tf.placeholder(tf.string, shape=[])
    iterator = tf.data.Iterator.from_string_handle(handle, train_ds.output_types,
                                                   train_ds.output_shapes)
    next_element = iterator.get_next()
    train_handle = sess.run(train_iterator.string_handle())
    sess.run(next_element, feed_dict={handle: train_handle})

`string_handle()` names the iterator (its device, container and name: TF's ResourceHandle,
ops/dataset_ops.py); `from_string_handle` reads whichever iterator the fed handle names. The
handle only works on the device where that iterator lives: on a cluster, build
`from_string_handle` under the same `tf.device` as the iterators.
"""
import warnings

from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.op_def import apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.dataset_function import subgraph_function
from ..ops.random_ops import get_seed
from . import nest
from .nest import Spec as _Spec

__all__ = ["Iterator", "make_one_shot_iterator", "make_initializable_iterator"]

_RESOURCE = _dtypes.string._as_ref          # a handle, as a queue's
_GET_NEXT_CALL_WARNING_THRESHOLD = 32       # TF's


def _type_attrs(structure):
    specs = nest.flatten(structure)
    return {"output_types": [s.dtype for s in specs],
            "output_shapes": [s.shape for s in specs]}


class Iterator:
    """The state of an iteration through a dataset (TF-1 `tf.data.Iterator`)."""

    def __init__(self, iterator_resource, initializer, output_types, output_shapes,
                 output_classes=None, structure=None):
        self._iterator_resource = iterator_resource
        self._initializer = initializer
        if structure is None:
            types, shapes = nest.flatten(output_types), nest.flatten(output_shapes)
            structure = nest.pack_sequence_as(
                output_types, [_Spec(t, s) for t, s in zip(types, shapes)])
        self._structure = structure
        self._get_next_calls = 0
        self._string_handle = None

    @staticmethod
    def from_structure(output_types, output_shapes=None, shared_name=None,
                       output_classes=None):
        """An iterator not bound to a dataset: start it with `make_initializer(dataset)`."""
        structure = _structure(output_types, output_shapes)
        handle = apply_op("IteratorV2", [], {"shared_name": shared_name or "", "container": "",
                                              **_type_attrs(structure)},
                          name="Iterator", output_dtypes=[_RESOURCE],
                          graph=get_default_graph())
        return Iterator(handle, None, None, None, structure=structure)

    @staticmethod
    def from_string_handle(string_handle, output_types, output_shapes=None,
                           output_classes=None):
        """A feedable iterator (TF's IteratorFromStringHandleV2): its get_next reads from the
        iterator whose `string_handle()` value is fed to `string_handle` (a tf.string
        placeholder of shape []). Every iterator fed must give elements of `output_types`
        and `output_shapes` (InvalidArgumentError otherwise), and live on the device this
        iterator's op is placed on."""
        structure = _structure(output_types, output_shapes)
        string_handle = convert_to_tensor(string_handle)
        if string_handle.dtype.base_dtype != _dtypes.string:
            raise TypeError(f"Iterator.from_string_handle takes a tf.string tensor (a "
                            f"placeholder fed with sess.run(iterator.string_handle())), got "
                            f"{string_handle.dtype.name} tensor {string_handle.name!r}.")
        handle = apply_op("IteratorFromStringHandleV2", [string_handle],
                          _type_attrs(structure), name="IteratorFromStringHandleV2",
                          output_dtypes=[_RESOURCE])
        return Iterator(handle, None, None, None, structure=structure)

    @property
    def initializer(self):
        if self._initializer is None:
            raise ValueError("Iterator does not have an initializer: a one-shot iterator "
                             "starts by itself, and an iterator made with "
                             "Iterator.from_structure is started with "
                             "iterator.make_initializer(dataset).")
        return self._initializer

    @property
    def output_types(self):
        return nest.map_structure(lambda s: s.dtype, self._structure)

    @property
    def output_shapes(self):
        return nest.map_structure(lambda s: s.shape, self._structure)

    @property
    def output_classes(self):
        return nest.map_structure(lambda s: Tensor, self._structure)

    def make_initializer(self, dataset, name=None):
        """An op that starts this iterator on `dataset` (it must have the same structure)."""
        if not callable(getattr(dataset, "_plan", None)):      # (a DatasetV1)
            raise TypeError(f"make_initializer takes a tf.data.Dataset, got "
                            f"{type(dataset).__name__}.")
        if nest.flatten(dataset.output_types) != nest.flatten(self.output_types):
            raise TypeError(f"Expected output types {self.output_types} but got dataset "
                            f"with output types {dataset.output_types}.")
        for mine, theirs in zip(nest.flatten(self.output_shapes),
                                nest.flatten(dataset.output_shapes)):
            if not mine.is_compatible_with(theirs):
                raise TypeError(f"Expected output shapes compatible with "
                                f"{self.output_shapes} but got dataset with output shapes "
                                f"{dataset.output_shapes}.")
        plan, tensors = dataset._plan_and_tensors()
        return apply_op("MakeIterator", [self._iterator_resource] + tensors,
                        {"dataset": plan}, name=name or "MakeIterator", output_dtypes=[])

    def get_next(self, name=None):
        """The next element: tensors in the structure of the dataset's elements (a tuple,
        a dict ...). Running it past the end raises tf.errors.OutOfRangeError."""
        self._get_next_calls += 1
        if self._get_next_calls == _GET_NEXT_CALL_WARNING_THRESHOLD:
            warnings.warn(
                f"An unusually high number of `Iterator.get_next()` calls was detected "
                f"({self._get_next_calls}): each call adds an op to the graph. Call it once, "
                "before the loop -- next_element = iterator.get_next() -- and "
                "sess.run(next_element) inside the loop.")
        specs = nest.flatten(self._structure)
        outs = apply_op("IteratorGetNext", [self._iterator_resource], _type_attrs(
            self._structure), name=name or "IteratorGetNext",
            output_dtypes=[s.dtype for s in specs])
        outs = outs if isinstance(outs, list) else [outs]
        for t, s in zip(outs, specs):
            t.set_shape(s.shape)
        return nest.pack_sequence_as(self._structure, outs)

    def string_handle(self, name=None):
        """A scalar tf.string tensor naming this iterator (TF's IteratorToStringHandle): run
        it once, and feed its value to an `Iterator.from_string_handle` iterator's
        placeholder to read from this iterator. It runs where the iterator lives."""
        if name is None and self._string_handle is not None:
            return self._string_handle            # TF makes one per iterator, and reuses it
        handle = apply_op("IteratorToStringHandle", [self._iterator_resource], {},
                          name=name or "IteratorToStringHandle",
                          output_dtypes=[_dtypes.string])
        if name is None:
            self._string_handle = handle
        return handle


def _structure(output_types, output_shapes):
    """The element structure (Specs) of the given types and shapes (shapes unknown if None)."""
    types = nest.map_structure(_dtypes.as_dtype, output_types)
    if output_shapes is None:
        output_shapes = nest.map_structure(lambda _: TensorShape(None), types)
    return nest.pack_sequence_as(types, [
        _Spec(t, TensorShape(s)) for t, s in zip(nest.flatten(types),
                                                 _flat_shapes(types, output_shapes))])


def _flat_shapes(types, shapes):
    flat_types = nest.flatten(types)
    if not nest.is_sequence(types) and isinstance(shapes, (list, TensorShape)):
        return [shapes]
    flat = nest.flatten(shapes)
    if len(flat) != len(flat_types):
        raise ValueError("output_shapes must have the structure of output_types.")
    return flat


def make_one_shot_iterator(dataset):
    """An iterator that starts by itself the first time get_next runs (per session). Its
    dataset is made by a function run once on the iterator's device (TF's dataset_factory),
    so it cannot depend on a placeholder or a variable: use make_initializable_iterator."""
    plan, tensors = dataset._plan_and_tensors()
    factory = subgraph_function(tensors, "a one-shot iterator's dataset")
    # TF asks for a seed here (for the graph seed of its dataset factory): with a graph seed
    # set, that takes one op seed, so the random ops made after it get the seeds they get in TF
    get_seed(None)
    handle = apply_op("OneShotIterator", [], {"dataset": plan, "factory": factory,
                                               "shared_name": "", "container": "",
                                               **_type_attrs(dataset._structure)},
                      name="OneShotIterator", output_dtypes=[_RESOURCE],
                      graph=get_default_graph())
    return Iterator(handle, None, None, None, structure=dataset._structure)


def make_initializable_iterator(dataset, shared_name=None):
    """An iterator to start with `sess.run(iterator.initializer)`, and to restart the same
    way (feeding new values to the dataset's placeholders, if it has any)."""
    g = get_default_graph()
    handle = apply_op("IteratorV2", [], {"shared_name": shared_name or "", "container": "",
                                          **_type_attrs(dataset._structure)},
                      name="IteratorV2", output_dtypes=[_RESOURCE], graph=g)
    it = Iterator(handle, None, None, None, structure=dataset._structure)
    with g.colocate_with(handle.op):
        it._initializer = it.make_initializer(dataset)
    return it

