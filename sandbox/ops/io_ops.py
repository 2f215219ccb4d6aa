"""Save and restore ops -- mirrors TensorFlow's SaveV2, RestoreV2, MergeV2Checkpoints and
ShardedFilename (core/kernels/save_restore_v2_ops.cc, ops/io_ops.py).

Checkpoints are written and read by GRAPH OPS, not by the client, and an op runs on the task
it is placed on. A tf.train.Saver places them like TensorFlow does:

  * sharded=True: one SaveV2 per device that holds variables, colocated with them, so the
    parameter server itself writes its variables to its own shard file (nothing crosses the
    network); a MergeV2Checkpoints op then writes the index that ties the shards together.
  * sharded=False: one SaveV2 on the saver's device; every variable's value travels there and
    that one task writes one data file.
  * restore: a RestoreV2 per device, colocated with the variables, reads their values from the
    files; Assign ops (also on that device) put them into the variables.

A shard of a partitioned variable is saved as a slice of the full variable: its
shape_and_slices entry is TF's spec ('10 4 5,5:0,4'), and RestoreV2 given a spec reads that
slice back, however the checkpoint was partitioned.

The file format is in sandbox/framework/tensor_bundle.py.
"""
import os

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework import tensor_bundle
from ..framework.op_def import OpDef, apply_op, registered_ops, scalar_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import unknown_shape

__all__ = []


def _names(tensor_names):
    return [tensor_bundle._text(n) for n in np.asarray(tensor_names, dtype=object).reshape(-1)]


class SaveV2(OpDef):
    """Writes `tensors` under `tensor_names` to the checkpoint `prefix` (data file, then index).
    `shape_and_slices` says, per tensor, which slice of the named tensor it is: '' for the
    whole tensor, or TF's spec such as '5 4 0,3:-' for a shard of a partitioned variable
    (several slices may share one name; framework/tensor_bundle.py stores them)."""
    uses_context = True
    stateful = True
    differentiable = False

    def kernel(ctx, step, prefix, tensor_names, shape_and_slices, *tensors, dtypes=None):
        names, specs = _names(tensor_names), _names(shape_and_slices)
        if not len(names) == len(specs) == len(tensors):
            raise errors.InvalidArgumentError(
                None, None, f"SaveV2 got {len(names)} tensor names, {len(specs)} "
                f"shape_and_slices and {len(tensors)} tensors: give one of each per tensor.")
        tensor_bundle.write_checkpoint(prefix, names, tensors, dtypes, device=ctx.device,
                                       shape_and_slices=specs)


class RestoreV2(OpDef):
    """Reads the tensors `tensor_names` of checkpoint `prefix` (one output per name). A
    non-empty `shape_and_slices` entry reads just that slice, however the checkpoint holds the
    tensor -- whole, or in slices of another partitioning."""
    stateful = True
    differentiable = False
    multi_output = True

    def shape(op):
        return [unknown_shape() for _ in op.outputs]

    def kernel(prefix, tensor_names, shape_and_slices, dtypes=None):
        names, specs = _names(tensor_names), _names(shape_and_slices)
        if len(specs) != len(names):
            raise errors.InvalidArgumentError(
                None, None, f"RestoreV2 got {len(names)} tensor names and {len(specs)} "
                "shape_and_slices: give one spec ('' for the whole tensor) per name.")
        with tensor_bundle.CheckpointReader(prefix) as reader:
            return tuple(reader.lookup_slice(name, spec, dtype)
                         for name, spec, dtype in zip(names, specs, dtypes))


class MergeV2Checkpoints(OpDef):
    """Merges the one-shard checkpoints `checkpoint_prefixes` into the sharded checkpoint
    `destination_prefix` (renames the data files, writes one index). allow_missing_files
    (TF 2's attr, in the Savers of graphs TF 2 wrote) skips the prefixes that were not
    written."""
    stateful = True
    differentiable = False

    def kernel(checkpoint_prefixes, destination_prefix, delete_old_dirs=True,
               allow_missing_files=False):
        prefixes = np.asarray(checkpoint_prefixes, dtype=object).reshape(-1).tolist()
        if allow_missing_files:
            prefixes = [p for p in prefixes if os.path.exists(
                tensor_bundle.index_filename(tensor_bundle._text(p)))]
        tensor_bundle.merge_checkpoints(prefixes, destination_prefix, delete_old_dirs)


