"""TFRecord files -- mirrors TensorFlow 1.15's python/lib/io/tf_record.py (tf.python_io /
tf.io: TFRecordWriter, tf_record_iterator, TFRecordOptions, TFRecordCompressionType) and the
format of core/lib/io/record_writer.cc and record_reader.cc.

A TFRecord file is a sequence of records, each an arbitrary byte string, framed as

    uint64  length                      little-endian
    uint32  masked CRC32C of length     (of those 8 bytes)
    byte    data[length]
    uint32  masked CRC32C of data

CRC32C is the Castagnoli CRC (polynomial 0x82F63B78, reflected), and "masked" is TF's
rotation plus a constant, ((crc >> 15) | (crc << 17)) + 0xa282ead8, so that a CRC of data that
itself holds CRCs does not look like one. TensorBoard's event files use this same framing.
With compression ("ZLIB" or "GZIP") the whole framed stream is compressed as one zlib / gzip
stream, as TF's ZlibOutputBuffer writes it -- so a file is readable only with the options it
was written with.

    with tf.python_io.TFRecordWriter("train.tfrecords") as writer:
        writer.write(example.SerializeToString())
    for record in tf.python_io.tf_record_iterator("train.tfrecords"):
        ...

The files are TF's own: real TensorFlow reads what the sandbox writes and the other way round
(tests/ops/test_records.py). One difference: TF 1.15 stops silently at a record cut short at
the end of a file (a file still being written); the sandbox raises DataLossError, saying which
record of which file is truncated. tf.data.TFRecordDataset reads through the same code.
"""
import struct
import zlib

from ..framework import errors
from . import gfile

__all__ = ["TFRecordWriter", "tf_record_iterator", "TFRecordOptions", "TFRecordCompressionType"]


# -- CRC32C -------------------------------------------------------------------------------

def _crc_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc_table()
_MASK_DELTA = 0xA282EAD8


def crc32c(data):
    """The CRC32C (Castagnoli) of `data` bytes."""
    crc = 0xFFFFFFFF
    table = _CRC_TABLE
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def mask_crc32c(crc):
    """TF's masked form of a CRC32C, as stored in files (core/lib/hash/crc32c.h: Mask)."""
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF


def unmask_crc32c(masked):
    """The CRC32C a stored (masked) one stands for (crc32c.h: Unmask)."""
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def masked_crc32c(data):
    """TF's masked CRC32C of `data` bytes."""
    return mask_crc32c(crc32c(data))


_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")


def frame(record):
    """One record as the bytes of a TFRecord file."""
    length = _LENGTH.pack(len(record))
    return b"".join([length, _CRC.pack(masked_crc32c(length)), record,
                     _CRC.pack(masked_crc32c(record))])


# -- options ------------------------------------------------------------------------------

class TFRecordCompressionType:
    """The compression of a TFRecord file: NONE, ZLIB or GZIP."""
    NONE = 0
    ZLIB = 1
    GZIP = 2


_COMPRESSION_NAMES = {TFRecordCompressionType.NONE: "", TFRecordCompressionType.ZLIB: "ZLIB",
                      TFRecordCompressionType.GZIP: "GZIP"}
_WBITS = {"ZLIB": zlib.MAX_WBITS, "GZIP": 16 + zlib.MAX_WBITS}


class TFRecordOptions:
    """How a TFRecord file is compressed: compression_type is a TFRecordCompressionType or
    one of "", "ZLIB", "GZIP"; compression_level (0-9) is honoured, the other zlib tuning
    arguments are accepted (the compressed bytes stay valid zlib / gzip either way)."""

    compression_type_map = {TFRecordCompressionType.ZLIB: "ZLIB",
                            TFRecordCompressionType.GZIP: "GZIP",
                            TFRecordCompressionType.NONE: ""}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        _compression_string(compression_type)          # checks it
        self.compression_type = compression_type
        self.flush_mode = flush_mode
        self.input_buffer_size = input_buffer_size
        self.output_buffer_size = output_buffer_size
        self.window_bits = window_bits
        self.compression_level = compression_level
        self.compression_method = compression_method
        self.mem_level = mem_level
        self.compression_strategy = compression_strategy

    @classmethod
    def get_compression_type_string(cls, options):
        """"", "ZLIB" or "GZIP" for options (a TFRecordOptions, a string or None)."""
        if not options:
            return ""
        if isinstance(options, TFRecordOptions):
            return _compression_string(options.compression_type)
        return _compression_string(options)


def _compression_string(value):
    if value is None:
        return ""
    if isinstance(value, bytes):
        value = value.decode()
    if isinstance(value, str):
        if value not in ("", "ZLIB", "GZIP"):
            raise ValueError(f'Unsupported compression type {value!r}: use "", "ZLIB" or "GZIP" '
                             "(or a tf.python_io.TFRecordCompressionType).")
        return value
    if value in _COMPRESSION_NAMES:
        return _COMPRESSION_NAMES[value]
    raise ValueError(f"Unsupported compression type {value!r}: use a "
                     'tf.python_io.TFRecordCompressionType or "", "ZLIB", "GZIP".')


