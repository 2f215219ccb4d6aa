"""The tensor bundle, the checkpoint format on disk -- plays the part of TensorFlow's V2
checkpoint format (core/util/tensor_bundle/tensor_bundle.h: an `.index` table plus
`.data-?????-of-?????` shards), and of its reader (python/training/py_checkpoint_reader.py).

It sits in the framework, below the ops, because the graph's own ops write and read it: SaveV2,
RestoreV2 and MergeV2Checkpoints (ops/io_ops.py) run on the task that holds the variables.
tf.train.Saver (train/saver.py) builds those ops; the `.meta` file beside a checkpoint is
train/meta_graph.py's.

A checkpoint is named by a *prefix*, e.g. `train/model.ckpt-1000`; its files start with it:

    model.ckpt-1000.index                 which tensor is where (small; written last)
    model.ckpt-1000.data-00000-of-00002   shard 0: raw tensor bytes, written by the task that
    model.ckpt-1000.data-00001-of-00002   shard 1  holds those variables (e.g. a ps)
    model.ckpt-1000.meta                  the graph, for reference (Saver.save writes it,
                                          train/meta_graph.py)

The format is DATA ONLY: a little JSON and raw little-endian numbers. Nothing in it is ever
executed or unpickled, so opening a checkpoint someone sent you is safe.

Data file (one per shard)
    offset 0    magic     8 bytes   b"SBXCKDAT"
    offset 8    save id   16 bytes  random; the index names it too, so a data file left over
                                    from another (interrupted) save is recognized
    offset 24   tensors   each tensor's bytes back to back, C order, little-endian;
                          a string tensor is its element lengths (u64 each), then the bytes

Index file
    offset 0    magic     8 bytes   b"SBXCKIDX"
    offset 8    length    u64 little-endian: the number of bytes of JSON that follow
    offset 16   crc32     u32 little-endian: zlib.crc32 of those JSON bytes
    offset 20   JSON      UTF-8, for example
        {"format": "sandbox-checkpoint", "version": 1,
         "shards": [{"file": "model.ckpt-1000.data-00000-of-00002", "save_id": "<32 hex>",
                     "bytes": 31412, "task": "/job:ps/replica:0/task:0",
                     "device": "/job:ps/replica:0/task:0/device:CPU:0",
                     "pid": 4242, "host": "laptop"}, ...],
         "tensors": {"weights": {"dtype": "float32", "shape": [784, 10], "shard": 0,
                                 "offset": 24, "length": 31360, "crc32": 2882400018}, ...}}
    ("task", "pid" and "host" say which process wrote the shard -- worth a look in a cluster.)

Slices (TF's partitioned variables). A variable cut into shards -- `emb/part_0` holding rows
0..2 of a [5, 4] variable `emb`, `emb/part_1` rows 3..4, often on different parameter servers
-- is saved as SLICES of one tensor `emb`. SaveV2 is told which slice each value is by a
shape-and-slice string, TF's format (core/framework/tensor_slice.h):

    "5 4 0,3:-"     the full shape (5 4), then per axis 'start,length' or '-' (the whole axis)
    ""              the whole tensor, not a slice

A sliced tensor is one entry under its full name, with its dtype and FULL shape, and instead
of one location a list of slices, each with its start, its shape and where its bytes are:

        "emb": {"dtype": "float32", "shape": [5, 4],
                "slices": [{"start": [0, 0], "shape": [3, 4], "shard": 0,
                            "offset": 24, "length": 48, "crc32": 1391348153},
                           {"start": [3, 0], "shape": [2, 4], "shard": 1, ...}]}

The slices of one tensor may come from different shards (each ps writes its own; merging
joins the lists) and never overlap. A reader assembles the whole tensor from them, or just the
part a restore asks for -- so a checkpoint written with 2 shards restores into 3, or into one
whole variable. Slices that leave a part uncovered are refused with an error naming the tensor.

Writing is atomic. Every file is written under a temporary name in its final directory,
flushed to the disk (fsync) and only then renamed to its real name (os.replace, atomic);
data files come before the index, and Saver.save updates the "checkpoint" state file only
after the whole checkpoint is in place. A crash -- even kill -9 -- in the middle leaves at
worst a stray temporary file: every checkpoint that was complete before stays complete.

Reading checks everything before trusting it and refuses a damaged checkpoint with a
DataLossError that names the file and what is wrong: bad magic, CRC mismatch, truncated
file, missing shard, a data file that belongs to another save.
"""
import json
import os
import secrets
import shutil
import socket
import struct
import zlib

