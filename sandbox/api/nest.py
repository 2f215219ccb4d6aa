"""`tf.nest` -- the names of TensorFlow 1.15's tf.nest namespace (TF's generated
api/_v1/nest/__init__.py, python/util/nest.py): nested structures of lists, tuples,
namedtuples and dicts, walked by sandbox/data/nest.py with lists counting as structures (unlike
tf.data's elements, where a list is one tensor's value).

    state = {"h": h, "c": [c1, c2]}
    flat = tf.nest.flatten(state)                      # [c1, c2, h]: sorted keys, depth first
    new_state = tf.nest.pack_sequence_as(state, [tf.zeros_like(t) for t in flat])
    doubled = tf.nest.map_structure(lambda a, b: a + b, state, state)

`expand_composites` is accepted and ignored: SparseTensors and other composite tensors are
leaves here (TF's default).
"""
from ..data import nest as _nest

__all__ = ["assert_same_structure", "flatten", "is_nested", "map_structure", "pack_sequence_as"]

is_nested = _nest.is_nested


def flatten(structure, expand_composites=False):
    """The leaves of `structure` as a list, depth first, a dict's in sorted-key order. A leaf
    (anything but a list, tuple or dict -- None, a string, a tensor) is [structure]."""
    return _nest.flatten(structure, is_nested)


def pack_sequence_as(structure, flat_sequence, expand_composites=False):
    """The values of `flat_sequence` arranged as `structure` (flatten's inverse)."""
    return _nest.pack_sequence_as(structure, flat_sequence, is_nested)


def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
    """ValueError unless nest1 and nest2 nest alike (TypeError when only the container types
    differ and check_types is True: a list is not a tuple, a namedtuple not a tuple)."""
    _nest.assert_same_structure(nest1, nest2, check_types, is_nested)


def map_structure(func, *structure, **kwargs):
    """func applied to the leaves of the structures, leaf by leaf, in the first structure's
    shape; the structures must nest alike (check_types=True: of the same container types)."""
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    if kwargs:
        raise ValueError(f"Only valid keyword arguments are `check_types` and "
                         f"`expand_composites`, not: `{', '.join(sorted(kwargs))}`")
    if not structure:
        raise ValueError("Must provide at least one structure")
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flat = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*leaves) for leaves in zip(*flat)])
