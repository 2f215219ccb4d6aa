"""Nested structures -- mirrors TensorFlow's python/data/util/nest.py (tf.data's elements) and
python/util/nest.py (tf.nest), which differ in one point: what counts as a *sequence*.

An element of a dataset may be one tensor, a tuple of them, a dict of them, or any nesting of
tuples (namedtuples too) and dicts. Inside, tf.data works on the flat list of its components;
`flatten` and `pack_sequence_as` go between the two, a dict's values in the order of its
sorted keys. As in tf.data (and unlike tf.nest), a *list* is not a structure: it is one
tensor's value (`from_tensor_slices([1, 2, 3])` slices one tensor).

tf.nest (sandbox/api/nest.py) walks the same way with `sequences=is_nested`: lists, tuples,
namedtuples and mappings (dict, OrderedDict ...) are structures, a string is a leaf:

    flatten({"b": [1, (2, 3)], "a": 4}, is_nested)      # [4, 1, 2, 3]

Packing rebuilds each container as its own type, a mapping with its own key order (its values
still taken in sorted-key order). `assert_same_structure` compares two structures as TF does:
the same nesting, the same lengths and keys, and (check_types) the same container types.
"""
import collections.abc

from ..framework.tensor_shape import TensorShape

__all__ = ["is_sequence", "is_nested", "flatten", "pack_sequence_as", "map_structure",
           "assert_same_structure"]


def is_sequence(x):
    """tf.data's structures: tuples (namedtuples too) and dicts -- not lists."""
    return isinstance(x, (tuple, dict))


def is_nested(x):
    """tf.nest's structures: lists, tuples, namedtuples and mappings -- not strings."""
    return isinstance(x, (list, tuple, collections.abc.Mapping))


def _items(x):
    if isinstance(x, collections.abc.Mapping):
        return [x[k] for k in sorted(x)]
    return list(x)


def flatten(structure, sequences=is_sequence):
    """The leaves of `structure`, depth first (a mapping's in sorted-key order)."""
    if not sequences(structure):
        return [structure]
    return [leaf for item in _items(structure) for leaf in flatten(item, sequences)]


def _rebuild(structure, values):
    """A container of structure's type holding `values` (in _items' order)."""
    if isinstance(structure, collections.abc.Mapping):
        by_key = dict(zip(sorted(structure), values))
        return type(structure)((k, by_key[k]) for k in structure)
    if hasattr(structure, "_fields"):                  # a namedtuple
        return type(structure)(*values)
    return type(structure)(values)


def _pack(structure, flat, start, sequences):
    if not sequences(structure):
        return flat[start], start + 1
    values = []
    for item in _items(structure):
        value, start = _pack(item, flat, start, sequences)
        values.append(value)
    return _rebuild(structure, values), start


def pack_sequence_as(structure, flat, sequences=is_sequence):
    """`flat` (a list) in the shape of `structure`."""
    flat = list(flat)
    if not sequences(structure):
        if len(flat) != 1:
            raise ValueError(f"The target structure is of type `{type(structure)}`\n  "
                             f"{structure}\nHowever the input is a sequence "
                             f"({type(flat)}) of length {len(flat)}.\n  {flat}\nnest cannot "
                             "guarantee that it is safe to map one to the other.")
        return flat[0]
    leaves = len(flatten(structure, sequences))
    if leaves != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {leaves} atoms, but "
                         f"flat_sequence had {len(flat)} items.  Structure: {structure}, "
                         f"flat_sequence: {flat}.")
    return _pack(structure, flat, 0, sequences)[0]


def map_structure(fn, structure, sequences=is_sequence):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure, sequences)],
                            sequences)


def _describe(x):
    return f"type={type(x).__name__} str={x}"


class _Dot:
    """A leaf drawn as '.', to show a structure's shape: [., (., .)]."""

    def __repr__(self):
        return "."


def _outline(structure, sequences):
    return map_structure(lambda _: _Dot(), structure, sequences)


def _mismatch(first, second, sequences, check_types):
    """Why two structures differ (TF's "More specifically" sentence), or None."""
    if sequences(first) != sequences(second):
        seq, leaf = (first, second) if sequences(first) else (second, first)
        return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                            f'substructure "{_describe(leaf)}" is not')
    if not sequences(first):
        return None
    if check_types and type(first) is not type(second):
        return TypeError, ("The two namedtuples don't have the same sequence type. First "
                           f"structure {_describe(first)} has type {type(first).__name__}, "
                           f"while second structure {_describe(second)} has type "
                           f"{type(second).__name__}")
    if isinstance(first, collections.abc.Mapping) and isinstance(second,
                                                                 collections.abc.Mapping):
        if set(first) != set(second):
            return ValueError, ("The two dictionaries don't have the same set of keys. First "
                                f"structure has keys {_describe(sorted(first))}, while "
                                f"second structure has keys {_describe(sorted(second))}")
    if len(first) != len(second):
        return ValueError, ("The two structures don't have the same number of elements. "
                            f"First structure: {_describe(first)}. Second structure: "
                            f"{_describe(second)}")
    for a, b in zip(_items(first), _items(second)):
        found = _mismatch(a, b, sequences, check_types)
        if found:
            return found
    return None


def assert_same_structure(first, second, check_types=True, sequences=is_nested):
    """ValueError (TypeError for a container-type difference) unless `first` and `second` nest
    alike: the same containers, lengths and keys at every level; leaves may differ."""
    found = _mismatch(first, second, sequences, check_types)
    if found:
        error, detail = found
        raise error("The two structures don't have the same nested structure.\n\n"
                    f"First structure: {_describe(first)}\n\nSecond structure: "
                    f"{_describe(second)}\n\nMore specifically: {detail}\nEntire first "
                    f"structure:\n{_outline(first, sequences)}\nEntire second structure:\n"
                    f"{_outline(second, sequences)}")


class Spec:
    """One component of an element: dtype and static shape (TF's TensorSpec)."""

    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype = dtype
        self.shape = TensorShape(shape)