import numpy as np

from . import dtypes as _dtypes
from . import errors

__all__ = ["CheckpointReader", "NewCheckpointReader", "data_filename", "index_filename",
           "parse_shape_and_slice", "write_checkpoint", "merge_checkpoints", "read_index",
           "checkpoint_files", "atomic_write", "DATA_MAGIC", "INDEX_MAGIC", "FORMAT_VERSION"]

DATA_MAGIC = b"SBXCKDAT"
INDEX_MAGIC = b"SBXCKIDX"
FORMAT_NAME = "sandbox-checkpoint"
FORMAT_VERSION = 1
_SAVE_ID_BYTES = 16
DATA_HEADER_BYTES = len(DATA_MAGIC) + _SAVE_ID_BYTES          # 24
_INDEX_HEAD = struct.Struct("<8sQI")                           # magic, JSON length, crc32
_MAX_INDEX_BYTES = 256 * 2**20
_DTYPES = {d.name: d for d in (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.int8,
                               _dtypes.int16, _dtypes.int32, _dtypes.int64, _dtypes.uint8,
                               _dtypes.uint16, _dtypes.bool, _dtypes.string)}


def data_filename(prefix, shard=0, num_shards=1):
    """'model.ckpt' -> 'model.ckpt.data-00000-of-00001' (TF's DataFilename)."""
    return f"{prefix}.data-{shard:05d}-of-{num_shards:05d}"


def index_filename(prefix):
    return f"{prefix}.index"


def _text(value):
    """A prefix or name as str (string tensors hold bytes)."""
    if isinstance(value, np.ndarray):
        value = value.item()
    return value.decode("utf-8") if isinstance(value, bytes) else str(value)


# -- writing -----------------------------------------------------------------------------

def atomic_write(path, chunks):
    """Writes the byte chunks to `path` atomically: a temporary file in the same directory,
    fsync, then os.replace. Readers see the old file or the new one, never half of one."""
    directory = os.path.dirname(path) or "."
    tmp = os.path.join(directory, f".{os.path.basename(path)}.tmp-{secrets.token_hex(6)}")
    try:
        with open(tmp, "wb") as f:
            for chunk in chunks:
                f.write(chunk)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise
    _fsync_directory(directory)


def _fsync_directory(directory):
    """Makes a rename durable (POSIX); a no-op where directories cannot be opened."""
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _tensor_bytes(name, value, dtype):
    """The bytes stored for one tensor, as a list of buffers (no copy for numeric arrays)."""
    if dtype == _dtypes.string:
        items = [v if isinstance(v, bytes) else str(v).encode("utf-8")
                 for v in np.asarray(value, dtype=object).reshape(-1)]
        lengths = np.array([len(v) for v in items], dtype="<u8")
        return [lengths.tobytes(), b"".join(items)]
    little = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
    array = np.ascontiguousarray(value, dtype=little)
    return [memoryview(array).cast("B")] if array.size else [b""]


def _prepare_directory(path):
    """TF's SaveV2 creates the checkpoint's directory if its parent exists (one level)."""
    directory = os.path.dirname(path)
    if directory and not os.path.isdir(directory):
        try:
            os.mkdir(directory)
        except FileExistsError:
            pass
        except OSError as e:
            raise errors.NotFoundError(
                None, None, f"{directory}; No such file or directory: cannot create the "
                f"checkpoint directory ({e.strerror or e}). Create its parent first.") from None


