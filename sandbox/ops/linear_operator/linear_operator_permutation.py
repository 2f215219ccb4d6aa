"""tf.linalg.LinearOperatorPermutation -- mirrors TF's python/ops/linalg/
linear_operator_permutation.py (a TF 2.x class, in tf.compat.v1.linalg): the permutation
matrix P of `perm` ([B1, ..., Bb, N], each row a permutation of 0 .. N-1), with
(P x)[i] = x[perm[i]].

The dtype is the matrix's (float32 by default), not perm's (an integer tensor). A perm known
when the graph is built must be a permutation (ValueError otherwise). P is orthogonal:
solve is multiplication by P^T, log|det P| = 0.

matmul gathers x's rows when perm is a single vector; a batch of perms is applied as the
dense 0/1 matrix (TF gathers with batch_dims, which the sandbox's gather lacks).
"""
import numpy as np

from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_util import constant_value
from .. import array_ops, control_flow_ops, math_ops
from ..comparison_ops import equal
from ..indexing_ops import gather
from ..matmul_ops import matmul
from ..slicing_ops import concat
from ..sort_ops import argsort
from . import linear_operator_util as util
from .linear_operator import LinearOperator

__all__ = ["LinearOperatorPermutation"]


class LinearOperatorPermutation(LinearOperator):
    """The [batch] permutation matrix of `perm` as a LinearOperator."""

    def __init__(self, perm, dtype=_dtypes.float32, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None, name="LinearOperatorPermutation"):
        with name_scope(name, values=[perm]):
            self._perm = convert_to_tensor(perm, name="perm")
            self._check_perm(self._perm)
            if is_non_singular is False:
                raise ValueError(f"A Permutation operator is always non-singular. Expected "
                                 f"argument `is_non_singular` to be True. Received: "
                                 f"{is_non_singular}.")
            if is_square is False:
                raise ValueError(f"A Permutation operator is always square. Expected argument "
                                 f"`is_square` to be True. Received: {is_square}.")
            is_square = True
            super().__init__(dtype=dtype, graph_parents=[self._perm],
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)

    def _check_perm(self, perm):
        if perm.shape.ndims is not None and perm.shape.ndims < 1:
            raise ValueError(f"Argument `perm` must have at least 1 dimension. Received: "
                             f"{perm}.")
        if not perm.dtype.is_integer:
            raise TypeError(f"Argument `perm` must be integer dtype. Received: {perm}.")
        static_perm = constant_value(perm)
        if static_perm is not None:
            sorted_perm = np.sort(static_perm, axis=-1)
            if np.any(sorted_perm != np.arange(0, static_perm.shape[-1])):
                raise ValueError(f"Argument `perm` must be a vector of unique integers from 0 "
                                 f"to {static_perm.shape[-1] - 1}.")

    @property
    def perm(self):
        return self._perm

    def _shape(self):
        perm_shape = self._perm.shape
        return perm_shape.concatenate(perm_shape[-1:])

    def _shape_tensor(self):
        perm_shape = array_ops.shape(self._perm)
        return concat([perm_shape, perm_shape[-1:]], 0)

    def _assert_non_singular(self):
        return control_flow_ops.no_op("assert_non_singular")

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        x = util.adjoint(x) if adjoint_arg else x
        if self._perm.shape.ndims == 1:
            perm = argsort(self._perm, axis=-1) if adjoint else self._perm
            return gather(x, perm, axis=-2)
        return matmul(self._to_dense(), x, adjoint_a=adjoint)

    def _log_abs_determinant(self):
        return array_ops.zeros(shape=self.batch_shape_tensor(), dtype=self.dtype)

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        return self._matmul(rhs, adjoint=not adjoint, adjoint_arg=adjoint_arg)

    def _to_dense(self):
        n = array_ops.shape(self._perm)[-1]
        return math_ops.cast(equal(array_ops.range(0, n), self._perm[..., None]), self.dtype)

    def _diag_part(self):
        n = array_ops.shape(self._perm)[-1]
        return math_ops.cast(equal(array_ops.range(0, n), self._perm), self.dtype)
