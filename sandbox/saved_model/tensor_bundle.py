"""TensorFlow's own checkpoint format, byte for byte -- plays the part of TF's
core/util/tensor_bundle/tensor_bundle.cc (BundleWriter, BundleReader) and of the table it
keeps its index in (core/lib/io/table_builder.cc, LevelDB's SSTable).

The sandbox's Saver writes its own format (framework/tensor_bundle.py: JSON and raw arrays,
easy to read). A SavedModel is read by TensorFlow, so its `variables/` are written here in
TF's format, and a SavedModel that TensorFlow wrote is read here:

    variables.data-00000-of-00001   the tensors' bytes back to back, C order, little-endian
    variables.index                 a table: sorted keys, each with a protobuf value
        key ""                      BundleHeaderProto {num_shards, endianness, version}
        key "dense/kernel"          BundleEntryProto {dtype, shape, shard_id, offset, size,
                                    crc32c (masked) of the bytes}

The table (LevelDB's format, uncompressed as TF writes it):

    data block      entries: varint shared-prefix length, varint rest length, varint value
                    length, the rest of the key, the value; then the restart offsets (u32
                    each) and their number (u32)
    block trailer   1 byte compression (0: none) + u32 masked CRC-32C of block and that byte
    metaindex block (empty) + trailer
    index block     one entry per data block: a key >= its last key -> BlockHandle
                    (varint offset, varint size) + trailer
    footer (48 B)   metaindex and index BlockHandles padded to 40 bytes, then the magic
                    0xdb4775248b80fb57 (u64, little-endian)

CRC-32C (Castagnoli) is computed in Python here (TF uses the CPU instruction): fine for a
model of teaching size. Numbers and bools only: string tensors and checkpoints of partitioned
variables (entries stored as slices) are refused with an error saying so.
"""
import os
import struct

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor_bundle import atomic_write
from ..framework.tensor_proto import dtype_of_enum, enum_of_dtype
from ..platform.example_proto import decode_varint as _read_varint
from ..platform.example_proto import encode_varint as _varint
from ..platform.tf_record import crc32c
from ..platform.tf_record import mask_crc32c as _mask
from ..platform.tf_record import unmask_crc32c as _unmask

__all__ = ["write_bundle", "BundleReader", "crc32c", "index_path", "data_path"]

_TABLE_MAGIC = 0xdb4775248b80fb57


def index_path(prefix):
    return f"{prefix}.index"


def data_path(prefix, shard=0, num_shards=1):
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


# -- writing ------------------------------------------------------------------------------

def _block(entries):
    """One table block of (key bytes, value bytes), a restart point at every entry."""
    body, restarts = bytearray(), []
    for key, value in entries:
        restarts.append(len(body))
        body += _varint(0) + _varint(len(key)) + _varint(len(value)) + key + value
    if not restarts:
        restarts = [0]
    body += struct.pack(f"<{len(restarts)}I", *restarts) + struct.pack("<I", len(restarts))
    return bytes(body)


def _with_trailer(block):
    return block + b"\x00" + struct.pack("<I", _mask(crc32c(block + b"\x00")))


def _table(entries):
    """The bytes of a table of sorted (key, value) pairs: one data block, as TF's table
    builder writes a small index."""
    out = bytearray()
    data = _block(entries)
    data_handle = _varint(0) + _varint(len(data))
    out += _with_trailer(data)
    meta = _block([])
    meta_handle = _varint(len(out)) + _varint(len(meta))
    out += _with_trailer(meta)
    last_key = entries[-1][0] if entries else b""
    index = _block([(last_key, data_handle)])
    index_handle = _varint(len(out)) + _varint(len(index))
    out += _with_trailer(index)
    handles = meta_handle + index_handle
    out += handles + b"\x00" * (40 - len(handles)) + struct.pack("<Q", _TABLE_MAGIC)
    return bytes(out)


def _shape_proto(shape):
    from tensorboardX.proto import tensor_shape_pb2
    return tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=int(d)) for d in shape])


def _tensor_bytes(name, value):
    array = np.asarray(value)
    if array.dtype == object or array.dtype.kind in "SUO":
        raise NotImplementedError(
            f"Tensor {name!r} holds strings: the sandbox writes numbers and bools only in "
            "TensorFlow's checkpoint format.")
    dtype = dtypes.as_dtype(array.dtype)
    return dtype, array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes(order="C")


def write_bundle(prefix, tensors):
    """Writes {name: numpy array} as a TensorFlow V2 checkpoint with one shard:
    `<prefix>.data-00000-of-00001` then `<prefix>.index` (each atomically)."""
    from ..framework import saved_model_pb2     # protobuf: loaded on first use
    entries, chunks, offset = [], [], 0
    for name in sorted(tensors):
        value = np.asarray(tensors[name])
        dtype, raw = _tensor_bytes(name, value)
        entry = saved_model_pb2.BundleEntryProto(
            dtype=enum_of_dtype(dtype), shape=_shape_proto(value.shape), shard_id=0,
            offset=offset, size=len(raw), crc32c=_mask(crc32c(raw)))
        entries.append((name.encode("utf-8"), entry.SerializeToString(deterministic=True)))
        chunks.append(raw)
        offset += len(raw)
    from tensorboardX.proto import versions_pb2
    header = saved_model_pb2.BundleHeaderProto(
        num_shards=1, endianness=0, version=versions_pb2.VersionDef(producer=1))
    entries.insert(0, (b"", header.SerializeToString(deterministic=True)))
    entries.sort(key=lambda kv: kv[0])
    atomic_write(data_path(prefix), chunks or [b""])
    atomic_write(index_path(prefix), [_table(entries)])


