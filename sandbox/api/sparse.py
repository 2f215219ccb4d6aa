"""`tf.sparse` -- the names of TensorFlow 1.x's tf.sparse namespace (TF's generated
api/_v1/sparse/__init__.py), gathered from framework/sparse_tensor.py (tf.SparseTensor),
ops/sparse_ops.py (building, reordering, making dense) and ops/sparse_math_ops.py (sums,
the matmul, add):

    sp = tf.sparse.placeholder(tf.float32, shape=[None, 10000])
    logits = tf.sparse.sparse_dense_matmul(sp, w) + b
    counts = tf.sparse.reduce_sum(sp, axis=1)

Not here (TF 1.15 has them): concat, cross, expand_dims, eye, mask, maximum, minimum,
reduce_max, reset_shape, softmax, split, to_indicator, transpose, and the SparseFeature /
sparse-serialization names.
"""
from ..framework.sparse_tensor import SparseTensor  # noqa: F401
from ..ops.sparse_math_ops import (  # noqa: F401
    sparse_add as add, sparse_reduce_sum as reduce_sum, sparse_segment_mean as segment_mean,
    sparse_segment_sqrt_n as segment_sqrt_n, sparse_segment_sum as segment_sum,
    sparse_tensor_dense_matmul as matmul, sparse_tensor_dense_matmul as sparse_dense_matmul,
)
from ..ops.sparse_ops import (  # noqa: F401
    from_dense, sparse_fill_empty_rows as fill_empty_rows, sparse_placeholder as placeholder,
    sparse_reorder as reorder, sparse_reshape as reshape, sparse_retain as retain,
    sparse_slice as slice, sparse_tensor_to_dense as to_dense,
)

__all__ = ["SparseTensor", "add", "fill_empty_rows", "from_dense", "matmul", "placeholder",
           "reduce_sum", "reorder", "reshape", "retain", "segment_mean", "segment_sqrt_n",
           "segment_sum", "slice", "sparse_dense_matmul", "to_dense"]
