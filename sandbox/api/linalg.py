"""`tf.linalg` -- the names of TensorFlow 1.15's tf.linalg namespace (TF's generated
api/_v1/linalg/__init__.py), gathered from the ops modules that define them.

Most are the TF-2 names of top-level TF-1 functions, the same functions:

    tf.linalg.inv is tf.matrix_inverse        tf.linalg.det is tf.matrix_determinant
    tf.linalg.solve is tf.matrix_solve        tf.linalg.lstsq is tf.matrix_solve_ls
    tf.linalg.triangular_solve is tf.matrix_triangular_solve
    tf.linalg.band_part is tf.matrix_band_part  tf.linalg.sqrtm is tf.matrix_square_root
    tf.linalg.diag is tf.matrix_diag          tf.linalg.tensor_diag is tf.diag
    tf.linalg.eigh is tf.self_adjoint_eig
    tf.linalg.transpose is tf.matrix_transpose  tf.linalg.matmul is tf.matmul ...

The ones TF 1.x has only here are sandbox/ops/linalg_impl.py's: logdet, slogdet, adjoint,
matvec, expm, logm (complex matrices), lu (with lu_solve, lu_reconstruct, lu_matrix_inverse),
pinv, matrix_rank, tridiagonal_solve, tridiagonal_matmul, normalize:

    sign, log_abs_det = tf.linalg.slogdet(a)
    x = tf.linalg.tridiagonal_solve(diagonals, rhs)      # diagonals: [..., 3, M]

The LinearOperator classes (sandbox/ops/linear_operator/) are here too: matrices as objects
whose methods build ops from their structure, without forming the matrix where they can:

    operator = tf.linalg.LinearOperatorDiag([1., 2.])
    y = operator.matmul(x)                 # diag * x, elementwise
    operator.log_abs_determinant()         # sum(log|diag|)

LinearOperator (the base class), LinearOperatorFullMatrix, LinearOperatorDiag,
LinearOperatorIdentity, LinearOperatorScaledIdentity, LinearOperatorLowerTriangular,
LinearOperatorComposition, LinearOperatorInversion, LinearOperatorAdjoint,
LinearOperatorKronecker, LinearOperatorLowRankUpdate, LinearOperatorBlockDiag,
LinearOperatorZeros, LinearOperatorHouseholder, LinearOperatorToeplitz and
LinearOperatorCirculant (2D, 3D) are TF 1.15's; LinearOperatorPermutation,
LinearOperatorTridiag and LinearOperatorBlockLowerTriangular came with TF 2.x (its
tf.compat.v1.linalg has them).

Not here (TF has them): eigh_tridiagonal and experimental.conjugate_gradient (TF 2
additions); and tf.linalg's functions do not take LinearOperators in place of tensors (TF
dispatches tf.linalg.det(operator) to operator.determinant(): call the method instead).
"""
from ..ops.array_ops import matrix_transpose  # noqa: F401
from ..ops.clip_ops import global_norm  # noqa: F401
from ..ops.diag_ops import (  # noqa: F401
    diag as tensor_diag, diag_part as tensor_diag_part, matrix_band_part as band_part,
    matrix_diag as diag, matrix_diag_part as diag_part, matrix_set_diag as set_diag, trace,
)
from ..ops.linalg_impl import (  # noqa: F401
    adjoint, expm, logdet, logm, lu, lu_matrix_inverse, lu_reconstruct, lu_solve, matrix_rank,
    matvec, normalize, pinv, slogdet, tridiagonal_matmul, tridiagonal_solve,
)
from ..ops.linalg_ops import (  # noqa: F401
    cholesky_solve, cross, eye, matrix_determinant as det, matrix_inverse as inv,
    matrix_solve as solve, matrix_solve_ls as lstsq, matrix_square_root as sqrtm,
    matrix_triangular_solve as triangular_solve, norm, tensordot,
)
from ..ops.linear_operator import (  # noqa: F401
    LinearOperator, LinearOperatorAdjoint, LinearOperatorBlockDiag,
    LinearOperatorBlockLowerTriangular, LinearOperatorCirculant, LinearOperatorCirculant2D,
    LinearOperatorCirculant3D, LinearOperatorComposition, LinearOperatorDiag,
    LinearOperatorFullMatrix, LinearOperatorHouseholder, LinearOperatorIdentity,
    LinearOperatorInversion, LinearOperatorKronecker, LinearOperatorLowerTriangular,
    LinearOperatorLowRankUpdate, LinearOperatorPermutation, LinearOperatorScaledIdentity,
    LinearOperatorToeplitz, LinearOperatorTridiag, LinearOperatorZeros,
)
from ..ops.matmul_ops import matmul  # noqa: F401
from ..ops.matrix_decomposition_ops import (  # noqa: F401
    cholesky, qr, self_adjoint_eig as eigh, self_adjoint_eigvals as eigvalsh, svd,
)
from ..ops.nn_impl import l2_normalize  # noqa: F401
from ..ops.special_math_ops import einsum  # noqa: F401

transpose = matrix_transpose

__all__ = ["adjoint", "band_part", "cholesky", "cholesky_solve", "cross", "det", "diag",
           "diag_part", "eigh", "eigvalsh", "einsum", "expm", "eye", "global_norm", "inv",
           "l2_normalize", "logdet", "logm", "lstsq", "lu", "lu_matrix_inverse",
           "lu_reconstruct", "lu_solve", "matmul", "matrix_rank", "matrix_transpose", "matvec",
           "norm", "normalize", "pinv", "qr", "set_diag", "slogdet", "solve", "sqrtm", "svd",
           "tensor_diag", "tensor_diag_part", "tensordot", "trace", "transpose",
           "triangular_solve", "tridiagonal_matmul", "tridiagonal_solve",
           "LinearOperator", "LinearOperatorAdjoint", "LinearOperatorBlockDiag",
           "LinearOperatorBlockLowerTriangular", "LinearOperatorCirculant",
           "LinearOperatorCirculant2D", "LinearOperatorCirculant3D",
           "LinearOperatorComposition", "LinearOperatorDiag", "LinearOperatorFullMatrix",
           "LinearOperatorHouseholder", "LinearOperatorIdentity", "LinearOperatorInversion",
           "LinearOperatorKronecker", "LinearOperatorLowerTriangular",
           "LinearOperatorLowRankUpdate", "LinearOperatorPermutation",
           "LinearOperatorScaledIdentity", "LinearOperatorToeplitz", "LinearOperatorTridiag",
           "LinearOperatorZeros"]
