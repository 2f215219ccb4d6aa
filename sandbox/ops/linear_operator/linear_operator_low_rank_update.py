"""tf.linalg.LinearOperatorLowRankUpdate -- mirrors TF 1.15's python/ops/linalg/
linear_operator_low_rank_update.py: A = L + U D V^H, a base operator L plus a rank-K update.

U and V are [..., M, K] tensors (V defaults to U), D a diagonal given by `diag_update`
([..., K], default the identity). matmul is L x + U (D (V^H x)); solve and the determinant
use the K x K "capacitance" matrix C = D^-1 + V^H L^-1 U:

    A^-1 = L^-1 - L^-1 U C^-1 V^H L^-1                     (Woodbury)
    det A = det C det D det L                              (the matrix determinant lemma)

so they cost L's solves plus O(K^3). When L is self-adjoint positive definite, V is U and D
is positive (is_diag_update_positive), A is too: the hints are set, and C is factored with
Cholesky.
"""
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import Dimension, dimension_at_index, dimension_value
from ...platform import tf_logging as logging
from .. import array_ops, basic_math_ops, reduction_ops
from ..complex_ops import conj
from ..diag_ops import matrix_diag_part
from ..linalg_ops import matrix_determinant
from ..manip_ops import broadcast_dynamic_shape, broadcast_static_shape
from ..math_ops import cast
from ..matmul_ops import matmul
from ..matrix_decomposition_ops import cholesky
from ..slicing_ops import concat
from . import linear_operator_util as util
from .linear_operator import LinearOperator
from .linear_operator_diag import LinearOperatorDiag
from .linear_operator_identity import LinearOperatorIdentity

__all__ = ["LinearOperatorLowRankUpdate"]


