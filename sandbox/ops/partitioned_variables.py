"""Partitioned variables -- mirrors TensorFlow 1.x's PartitionedVariable (python/ops/variables.py)
and its partitioners (python/ops/partitioned_variables.py).

One ps can hold only so much, and every worker pulls from it. A variable too big for one task
-- a 100,000 x 64 embedding, say -- is cut into *shards*, each an ordinary Variable:

    with tf.device(tf.train.replica_device_setter(ps_tasks=2)):
        emb = tf.get_variable("emb", [100000, 64],
                              partitioner=tf.fixed_size_partitioner(2))
    # emb/part_0 [50000, 64] on /job:ps/task:0, emb/part_1 [50000, 64] on /job:ps/task:1

`get_variable` (ops/variable_scope.py) returns a PartitionedVariable: the list of its shards,
cut along one axis (the first shards get one row more when the rows do not divide evenly).
The device setter places each shard like any variable -- round-robin over the ps tasks -- so
the load spreads. `tf.nn.embedding_lookup(emb, ids)` gathers each id's row on the shard that
holds it; used as a plain tensor, the shards are concatenated (`emb/ConcatPartitions`), which
pulls all of them. The optimizers see the shards (they are in tf.trainable_variables()), and
the Saver writes them into the checkpoint as slices of one tensor 'emb' (Variable.SaveSliceInfo).

A partitioner is a function `(shape, dtype) -> [partitions per axis]`, e.g. [2, 1]:
fixed_size_partitioner (n shards), variable_axis_size_partitioner (shards of at most so many
bytes), min_max_variable_partitioner (at least so many bytes per shard, at most n shards).
"""
import math

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies, name_scope
from ..framework.tensor_conversion_registry import register_tensor_conversion_function
from ..framework.tensor_shape import TensorShape
from .control_flow_ops import identity
from .slicing_ops import concat, split

__all__ = ["PartitionedVariable", "fixed_size_partitioner", "variable_axis_size_partitioner",
           "min_max_variable_partitioner"]


class PartitionInfo:
    """What an initializer is told about the shard it initializes (TF's _PartitionInfo): the
    full variable's shape and where the shard starts. Variance-scaling initializers use the
    full shape, so every shard draws from the spread the whole variable would."""

    def __init__(self, full_shape, var_offset):
        self.full_shape = list(full_shape)
        self.var_offset = list(var_offset)

    def __repr__(self):
        return f"<PartitionInfo full_shape={self.full_shape} var_offset={self.var_offset}>"


# -- the partitioners ------------------------------------------------------------------------

def fixed_size_partitioner(num_shards, axis=0):
    """`num_shards` shards along `axis` (fewer when the axis is shorter)."""
    def _partitioner(shape, **unused_args):
        partitions_list = [1] * len(shape)
        partitions_list[axis] = min(num_shards, TensorShape(shape).as_list()[axis])
        return partitions_list
    return _partitioner


def variable_axis_size_partitioner(max_shard_bytes, axis=0, bytes_per_string_element=16,
                                   max_shards=None):
    """As many shards along `axis` as keep each at most `max_shard_bytes` (at least one row
    each; at most `max_shards`)."""
    if max_shard_bytes < 1 or bytes_per_string_element < 1:
        raise ValueError("Both max_shard_bytes and bytes_per_string_element must be positive.")
    if max_shards and max_shards < 1:
        raise ValueError("max_shards must be positive.")

    def _partitioner(shape, dtype):
        if not isinstance(shape, TensorShape):
            raise ValueError(f"shape is not a TensorShape: {shape}")
        if not shape.is_fully_defined():
            raise ValueError(f"shape is not fully defined: {shape}")
        if not isinstance(dtype, _dtypes.DType):
            raise ValueError(f"dtype is not a DType: {dtype}")
        dims = shape.as_list()
        element_size = (bytes_per_string_element if dtype.base_dtype == _dtypes.string
                        else dtype.size)
        partitions = [1] * len(dims)
        bytes_per_slice = 1.0 * (shape.num_elements() / dims[axis]) * element_size
        slices_per_shard = max(1, math.floor(max_shard_bytes / bytes_per_slice))
        axis_shards = int(math.ceil(1.0 * dims[axis] / slices_per_shard))
        if max_shards:
            axis_shards = min(max_shards, axis_shards)
        partitions[axis] = axis_shards
        return partitions
    return _partitioner


