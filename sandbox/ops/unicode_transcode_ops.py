"""Text from one Unicode encoding to another -- mirrors tf.strings.unicode_transcode (op
UnicodeTranscode, core/kernels/unicode_ops.cc), which reads with an ICU converter and writes
UTF-8, UTF-16-BE or UTF-32-BE:

    tf.strings.unicode_transcode(["Hé"], "UTF-8", "UTF-16-BE")     ->  [b'\\x00H\\x00\\xe9']
    tf.strings.unicode_transcode([b"a\\xffb"], "UTF-8", "UTF-8")    ->  [b'a\\xef\\xbf\\xbdb']

Input encodings here: UTF-8, UTF-16-BE, UTF-16-LE, UTF-32-BE, UTF-32-LE, UTF-16 and UTF-32
(a byte order mark at the start of a string says the order and is dropped; big-endian
without one), US-ASCII and ISO-8859-1 (Latin-1). Names are matched as ICU matches them,
ignoring case and '-', '_', ' ' ("utf8", "UTF_16le"). ICU has many more (Shift_JIS,
windows-1252 ...): the sandbox refuses those with NotImplementedError when the op is built;
a name nobody knows fails when it runs, as in TF ("Could not create converter ...").

Where the input is not valid in its encoding, `errors` decides: "replace" (default) puts
`replacement_char` (U+FFFD) in place of each ill-formed part, "ignore" drops it, "strict"
fails the step with InvalidArgumentError "Invalid formatting on input string". An ill-formed
part is what Unicode calls a maximal subpart (ICU and Python's codecs both cut there): one
U+FFFD for b"\\xe2\\x82", three for a UTF-8 surrogate b"\\xed\\xa0\\x80". With
replace_control_characters, the C0 controls U+0000..U+001F count as ill-formed too. A byte
order mark inside a string, or at the start of an explicitly ordered encoding or of UTF-8, is
a character (U+FEFF) and is kept.

Not as in TF: ICU keeps a "UTF-16"/"UTF-32" converter's state from one string of the tensor
to the next, so TF can read a later string's BOM as a character (and a string that is only a
BOM gives U+FFFF); the sandbox reads every string on its own. Same shape; no gradient.
"""
import codecs

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors as _errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from .string_case_ops import check_allowed_attr, typed_input

__all__ = ["unicode_transcode"]

# The decoder reports each ill-formed part as this lone surrogate, which no valid input can
# decode to (Python's UTF decoders refuse surrogates).
_ILL_FORMED = "\ud800"
codecs.register_error("sandbox.unicode_transcode",
                      lambda e: (_ILL_FORMED, e.end))

# ICU's name (as ucnv_compareNames compares it) -> (Python codec, BOMs that pick one).
_BOM_16 = ((codecs.BOM_UTF16_BE, "utf-16-be"), (codecs.BOM_UTF16_LE, "utf-16-le"))
_BOM_32 = ((codecs.BOM_UTF32_BE, "utf-32-be"), (codecs.BOM_UTF32_LE, "utf-32-le"))
_INPUTS = {
    "utf8": ("utf-8", ()), "utf16be": ("utf-16-be", ()), "utf16le": ("utf-16-le", ()),
    "utf32be": ("utf-32-be", ()), "utf32le": ("utf-32-le", ()),
    "utf16": ("utf-16-be", _BOM_16), "utf32": ("utf-32-be", _BOM_32),
    "usascii": ("ascii", ()), "ascii": ("ascii", ()),
    "iso88591": ("latin-1", ()), "latin1": ("latin-1", ()),
}
_OUTPUTS = ("UTF-8", "UTF-16-BE", "UTF-32-BE")


def _icu_name(name):
    return "".join(c for c in name.lower() if c not in "-_ ")


def _decode(s, codec, boms):
    """The code points of bytes `s` (a str), each ill-formed part as _ILL_FORMED."""
    for bom, ordered in boms:
        if s.startswith(bom):
            s, codec = s[len(bom):], ordered
            break
    return s.decode(codec, "sandbox.unicode_transcode")


def _encode(text, output_encoding):
    if output_encoding == "UTF-8":             # ICU writes a lone surrogate as U+FFFD
        return "".join("\ufffd" if "\ud800" <= c <= "\udfff" else c
                       for c in text).encode("utf-8")
    codec = "utf-16-be" if output_encoding == "UTF-16-BE" else "utf-32-be"
    return text.encode(codec, "surrogatepass")


class UnicodeTranscode(OpDef):
    """Each string read in `input_encoding` and written in `output_encoding`."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input, input_encoding="", output_encoding="UTF-8",  # noqa: A002 -- TF's names
               errors="replace", replacement_char=0xFFFD, replace_control_characters=False):
        if not 0 <= replacement_char <= 0x10FFFF:
            raise _errors.InvalidArgumentError(None, None, "replacement_char out of unicode "
                                               "codepoint range")
        if _icu_name(input_encoding) not in _INPUTS:
            raise _errors.InvalidArgumentError(None, None, "Could not create converter for "
                                               f"input encoding: {input_encoding}")
        codec, boms = _INPUTS[_icu_name(input_encoding)]
        substitute = "" if errors == "ignore" else chr(replacement_char)
        ill_formed = [False]

        def transcode(s):
            out = []
            for c in _decode(s if isinstance(s, bytes) else str(s).encode(), codec, boms):
                if c == _ILL_FORMED or (replace_control_characters and c <= "\x1f"):
                    ill_formed[0] = True
                    c = substitute
                out.append(c)
            return _encode("".join(out), output_encoding)

        strings = np.asarray(input, dtype=object)
        result = np.empty(strings.shape, dtype=object)
        for index, s in np.ndenumerate(strings):
            result[index] = transcode(s)
        if errors == "strict" and ill_formed[0]:
            raise _errors.InvalidArgumentError(None, None, "Invalid formatting on input string")
        return result


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """tf.strings.unicode_transcode: each string of `input` read in `input_encoding` (UTF-8,
    UTF-16(-BE/-LE), UTF-32(-BE/-LE), US-ASCII, ISO-8859-1) and written in `output_encoding`
    ("UTF-8", "UTF-16-BE" or "UTF-32-BE"). Ill-formed input: errors="replace" writes
    `replacement_char` for it, "ignore" drops it, "strict" fails when the op runs;
    replace_control_characters treats U+0000..U+001F as ill-formed too."""
    if _icu_name(input_encoding) not in _INPUTS:
        try:
            codecs.lookup(input_encoding)
        except LookupError:
            pass                                # unknown to all: fails when run, as in TF
        else:
            raise NotImplementedError(
                f"tf.strings.unicode_transcode: the sandbox reads UTF-8, UTF-16(-BE/-LE), "
                f"UTF-32(-BE/-LE), US-ASCII and ISO-8859-1, not {input_encoding!r} (TF reads "
                "it with ICU). Transcode it to UTF-8 before it enters the graph.")
    with name_scope(name, "UnicodeTranscode", [input]) as scope:
        check_allowed_attr("UnicodeTranscode", "output_encoding", output_encoding, _OUTPUTS)
        check_allowed_attr("UnicodeTranscode", "errors", errors, ("strict", "replace", "ignore"))
        x = typed_input(input, "input", "UnicodeTranscode")
        return apply_op("UnicodeTranscode", [x],
                        {"input_encoding": input_encoding, "output_encoding": output_encoding,
                         "errors": errors, "replacement_char": int(replacement_char),
                         "replace_control_characters": bool(replace_control_characters)},
                        name=scope, output_dtypes=[_dtypes.string])
