"""`tf.sparse` -- the names of TensorFlow 1.x's tf.sparse namespace (TF's generated
api/_v1/sparse/__init__.py), gathered from framework/sparse_tensor.py (tf.SparseTensor),
ops/sparse_ops.py (building, reordering, making dense), ops/sparse_array_ops.py (concat,
split, transpose, merge, mask ...), ops/sparse_math_ops.py (sums, the matmul, add) and
ops/sparse_reduce_ops.py (softmax, reduce_max, maximum, minimum):

    sp = tf.sparse.placeholder(tf.float32, shape=[None, 10000])
    logits = tf.sparse.sparse_dense_matmul(sp, w) + b
    counts = tf.sparse.reduce_sum(sp, axis=1)

cross and cross_hashed are in ops/sparse_cross_ops.py, eye and expand_dims in
ops/sparse_array_ops.py, and SparseConditionalAccumulator in ops/accumulator_ops.py.
"""
from ..framework.sparse_tensor import SparseTensor  # noqa: F401
from ..ops.accumulator_ops import SparseConditionalAccumulator  # noqa: F401
from ..ops.sparse_array_ops import (  # noqa: F401
    sparse_expand_dims as expand_dims, sparse_eye as eye, sparse_concat as concat, sparse_mask as mask, sparse_merge as merge,
    sparse_reset_shape as reset_shape, sparse_split as split,
    sparse_to_indicator as to_indicator, sparse_transpose as transpose,
)
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
from ..ops.sparse_cross_ops import sparse_cross as cross  # noqa: F401
from ..ops.sparse_cross_ops import sparse_cross_hashed as cross_hashed  # noqa: F401
from ..ops.sparse_reduce_ops import (  # noqa: F401
    sparse_maximum as maximum, sparse_minimum as minimum, sparse_reduce_max as reduce_max,
    sparse_reduce_max_sparse as reduce_max_sparse,
    sparse_reduce_sum_sparse as reduce_sum_sparse, sparse_softmax as softmax,
)

__all__ = ["SparseConditionalAccumulator", "SparseTensor", "add", "concat", "cross",
           "cross_hashed", "expand_dims", "eye", "fill_empty_rows", "from_dense", "mask",
           "matmul",
           "maximum", "merge", "minimum", "placeholder", "reduce_max", "reduce_max_sparse",
           "reduce_sum", "reduce_sum_sparse", "reorder", "reset_shape", "reshape", "retain",
           "segment_mean", "segment_sqrt_n", "segment_sum", "slice", "softmax", "split",
           "sparse_dense_matmul", "to_dense", "to_indicator", "transpose"]
