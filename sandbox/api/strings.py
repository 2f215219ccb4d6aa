"""`tf.strings` -- the names of TensorFlow 1.x's tf.strings namespace (TF's generated
api/_v1/strings/__init__.py) that the sandbox has, gathered from ops/string_ops.py and
ops/string_hash_ops.py:

    words = tf.strings.split(lines)                      # SparseTensor of the words
    ids = tf.strings.to_hash_bucket_fast(words.values, 10000)
    tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=" ")

tf.strings.split is TF-1's strings.split (Python's split rules, op StringSplitV2), not
tf.string_split (split at any delimiter byte). Not here (TF 1.15 has them): bytes_split,
format, length, lower, upper, ngrams, regex_full_match, unsorted_segment_join and the
unicode_* functions.
"""
from ..ops.string_hash_ops import (  # noqa: F401
    string_to_hash_bucket as to_hash_bucket, string_to_hash_bucket_fast as to_hash_bucket_fast,
    string_to_hash_bucket_strong as to_hash_bucket_strong,
)
from ..ops.string_ops import (  # noqa: F401
    as_string, reduce_join, regex_replace, string_join as join, string_strip as strip,
    string_to_number as to_number, strings_split as split, substr,
)

__all__ = ["as_string", "join", "reduce_join", "regex_replace", "split", "strip", "substr",
           "to_hash_bucket", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_number"]