def writer_info(device=""):
    """Who writes a shard: task, device, process id and host (stored in the index)."""
    task = device.rsplit("/device:", 1)[0] if device else ""
    return {"task": task, "device": device, "pid": os.getpid(), "host": socket.gethostname()}


def write_checkpoint(prefix, names, values, dtypes, device="", shape_and_slices=None):
    """Writes a one-shard checkpoint at `prefix`: the data file, then the index.
    `shape_and_slices` says, per value, which slice of its tensor it is ('' or None: the whole
    tensor); slices of one tensor share its name. Returns the index (a dict)."""
    prefix = _text(prefix)
    specs = list(shape_and_slices) if shape_and_slices is not None else [""] * len(names)
    whole = [n for n, spec in zip(names, specs) if not spec]
    if len(set(whole)) != len(whole):
        dup = sorted({n for n in whole if whole.count(n) > 1})
        raise errors.InvalidArgumentError(None, None, f"Duplicate tensor names to save: {dup}")
    _prepare_directory(prefix)
    data_path = data_filename(prefix, 0, 1)
    save_id = secrets.token_bytes(_SAVE_ID_BYTES)
    chunks, tensors, offset = [DATA_MAGIC, save_id], {}, DATA_HEADER_BYTES
    for name, spec, value, dtype in zip(names, specs, values, dtypes):
        dtype = _dtypes.as_dtype(dtype).base_dtype
        parts = _tensor_bytes(name, value, dtype)
        crc, length = 0, 0
        for part in parts:
            crc = zlib.crc32(part, crc)
            length += memoryview(part).nbytes
        where = {"shard": 0, "offset": offset, "length": length, "crc32": crc}
        shape = [int(d) for d in np.shape(value)]
        parsed = parse_shape_and_slice(spec, name)
        if parsed is None:
            if name in tensors:
                raise _mixing(name)
            tensors[name] = {"dtype": dtype.name, "shape": shape, **where}
        else:
            full_shape, start, slice_shape = parsed
            if shape != slice_shape:
                raise errors.InvalidArgumentError(
                    None, None, f"Slice {spec!r} of tensor {name!r} has shape {slice_shape}, "
                    f"but the value to save has shape {shape}: the slice's lengths must be the "
                    "value's shape.")
            _add_slice(tensors, name, dtype.name, full_shape,
                       {"start": start, "shape": shape, **where})
        chunks.extend(parts)
        offset += length
    try:
        atomic_write(data_path, chunks)
    except FileNotFoundError as e:
        raise errors.NotFoundError(None, None, f"{os.path.dirname(data_path)}; No such file "
                                   f"or directory ({e.strerror}).") from None
    shard = {"file": os.path.basename(data_path), "save_id": save_id.hex(), "bytes": offset,
             **writer_info(device)}
    index = {"format": FORMAT_NAME, "version": FORMAT_VERSION, "shards": [shard],
             "tensors": tensors}
    _write_index(prefix, index)
    return index


def _mixing(name):
    return errors.InvalidArgumentError(
        None, None, f"Tensor {name!r} is saved both whole and as slices (or whole twice): a "
        "checkpoint holds a name either as one tensor or as slices of it. Give the variables "
        "different names.")


def _add_slice(tensors, name, dtype, full_shape, new):
    """Adds slice `new` to the entry of `name` in `tensors` (made when missing), after checking
    that it agrees with the slices already there and overlaps none of them."""
    entry = tensors.setdefault(name, {"dtype": dtype, "shape": full_shape, "slices": []})
    if "slices" not in entry:
        raise _mixing(name)
    if entry["dtype"] != dtype or entry["shape"] != full_shape:
        raise errors.InvalidArgumentError(
            None, None, f"Slices of tensor {name!r} disagree: one is a slice of a "
            f"{entry['dtype']} tensor of shape {entry['shape']}, another of a {dtype} tensor of "
            f"shape {full_shape}. Every slice of a tensor must name the same full shape and "
            "dtype.")
    for old in entry["slices"]:
        if all(a < b + m and b < a + n for a, n, b, m in
               zip(new["start"], new["shape"], old["start"], old["shape"])):
            raise errors.InvalidArgumentError(
                None, None, f"Two slices of tensor {name!r} overlap: {_slice_text(old)} and "
                f"{_slice_text(new)}. The parts of a partitioned variable must not overlap.")
    entry["slices"].append(new)
    entry["slices"].sort(key=lambda s: s["start"])