def _options(options):
    """(compression string, compression level) of the `options` argument."""
    if isinstance(options, TFRecordOptions):
        level = options.compression_level
        return _compression_string(options.compression_type), \
            -1 if level is None or level < 0 else int(level)
    return _compression_string(options), -1


# -- writing ------------------------------------------------------------------------------

class TFRecordWriter:
    """Writes records (bytes) to a TFRecord file at `path`; `options` is a TFRecordOptions or
    a compression string. A context manager: the file is complete once closed."""

    def __init__(self, path, options=None):
        self._path = gfile._path(path)
        compression, level = _options(options)
        try:
            self._file = open(self._path, "wb")
        except OSError as e:
            raise gfile._os_error(e, self._path) from None
        self._compressor = zlib.compressobj(level, zlib.DEFLATED, _WBITS[compression]) \
            if compression else None

    def write(self, record):
        """Writes one record (a bytes-like object)."""
        if self._file is None:
            raise errors.FailedPreconditionError(
                None, None, f"Writer not initialized or previously closed: the TFRecordWriter "
                f"of {self._path} was closed; open a new one to write more.")
        if isinstance(record, str):
            raise TypeError("expected bytes, str found: encode text first, e.g. "
                            "writer.write(text.encode('utf-8')).")
        data = frame(bytes(record))
        self._file.write(self._compressor.compress(data) if self._compressor else data)

    def flush(self):
        """Writes what is buffered to the file (a compressed stream is flushed with Z_FULL_FLUSH,
        so what is there so far can be decompressed)."""
        if self._file is None:
            raise errors.FailedPreconditionError(
                None, None, f"Writer not initialized or previously closed ({self._path}).")
        if self._compressor:
            self._file.write(self._compressor.flush(zlib.Z_FULL_FLUSH))
        self._file.flush()

    def close(self):
        """Finishes the file (and its compressed stream)."""
        if self._file is not None:
            if self._compressor:
                self._file.write(self._compressor.flush())
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:   # noqa: BLE001 -- never from a finalizer
            pass


# -- reading ------------------------------------------------------------------------------

_CHUNK = 256 * 1024


class _Bytes:
    """The (decompressed) bytes of a file, read a chunk at a time."""

    def __init__(self, path, compression, buffer_size=None):
        self.path = path
        try:
            self._file = open(path, "rb")
        except OSError as e:
            raise gfile._os_error(e, path) from None
        self._chunk = max(int(buffer_size or 0), _CHUNK)
        self._inflate = zlib.decompressobj(_WBITS[compression]) if compression else None
        self._buffer = bytearray()
        self.offset = 0                      # of the (decompressed) stream, for messages

    def _fill(self, n):
        while len(self._buffer) < n and self._file is not None:
            raw = self._file.read(self._chunk)
            try:
                if not raw:
                    data = self._inflate.flush() if self._inflate else b""
                    self.close()
                else:
                    data = self._inflate.decompress(raw) if self._inflate else raw
            except zlib.error as e:
                raise errors.DataLossError(
                    None, None, f"{self.path} is not a compressed stream of this kind ({e}): "
                    "read it with the compression_type it was written with.") from None
            self._buffer += data

    def read(self, n):
        """Exactly n bytes, or fewer at the end of the file."""
        self._fill(n)
        out = bytes(self._buffer[:n])
        del self._buffer[:n]
        self.offset += len(out)
        return out

    def close(self):
        if self._file is not None:
            self._file.close()
            self._file = None


def read_records(path, compression="", buffer_size=None):
    """The records of the TFRecord file at `path`, one bytes object at a time (a generator;
    the file is read as the records are asked for)."""
    path = gfile._path(path)
    source = _Bytes(path, compression, buffer_size)
    try:
        while True:
            start = source.offset
            header = source.read(12)
            if not header:
                return
            if len(header) < 12:
                raise _truncated(path, start)
            length_bytes, crc = header[:8], _CRC.unpack(header[8:])[0]
            if masked_crc32c(length_bytes) != crc:
                raise _corrupted(path, start, "length")
            (length,) = _LENGTH.unpack(length_bytes)
            body = source.read(length + 4)
            if len(body) < length + 4:
                raise _truncated(path, start)
            data = body[:length]
            if masked_crc32c(data) != _CRC.unpack(body[length:])[0]:
                raise _corrupted(path, start + 12, "data")
            yield data
    finally:
        source.close()


def _corrupted(path, offset, what):
    return errors.DataLossError(
        None, None, f"corrupted record at {offset}: the CRC32C of its {what} does not match "
        f"(file {path}). Is it a TFRecord file, and read with the compression_type it was "
        "written with?")


def _truncated(path, offset):
    return errors.DataLossError(
        None, None, f"truncated record at {offset}: {path} ends inside a record (TF 1.15 "
        "stops there silently; was the file's writer closed?)")


def tf_record_iterator(path, options=None):
    """An iterator over the records (bytes) of the TFRecord file at `path`; `options` (a
    TFRecordOptions or a compression string) must match how it was written."""
    return read_records(path, _options(options)[0])
