"""tf.train.Example and its parts -- TensorFlow's core/example/example.proto and feature.proto,
with a small encoder and decoder of the protocol buffer wire format for these nine messages
only (no protobuf dependency): the six of tf.train.Example, and SequenceExample, FeatureList and
FeatureLists (what tf.parse_single_sequence_example reads).

An Example is what a TFRecord file of training data usually holds: a map from feature names to
lists of bytes, floats or int64s.

    example = tf.train.Example(features=tf.train.Features(feature={
        "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[7])),
        "pixels": tf.train.Feature(float_list=tf.train.FloatList(value=image.ravel())),
    }))
    writer.write(example.SerializeToString())

The messages and their field numbers:

    Example   { Features features = 1; }
    Features  { map<string, Feature> feature = 1; }      # each entry: key = 1, value = 2
    Feature   { oneof kind { BytesList bytes_list = 1; FloatList float_list = 2;
                             Int64List int64_list = 3; } }
    BytesList { repeated bytes value = 1; }
    FloatList { repeated float value = 1 [packed = true]; }      # little-endian float32s
    Int64List { repeated int64 value = 1 [packed = true]; }      # varints

    SequenceExample { Features context = 1; FeatureLists feature_lists = 2; }
    FeatureLists    { map<string, FeatureList> feature_list = 1; }
    FeatureList     { repeated Feature feature = 1; }          # one Feature per time step

On the wire every field is a key -- (field number << 3) | wire type, as a varint -- then its
value: a varint (type 0), 8 bytes (1), a length and that many bytes (2: strings, messages,
packed lists) or 4 bytes (5). Map entries are written sorted by key, as protobuf's
deterministic serialization does, so the bytes equal TF's `SerializeToString(deterministic=
True)`. The decoder also takes unpacked lists, as protobuf parsers do.
"""
import struct

import numpy as np

__all__ = ["Example", "Features", "Feature", "BytesList", "FloatList", "Int64List",
           "SequenceExample", "FeatureList", "FeatureLists", "DecodeError", "parse_features",
           "parse_sequence_features"]


class DecodeError(Exception):
    """The bytes are not a valid message (protobuf's google.protobuf.message.DecodeError)."""


# -- the wire format ------------------------------------------------------------------------

def _varint(value):
    value &= (1 << 64) - 1                   # a negative int64 takes ten bytes
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number, payload):
    """A length-delimited field (wire type 2)."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _read_varint(data, pos):
    """(the varint at data[pos], the position after it); DecodeError if it is cut short."""
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise DecodeError("truncated varint")
        byte = data[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return result, pos


# (public: the SavedModel's checkpoint table and the ops that write protobuf bytes themselves --
# serialize_tensor, decode_json_example -- use protobuf's varints and fields too)
encode_varint, decode_varint, encode_field = _varint, _read_varint, _field


def _fields(data):
    """(field number, wire type, value) of each field of a message's bytes; value is an int
    for varints and fixed-size fields, bytes for length-delimited ones."""
    pos, end = 0, len(data)
    while pos < end:
        key, pos = _read_varint(data, pos)
        number, kind = key >> 3, key & 7
        if kind == 0:
            value, pos = _read_varint(data, pos)
        elif kind == 2:
            length, pos = _read_varint(data, pos)
            if pos + length > end:
                raise DecodeError("truncated field")
            value, pos = data[pos:pos + length], pos + length
        elif kind in (1, 5):
            size = 8 if kind == 1 else 4
            if pos + size > end:
                raise DecodeError("truncated field")
            value, pos = data[pos:pos + size], pos + size
        else:
            raise DecodeError(f"unsupported wire type {kind}")
        if number == 0:
            raise DecodeError("field number 0")
        yield number, kind, value


def _signed(value):
    return value - (1 << 64) if value >= 1 << 63 else value


def _decode_list(kind_name, data):
    """The values of a BytesList, FloatList or Int64List message."""
    values = []
    for number, kind, value in _fields(data):
        if number != 1:
            continue                         # unknown fields are skipped, as protobuf does
        if kind_name == "bytes_list":
            if kind != 2:
                raise DecodeError("bytes_list value is not length-delimited")
            values.append(bytes(value))
        elif kind_name == "float_list":
            if kind == 2:
                if len(value) % 4:
                    raise DecodeError("packed floats of a length not a multiple of 4")
                values.extend(np.frombuffer(value, "<f4").tolist())
            elif kind == 5:
                values.append(struct.unpack("<f", value)[0])
            else:
                raise DecodeError("bad float_list value")
        else:
            if kind == 2:
                pos = 0
                while pos < len(value):
                    v, pos = _read_varint(value, pos)
                    values.append(_signed(v))
            elif kind == 0:
                values.append(_signed(value))
            else:
                raise DecodeError("bad int64_list value")
    return values


_KINDS = {1: "bytes_list", 2: "float_list", 3: "int64_list"}


def parse_features(serialized):
    """{name: (kind, values)} of a serialized Example, without building the objects (what the
    parsing kernels use); kind is 'bytes_list', 'float_list', 'int64_list' or None."""
    out = {}
    for number, kind, features in _fields(bytes(serialized)):
        if number == 1 and kind == 2:
            _decode_map(features, _decode_feature, out)       # a later Features merges in
    return out


def _decode_feature(data):
    """(kind, values) of a Feature's bytes."""
    found = (None, [])
    for number, kind, value in _fields(data):
        if number in _KINDS and kind == 2:
            found = (_KINDS[number], _decode_list(_KINDS[number], value))
    return found