def _slice_text(s):
    """A slice as TF writes it: 'start,length' per axis, '0,3:0,4'."""
    return ":".join(f"{a},{n}" for a, n in zip(s["start"], s["shape"]))


def parse_shape_and_slice(spec, name=""):
    """TF's checkpoint::ParseShapeAndSlice: '5 4 0,3:-' -> ([5, 4], [0, 0], [3, 4]), the full
    shape, each axis's start and each axis's length ('-' is the whole axis). An empty string
    means the whole tensor: None. InvalidArgumentError, naming the tensor, if malformed."""
    spec = _text(spec)
    if not spec:
        return None

    def bad(what):
        return errors.InvalidArgumentError(
            None, None, f"tensor_name = {name}; bad shape_and_slice {spec!r}: {what}. The "
            "format is the full shape, then the slice: 'd0 d1 ... s0:s1:...' with each s "
            "'start,length' or '-' (e.g. '10 4 0,5:-').")

    pieces = spec.split(" ")
    if len(pieces) < 2:
        raise bad("it needs at least two elements, the full shape and the slice")
    try:
        full_shape = [int(d) for d in pieces[:-1]]
    except ValueError:
        raise bad("a dimension of the shape is not a number") from None
    if any(d < 0 for d in full_shape):
        raise bad("a dimension of the shape is negative")
    axes = [a for a in pieces[-1].split(":") if a]
    if len(axes) != len(full_shape):
        raise bad(f"mismatching ranks: the shape has {len(full_shape)} dimensions, the slice "
                  f"{len(axes)}")
    start, shape = [], []
    for axis, (text, dim) in enumerate(zip(axes, full_shape)):
        if text == "-":
            begin, length = 0, dim
        else:
            pair = [x for x in text.split(",") if x]
            try:
                begin, length = (int(x) for x in pair)
            except ValueError:
                raise bad(f"expected a pair of numbers or '-', got {text!r}") from None
            if begin < 0 or length <= 0:
                raise bad(f"expected a non-negative start and a positive length, got {text!r}")
            if begin + length > dim:
                raise bad(f"the slice {text!r} of axis {axis} goes past its size {dim}")
        start.append(begin)
        shape.append(length)
    return full_shape, start, shape


def _write_index(prefix, index):
    body = json.dumps(index, indent=1, sort_keys=True).encode("utf-8")
    atomic_write(index_filename(prefix),
                 [_INDEX_HEAD.pack(INDEX_MAGIC, len(body), zlib.crc32(body)), body])


