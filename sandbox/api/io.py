"""`tf.io` -- the names of TensorFlow 1.x's tf.io namespace (TF's generated
api/_v1/io/__init__.py), and `tf.io.gfile`, the TF-2 (snake_case) names of tf.gfile.

    with tf.io.gfile.GFile(path, "rb") as f:          # read now, in Python
        data = f.read()
    contents = tf.io.read_file(path)                   # read when the graph runs
    pixels = tf.io.decode_raw(contents, tf.uint8)

The file ops are in sandbox/ops/file_io_ops.py, the files themselves in
sandbox/platform/gfile.py, the queues in sandbox/ops/data_flow_ops.py.

TFRecord files (TFRecordWriter, tf_record_iterator, TFRecordOptions, TFRecordCompressionType)
are sandbox/platform/tf_record.py, the same objects as tf.python_io's; tf.Example parsing
(parse_single_example, parse_example, FixedLenFeature, VarLenFeature -- a SparseTensor) is
sandbox/ops/parsing_ops.py.

`tf.io.write_graph` is tf.train.write_graph (sandbox/train/graph_io.py: it writes the GraphDef
the summary FileWriter makes), so this one module of sandbox/api/ sits in the train layer.

The image codecs (decode_png, decode_jpeg, decode_and_crop_jpeg, encode_jpeg, decode_image,
decode_bmp, decode_gif, is_jpeg, extract_jpeg_shape) are sandbox/ops/image_codec_ops.py, the
same functions as tf.image's (TF 1.15 has encode_png in tf.image only).

Tensors as bytes (serialize_tensor, parse_tensor, serialize_sparse, serialize_many_sparse,
deserialize_many_sparse) are sandbox/ops/tensor_serialization_ops.py; base64, decompression and
JSON tf.Examples (encode_base64, decode_base64, decode_compressed, decode_json_example) are
sandbox/ops/encode_ops.py.

match_filenames_once (a local variable holding the files that match a glob) is tf.train's,
sandbox/train/input.py.
"""
import types as _types

from ..ops.encode_ops import (  # noqa: F401
    decode_base64, decode_compressed, decode_json_example, encode_base64)
from ..ops.data_flow_ops import (  # noqa: F401
    PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue)
from ..ops.file_io_ops import decode_raw, matching_files, read_file, write_file  # noqa: F401
from ..ops.image_codec_ops import (  # noqa: F401
    decode_and_crop_jpeg, decode_bmp, decode_gif, decode_image, decode_jpeg, decode_png,
    encode_jpeg, extract_jpeg_shape, is_jpeg)
from ..ops.parsing_csv_ops import decode_csv  # noqa: F401
from ..ops.parsing_ops import (  # noqa: F401
    FixedLenFeature, FixedLenSequenceFeature, SparseFeature, VarLenFeature, parse_example,
    parse_single_example)
from ..ops.parsing_sequence_ops import (  # noqa: F401
    parse_sequence_example, parse_single_sequence_example)
from ..ops.tensor_serialization_ops import (  # noqa: F401
    deserialize_many_sparse, parse_tensor, serialize_many_sparse, serialize_sparse,
    serialize_tensor)
from ..platform import gfile as _gfile
from ..platform.tf_record import (  # noqa: F401
    TFRecordCompressionType, TFRecordOptions, TFRecordWriter, tf_record_iterator)
from ..train.graph_io import write_graph  # noqa: F401
from ..train.input import match_filenames_once  # noqa: F401

__all__ = ["PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue",
           "decode_csv", "decode_raw", "gfile", "matching_files",
           "read_file", "write_file", "TFRecordCompressionType", "TFRecordOptions",
           "TFRecordWriter", "tf_record_iterator", "FixedLenFeature", "VarLenFeature",
           "parse_example", "parse_single_example", "write_graph", "FixedLenSequenceFeature",
           "SparseFeature", "parse_sequence_example", "parse_single_sequence_example",
           "decode_bmp", "decode_gif", "decode_image", "decode_jpeg", "decode_png",
           "encode_jpeg", "extract_jpeg_shape", "is_jpeg", "serialize_tensor", "parse_tensor",
           "decode_base64", "encode_base64", "decode_compressed", "decode_json_example",
           "serialize_sparse", "serialize_many_sparse", "deserialize_many_sparse",
           "decode_and_crop_jpeg", "match_filenames_once"]

_GFILE_NAMES = ("GFile", "copy", "exists", "glob", "isdir", "listdir", "makedirs", "mkdir",
                "remove", "rename", "rmtree", "stat", "walk")

gfile = _types.ModuleType(
    "sandbox.io.gfile", "`tf.io.gfile` -- the TF-2 names of tf.gfile (sandbox/platform/gfile.py)"
    ": " + ", ".join(_GFILE_NAMES) + ".")
for _name in _GFILE_NAMES:
    setattr(gfile, _name, getattr(_gfile, _name))
gfile.__all__ = list(_GFILE_NAMES)
del _name