def _decode_map(data, decode_value, out):
    """Adds the entries of a map<string, message> (Features.feature, FeatureLists.feature_list)
    to `out`, each value decoded by `decode_value`; a later entry of a key wins."""
    for number, kind, entry in _fields(data):
        if number != 1 or kind != 2:
            continue
        key, value = b"", b""
        for number2, kind2, field in _fields(entry):
            if number2 == 1 and kind2 == 2:
                key = field
            elif number2 == 2 and kind2 == 2:
                value = field
        try:
            out[bytes(key).decode("utf-8")] = decode_value(value)
        except UnicodeDecodeError:
            raise DecodeError("feature name is not UTF-8") from None


def _decode_feature_list(data):
    """[(kind, values) of each time step] of a FeatureList's bytes."""
    return [_decode_feature(value) for number, kind, value in _fields(data)
            if number == 1 and kind == 2]


def parse_sequence_features(serialized):
    """(context, feature_lists) of a serialized SequenceExample, without building the objects:
    context is {name: (kind, values)} as parse_features gives; feature_lists is
    {name: [(kind, values) of each step]}."""
    context, feature_lists = {}, {}
    for number, kind, value in _fields(bytes(serialized)):
        if number == 1 and kind == 2:
            _decode_map(value, _decode_feature, context)
        elif number == 2 and kind == 2:
            _decode_map(value, _decode_feature_list, feature_lists)
    return context, feature_lists


# -- the messages ---------------------------------------------------------------------------

class _Message:
    """What the nine messages share: equality, FromString / ParseFromString, text format."""

    def __eq__(self, other):
        return type(self) is type(other) and self.SerializeToString() == \
            other.SerializeToString()

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    @classmethod
    def FromString(cls, data):  # noqa: N802 -- protobuf's name
        message = cls()
        message.ParseFromString(data)
        return message

    def ParseFromString(self, data):  # noqa: N802
        self.Clear()
        self.MergeFromString(data)
        return len(data)

    def CopyFrom(self, other):  # noqa: N802
        self.ParseFromString(other.SerializeToString())

    def ByteSize(self):  # noqa: N802
        return len(self.SerializeToString())

    def __str__(self):
        return "".join(self._text(""))

    def __repr__(self):
        return str(self)


class _List(_Message):
    """BytesList / FloatList / Int64List: `value`, a list that checks what goes in."""
    _kind = None

    def __init__(self, value=()):
        self._value = _Values(self)
        self._value.extend(value)

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, values):
        raise AttributeError("Assignment not allowed to repeated field \"value\" in protocol "
                             "message object: use .value.extend(...) or the constructor.")

    def _touched(self):
        """Called when values are added (a Feature learns its kind this way)."""

    def Clear(self):  # noqa: N802
        del self._value[:]

    def MergeFromString(self, data):  # noqa: N802
        try:
            self._value.extend(_decode_list(self._kind, bytes(data)))
        except DecodeError as e:
            raise DecodeError(f"Error parsing message: {e}") from None

    def _text(self, indent):
        for v in self._value:
            if isinstance(v, float):
                v = str(np.float32(v))           # the shortest text of the float32
            elif isinstance(v, bytes):
                v = '"' + v.decode("latin-1").encode("unicode_escape").decode().replace(
                    '"', '\\"') + '"'
            yield f"{indent}value: {v}\n"


