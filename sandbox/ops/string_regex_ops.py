"""Whole-string regular expression matches -- mirrors tf.strings.regex_full_match of
TensorFlow 1.x's python/ops/string_ops.py and its kernels (core/kernels/regex_full_match_op.cc:
ops StaticRegexFullMatch, when the pattern is a Python string, and RegexFullMatch, when it is
a tensor).

    tf.strings.regex_full_match(["abc", "abcd", "xabc"], "a.c")   ->  [True, False, False]

TF matches with RE2; the sandbox with Python's `re` (`fullmatch`), on the strings read as
UTF-8 as RE2 reads them (so '.' is one character, 'é' as much as 'a') and with re.ASCII, as
RE2's \\w, \\d, \\b are ASCII-only. The two agree on the common syntax -- classes, groups,
alternation, repetition, (?i) -- and differ here:

  * RE2 rejects backreferences (\\1) and lookaround ((?=, (?!, (?<=, (?<!); `re` runs them.
  * RE2 knows Unicode classes (\\pL, \\p{Greek}) and \\z, `re` does not: InvalidArgumentError.
  * \\s: RE2's is [\\t\\n\\f\\r ], `re`'s also matches \\v.
  * (?i): RE2 folds the case of every letter, `re` (ASCII) of A-Z only.
  * A byte that is not valid UTF-8 is one character for `re` ('.' matches it), none for RE2.
    (A pattern must be valid UTF-8, in both.)

A pattern that does not compile fails when the op runs, as TF's: InvalidArgumentError
"Invalid pattern: <pattern>, error: <what>" (the error text is Python's, not RE2's).
Output: bool, the shape of `input`; no gradient.
"""
import re

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from .string_case_ops import typed_input

__all__ = ["regex_full_match"]


def _text(s):
    """bytes (or str) as RE2 reads them: UTF-8, an invalid byte kept as one character."""
    return s if isinstance(s, str) else s.decode("utf-8", "surrogateescape")


def _full_matches(strings, pattern):
    try:
        text = pattern if isinstance(pattern, str) else pattern.decode("utf-8")
        regex = re.compile(text, re.ASCII)
    except (re.error, UnicodeDecodeError) as e:
        shown = pattern if isinstance(pattern, str) else pattern.decode("utf-8", "replace")
        raise errors.InvalidArgumentError(None, None, f"Invalid pattern: {shown}, "
                                          f"error: {e}") from None
    arr = np.asarray(strings, dtype=object)
    out = np.empty(arr.shape, dtype=bool)
    for index, s in np.ndenumerate(arr):
        out[index] = regex.fullmatch(_text(s)) is not None
    return out


class StaticRegexFullMatch(OpDef):
    """Whether each string matches `pattern` (an attr) as a whole."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, pattern=""):  # noqa: A002 -- TF's name
        return _full_matches(input, pattern)


class RegexFullMatch(OpDef):
    """Whether each string matches `pattern` (a scalar string tensor) as a whole."""
    differentiable = False

    def shape(op):
        rank = op.inputs[1].get_shape().ndims
        if rank is not None and rank != 0:
            raise ValueError(f"Shape must be rank 0 but is rank {rank}")
        return op.inputs[0].get_shape()

    def kernel(input, pattern):  # noqa: A002 -- TF's name
        if np.ndim(pattern) != 0:
            raise errors.InvalidArgumentError(None, None, "Pattern must be scalar, but received "
                                              f"{list(np.shape(pattern))}")
        return _full_matches(input, np.asarray(pattern, dtype=object).item())


def regex_full_match(input, pattern, name=None):  # noqa: A002 -- TF's name
    """tf.strings.regex_full_match: whether each string of `input` matches the regular
    expression `pattern` (a string, or a scalar string tensor) as a whole -- a bool tensor of
    input's shape. Python's `re` stands for TF's RE2: see the module docstring for where they
    differ (backreferences and lookaround run here, \\p classes do not)."""
    if isinstance(pattern, (bytes, str)):
        with name_scope(name, "StaticRegexFullMatch", [input]) as scope:
            x = typed_input(input, "input", "StaticRegexFullMatch")
            text = pattern.decode("utf-8") if isinstance(pattern, bytes) else pattern
            return apply_op("StaticRegexFullMatch", [x], {"pattern": text}, name=scope,
                            output_dtypes=[_dtypes.bool])
    with name_scope(name, "RegexFullMatch", [input, pattern]) as scope:
        x = typed_input(input, "input", "RegexFullMatch")
        p = typed_input(pattern, "pattern", "RegexFullMatch")
        return apply_op("RegexFullMatch", [x, p], {}, name=scope, output_dtypes=[_dtypes.bool])