def merge_checkpoints(part_prefixes, destination_prefix, delete_old_dirs=True):
    """Turns the one-shard checkpoints at `part_prefixes` (written by different tasks) into
    one sharded checkpoint at `destination_prefix` (TF's MergeV2Checkpoints): each part's data
    file is renamed to `<destination>.data-0000i-of-0000N`, then the merged index is written.
    """
    parts = [_text(p) for p in part_prefixes]
    destination = _text(destination_prefix)
    num_shards = len(parts)
    shards, tensors = [], {}
    for i, part in enumerate(parts):
        index = read_index(part)
        (shard,) = index["shards"]
        new_file = data_filename(destination, i, num_shards)
        os.replace(os.path.join(os.path.dirname(part), shard["file"]), new_file)
        shards.append({**shard, "file": os.path.basename(new_file)})
        for name, entry in index["tensors"].items():
            if "slices" in entry:            # slices of one tensor may come from many shards
                for s in entry["slices"]:
                    _add_slice(tensors, name, entry["dtype"], entry["shape"], {**s, "shard": i})
            elif name in tensors:
                raise errors.InvalidArgumentError(
                    None, None, f"Tensor {name!r} is saved by two shards (the second is "
                    f"{part}): a variable name must be unique in a checkpoint.")
            else:
                tensors[name] = {**entry, "shard": i}
    _fsync_directory(os.path.dirname(destination) or ".")
    _write_index(destination, {"format": FORMAT_NAME, "version": FORMAT_VERSION,
                               "shards": shards, "tensors": tensors})
    for part in parts:
        try:
            os.remove(index_filename(part))
        except OSError:
            pass
        if delete_old_dirs:
            shutil.rmtree(os.path.dirname(part), ignore_errors=True)


# -- reading -----------------------------------------------------------------------------

def _loss(message):
    return errors.DataLossError(None, None, message)


def read_index(prefix):
    """The checked index of checkpoint `prefix`. NotFoundError if there is no index file,
    DataLossError if it is damaged."""
    prefix = _text(prefix)
    path = index_filename(prefix)
    try:
        with open(path, "rb") as f:
            head = f.read(_INDEX_HEAD.size)
            if len(head) < len(INDEX_MAGIC) or head[:len(INDEX_MAGIC)] != INDEX_MAGIC:
                raise _loss(f"Checkpoint index {path} has a bad magic number (expected "
                            f"{INDEX_MAGIC!r}, found {head[:8]!r}): it is not a sandbox "
                            "checkpoint index, or it was damaged.")
            if len(head) < _INDEX_HEAD.size:
                raise _loss(f"Checkpoint index {path} is truncated: {len(head)} bytes, "
                            f"shorter than its {_INDEX_HEAD.size}-byte header.")
            _, length, crc = _INDEX_HEAD.unpack(head)
            if length > _MAX_INDEX_BYTES:
                raise _loss(f"Checkpoint index {path} is damaged: its header announces "
                            f"{length} bytes of JSON.")
            body = f.read(length + 1)
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"Unsuccessful TensorSliceReader constructor: "
                                   f"Failed to find any matching files for {prefix} (no "
                                   f"{path}).") from None
    if len(body) != length:
        what = (f"truncated: its header announces {length} bytes of JSON, the file holds "
                f"{len(body)}" if len(body) < length else
                f"longer than its header says ({length} bytes of JSON)")
        raise _loss(f"Checkpoint index {path} is {what}. The save that wrote it was "
                    "interrupted or the file was damaged.")
    if zlib.crc32(body) != crc:
        raise _loss(f"Checkpoint index {path} fails its CRC check (stored crc32 {crc:#010x}, "
                    f"computed {zlib.crc32(body):#010x}): the file is corrupted.")
    try:
        index = json.loads(body.decode("utf-8"))
    except ValueError as e:
        raise _loss(f"Checkpoint index {path} is not valid JSON ({e}).") from None
    _check_index(index, path)
    return index


