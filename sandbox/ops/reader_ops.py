"""Readers -- mirrors TensorFlow 1.15's reader classes of ops/io_ops.py (ReaderBase,
TextLineReader, WholeFileReader, TFRecordReader, FixedLengthRecordReader, IdentityReader) and
their kernels (core/framework/reader_base.cc, core/kernels/*_reader_op.cc).

A reader is state, like a queue: the graph only names it; the reader itself -- the file it is
in and where in it -- lives in the resource manager of the task its op is placed on. Its ops
take it by reference, and the filename queue too, so the placer puts the reader, its read op
and the queue on one task. `read(queue)` gives the next (key, value) of the current file; when
the file is exhausted it dequeues the next file name from the queue (waiting, as a dequeue
does), and when that queue is closed and empty it fails with the queue's OutOfRangeError --
which is how `string_input_producer(..., num_epochs=N)` ends a training loop.

The keys are TF's (measured with TF 1.15): b"file:line" for a TextLineReader (lines counted
from 1, skipped header lines included), b"file:offset" for a TFRecordReader (the offset of the
record in the uncompressed stream), b"file:index" for a FixedLengthRecordReader, the file name
for a WholeFileReader, the work item itself for an IdentityReader. `read_up_to(queue, n)`
returns at most n records, all from one file, as TF does.
"""
import threading

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..platform import tf_record as _tf_record

__all__ = ["ReaderBase", "TextLineReader", "WholeFileReader", "TFRecordReader",
           "FixedLengthRecordReader", "IdentityReader"]


# -- the reader's state ----------------------------------------------------------------------

class _Reader:
    """One reader: the current work item (a file name), an iterator over its records, counts."""

    def __init__(self, name, kind, attrs):
        self.name = name
        self.kind = kind
        self.attrs = attrs
        self.lock = threading.Lock()
        self.work = None                 # bytes: the current file name
        self.records = None              # iterator of (key, value) bytes
        self.produced = 0
        self.completed = 0

    def read(self, node_name=None):      # a reference read as a value is the reader itself
        return self

    # what each kind of reader makes of one work item
    def _open(self, work):
        path = work.decode("utf-8", "replace")
        try:
            if self.kind != "IdentityReaderV2":
                with open(path, "rb"):           # fails here, not at the first record
                    pass
            if self.kind == "TextLineReaderV2":
                return _lines(path, work, self.attrs.get("skip_header_lines", 0))
            if self.kind == "WholeFileReaderV2":
                with open(path, "rb") as f:
                    return iter([(work, f.read())])
            if self.kind == "TFRecordReaderV2":
                return _tf_records(path, work, self.attrs.get("compression_type", ""))
            if self.kind == "FixedLengthRecordReaderV2":
                return _fixed_length(path, work, self.attrs)
        except OSError as e:
            raise errors.NotFoundError(None, None, f"{self.kind[:-2]} {self.name!r} cannot "
                                       f"open {path!r}: {e.strerror}.") from None
        return iter([(work, work)])      # IdentityReader

    def _next_work(self, queue, step, node):
        if not hasattr(queue, "dequeue"):
            raise errors.InvalidArgumentError(node, None, f"{node}: the second input of a "
                                              "reader's read must be a queue of file names.")
        (element,) = queue.dequeue(1, step, node)
        work = element[0]
        work = work.item() if isinstance(work, np.ndarray) else work
        self.work = work.encode() if isinstance(work, str) else bytes(work)
        self.records = self._open(self.work)

    def _finish_work(self):
        self.work, self.records = None, None
        self.completed += 1

    def read_up_to(self, queue, n, step, node):
        """Up to n (key, value) pairs from one work item (at least one)."""
        with self.lock:
            while True:
                if self.records is None:
                    self._next_work(queue, step, node)
                out = []
                try:
                    for key, value in self.records:
                        out.append((key, value))
                        if len(out) == n:
                            break
                    else:
                        self._finish_work()
                except errors.OpError as e:          # a corrupt or truncated record
                    self._finish_work()
                    raise type(e)(node, None, f"{e.message} (reader {self.name!r})") from None
                if out:
                    self.produced += len(out)
                    return out

    def reset(self):
        with self.lock:
            self.work, self.records = None, None
            self.produced = self.completed = 0