def min_max_variable_partitioner(max_partitions=1, axis=0, min_slice_size=256 << 10,
                                 bytes_per_string_element=16):
    """Shards of at least `min_slice_size` bytes along `axis`, at most `max_partitions`."""
    def _partitioner(shape, dtype):
        dims = TensorShape(shape).as_list()
        if axis >= len(dims):
            raise ValueError(f"Can not partition variable along axis {axis} when shape is "
                             f"only {shape}")
        bytes_per_element = (bytes_per_string_element if dtype.base_dtype == _dtypes.string
                             else dtype.size)
        partitions = TensorShape(shape).num_elements() * bytes_per_element / min_slice_size
        partitions_list = [1] * len(dims)
        partitions_list[axis] = max(1, min(dims[axis], max_partitions,
                                           int(math.ceil(partitions))))
        return partitions_list
    return _partitioner


# -- how get_variable cuts a variable ----------------------------------------------------------

def call_partitioner(partitioner, shape, dtype):
    """The partitioner's answer for a new variable, checked as TF checks it."""
    if not shape.is_fully_defined():
        raise ValueError(f"Shape of a new partitioned variable must be fully defined, but "
                         f"instead was {shape}.")
    if shape.ndims < 1:
        raise ValueError(f"A partitioned Variable must have rank at least 1, shape: {shape}")
    slicing = partitioner(shape=shape, dtype=dtype)
    if not isinstance(slicing, (list, tuple)):
        raise ValueError(f"Partitioner must return a sequence, but saw: {slicing}")
    if len(slicing) != shape.ndims:
        raise ValueError(f"Partitioner returned a partition list that does not match the "
                         f"Variable's rank: {slicing} vs. {shape}")
    if any(p < 1 for p in slicing):
        raise ValueError(f"Partitioner returned zero partitions for some axes: {slicing}")
    if sum(p > 1 for p in slicing) > 1:
        raise ValueError(f"Can only slice a variable along one dimension: shape: {shape}, "
                         f"partitioning: {slicing}")
    return list(slicing)


def slice_dim_and_num_slices(slicing):
    """(the axis cut, the number of shards); (0, 1) when nothing is cut."""
    for slice_dim, num_slices in enumerate(slicing):
        if num_slices > 1:
            return slice_dim, num_slices
    return 0, 1


def iter_slices(full_shape, num_slices, slice_dim):
    """(offset, shape) of each shard: the first `rows % num_slices` shards one row longer."""
    with_excess = full_shape[slice_dim] % num_slices
    offset = [0] * len(full_shape)
    min_slice_len = full_shape[slice_dim] // num_slices
    for i in range(num_slices):
        shape = list(full_shape)
        shape[slice_dim] = min_slice_len + bool(i < with_excess)
        yield list(offset), shape
        offset[slice_dim] += shape[slice_dim]


# -- the variable made of shards -----------------------------------------------------------------