class _Values(list):
    """A repeated field: a list whose items are checked (and floats rounded to float32)."""

    def __init__(self, owner):
        super().__init__()
        self._owner = owner

    def _check(self, v):
        kind = self._owner._kind
        if kind == "bytes_list":
            if isinstance(v, str):
                return v.encode("utf-8")
            if not isinstance(v, (bytes, bytearray, np.bytes_)):
                raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: "
                                "bytes, unicode")
            return bytes(v)
        if isinstance(v, (bytes, str)) or not np.isscalar(v) and \
                not isinstance(v, np.ndarray):
            raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: int, "
                            "float" if kind == "float_list" else "int")
        if kind == "float_list":
            return float(np.float32(v))
        if isinstance(v, (float, np.floating)) and v != int(v):
            raise TypeError(f"{v!r} has type {type(v).__name__}, but expected one of: int")
        v = int(v)
        if not -(1 << 63) <= v < 1 << 63:
            raise ValueError(f"Value out of range: {v}")
        return v

    def append(self, v):
        super().append(self._check(v))
        self._owner._touched()

    def extend(self, values):
        values = np.asarray(values).reshape(-1).tolist() if isinstance(values, np.ndarray) \
            else list(values)
        super().extend(self._check(v) for v in values)
        self._owner._touched()

    def __setitem__(self, i, v):
        super().__setitem__(i, self._check(v) if not isinstance(i, slice) else
                            [self._check(x) for x in v])


class BytesList(_List):
    _kind = "bytes_list"

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return b"".join(_field(1, v) for v in self._value)


class FloatList(_List):
    _kind = "float_list"

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return _field(1, np.asarray(self._value, "<f4").tobytes()) if self._value else b""


class Int64List(_List):
    _kind = "int64_list"

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return _field(1, b"".join(_varint(v) for v in self._value)) if self._value else b""


_LIST_CLASSES = {"bytes_list": BytesList, "float_list": FloatList, "int64_list": Int64List}


class Feature(_Message):
    """One feature: a BytesList, FloatList or Int64List (a oneof named `kind`)."""

    def __init__(self, bytes_list=None, float_list=None, int64_list=None):
        self._kind = None
        self._lists = {}
        for name, value in (("bytes_list", bytes_list), ("float_list", float_list),
                            ("int64_list", int64_list)):
            if value is not None:
                if not isinstance(value, _LIST_CLASSES[name]):
                    raise TypeError(f"Parameter to MergeFrom() must be instance of same class: "
                                    f"expected {_LIST_CLASSES[name].__name__} got "
                                    f"{type(value).__name__}.")
                self._lists[name] = value
                self._kind = name

    def _list(self, name):
        if name not in self._lists:
            self._lists[name] = _LIST_CLASSES[name]()
            # appending to a list of this feature makes it the feature's kind (the oneof)
            self._lists[name]._touched = lambda: self._select(name)
        return self._lists[name]

    def _select(self, name):
        self._kind = name

    bytes_list = property(lambda self: self._list("bytes_list"))
    float_list = property(lambda self: self._list("float_list"))
    int64_list = property(lambda self: self._list("int64_list"))

    def WhichOneof(self, oneof_group):  # noqa: N802
        if oneof_group != "kind":
            raise ValueError(f'Protocol message has no oneof "{oneof_group}" field.')
        return self._kind

    def HasField(self, name):  # noqa: N802
        return self._kind == name

    def Clear(self):  # noqa: N802
        self._kind, self._lists = None, {}

    def SerializeToString(self, deterministic=None):  # noqa: N802
        if self._kind is None:
            return b""
        number = {v: k for k, v in _KINDS.items()}[self._kind]
        return _field(number, self._lists[self._kind].SerializeToString())

    def MergeFromString(self, data):  # noqa: N802
        for number, kind, value in _fields(bytes(data)):
            if number in _KINDS and kind == 2:
                name = _KINDS[number]
                self._list(name).MergeFromString(value)
                self._kind = name

    def _text(self, indent):
        if self._kind:
            yield f"{indent}{self._kind} {{\n"
            yield from self._lists[self._kind]._text(indent + "  ")
            yield f"{indent}}}\n"


class _FeatureMap(dict):
    """Features.feature: a map from name to Feature; reading a missing name adds it."""

    def __missing__(self, key):
        feature = Feature()
        dict.__setitem__(self, key, feature)
        return feature

    def __setitem__(self, key, value):
        raise ValueError("Direct assignment of submessage not allowed: use "
                         "features.feature[key].CopyFrom(feature), or build Features with "
                         "feature={...}.")