def _lines(path, work, skip):
    with open(path, "rb") as f:
        for number, line in enumerate(f, 1):
            if number <= skip:
                continue
            if line.endswith(b"\n"):
                line = line[:-1]
            if line.endswith(b"\r"):
                line = line[:-1]
            yield b"%s:%d" % (work, number), line


def _tf_records(path, work, compression):
    offset = 0
    for record in _tf_record.read_records(path, compression):
        yield b"%s:%d" % (work, offset), record
        offset += len(record) + 16                   # length, its CRC, data, its CRC


def _fixed_length(path, work, attrs):
    with open(path, "rb") as f:
        data = f.read()
    if attrs.get("encoding"):
        import zlib
        data = zlib.decompress(data, 16 + zlib.MAX_WBITS if attrs["encoding"] == "GZIP"
                               else zlib.MAX_WBITS)
    header, size, footer = attrs["header_bytes"], attrs["record_bytes"], attrs["footer_bytes"]
    hop = attrs.get("hop_bytes") or size
    end = len(data) - footer
    index, start = 0, header
    while start + size <= end:                       # a short last record is dropped, as TF
        yield b"%s:%d" % (work, index), data[start:start + size]
        index, start = index + 1, start + hop


# -- ops -------------------------------------------------------------------------------------

class TextLineReaderV2(OpDef):
    """Outputs a reference to the reader stored on this task (created on first use)."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_outputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, container="", shared_name="", **attrs):
        name = shared_name or ctx.name
        return ctx.resources.lookup_or_create(container, name,
                                              lambda: _Reader(name, ctx.op_type, attrs))


class WholeFileReaderV2(TextLineReaderV2):
    """A reader whose records are whole files."""


class TFRecordReaderV2(TextLineReaderV2):
    """A reader of the records of TFRecord files."""


class FixedLengthRecordReaderV2(TextLineReaderV2):
    """A reader of fixed-size records after a header and before a footer."""


class IdentityReaderV2(TextLineReaderV2):
    """A reader whose one record per work item is (work, work)."""


class ReaderReadV2(OpDef):
    """The next (key, value) of the reader; dequeues a file name when it needs one."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0, 1)
    multi_output = True

    def shape(op):
        return [TensorShape([]), TensorShape([])]

    def kernel(ctx, step, reader, queue):
        ((key, value),) = reader.read_up_to(queue, 1, step, ctx.name)
        return np.array(key, dtype=object), np.array(value, dtype=object)


class ReaderReadUpToV2(OpDef):
    """Up to num_records (key, value) pairs, all from one file."""
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0, 1)
    multi_output = True

    def shape(op):
        return [TensorShape([None]), TensorShape([None])]

    def kernel(ctx, step, reader, queue, num_records):
        n = int(num_records)
        if n <= 0:
            raise errors.InvalidArgumentError(ctx.name, None, f"{ctx.name}: num_records must "
                                              f"be positive, got {n}.")
        pairs = reader.read_up_to(queue, n, step, ctx.name)
        keys, values = np.empty(len(pairs), object), np.empty(len(pairs), object)
        for i, (k, v) in enumerate(pairs):
            keys[i], values[i] = k, v
        return keys, values


class ReaderNumRecordsProducedV2(OpDef):
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(reader):
        return np.int64(reader.produced)


class ReaderNumWorkUnitsCompletedV2(OpDef):
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(reader):
        return np.int64(reader.completed)


class ReaderResetV2(OpDef):
    """Back to the start: no current file, counts at zero."""
    stateful = True
    differentiable = False
    ref_inputs = (0,)

    def kernel(reader):
        reader.reset()


class ReaderSerializeStateV2(OpDef):
    uses_context = True
    stateful = True
    differentiable = False
    ref_inputs = (0,)
    shape = scalar_shape

    def kernel(ctx, step, reader):
        # TF 1.15 implements it for none of these readers either
        raise errors.UnimplementedError(ctx.name, None, f"Reader SerializeState: "
                                        f"{reader.kind[:-2]} cannot save its position (as in "
                                        "TF 1.15); re-read from the start with reset().")


# -- the Python classes ----------------------------------------------------------------------

