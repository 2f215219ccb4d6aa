"""Nested structures of tf.data elements -- mirrors TensorFlow's python/data/util/nest.py.

An element of a dataset may be one tensor, a tuple of them, a dict of them, or any nesting of
tuples (namedtuples too) and dicts. Inside, tf.data works on the flat list of its components;
`flatten` and `pack_sequence_as` go between the two, a dict's values in the order of its
sorted keys. As in tf.data (and unlike tf.nest), a *list* is not a structure: it is one
tensor's value (`from_tensor_slices([1, 2, 3])` slices one tensor).
"""

from ..framework.tensor_shape import TensorShape

__all__ = ["is_sequence", "flatten", "pack_sequence_as", "map_structure"]


def is_sequence(x):
    return isinstance(x, (tuple, dict))


def _items(x):
    if isinstance(x, dict):
        return [x[k] for k in sorted(x)]
    return list(x)


def flatten(structure):
    """The leaves of `structure`, depth first."""
    if not is_sequence(structure):
        return [structure]
    return [leaf for item in _items(structure) for leaf in flatten(item)]


def _pack(structure, flat, start):
    if not is_sequence(structure):
        return flat[start], start + 1
    values = []
    for item in _items(structure):
        value, start = _pack(item, flat, start)
        values.append(value)
    if isinstance(structure, dict):
        return type(structure)(zip(sorted(structure), values)), start
    if hasattr(structure, "_fields"):                  # a namedtuple
        return type(structure)(*values), start
    return tuple(values), start


def pack_sequence_as(structure, flat):
    """`flat` (a list) in the shape of `structure`."""
    flat = list(flat)
    value, used = _pack(structure, flat, 0)
    if used != len(flat):
        raise ValueError(f"The structure has {used} components but {len(flat)} values were "
                         "given.")
    return value


def map_structure(fn, structure):
    return pack_sequence_as(structure, [fn(x) for x in flatten(structure)])


class Spec:
    """One component of an element: dtype and static shape (TF's TensorSpec)."""

    __slots__ = ("dtype", "shape")

    def __init__(self, dtype, shape):
        self.dtype = dtype
        self.shape = TensorShape(shape)
