"""The `.meta` file beside a checkpoint -- plays the part of TensorFlow's MetaGraphDef files
(python/framework/meta_graph.py; written by tf.train.Saver.save and export_meta_graph).

A meta graph is the graph as data (its ops' node_defs, the saver's names, the collections).
It is stored in the wire format (runtime/wire.py): a JSON header plus raw arrays, never pickle,
checked before it is trusted:

    magic b"SBXMETA1" | u64 header length | u32 crc32 of header | u32 number of buffers
    | u64 length of each buffer | header (JSON) | buffers

Written atomically, as every checkpoint file is (framework/tensor_bundle.py atomic_write).
"""
import struct
import zlib

from ..framework import errors
from ..framework.tensor_bundle import atomic_write
from ..runtime import wire

__all__ = ["write_meta_graph", "read_meta_graph", "META_MAGIC"]

META_MAGIC = b"SBXMETA1"
_META_HEAD = struct.Struct("<8sQII")


def write_meta_graph(path, meta_graph):
    header, buffers = wire.encode(meta_graph)
    lengths = [memoryview(b).nbytes for b in buffers]
    head = _META_HEAD.pack(META_MAGIC, len(header), zlib.crc32(header), len(buffers)) + \
        struct.pack(f"<{len(lengths)}Q", *lengths)
    atomic_write(path, [head, header] + [memoryview(b).cast("B") for b in buffers])


def read_meta_graph(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != META_MAGIC or len(data) < _META_HEAD.size:
        raise _loss(f"Meta graph {path} has a bad magic number: not a sandbox meta graph.")
    _, header_len, crc, n = _META_HEAD.unpack_from(data)
    at = _META_HEAD.size
    if len(data) < at + 8 * n:
        raise _loss(f"Meta graph {path} is truncated.")
    lengths = struct.unpack_from(f"<{n}Q", data, at)
    at += 8 * n
    header = data[at:at + header_len]
    if len(header) != header_len or zlib.crc32(header) != crc:
        raise _loss(f"Meta graph {path} is corrupted (header CRC mismatch or truncated).")
    at += header_len
    buffers = []
    for length in lengths:
        if at + length > len(data):
            raise _loss(f"Meta graph {path} is truncated.")
        buffers.append(data[at:at + length])
        at += length
    return wire.decode(header, buffers)


def _loss(message):
    return errors.DataLossError(None, None, message)
