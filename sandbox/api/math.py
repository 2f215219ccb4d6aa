"""`tf.math` -- the names of TensorFlow 1.x's tf.math namespace (TF's generated
api/_v1/math/__init__.py), gathered from the ops modules that define them.

Most are the same functions as the top-level names (`tf.math.log is tf.log`); the ones TF 1.x
has only here live in sandbox/ops/math_extra_ops.py (trigonometry, cumprod, divide_no_nan,
xlogy, reduce_std, reduce_variance, unsorted_segment_sum, confusion_matrix ...):

    accuracy = tf.reduce_mean(tf.cast(tf.math.equal(tf.math.argmax(y, 1), labels), tf.float32))

The complex-number functions (angle, conj, imag, real) are sandbox/ops/complex_ops.py's, the
same as the top-level names; `abs` of a complex tensor is its magnitude (ComplexAbs), and
exp, log, pow, matmul and reduce_prod take complex tensors too.

The modified Bessel functions (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e) are only here,
as in TF 1.15: sandbox/ops/bessel_ops.py. cumulative_logsumexp, polyval and nextafter are
math_extra_ops.py's; the special functions (betainc, digamma, igamma, lgamma, polygamma,
zeta, lbeta) special_math_ops.py's; the segment reductions and bincount segment_ops.py's.
"""
from ..ops.basic_math_ops import (  # noqa: F401
    abs, cos, erf, exp, expm1, is_finite, is_inf, is_nan, log, log1p, maximum, minimum,
    reciprocal, rsqrt, sigmoid, sign, sin, sqrt, square, squared_difference, tanh,
)
from ..ops.comparison_ops import (  # noqa: F401
    equal, greater, greater_equal, less, less_equal, logical_and, logical_not, logical_or,
    logical_xor, not_equal,
)
from ..ops.math_ops import (  # noqa: F401
    accumulate_n, add, add_n, ceil, divide, floor, floordiv, floormod, mod, multiply, negative,
    pow, rint, round, scalar_mul, subtract, truediv,
)
from ..ops.reduction_ops import (  # noqa: F401
    argmax, argmin, count_nonzero, cumsum, reduce_all, reduce_any, reduce_logsumexp,
    reduce_max, reduce_mean, reduce_min, reduce_prod, reduce_sum,
)
from ..ops.array_ops import invert_permutation  # noqa: F401
from ..ops.nn_ops import log_softmax, softmax, softplus, softsign  # noqa: F401
from ..ops.nn_impl import in_top_k, l2_normalize, top_k, zero_fraction  # noqa: F401
from ..ops.math_extra_ops import (  # noqa: F401
    acos, acosh, asin, asinh, atan, atan2, atanh, confusion_matrix, cosh, cumprod, divide_no_nan,
    erfc, is_non_decreasing, is_strictly_increasing, log_sigmoid, multiply_no_nan, reciprocal_no_nan, reduce_euclidean_norm, reduce_std,
    reduce_variance, segment_sum, sinh, tan, unsorted_segment_sum, xdivy, xlogy,
)
from ..ops.special_math_ops import (  # noqa: F401
    betainc, digamma, igamma, igammac, lbeta, lgamma, polygamma, zeta,
)
from ..ops.math_extra_ops import cumulative_logsumexp, nextafter, polyval  # noqa: F401
from ..ops.bessel_ops import bessel_i0, bessel_i0e, bessel_i1, bessel_i1e  # noqa: F401
from ..ops.complex_ops import angle, conj, imag, real  # noqa: F401
from ..ops.segment_ops import (  # noqa: F401
    bincount, segment_max, segment_mean, segment_min, segment_prod, unsorted_segment_max,
    unsorted_segment_mean, unsorted_segment_min, unsorted_segment_prod, unsorted_segment_sqrt_n,
)

__all__ = [
    "bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e", "cumulative_logsumexp", "nextafter",
    "polyval",
    "betainc", "bincount", "digamma", "igamma", "igammac", "lbeta", "lgamma", "polygamma",
    "segment_max", "segment_mean", "segment_min", "segment_prod", "unsorted_segment_max",
    "unsorted_segment_mean", "unsorted_segment_min", "unsorted_segment_prod",
    "unsorted_segment_sqrt_n", "zeta",
    "angle", "conj", "imag", "real",
    "abs", "accumulate_n", "acos", "acosh", "add", "add_n", "argmax", "argmin", "asin", "asinh",
    "atan", "atan2", "atanh", "is_non_decreasing", "is_strictly_increasing",
    "ceil", "confusion_matrix", "cos", "cosh", "count_nonzero", "cumprod", "cumsum", "divide",
    "divide_no_nan", "equal", "erf", "erfc", "exp", "expm1", "floor", "floordiv", "floormod",
    "greater", "greater_equal", "in_top_k", "invert_permutation", "is_finite", "is_inf",
    "is_nan", "l2_normalize", "less", "less_equal", "log", "log1p", "log_sigmoid",
    "log_softmax", "logical_and", "logical_not", "logical_or", "logical_xor", "maximum",
    "minimum", "mod", "multiply", "multiply_no_nan", "negative", "not_equal", "pow",
    "reciprocal", "reciprocal_no_nan", "reduce_all", "reduce_any", "reduce_euclidean_norm",
    "reduce_logsumexp", "reduce_max", "reduce_mean", "reduce_min", "reduce_prod", "reduce_std",
    "reduce_sum", "reduce_variance", "rint", "round", "rsqrt", "scalar_mul", "segment_sum",
    "sigmoid", "sign", "sin", "sinh", "softmax", "softplus", "softsign", "sqrt", "square",
    "squared_difference", "subtract", "tan", "tanh", "top_k", "truediv",
    "unsorted_segment_sum", "xdivy", "xlogy", "zero_fraction",
]