def _check_index(index, path):
    """Checks the index's structure so that nothing read from it can misbehave later."""
    def bad(what):
        raise _loss(f"Checkpoint index {path} is malformed: {what}.")

    if not isinstance(index, dict) or index.get("format") != FORMAT_NAME:
        bad(f"its format is not {FORMAT_NAME!r}")
    if index.get("version") != FORMAT_VERSION:
        bad(f"format version {index.get('version')!r}, this sandbox reads version "
            f"{FORMAT_VERSION}")
    shards, tensors = index.get("shards"), index.get("tensors")
    if not isinstance(shards, list) or not shards or not isinstance(tensors, dict):
        bad("it needs a non-empty 'shards' list and a 'tensors' table")
    for s in shards:
        if not (isinstance(s, dict) and isinstance(s.get("file"), str) and s["file"]
                and os.path.basename(s["file"]) == s["file"]
                and isinstance(s.get("save_id"), str) and len(s["save_id"]) == 2 * _SAVE_ID_BYTES
                and _is_count(s.get("bytes"))):
            bad(f"shard entry {s!r} needs 'file' (a plain file name), 'save_id' and 'bytes'")
    for name, e in tensors.items():
        if not (isinstance(e, dict) and e.get("dtype") in _DTYPES
                and isinstance(e.get("shape"), list) and all(map(_is_count, e["shape"]))):
            bad(f"entry of tensor {name!r} needs a known 'dtype' and a 'shape': {e!r}")
        if "slices" not in e:
            _check_location(e, e["dtype"], e["shape"], f"tensor {name!r}", shards, bad)
            continue
        if not isinstance(e["slices"], list) or not e["slices"]:
            bad(f"tensor {name!r} has an empty or malformed list of slices")
        for s in e["slices"]:
            if not (isinstance(s, dict) and isinstance(s.get("start"), list)
                    and isinstance(s.get("shape"), list)
                    and len(s["start"]) == len(s["shape"]) == len(e["shape"])
                    and all(map(_is_count, s["start"] + s["shape"]))
                    and all(a + n <= d for a, n, d in zip(s["start"], s["shape"], e["shape"]))):
                bad(f"a slice of tensor {name!r} does not fit its shape {e['shape']}: {s!r}")
            _check_location(s, e["dtype"], s["shape"],
                            f"slice {_slice_text(s)} of tensor {name!r}", shards, bad)


def _check_location(e, dtype, shape, what, shards, bad):
    """Checks where the bytes of a tensor (or of one slice) are: shard, offset, length, crc."""
    if not (isinstance(e.get("shard"), int) and 0 <= e["shard"] < len(shards)
            and _is_count(e.get("offset")) and _is_count(e.get("length"))
            and _is_count(e.get("crc32"))
            and e["offset"] >= DATA_HEADER_BYTES
            and e["offset"] + e["length"] <= shards[e["shard"]]["bytes"]):
        bad(f"entry of {what} is inconsistent: {e!r}")
    if dtype != "string":
        itemsize = np.dtype(_DTYPES[dtype].as_numpy_dtype).itemsize
        if e["length"] != itemsize * int(np.prod(shape, dtype=np.int64)):
            bad(f"{what} of shape {shape} and dtype {dtype} cannot be "
                f"{e['length']} bytes long")


def _is_count(x):
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


