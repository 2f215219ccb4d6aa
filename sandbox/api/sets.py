"""`tf.sets` -- the names of TensorFlow 1.15's tf.sets namespace (TF's generated
api/_v1/sets/__init__.py): the set operations of sandbox/ops/set_ops.py, each under its
TF-1 name and its short TF-2 name (`tf.sets.intersection is tf.sets.set_intersection`).

    common = tf.sets.intersection(predicted_ids, true_ids)     # a SparseTensor
    hits = tf.sets.size(common)                                # int32, one per row
"""
from ..ops.set_ops import (  # noqa: F401
    set_difference, set_intersection, set_size, set_union,
)

difference = set_difference
intersection = set_intersection
size = set_size
union = set_union

__all__ = ["difference", "intersection", "set_difference", "set_intersection", "set_size",
           "set_union", "size", "union"]
