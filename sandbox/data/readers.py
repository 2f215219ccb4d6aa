"""The file datasets of `tf.data` -- mirrors TensorFlow 1.15's python/data/ops/readers.py:
TFRecordDataset, TextLineDataset and FixedLengthRecordDataset.

    dataset = tf.data.TFRecordDataset(["a.tfrecords", "b.tfrecords"])     # scalar tf.string
    dataset = dataset.map(parse).shuffle(1000).batch(32)

Each element is one record as a scalar tf.string: a record of a TFRecord file
(sandbox/platform/tf_record.py), a line of a text file without its line ending ('\\n' or
'\\r\\n'), or `record_bytes` bytes of a binary file after `header_bytes` (and before
`footer_bytes`). `filenames` is a string, a list of them or a tf.string tensor (scalar or
vector) -- its value is read when the iterator is initialized, and the files are opened on the
iterator's task, one after another, as TF's readers do. compression_type is "", "ZLIB" or
"GZIP"; buffer_size is the size of the reads of a TFRecord file (the text and fixed-length
readers read each file whole).

TFRecordDataset's num_parallel_reads=k reads k files at once and takes one record from each in
turn (TF's parallel_interleave with cycle_length k, block_length 1: the same order as TF);
the sandbox reads them in one thread.
"""
from ..framework import dtypes as _dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from .dataset_ops import DatasetV1
from .nest import Spec as _Spec

__all__ = ["TFRecordDataset", "TextLineDataset", "FixedLengthRecordDataset"]


def _filenames(filenames):
    if isinstance(filenames, Tensor):
        if filenames.dtype.base_dtype != _dtypes.string:
            raise TypeError(f"`filenames` must be a `tf.Tensor` of dtype `tf.string` dtype. Got "
                            f"{filenames.dtype}")
        t = filenames
    else:
        t = convert_to_tensor(filenames, dtype=_dtypes.string, name="filenames")
    if t.get_shape().ndims is not None and t.get_shape().ndims > 1:
        raise ValueError(f"`filenames` must be a scalar or a vector of file names, got shape "
                         f"{t.get_shape()}.")
    return t


def _string(value, name):
    if isinstance(value, (str, bytes)) and value not in ("", "ZLIB", "GZIP", b"", b"ZLIB",
                                                         b"GZIP"):
        raise ValueError(f"Unsupported compression_type {value!r}: use '', 'ZLIB' or 'GZIP' "
                         "(TF 1.15 reads such files uncompressed without a word).")
    return convert_to_tensor("" if value is None else value, dtype=_dtypes.string, name=name)


def _int64(value, default, name):
    return convert_to_tensor(default if value is None else value, dtype=_dtypes.int64,
                             name=name)


class _FileDataset(DatasetV1):
    """A source whose elements are the scalar strings read from a list of files."""
    _op = None

    def __init__(self, filenames, compression_type, buffer_size, **ints):
        self._args = {"filenames": _filenames(filenames),
                      "compression_type": _string(compression_type, "compression_type"),
                      "buffer_size": _int64(buffer_size, -1, "buffer_size")}
        for key, (value, default) in ints.items():
            self._args[key] = _int64(value, default, key)
        super().__init__(_Spec(_dtypes.string, []))

    def _plan(self, tensors):
        return {"op": self._op, **{k: tensors(t) for k, t in self._args.items()}}


class TFRecordDataset(_FileDataset):
    """The records of one or more TFRecord files, each a scalar tf.string."""
    _op = "TFRecordDataset"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None):
        super().__init__(filenames, compression_type, buffer_size,
                         num_parallel_reads=(num_parallel_reads, 1))


class TextLineDataset(_FileDataset):
    """The lines of one or more text files, each a scalar tf.string without its newline."""
    _op = "TextLineDataset"

    def __init__(self, filenames, compression_type=None, buffer_size=None):
        super().__init__(filenames, compression_type, buffer_size)


class FixedLengthRecordDataset(_FileDataset):
    """Records of `record_bytes` bytes from one or more binary files (after a header of
    `header_bytes` and before a footer of `footer_bytes` in each), each a scalar tf.string."""
    _op = "FixedLengthRecordDatasetV2"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None):
        super().__init__(filenames, compression_type, buffer_size,
                         record_bytes=(record_bytes, None), header_bytes=(header_bytes, 0),
                         footer_bytes=(footer_bytes, 0))