class CheckpointReader:
    """Reads tensors from a checkpoint (TF's tf.train.NewCheckpointReader):

        reader = CheckpointReader('train/model.ckpt-1000')
        reader.get_variable_to_shape_map()      # {'weights': [784, 10], ...}
        reader.get_tensor('weights')            # a NumPy array
    """

    def __init__(self, prefix):
        self._prefix = _text(prefix)
        self._index = read_index(self._prefix)
        self._dir = os.path.dirname(self._prefix)
        self._checked = {}                    # shard -> open file, after its header passed

    @property
    def prefix(self):
        return self._prefix

    @property
    def index(self):
        return self._index

    def has_tensor(self, name):
        return name in self._index["tensors"]

    def get_variable_to_shape_map(self):
        return {n: list(e["shape"]) for n, e in self._index["tensors"].items()}

    def get_variable_to_dtype_map(self):
        return {n: _DTYPES[e["dtype"]] for n, e in self._index["tensors"].items()}

    def debug_string(self):
        return "".join(f"{n} ({e['dtype']}) {e['shape']}\n"
                       for n, e in sorted(self._index["tensors"].items())).encode()

    def get_tensor(self, name, dtype=None):
        """The tensor `name` as a NumPy array -- assembled from its slices when it was saved
        in slices. NotFoundError if the checkpoint has no such key (or its slices leave a part
        uncovered), InvalidArgumentError if `dtype` differs from the stored one, DataLossError
        if the bytes are damaged."""
        entry = self._entry(name, dtype)
        if "slices" not in entry:
            return self._read(entry, entry["dtype"], entry["shape"], f"tensor {name!r}")
        return self._assemble(name, entry, [0] * len(entry["shape"]), entry["shape"])

    def lookup_slice(self, name, shape_and_slice, dtype=None):
        """Just the slice `shape_and_slice` (e.g. '5 4 3,2:-') of tensor `name` (TF's
        BundleReader::LookupSlice) -- whether the checkpoint holds the tensor whole or in
        slices of any partitioning. '' is the whole tensor. The spec's full shape must be the
        saved one (InvalidArgumentError naming both)."""
        parsed = parse_shape_and_slice(shape_and_slice, name)
        if parsed is None:
            return self.get_tensor(name, dtype)
        full_shape, start, shape = parsed
        entry = self._entry(name, dtype)
        if full_shape != entry["shape"]:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; shape in shape_and_slice spec {full_shape} "
                f"does not match the shape stored in checkpoint: {entry['shape']} (checkpoint "
                f"{self._prefix}). The variable's full shape changed since the save.")
        if "slices" in entry:
            return self._assemble(name, entry, start, shape)
        whole = self._read(entry, entry["dtype"], entry["shape"], f"tensor {name!r}")
        return whole[tuple(slice(a, a + n) for a, n in zip(start, shape))].copy()

    def _entry(self, name, dtype):
        entry = self._index["tensors"].get(name)
        if entry is None:
            raise errors.NotFoundError(None, None, f"Key {name} not found in checkpoint")
        stored = _DTYPES[entry["dtype"]]
        if dtype is not None and _dtypes.as_dtype(dtype).base_dtype != stored:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {name}; expected dtype "
                f"{_dtypes.as_dtype(dtype).base_dtype.name} does not equal original dtype "
                f"{stored.name} (checkpoint {self._prefix}).")
        return entry

    def _assemble(self, name, entry, start, shape):
        """The part [start, start + shape) of a sliced tensor, copied from every saved slice
        that overlaps it."""
        stored = _DTYPES[entry["dtype"]]
        out = np.empty(shape, dtype=object if stored == _dtypes.string else
                       stored.as_numpy_dtype)
        covered = np.zeros(shape, dtype=bool)
        for s in entry["slices"]:
            lo = [max(a, b) for a, b in zip(start, s["start"])]
            hi = [min(a + n, b + m) for a, n, b, m in zip(start, shape, s["start"], s["shape"])]
            if any(h <= l for l, h in zip(lo, hi)):
                continue                                      # no overlap
            part = self._read(s, entry["dtype"], s["shape"],
                              f"tensor {name!r} (slice {_slice_text(s)})")
            into = tuple(slice(l - a, h - a) for l, h, a in zip(lo, hi, start))
            out[into] = part[tuple(slice(l - b, h - b) for l, h, b in zip(lo, hi, s["start"]))]
            covered[into] = True
        if not covered.all():
            wanted = _slice_text({"start": start, "shape": shape})
            raise errors.NotFoundError(
                None, None, f"The slices of tensor {name!r} saved in checkpoint {self._prefix} "
                f"({', '.join(_slice_text(s) for s in entry['slices'])} of shape "
                f"{entry['shape']}) do not cover the slice {wanted} asked for: a part of the "
                "partitioned variable was not saved.")
        return out

    def _read(self, where, dtype, shape, what):
        """The array stored at `where` (shard, offset, length, crc32), checked."""
        f, path = self._open_shard(where["shard"])
        f.seek(where["offset"])
        buffer = bytearray(where["length"])
        if f.readinto(buffer) != where["length"]:
            raise _loss(f"Data file {path} is truncated: {what} ends past the end of "
                        "the file.")
        crc = zlib.crc32(buffer)
        if crc != where["crc32"]:
            raise _loss(f"Data file {path} is corrupted: {what} fails its CRC check "
                        f"(stored crc32 {where['crc32']:#010x}, computed {crc:#010x}).")
        stored = _DTYPES[dtype]
        if stored == _dtypes.string:
            return _strings_from(buffer, tuple(shape), what, path)
        little = np.dtype(stored.as_numpy_dtype).newbyteorder("<")
        array = np.frombuffer(buffer, dtype=little).reshape(tuple(shape))
        return array if little.isnative else array.astype(stored.as_numpy_dtype)

    def _open_shard(self, shard):
        if shard in self._checked:
            return self._checked[shard]
        info = self._index["shards"][shard]
        path = os.path.join(self._dir, info["file"])
        n = len(self._index["shards"])
        try:
            f = open(path, "rb")
        except FileNotFoundError:
            raise _loss(f"Checkpoint {self._prefix} is missing shard {shard} of {n}: no data "
                        f"file {path}. The checkpoint is incomplete (a crash during the save, "
                        "or a file was deleted); restore an older checkpoint.") from None
        head = f.read(DATA_HEADER_BYTES)
        size = os.fstat(f.fileno()).st_size
        problem = None
        if head[:len(DATA_MAGIC)] != DATA_MAGIC:
            problem = (f"has a bad magic number (expected {DATA_MAGIC!r}, found "
                       f"{head[:len(DATA_MAGIC)]!r}): it is not a sandbox checkpoint data file")
        elif len(head) < DATA_HEADER_BYTES:
            problem = f"is truncated: it has {size} bytes, the index expects {info['bytes']}"
        elif head[len(DATA_MAGIC):].hex() != info["save_id"]:
            problem = ("belongs to another save (its save id differs from the index's): a later "
                       "save to the same prefix was interrupted, or files were mixed up")
        elif size < info["bytes"]:
            problem = f"is truncated: it has {size} bytes, the index expects {info['bytes']}"
        elif size > info["bytes"]:
            problem = f"is too long: it has {size} bytes, the index expects {info['bytes']}"
        if problem:
            f.close()
            raise _loss(f"Data file {path} (shard {shard} of {n} of checkpoint "
                        f"{self._prefix}) {problem}.")
        self._checked[shard] = (f, path)
        return f, path

    def close(self):
        for f, _ in self._checked.values():
            f.close()
        self._checked = {}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def _strings_from(buffer, shape, what, path):
    n = int(np.prod(shape, dtype=np.int64))
    if 8 * n > len(buffer):
        raise _loss(f"Data file {path}: string {what} is malformed.")
    lengths = np.frombuffer(buffer, dtype="<u8", count=n)
    if int(lengths.sum()) != len(buffer) - 8 * n:
        raise _loss(f"Data file {path}: string {what} is malformed (its lengths do "
                    "not add up).")
    out = np.empty(n, dtype=object)
    at = 8 * n
    for i, length in enumerate(lengths.tolist()):
        out[i] = bytes(buffer[at:at + length])
        at += length
    return out.reshape(shape)


def NewCheckpointReader(filepattern):  # noqa: N802 -- TF's name
    """TF's tf.train.NewCheckpointReader."""
    return CheckpointReader(filepattern)


def checkpoint_files(prefix):
    """The files that make up checkpoint `prefix` (index, data shards, meta when present)."""
    prefix = _text(prefix)
    directory = os.path.dirname(prefix) or "."
    base = os.path.basename(prefix)
    files = []
    try:
        names = os.listdir(directory)
    except OSError:
        return files
    for fname in names:
        rest = fname[len(base):] if fname.startswith(base) else None
        if rest is not None and (rest == ".index" or _is_data_suffix(rest)):
            files.append(os.path.join(os.path.dirname(prefix), fname))
    return sorted(files)


def _is_data_suffix(rest):
    # '.data-00000-of-00002'
    if not rest.startswith(".data-") or len(rest) != len(".data-00000-of-00000"):
        return False
    return rest[6:11].isdigit() and rest[11:15] == "-of-" and rest[15:].isdigit()