class PartitionedVariable:
    """A variable stored as several Variables (its shards), each a slice along one axis."""

    def __init__(self, name, shape, dtype, variable_list, partitions):
        if not isinstance(variable_list, (list, tuple)):
            raise TypeError(f"variable_list is not a list or tuple: {variable_list}")
        if not isinstance(partitions, (list, tuple)):
            raise TypeError(f"partitions is not a list or tuple: {partitions}")
        if not all(p >= 1 for p in partitions):
            raise ValueError(f"partition values must be positive: {partitions}")
        if not variable_list:
            raise ValueError("variable_list may not be empty")
        shape = list(TensorShape(shape).as_list())
        for v in variable_list:
            info = v._get_save_slice_info()
            if info is None:
                raise ValueError("All variables must have a save_slice_info available: "
                                 f"{[v.name for v in variable_list]}")
            if len(shape) != len(partitions):
                raise ValueError(f"len(shape) != len(partitions): {shape} vs. {partitions}")
            if info.full_shape != shape:
                raise ValueError(f"All variables' full shapes must match shape: {shape}; but "
                                 f"full shapes were: {[info.full_shape]}")
        self._variable_list = sorted(variable_list,
                                     key=lambda v: v._get_save_slice_info().var_offset)
        self._name = name
        self._shape = TensorShape(shape)
        self._dtype = _dtypes.as_dtype(dtype)
        self._partitions = list(partitions)

    def __iter__(self):
        return iter(self._variable_list)

    def __len__(self):
        axes = self._partition_axes()
        if len(axes) > 1:
            raise ValueError(f"Cannot get a length for {len(axes)} > 1 partition axes")
        return len(self._variable_list)

    def _partition_axes(self):
        if all(p == 1 for p in self._partitions):
            return [0]
        return [i for i, p in enumerate(self._partitions) if p > 1]

    def _concat(self):
        """The whole variable as one tensor: the shards concatenated (every shard travels
        to where this runs), named after the variable."""
        if len(self._variable_list) == 1:
            with name_scope(None):
                return identity(self._variable_list[0], name=self._name)
        axis = self._partition_axes()[0]
        with name_scope(self._name + "/ConcatPartitions/"):
            concatenated = concat(self._variable_list, axis)
        with name_scope(None):
            return identity(concatenated, name=self._name)

    def as_tensor(self):
        """The concatenated value, built outside any control-dependency scope."""
        with control_dependencies(None):
            return self._concat()

    @property
    def name(self):
        return self._name

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self.get_shape()

    def get_shape(self):
        return self._shape

    def _get_variable_list(self):
        return self._variable_list

    def _get_partitions(self):
        return self._partitions

    def _apply_assign_fn(self, assign_fn, value):
        axis = self._partition_axes()[0]
        if isinstance(value, (list, PartitionedVariable)):
            values = list(value)
            if len(values) != len(self._variable_list):
                raise ValueError(f"Assigning {len(values)} values to the "
                                 f"{len(self._variable_list)} shards of {self._name}.")
        else:
            sizes = [v.get_shape().as_list()[axis] for v in self._variable_list]
            values = split(value, sizes, axis=axis)
        return [assign_fn(v, values[i]) for i, v in enumerate(self._variable_list)]

    def assign(self, value, use_locking=False, name=None, read_value=True):
        """One assign per shard (each runs on the shard's task); returns their list."""
        return self._apply_assign_fn(lambda v, x: v.assign(
            x, use_locking=use_locking, name=name, read_value=read_value), value)

    def assign_add(self, value, use_locking=False, name=None, read_value=True):
        return self._apply_assign_fn(lambda v, x: v.assign_add(
            x, use_locking=use_locking, name=name, read_value=read_value), value)

    def assign_sub(self, value, use_locking=False, name=None, read_value=True):
        return self._apply_assign_fn(lambda v, x: v.assign_sub(
            x, use_locking=use_locking, name=name, read_value=read_value), value)

    def __repr__(self):
        return (f"<tf.PartitionedVariable '{self._name}' shape={self._shape} "
                f"dtype={self._dtype.name} partitions={self._partitions}>")


def _to_tensor(v, dtype=None, name=None, as_ref=False):
    if dtype is not None and not dtype.is_compatible_with(v.dtype):
        raise ValueError(f"Incompatible type conversion requested to type '{dtype.name}' for "
                         f"variable of type '{v.dtype.name}'")
    if as_ref:
        raise NotImplementedError(f"PartitionedVariable {v.name} doesn't support being used as "
                                  "a reference: assign to its shards (list(v)), or use "
                                  "v.assign(value).")
    return v.as_tensor()


register_tensor_conversion_function(PartitionedVariable, _to_tensor)