class ShardedFilename(OpDef):
    """'basename-00001-of-00004' for shard 1 of 4."""
    shape = scalar_shape
    differentiable = False

    def kernel(basename, shard, num_shards):
        name = tensor_bundle._text(basename)
        return np.array(f"{name}-{int(shard):05d}-of-{int(num_shards):05d}".encode(),
                        dtype=object)


if "StringJoin" not in registered_ops():   # string_ops may define it too: same semantics
    class StringJoin(OpDef):
        """Joins scalar strings elementwise, with `separator` between them."""
        shape = scalar_shape
        differentiable = False

        def kernel(*inputs, N=None, separator=""):
            sep = separator.encode() if isinstance(separator, str) else separator
            arrays = np.broadcast_arrays(*[np.asarray(x, dtype=object) for x in inputs])
            out = np.empty(arrays[0].shape, dtype=object)
            for index in np.ndindex(out.shape):
                out[index] = sep.join(a[index] if isinstance(a[index], bytes) else
                                      str(a[index]).encode() for a in arrays)
            return out


# -- the TF functions -------------------------------------------------------------------

def _strings(value, name):
    return convert_to_tensor(value, dtype=_dtypes.string, name=name)


def save_v2(prefix, tensor_names, shape_and_slices, tensors, name=None):
    """Saves `tensors` to checkpoint `prefix` (TF's gen_io_ops.save_v2). Returns the op."""
    tensors = [convert_to_tensor(t) for t in tensors]
    return apply_op("SaveV2", [_strings(prefix, "prefix"), _strings(tensor_names, "tensor_names"),
                               _strings(shape_and_slices, "shape_and_slices")] + tensors,
                    {"dtypes": [t.dtype.base_dtype for t in tensors]}, name=name or "SaveV2",
                    output_dtypes=[])


def restore_v2(prefix, tensor_names, shape_and_slices, dtypes, name=None):
    """Restores tensors from checkpoint `prefix` (TF's gen_io_ops.restore_v2): a list of
    tensors, one per name."""
    dtypes = [_dtypes.as_dtype(d).base_dtype for d in dtypes]
    out = apply_op("RestoreV2", [_strings(prefix, "prefix"),
                                 _strings(tensor_names, "tensor_names"),
                                 _strings(shape_and_slices, "shape_and_slices")],
                   {"dtypes": dtypes}, name=name or "RestoreV2", output_dtypes=dtypes)
    return out if isinstance(out, list) else [out]


def merge_v2_checkpoints(checkpoint_prefixes, destination_prefix, delete_old_dirs=True,
                         name=None):
    return apply_op("MergeV2Checkpoints", [_strings(checkpoint_prefixes, "checkpoint_prefixes"),
                                           _strings(destination_prefix, "destination_prefix")],
                    {"delete_old_dirs": bool(delete_old_dirs)},
                    name=name or "MergeV2Checkpoints", output_dtypes=[])


def sharded_filename(basename, shard, num_shards, name=None):
    return apply_op("ShardedFilename", [_strings(basename, "basename"),
                                        convert_to_tensor(shard, dtype=_dtypes.int32),
                                        convert_to_tensor(num_shards, dtype=_dtypes.int32)],
                    name=name or "ShardedFilename", output_dtypes=[_dtypes.string])


def string_join(inputs, separator="", name=None):
    inputs = [_strings(x, "input") for x in inputs]
    return apply_op("StringJoin", inputs, {"N": len(inputs), "separator": separator},
                    name=name or "StringJoin", output_dtypes=[_dtypes.string])
