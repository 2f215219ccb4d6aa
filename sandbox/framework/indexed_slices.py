"""IndexedSlices -- mirrors TensorFlow 1.x's python/framework/indexed_slices.py: a sparse gradient, some rows of a tensor.

(Being written: issue 27.)
"""

__all__ = []