class ReaderBase:
    """The TF-1 reader API: read, read_up_to, num_records_produced, num_work_units_completed,
    reset, serialize_state."""

    def __init__(self, reader_ref, supports_serialize=False):
        self._reader_ref = reader_ref
        self._supports_serialize = supports_serialize

    @property
    def reader_ref(self):
        return self._reader_ref

    @property
    def supports_serialize(self):
        return self._supports_serialize

    def _queue_ref(self, queue):
        return queue if not hasattr(queue, "queue_ref") else queue.queue_ref

    def read(self, queue, name=None):
        key, value = apply_op("ReaderReadV2", [self._reader_ref, self._queue_ref(queue)], {},
                              name=name or "ReaderReadV2",
                              output_dtypes=[_dtypes.string, _dtypes.string])
        return key, value

    def read_up_to(self, queue, num_records, name=None):
        n = convert_to_tensor(num_records, dtype=_dtypes.int64)
        keys, values = apply_op("ReaderReadUpToV2", [self._reader_ref, self._queue_ref(queue),
                                                     n], {}, name=name or "ReaderReadUpToV2",
                                output_dtypes=[_dtypes.string, _dtypes.string])
        return keys, values

    def num_records_produced(self, name=None):
        return apply_op("ReaderNumRecordsProducedV2", [self._reader_ref], {},
                        name=name or "ReaderNumRecordsProducedV2", output_dtypes=[_dtypes.int64])

    def num_work_units_completed(self, name=None):
        return apply_op("ReaderNumWorkUnitsCompletedV2", [self._reader_ref], {},
                        name=name or "ReaderNumWorkUnitsCompletedV2",
                        output_dtypes=[_dtypes.int64])

    def serialize_state(self, name=None):
        return apply_op("ReaderSerializeStateV2", [self._reader_ref], {},
                        name=name or "ReaderSerializeStateV2", output_dtypes=[_dtypes.string])

    def reset(self, name=None):
        return apply_op("ReaderResetV2", [self._reader_ref], {}, name=name or "ReaderResetV2",
                        output_dtypes=[])


def _reader_op(op_type, name, attrs):
    return apply_op(op_type, [], {"container": "", "shared_name": "", **attrs}, name=name,
                    output_dtypes=[_dtypes.string._as_ref], graph=get_default_graph())


class TextLineReader(ReaderBase):
    """A reader whose records are the lines of its files (without the newline)."""

    def __init__(self, skip_header_lines=None, name=None):
        super().__init__(_reader_op("TextLineReaderV2", name or "TextLineReaderV2",
                                    {"skip_header_lines": int(skip_header_lines or 0)}))


class WholeFileReader(ReaderBase):
    """A reader whose one record per file is (file name, its whole contents)."""

    def __init__(self, name=None):
        super().__init__(_reader_op("WholeFileReaderV2", name or "WholeFileReaderV2", {}))


class TFRecordReader(ReaderBase):
    """A reader of TFRecord files; `options` (TFRecordOptions or a compression string) must
    match how they were written."""

    def __init__(self, name=None, options=None):
        compression = _tf_record._options(options)[0] if options is not None else ""
        super().__init__(_reader_op("TFRecordReaderV2", name or "TFRecordReaderV2",
                                    {"compression_type": compression or ""}))


class FixedLengthRecordReader(ReaderBase):
    """A reader of records of record_bytes bytes each, after header_bytes and before
    footer_bytes, hop_bytes apart (0: record_bytes); encoding "" or "ZLIB" / "GZIP"."""

    def __init__(self, record_bytes, header_bytes=None, footer_bytes=None, hop_bytes=None,
                 name=None, encoding=None):
        if int(record_bytes) <= 0:
            raise ValueError(f"FixedLengthRecordReader: record_bytes must be positive, got "
                             f"{record_bytes}.")
        super().__init__(_reader_op(
            "FixedLengthRecordReaderV2", name or "FixedLengthRecordReaderV2",
            {"record_bytes": int(record_bytes), "header_bytes": int(header_bytes or 0),
             "footer_bytes": int(footer_bytes or 0), "hop_bytes": int(hop_bytes or 0),
             "encoding": encoding or ""}))


class IdentityReader(ReaderBase):
    """A reader that outputs each work item it dequeues as both key and value."""

    def __init__(self, name=None):
        super().__init__(_reader_op("IdentityReaderV2", name or "IdentityReaderV2", {}),
                         supports_serialize=True)
