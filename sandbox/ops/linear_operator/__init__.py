"""tf.linalg.LinearOperator and its subclasses -- mirrors TF 1.15's python/ops/linalg/
linear_operator*.py, one module per class (or family), as in TF.

A LinearOperator is a Python object standing for a [batch of] matrix A; its methods build
ops (matmul, solve, determinant, to_dense ...) from what defines it, without forming A when
structure allows:

    LinearOperatorFullMatrix(matrix)          LinearOperatorDiag(diag)
    LinearOperatorIdentity(n)                 LinearOperatorScaledIdentity(n, c)
    LinearOperatorLowerTriangular(tril)       LinearOperatorZeros(m, n)
    LinearOperatorComposition([A, B])  A B    LinearOperatorInversion(A)   A^-1
    LinearOperatorAdjoint(A)           A^H    LinearOperatorKronecker([A, B])  A (x) B
    LinearOperatorLowRankUpdate(L, U)  L + U D V^H
    LinearOperatorBlockDiag([A, B])    [[A, 0], [0, B]]
    LinearOperatorHouseholder(v)       I - 2 v v^H / |v|^2
    LinearOperatorPermutation(perm)    LinearOperatorToeplitz(col, row)
    LinearOperatorTridiag(diagonals)   LinearOperatorBlockLowerTriangular([[A], [B, C]])
    LinearOperatorCirculant(spectrum)  (and 2D, 3D: block circulant, by FFTs)

Permutation, Tridiag and BlockLowerTriangular are TF 2.x classes (in tf.compat.v1.linalg);
the rest are TF 1.15's. Everything is built from existing ops (matmul, the triangular and LU
solves, Cholesky, FFTs, reshapes), so gradients flow through every method as in TF. The ops
behind dense solves and determinants (MatrixSolve, Cholesky, MatrixDeterminant ...) take
real matrices only here, so a complex FullMatrix or LowerTriangular operator can matmul but
not solve (Diag, ScaledIdentity, Circulant and the others built from elementwise ops and FFTs
can).

The module names and the class hierarchy are TF's; the package adds no op of its own.
"""
from .linear_operator import LinearOperator  # noqa: F401
from .linear_operator_full_matrix import LinearOperatorFullMatrix  # noqa: F401
from .linear_operator_lower_triangular import LinearOperatorLowerTriangular  # noqa: F401
from .linear_operator_diag import LinearOperatorDiag  # noqa: F401
from .linear_operator_identity import (  # noqa: F401
    LinearOperatorIdentity, LinearOperatorScaledIdentity,
)
from .linear_operator_composition import LinearOperatorComposition  # noqa: F401
from .linear_operator_inversion import LinearOperatorInversion  # noqa: F401
from .linear_operator_adjoint import LinearOperatorAdjoint  # noqa: F401
from .linear_operator_kronecker import LinearOperatorKronecker  # noqa: F401
from .linear_operator_low_rank_update import LinearOperatorLowRankUpdate  # noqa: F401
from .linear_operator_block_diag import LinearOperatorBlockDiag  # noqa: F401
from .linear_operator_zeros import LinearOperatorZeros  # noqa: F401
from .linear_operator_householder import LinearOperatorHouseholder  # noqa: F401
from .linear_operator_permutation import LinearOperatorPermutation  # noqa: F401
from .linear_operator_circulant import (  # noqa: F401
    LinearOperatorCirculant, LinearOperatorCirculant2D, LinearOperatorCirculant3D,
)
from .linear_operator_toeplitz import LinearOperatorToeplitz  # noqa: F401
from .linear_operator_tridiag import LinearOperatorTridiag  # noqa: F401
from .linear_operator_block_lower_triangular import (  # noqa: F401
    LinearOperatorBlockLowerTriangular,
)
