"""`tf.strings` -- the names of TensorFlow 1.x's tf.strings namespace (TF's generated
api/_v1/strings/__init__.py) that the sandbox has, gathered from ops/string_ops.py,
ops/string_hash_ops.py, ops/string_case_ops.py (length, lower, upper),
ops/string_format_ops.py (format), ops/string_regex_ops.py (regex_full_match),
ops/string_segment_ops.py (unsorted_segment_join), ops/unicode_script_ops.py and
ops/unicode_transcode_ops.py:

    words = tf.strings.split(lines)                      # SparseTensor of the words
    ids = tf.strings.to_hash_bucket_fast(words.values, 10000)
    tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=" ")
    tf.strings.format("step {}: {}", [step, loss])       # as tf.print writes them
    tf.strings.length(words.values, unit="UTF8_CHAR")    # int32 counts of code points

tf.strings.split is TF-1's strings.split (Python's split rules, op StringSplitV2), not
tf.string_split (split at any delimiter byte). tf.strings.length takes TF 1's argument order
(input, name, unit). regex_full_match uses Python's `re` where TF uses RE2 (see
ops/string_regex_ops.py for where they differ); unicode_transcode reads the UTF encodings,
US-ASCII and Latin-1 only, not the rest of ICU's. bytes_split, ngrams and the unicode_decode,
unicode_split and unicode_encode family give or take RaggedTensors:
ops/ragged/ragged_string_ops.py.
"""
from ..ops.string_case_ops import (  # noqa: F401
    string_length as length, string_lower as lower, string_upper as upper,
)
from ..ops.string_format_ops import string_format as format  # noqa: F401,A001 -- TF's name
from ..ops.string_hash_ops import (  # noqa: F401
    string_to_hash_bucket as to_hash_bucket, string_to_hash_bucket_fast as to_hash_bucket_fast,
    string_to_hash_bucket_strong as to_hash_bucket_strong,
)
from ..ops.string_ops import (  # noqa: F401
    as_string, reduce_join, regex_replace, string_join as join, string_strip as strip,
    string_to_number as to_number, strings_split as split, substr,
)
from ..ops.ragged.ragged_string_ops import (  # noqa: F401
    ngrams, string_bytes_split as bytes_split, unicode_decode, unicode_decode_with_offsets,
    unicode_encode, unicode_split, unicode_split_with_offsets,
)
from ..ops.string_regex_ops import regex_full_match  # noqa: F401
from ..ops.string_segment_ops import unsorted_segment_join  # noqa: F401
from ..ops.unicode_script_ops import unicode_script  # noqa: F401
from ..ops.unicode_transcode_ops import unicode_transcode  # noqa: F401

__all__ = ["as_string", "bytes_split", "format", "join", "length", "lower", "ngrams",
           "reduce_join", "regex_full_match", "regex_replace", "split", "strip", "substr",
           "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number",
           "unicode_decode", "unicode_decode_with_offsets", "unicode_encode", "unicode_script",
           "unicode_split", "unicode_split_with_offsets", "unicode_transcode",
           "unsorted_segment_join", "upper"]
