"""tf.compat -- mirrors TensorFlow's python/util/compat.py (as_bytes, as_text, as_str,
as_str_any, path_to_str) and the `tf.compat.v1` name under which TensorFlow 2 keeps the TF-1
API.

A program written for TF 1.14 or 1.15, or for TF 2 in its TF-1 mode, often says
`tf.compat.v1.placeholder(...)` or starts with `tf.compat.v1.disable_v2_behavior()`. The
sandbox *is* the TF-1 API, so `tf.compat.v1` is the sandbox itself: after
`import sandbox as tf`, `tf.compat.v1.placeholder is tf.placeholder`.
"""
import numbers as _numbers
import os
import sys

import numpy as _np

__all__ = ["v1", "as_bytes", "as_text", "as_str", "as_str_any", "path_to_str",
           "bytes_or_text_types", "integral_types", "real_types", "complex_types"]

v1 = sys.modules[__package__]          # the sandbox package (being imported right now)

bytes_or_text_types = (bytes, str)
integral_types = (_numbers.Integral, _np.integer)
real_types = (_numbers.Real, _np.integer, _np.floating)
complex_types = (_numbers.Complex, _np.number)


def as_bytes(bytes_or_text, encoding="utf-8"):
    """`bytes_or_text` as bytes: str is encoded, bytes (and bytearray) pass through."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding="utf-8"):
    """`bytes_or_text` as str: bytes are decoded, str passes through."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding="utf-8"):
    """str(value), decoding bytes first."""
    if isinstance(value, bytes):
        return as_str(value, encoding)
    return str(value)


def path_to_str(path):
    """A path-like object (pathlib.Path ...) as its str; anything else unchanged."""
    if isinstance(path, os.PathLike):
        return as_str_any(os.fspath(path))
    return path