class Features(_Message):
    """A map from feature names to Feature."""

    def __init__(self, feature=None):
        self._feature = _FeatureMap()
        for key, value in (feature or {}).items():
            if not isinstance(value, Feature):
                raise TypeError(f"feature[{key!r}] must be a tf.train.Feature, got "
                                f"{type(value).__name__}")
            dict.__setitem__(self._feature, str(key), value)

    @property
    def feature(self):
        return self._feature

    def Clear(self):  # noqa: N802
        self._feature.clear()

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return b"".join(_field(1, _field(1, key.encode("utf-8")) +
                               _field(2, self._feature[key].SerializeToString()))
                        for key in sorted(self._feature))

    def MergeFromString(self, data):  # noqa: N802
        for number, kind, entry in _fields(bytes(data)):
            if number == 1 and kind == 2:
                key, feature = b"", Feature()
                for number2, kind2, value in _fields(entry):
                    if number2 == 1 and kind2 == 2:
                        key = bytes(value)
                    elif number2 == 2 and kind2 == 2:
                        feature.MergeFromString(value)
                dict.__setitem__(self._feature, key.decode("utf-8"), feature)

    def _text(self, indent):
        for key in sorted(self._feature):
            yield f'{indent}feature {{\n{indent}  key: "{key}"\n{indent}  value {{\n'
            yield from self._feature[key]._text(indent + "    ")
            yield f"{indent}  }}\n{indent}}}\n"


class Example(_Message):
    """One example: its Features. `SerializeToString()` gives what TFRecord files hold and
    tf.parse_single_example reads."""

    def __init__(self, features=None):
        if features is not None and not isinstance(features, Features):
            raise TypeError(f"features must be a tf.train.Features, got "
                            f"{type(features).__name__}")
        self._features = features if features is not None else Features()
        self._has_features = features is not None        # protobuf's field presence

    @property
    def features(self):
        return self._features

    def HasField(self, name):  # noqa: N802
        return name == "features" and (self._has_features or bool(self._features.feature))

    def Clear(self):  # noqa: N802
        self._features = Features()
        self._has_features = False

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return _field(1, self._features.SerializeToString()) \
            if self.HasField("features") else b""

    def MergeFromString(self, data):  # noqa: N802
        try:
            for number, kind, value in _fields(bytes(data)):
                if number == 1 and kind == 2:
                    self._features.MergeFromString(value)
                    self._has_features = True
        except (DecodeError, UnicodeDecodeError) as e:
            raise DecodeError(f"Error parsing message: {e}") from None

    def _text(self, indent):
        if self._features.feature:
            yield f"{indent}features {{\n"
            yield from self._features._text(indent + "  ")
            yield f"{indent}}}\n"


# -- SequenceExample ------------------------------------------------------------------------

class _RepeatedFeatures(list):
    """FeatureList.feature: a list of Feature messages, with protobuf's `add()`."""

    def _check(self, value):
        if not isinstance(value, Feature):
            raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                            f"Feature got {type(value).__name__}.")
        return value

    def add(self, **kwargs):
        feature = Feature(**kwargs)
        super().append(feature)
        return feature

    def append(self, value):
        super().append(self._check(value))

    def extend(self, values):
        super().extend(self._check(v) for v in values)

    def __setitem__(self, i, value):
        raise TypeError("does not support assignment: use .add(), .append() or .extend()")


class FeatureList(_Message):
    """The values of one feature at each time step of a SequenceExample: a list of Feature."""

    def __init__(self, feature=()):
        self._feature = _RepeatedFeatures()
        self._feature.extend(feature)

    @property
    def feature(self):
        return self._feature

    def Clear(self):  # noqa: N802
        del self._feature[:]

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return b"".join(_field(1, f.SerializeToString()) for f in self._feature)

    def MergeFromString(self, data):  # noqa: N802
        for number, kind, value in _fields(bytes(data)):
            if number == 1 and kind == 2:
                self._feature.add().MergeFromString(value)

    def _text(self, indent):
        for f in self._feature:
            yield f"{indent}feature {{\n"
            yield from f._text(indent + "  ")
            yield f"{indent}}}\n"