class LinearOperatorLowRankUpdate(LinearOperator):
    """base_operator + u diag(diag_update) v^H as one LinearOperator."""

    def __init__(self, base_operator, u, diag_update=None, v=None,
                 is_diag_update_positive=None, is_non_singular=None, is_self_adjoint=None,
                 is_positive_definite=None, is_square=None,
                 name="LinearOperatorLowRankUpdate"):
        dtype = base_operator.dtype
        if diag_update is not None:
            if is_diag_update_positive and dtype.is_complex:
                logging.warn("Note: setting is_diag_update_positive with a complex dtype means "
                             "that diagonal is real and positive.")
        if diag_update is None:
            if is_diag_update_positive is False:
                raise ValueError("Default diagonal is the identity, which is positive.  "
                                 "However, user set 'is_diag_update_positive' to False.")
            is_diag_update_positive = True
        self._use_cholesky = bool(base_operator.is_positive_definite and
                                  base_operator.is_self_adjoint and
                                  is_diag_update_positive and v is None)
        if base_operator.is_self_adjoint and v is None and not dtype.is_complex:
            if is_self_adjoint is False:
                raise ValueError("A = L + UDU^H, with L self-adjoint and D real diagonal.  "
                                 "Since UDU^H is self-adjoint, this must be a self-adjoint "
                                 "operator.")
            is_self_adjoint = True
        if self._use_cholesky:
            if is_positive_definite is False or is_self_adjoint is False or \
                    is_non_singular is False:
                raise ValueError("Arguments imply this is self-adjoint positive-definite "
                                 "operator.")
            is_positive_definite = True
            is_self_adjoint = True
        with name_scope(name):
            self._u = convert_to_tensor(u, name="u")
            self._v = self._u if v is None else convert_to_tensor(v, name="v")
            self._diag_update = None if diag_update is None else \
                convert_to_tensor(diag_update, name="diag_update")
            self._base_operator = base_operator
            graph_parents = list(base_operator.graph_parents) + [self._u, self._v]
            if self._diag_update is not None:
                graph_parents.append(self._diag_update)
            super().__init__(dtype=dtype, graph_parents=graph_parents,
                             is_non_singular=is_non_singular, is_self_adjoint=is_self_adjoint,
                             is_positive_definite=is_positive_definite, is_square=is_square,
                             name=name)
            self._set_diag_operators(is_diag_update_positive)
            self._is_diag_update_positive = is_diag_update_positive
            util.check_dtype(self._u, dtype)
            util.check_dtype(self._v, dtype)
            if self._diag_update is not None:
                util.check_dtype(self._diag_update, dtype)
            self._check_shapes()

    def _check_shapes(self):
        uv_shape = broadcast_static_shape(self._u.shape, self._v.shape)
        batch_shape = broadcast_static_shape(self._base_operator.batch_shape, uv_shape[:-2])
        util.assert_dims_compatible(Dimension(self._base_operator.domain_dimension),
                                    dimension_at_index(uv_shape, -2))
        if self._diag_update is not None:
            util.assert_dims_compatible(dimension_at_index(uv_shape, -1),
                                        dimension_at_index(self._diag_update.shape, -1))
            broadcast_static_shape(batch_shape, self._diag_update.shape[:-1])

    def _set_diag_operators(self, is_diag_update_positive):
        if self._diag_update is not None:
            self._diag_operator = LinearOperatorDiag(
                self._diag_update, is_positive_definite=is_diag_update_positive)
        else:
            r = dimension_value(dimension_at_index(self._u.shape, -1))
            if r is None:
                r = array_ops.shape(self._u)[-1]
            self._diag_operator = LinearOperatorIdentity(num_rows=r, dtype=self.dtype)

    @property
    def u(self):
        """The [..., M, K] update on the left."""
        return self._u

    @property
    def v(self):
        """The [..., N, K] update on the right (u itself when not given)."""
        return self._v

    @property
    def is_diag_update_positive(self):
        return self._is_diag_update_positive

    @property
    def diag_update(self):
        return self._diag_update

    @property
    def diag_operator(self):
        """D as a LinearOperator (Diag, or Identity of size K)."""
        return self._diag_operator

    @property
    def base_operator(self):
        return self._base_operator

    def _assert_self_adjoint(self):
        if self._u is self._v and self._diag_update is None:
            return self._base_operator.assert_self_adjoint()
        return super()._assert_self_adjoint()

    def _shape(self):
        batch_shape = util.broadcast_batch_shape([
            self._base_operator.batch_shape, self._diag_operator.batch_shape,
            self._u.shape[:-2], self._v.shape[:-2]])
        return batch_shape.concatenate(self._base_operator.shape[-2:])

    def _shape_tensor(self):
        batch_shape = broadcast_dynamic_shape(self._base_operator.batch_shape_tensor(),
                                              self._diag_operator.batch_shape_tensor())
        batch_shape = broadcast_dynamic_shape(batch_shape, array_ops.shape(self._u)[:-2])
        batch_shape = broadcast_dynamic_shape(batch_shape, array_ops.shape(self._v)[:-2])
        return concat([batch_shape, self._base_operator.shape_tensor()[-2:]], 0)

    def _matmul(self, x, adjoint=False, adjoint_arg=False):
        u, v = self._u, self._v
        leading_term = self._base_operator.matmul(x, adjoint=adjoint, adjoint_arg=adjoint_arg)
        if adjoint:                          # A^H x = L^H x + V D^H U^H x
            u, v = v, u
        vh_x = matmul(v, x, adjoint_a=True, adjoint_b=adjoint_arg)
        d_vh_x = self._diag_operator.matmul(vh_x, adjoint=adjoint)
        return leading_term + matmul(u, d_vh_x)

    def _make_capacitance(self):
        """C = D^-1 + V^H L^-1 U, [..., K, K]."""
        linv_u = self._base_operator.solve(self._u)
        vh_linv_u = matmul(self._v, linv_u, adjoint_a=True)
        return self._diag_operator.inverse().add_to_tensor(vh_linv_u)

    def _determinant(self):
        if self.is_positive_definite:
            return basic_math_ops.exp(self.log_abs_determinant())
        det_c = matrix_determinant(self._make_capacitance())
        return det_c * self._diag_operator.determinant() * self._base_operator.determinant()

    def _diag_part(self):
        product = self._u * conj(self._v)
        if self._diag_update is not None:
            product *= array_ops.expand_dims(self._diag_update, axis=-2)
        return reduction_ops.reduce_sum(product, axis=-1) + self._base_operator.diag_part()

    def _log_abs_determinant(self):
        log_abs_det_d = self._diag_operator.log_abs_determinant()
        log_abs_det_l = self._base_operator.log_abs_determinant()
        if self._use_cholesky:
            chol_cap_diag = matrix_diag_part(cholesky(self._make_capacitance()))
            log_abs_det_c = 2 * reduction_ops.reduce_sum(basic_math_ops.log(chol_cap_diag),
                                                         axis=[-1])
        else:
            det_c = matrix_determinant(self._make_capacitance())
            log_abs_det_c = basic_math_ops.log(basic_math_ops.abs(det_c))
            if self.dtype.is_complex:
                log_abs_det_c = cast(log_abs_det_c, dtype=self.dtype)
        return log_abs_det_c + log_abs_det_d + log_abs_det_l

    def _solve(self, rhs, adjoint=False, adjoint_arg=False):
        if self._base_operator.is_non_singular is False:
            raise ValueError("Solve not implemented unless this is a perturbation of a "
                             "non-singular LinearOperator.")
        base = self._base_operator
        u, v = (self._v, self._u) if adjoint else (self._u, self._v)
        capacitance = self._make_capacitance()
        linv_rhs = base.solve(rhs, adjoint=adjoint, adjoint_arg=adjoint_arg)
        vh_linv_rhs = matmul(v, linv_rhs, adjoint_a=True)
        if self._use_cholesky:
            capinv_vh_linv_rhs = util.cholesky_solve_with_broadcast(cholesky(capacitance),
                                                                    vh_linv_rhs)
        else:
            capinv_vh_linv_rhs = util.matrix_solve_with_broadcast(capacitance, vh_linv_rhs,
                                                                  adjoint=adjoint)
        u_capinv_vh_linv_rhs = matmul(u, capinv_vh_linv_rhs)
        return linv_rhs - base.solve(u_capinv_vh_linv_rhs, adjoint=adjoint)