# -- reading --------------------------------------------------------------------------------

def _loss(path, what):
    return errors.DataLossError(None, None, f"{path}: {what} (not a TensorFlow V2 checkpoint "
                                            "index, or a damaged one).")


def _read_block(data, offset, size, path):
    end = offset + size
    if end + 5 > len(data):
        raise _loss(path, "a block handle points past the end of the file")
    block, kind = data[offset:end], data[end]
    (crc,) = struct.unpack_from("<I", data, end + 1)
    if _unmask(crc) != crc32c(data[offset:end + 1]):
        raise _loss(path, "block checksum mismatch")
    if kind != 0:
        raise _loss(path, f"block compression {kind} (only uncompressed tables are read here; "
                          "TensorFlow writes checkpoint indexes uncompressed)")
    return block


def _block_entries(block, path):
    if len(block) < 4:
        raise _loss(path, "block too short")
    (num_restarts,) = struct.unpack_from("<I", block, len(block) - 4)
    limit = len(block) - 4 - 4 * num_restarts
    at, key, out = 0, b"", []
    while at < limit:
        shared, at = _read_varint(block, at)
        rest, at = _read_varint(block, at)
        size, at = _read_varint(block, at)
        key = key[:shared] + block[at:at + rest]
        at += rest
        out.append((bytes(key), bytes(block[at:at + size])))
        at += size
    return out


def _read_table(path):
    with open(path, "rb") as f:
        data = f.read()
    if len(data) < 48 or struct.unpack_from("<Q", data, len(data) - 8)[0] != _TABLE_MAGIC:
        raise _loss(path, "bad magic number")
    footer = data[-48:-8]
    _, at = _read_varint(footer, 0)            # the metaindex handle (nothing in it)
    _, at = _read_varint(footer, at)
    index_offset, at = _read_varint(footer, at)
    index_size, at = _read_varint(footer, at)
    entries = []
    for _, handle in _block_entries(_read_block(data, index_offset, index_size, path), path):
        offset, at = _read_varint(handle, 0)
        size, _ = _read_varint(handle, at)
        entries.extend(_block_entries(_read_block(data, offset, size, path), path))
    return entries


class BundleReader:
    """Reads a TensorFlow V2 checkpoint (`prefix`.index and its data files)."""

    def __init__(self, prefix):
        from ..framework import saved_model_pb2     # protobuf: loaded on first use
        self._prefix = os.fspath(prefix)
        path = index_path(self._prefix)
        if not os.path.exists(path):
            raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader "
                                                   f"constructor: Failed to find any matching "
                                                   f"files for {self._prefix}")
        self._entries = {}
        self._num_shards = 1
        for key, value in _read_table(path):
            if key == b"":
                header = saved_model_pb2.BundleHeaderProto.FromString(value)
                self._num_shards = header.num_shards or 1
                if header.endianness != 0:
                    raise _loss(path, "big-endian checkpoint")
                continue
            self._entries[key.decode("utf-8")] = saved_model_pb2.BundleEntryProto.FromString(
                value)

    def keys(self):
        return sorted(self._entries)

    def has_tensor(self, name):
        return name in self._entries

    def dtype(self, name):
        return dtype_of_enum(self._entry(name).dtype)

    def shape(self, name):
        return [d.size for d in self._entry(name).shape.dim]

    def _entry(self, name):
        try:
            return self._entries[name]
        except KeyError:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint "
                                                   f"{self._prefix}") from None

    def get_tensor(self, name):
        """The tensor `name` as a numpy array (its CRC-32C checked, as TF checks it)."""
        entry = self._entry(name)
        if entry.slices:
            raise NotImplementedError(
                f"Tensor {name!r} is stored as slices (a partitioned variable): not read by "
                "the sandbox's TensorFlow-checkpoint reader.")
        dtype = dtype_of_enum(entry.dtype)
        if dtype == dtypes.string:
            raise NotImplementedError(f"Tensor {name!r} holds strings: not read by the "
                                      "sandbox's TensorFlow-checkpoint reader.")
        path = data_path(self._prefix, entry.shard_id, self._num_shards)
        try:
            with open(path, "rb") as f:
                f.seek(entry.offset)
                raw = f.read(entry.size)
        except FileNotFoundError:
            raise errors.NotFoundError(None, None, f"Data file {path} of checkpoint "
                                                   f"{self._prefix} is missing.") from None
        if len(raw) != entry.size:
            raise _loss(path, f"tensor {name!r} is truncated")
        if crc32c(raw) != _unmask(entry.crc32c):
            raise _loss(path, f"checksum does not match for tensor {name!r}")
        np_type = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
        shape = [d.size for d in entry.shape.dim]
        return np.frombuffer(raw, dtype=np_type).astype(dtype.as_numpy_dtype).reshape(shape)