class _FeatureListMap(dict):
    """FeatureLists.feature_list: a map from name to FeatureList; reading a name adds it."""

    def __missing__(self, key):
        feature_list = FeatureList()
        dict.__setitem__(self, key, feature_list)
        return feature_list

    def __setitem__(self, key, value):
        raise ValueError("Direct assignment of submessage not allowed: use "
                         "feature_lists.feature_list[key].CopyFrom(feature_list), or build "
                         "FeatureLists with feature_list={...}.")


class FeatureLists(_Message):
    """A map from feature names to FeatureList."""

    def __init__(self, feature_list=None):
        self._feature_list = _FeatureListMap()
        for key, value in (feature_list or {}).items():
            if not isinstance(value, FeatureList):
                raise TypeError(f"feature_list[{key!r}] must be a tf.train.FeatureList, got "
                                f"{type(value).__name__}")
            dict.__setitem__(self._feature_list, str(key), value)

    @property
    def feature_list(self):
        return self._feature_list

    def Clear(self):  # noqa: N802
        self._feature_list.clear()

    def SerializeToString(self, deterministic=None):  # noqa: N802
        return b"".join(_field(1, _field(1, key.encode("utf-8")) +
                               _field(2, self._feature_list[key].SerializeToString()))
                        for key in sorted(self._feature_list))

    def MergeFromString(self, data):  # noqa: N802
        for number, kind, entry in _fields(bytes(data)):
            if number == 1 and kind == 2:
                key, feature_list = b"", FeatureList()
                for number2, kind2, value in _fields(entry):
                    if number2 == 1 and kind2 == 2:
                        key = bytes(value)
                    elif number2 == 2 and kind2 == 2:
                        feature_list.MergeFromString(value)
                dict.__setitem__(self._feature_list, key.decode("utf-8"), feature_list)

    def _text(self, indent):
        for key in sorted(self._feature_list):
            yield f'{indent}feature_list {{\n{indent}  key: "{key}"\n{indent}  value {{\n'
            yield from self._feature_list[key]._text(indent + "    ")
            yield f"{indent}  }}\n{indent}}}\n"


class SequenceExample(_Message):
    """A sequence: `context` (Features of the whole sequence) and `feature_lists` (a FeatureList
    of each feature: its value at each time step). What tf.parse_single_sequence_example
    reads."""

    def __init__(self, context=None, feature_lists=None):
        if context is not None and not isinstance(context, Features):
            raise TypeError(f"context must be a tf.train.Features, got "
                            f"{type(context).__name__}")
        if feature_lists is not None and not isinstance(feature_lists, FeatureLists):
            raise TypeError(f"feature_lists must be a tf.train.FeatureLists, got "
                            f"{type(feature_lists).__name__}")
        self._context = context if context is not None else Features()
        self._feature_lists = feature_lists if feature_lists is not None else FeatureLists()
        self._has = {"context": context is not None,            # protobuf's field presence
                     "feature_lists": feature_lists is not None}

    @property
    def context(self):
        return self._context

    @property
    def feature_lists(self):
        return self._feature_lists

    def HasField(self, name):  # noqa: N802
        if name == "context":
            return self._has["context"] or bool(self._context.feature)
        if name == "feature_lists":
            return self._has["feature_lists"] or bool(self._feature_lists.feature_list)
        raise ValueError(f'Protocol message SequenceExample has no field {name}.')

    def Clear(self):  # noqa: N802
        self._context, self._feature_lists = Features(), FeatureLists()
        self._has = {"context": False, "feature_lists": False}

    def SerializeToString(self, deterministic=None):  # noqa: N802
        out = b""
        if self.HasField("context"):
            out += _field(1, self._context.SerializeToString())
        if self.HasField("feature_lists"):
            out += _field(2, self._feature_lists.SerializeToString())
        return out

    def MergeFromString(self, data):  # noqa: N802
        try:
            for number, kind, value in _fields(bytes(data)):
                if number == 1 and kind == 2:
                    self._context.MergeFromString(value)
                    self._has["context"] = True
                elif number == 2 and kind == 2:
                    self._feature_lists.MergeFromString(value)
                    self._has["feature_lists"] = True
        except (DecodeError, UnicodeDecodeError) as e:
            raise DecodeError(f"Error parsing message: {e}") from None

    def _text(self, indent):
        for name, message in (("context", self._context),
                              ("feature_lists", self._feature_lists)):
            if self.HasField(name):
                yield f"{indent}{name} {{\n"
                yield from message._text(indent + "  ")
                yield f"{indent}}}\n"
