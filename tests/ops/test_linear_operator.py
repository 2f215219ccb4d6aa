"""Tests for sandbox/ops/linear_operator/: the LinearOperator base class and the basic
operators (FullMatrix, Diag, Identity, ScaledIdentity, LowerTriangular, Composition,
Inversion, Adjoint). Every method's value is checked against NumPy on the dense matrix --
TF 2.15.1 (tf.compat.v1, graph mode) gives the same numbers for each operator built here --
and the static shapes, hints, result types and error messages are TF 2.15.1's (TF 1.15's
wording where the two differ)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients

L = tf.linalg
A = np.array([[4., 1., 2.], [1., 5., 3.], [2., 3., 6.]])          # symmetric positive definite
TRIL = np.array([[2., 9., 9.], [1., 3., 9.], [4., 5., -6.]])
X3 = np.array([[1., 2.], [3., 4.], [5., 6.]])


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def hints(op):
    return [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite, op.is_square]


def adj(m):
    return np.conj(np.swapaxes(m, -1, -2))


def check_methods(op, dense, x, square=True):
    """op's dense view, matmul (all four adjoint combinations), matvec and -- for a square
    invertible op -- solve, solvevec, determinants, against NumPy on `dense`."""
    fetch = {"dense": op.to_dense(), "mm": op.matmul(x), "mm_a": op.matmul(x, adjoint=True)
             if dense.shape[-2] == x.shape[-2] else op.matmul(x),
             "mm_arg": op.matmul(adj(x), adjoint_arg=True), "mv": op.matvec(x[..., 0]),
             "diag": op.diag_part(), "trace": op.trace(), "shape": op.shape_tensor()}
    if square:
        fetch.update(solve=op.solve(x), solve_a=op.solve(x, adjoint=True),
                     solve_arg=op.solve(adj(x), adjoint_arg=True),
                     solvevec=op.solvevec(x[..., 0]), det=op.determinant(),
                     logdet=op.log_abs_determinant())
    got = run(fetch)
    np.testing.assert_allclose(got["dense"], dense, rtol=1e-6, atol=1e-9)
    assert list(got["shape"]) == list(dense.shape)
    np.testing.assert_allclose(got["mm"], dense @ x, rtol=1e-6, atol=1e-9)
    if dense.shape[-2] == x.shape[-2]:
        np.testing.assert_allclose(got["mm_a"], adj(dense) @ x, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(got["mm_arg"], dense @ x, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(got["mv"], (dense @ x[..., :1])[..., 0], rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(got["diag"], np.diagonal(dense, axis1=-2, axis2=-1), atol=1e-9)
    np.testing.assert_allclose(got["trace"], np.trace(dense, axis1=-2, axis2=-1), atol=1e-9)
    if square:
        inv = np.linalg.inv(dense)
        np.testing.assert_allclose(got["solve"], inv @ x, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(got["solve_a"], adj(inv) @ x, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(got["solve_arg"], inv @ x, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(got["solvevec"], (inv @ x[..., :1])[..., 0], rtol=1e-6,
                                   atol=1e-9)
        np.testing.assert_allclose(got["det"], np.linalg.det(dense), rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(got["logdet"], np.linalg.slogdet(dense)[1], rtol=1e-6,
                                   atol=1e-9)


# -- the base class: hints, shapes, argument checks --------------------------------------------

def test_hints_imply_each_other_and_contradictions_raise():
    op = L.LinearOperatorFullMatrix(A, is_positive_definite=True)
    assert hints(op) == [True, None, True, True]          # pd -> non-singular -> square
    with pytest.raises(ValueError, match="A positive definite matrix is always non-singular."):
        L.LinearOperatorFullMatrix(A, is_positive_definite=True, is_non_singular=False)
    with pytest.raises(ValueError, match="A non-singular matrix is always square."):
        L.LinearOperatorFullMatrix(A, is_non_singular=True, is_square=False)
    with pytest.raises(ValueError, match="A self-adjoint matrix is always square."):
        L.LinearOperatorFullMatrix(A, is_self_adjoint=True, is_square=False)
    with pytest.raises(ValueError, match="User set is_square hint to False, but the operator "
                                         "was square."):
        L.LinearOperatorFullMatrix(A, is_square=False).is_square
    rect = L.LinearOperatorFullMatrix(np.ones((2, 3)))
    assert rect.is_square is False and hints(rect)[:3] == [None, None, None]


def test_shapes_static_and_dynamic():
    op = L.LinearOperatorFullMatrix(np.ones((2, 4, 3)))
    assert op.shape.as_list() == [2, 4, 3] and op.batch_shape.as_list() == [2]
    assert op.tensor_rank == 3
    assert op.domain_dimension.value == 3 and op.range_dimension.value == 4
    p = tf.placeholder(tf.float64, [None, None, None])
    dyn = L.LinearOperatorFullMatrix(p)
    assert dyn.shape.as_list() == [None, None, None] and dyn.is_square is None   # TF: (?, ?, ?)
    feed = {p: np.ones((2, 4, 3))}
    got = run([dyn.shape_tensor(), dyn.batch_shape_tensor(), dyn.domain_dimension_tensor(),
               dyn.range_dimension_tensor(), dyn.tensor_rank_tensor()], feed)
    assert [list(got[0]), list(got[1]), got[2], got[3], got[4]] == [[2, 4, 3], [2], 3, 4, 3]
    assert op.dtype == tf.float64 and op.name == "LinearOperatorFullMatrix"
    assert op.graph_parents == [op.matrix]


def test_argument_dtype_and_shape_errors():
    op = L.LinearOperatorFullMatrix(np.array([[1., 2.], [3., 4.]]))
    with pytest.raises(TypeError, match=r"Expected argument to have dtype <dtype: 'float64'>.  "
                                        r"Found: <dtype: 'float32'>"):
        op.matmul(np.ones((2, 2), np.float32))
    for fn in (lambda: op.matmul(np.ones((3, 2))), lambda: op.solve(np.ones((3, 2))),
               lambda: op.matvec(np.ones(3))):
        with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
            fn()
    rect = L.LinearOperatorFullMatrix(np.ones((1, 3)))
    with pytest.raises(NotImplementedError, match="Determinant not implemented for an "
                                                  "operator that is expected to not be square"):
        rect.determinant()
    with pytest.raises(NotImplementedError, match="expected to not be square"):
        rect.solve(np.ones((1, 1)))
    with pytest.raises(NotImplementedError, match="expected to be singular"):
        L.LinearOperatorFullMatrix(np.eye(2), is_non_singular=False).solve(np.ones((2, 1)))
    with pytest.raises(ValueError, match="Cannot take the Inverse: This operator represents a "
                                         "non square matrix."):
        rect.inverse()
    with pytest.raises(ValueError, match="Cannot take the Cholesky decomposition: Not a "
                                         "positive definite self adjoint matrix."):
        op.cholesky()
    with pytest.raises(ValueError, match="Graph parent item 0 is not a Tensor; 1.0."):
        L.LinearOperator.__init__(op, tf.float32, graph_parents=[1.])
    with pytest.raises(TypeError, match=r"Argument matrix must have dtype in \[tf.float16, "
                                        r"tf.float32, tf.float64, tf.complex64, tf.complex128\]"):
        L.LinearOperatorFullMatrix(np.eye(2, dtype=np.int32))
    with pytest.raises(ValueError, match="Argument matrix must have at least 2 dimensions"):
        L.LinearOperatorFullMatrix(np.ones(2))


def test_a_subclass_gets_the_dense_defaults():
    class Sym(L.LinearOperator):
        def __init__(self, m):
            self._m = tf.convert_to_tensor(m)
            super().__init__(dtype=self._m.dtype, graph_parents=[self._m],
                             is_self_adjoint=True, is_positive_definite=True)

        def _shape(self):
            return self._m.shape

        def _shape_tensor(self):
            return tf.shape(self._m)

        def _matmul(self, x, adjoint=False, adjoint_arg=False):
            return tf.matmul(self._m, x, adjoint_a=adjoint, adjoint_b=adjoint_arg)

    m = np.array([[2., 1.], [1., 3.]])
    op = Sym(m)
    check_methods(op, m, np.ones((2, 2)))                  # solve and logdet by Cholesky
    np.testing.assert_allclose(run(op.cholesky().to_dense()), np.linalg.cholesky(m))
    with pytest.raises(TypeError, match="Can't instantiate abstract class LinearOperator"):
        L.LinearOperator(tf.float32)


def test_asserts_fail_when_run():
    bad = {"non_singular": L.LinearOperatorDiag(tf.placeholder_with_default([1., 0.], [2]))
           .assert_non_singular(),
           "positive_definite": L.LinearOperatorDiag(tf.placeholder_with_default([1., -1.], [2]))
           .assert_positive_definite(),
           "self_adjoint": L.LinearOperatorFullMatrix(
               tf.placeholder_with_default([[1., 2.], [3., 4.]], [2, 2])).assert_self_adjoint(),
           "dense_singular": L.LinearOperatorFullMatrix(
               tf.placeholder_with_default([[1., 2.], [2., 4.]], [2, 2])).assert_non_singular()}
    with tf.Session() as sess:
        for name, check in bad.items():               # TF 2.15.1: InvalidArgumentError each
            with pytest.raises(errors.InvalidArgumentError):
                sess.run(check)
        sess.run(L.LinearOperatorFullMatrix(np.array([[2., 1.], [1., 2.]]), is_self_adjoint=True)
                 .assert_positive_definite())


# -- FullMatrix --------------------------------------------------------------------------------

def test_full_matrix_methods_and_cholesky_path():
    op = L.LinearOperatorFullMatrix(A, is_self_adjoint=True, is_positive_definite=True)
    assert hints(op) == [True, True, True, True] and op.shape.as_list() == [3, 3]
    check_methods(op, A, X3)
    chol, inv, added = run([op.cholesky().to_dense(), op.inverse().to_dense(),
                            op.add_to_tensor(np.ones((3, 3)))])
    np.testing.assert_allclose(chol, np.linalg.cholesky(A), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(inv, np.linalg.inv(A), rtol=1e-6, atol=1e-12)
    np.testing.assert_allclose(added, A + 1)


def test_full_matrix_batches_broadcast():
    b = np.array([[[1., 2.], [3., 4.]], [[2., 0.], [1., 3.]]])
    op = L.LinearOperatorFullMatrix(b)
    assert hints(op) == [None, None, None, True]                     # TF 2.15.1
    check_methods(op, b, np.arange(8.).reshape(2, 2, 2) + 1)
    x = np.array([[1., 0.], [2., 1.]])                               # no batch: broadcast
    mm, sol = run([op.matmul(x), op.solve(x)])
    np.testing.assert_allclose(mm, b @ x)
    np.testing.assert_allclose(sol, np.linalg.solve(b, np.broadcast_to(x, (2, 2, 2))))


def test_full_matrix_rectangular_and_complex():
    rect = L.LinearOperatorFullMatrix(np.arange(6.).reshape(2, 3))
    assert rect.H.shape.as_list() == [3, 2]
    check_methods(rect, np.arange(6.).reshape(2, 3), np.ones((3, 2)), square=False)
    c = np.array([[1 + 1j, 2], [0, 1 - 2j]])
    op = L.LinearOperatorFullMatrix(c)
    mm, dense_h, tr = run([op.matmul(np.array([[1j], [1.]]), adjoint=True),
                           op.adjoint().to_dense(), op.trace()])
    np.testing.assert_allclose(mm, adj(c) @ np.array([[1j], [1.]]))
    np.testing.assert_allclose(dense_h, adj(c))                      # conjugated, as TF
    np.testing.assert_allclose(tr, 2 - 1j)


# -- Diag, Identity, ScaledIdentity -------------------------------------------------------------

def test_diag():
    d = np.array([[1., 2., 3.], [4., -5., 6.]])
    op = L.LinearOperatorDiag(d)
    assert op.shape.as_list() == [2, 3, 3] and hints(op) == [None, True, None, True]
    dense = np.stack([np.diag(r) for r in d])
    check_methods(op, dense, X3[None] + np.zeros((2, 1, 1)))
    added, inv = run([op.add_to_tensor(np.ones((2, 3, 3))), op.inverse().to_dense()])
    np.testing.assert_allclose(added, dense + 1)
    np.testing.assert_allclose(inv, np.linalg.inv(dense))
    assert type(op.inverse()).__name__ == "LinearOperatorDiag"       # TF 2.15.1
    product = op.matmul(L.LinearOperatorDiag(np.array([2., 2., 2.])))
    assert type(product).__name__ == "LinearOperatorDiag"
    np.testing.assert_allclose(run(product.to_dense()), dense * 2)
    with pytest.raises(ValueError, match="A real diagonal operator is always self adjoint."):
        L.LinearOperatorDiag([1., 2.], is_self_adjoint=False)
    with pytest.raises(ValueError, match="Only square diagonal operators currently supported."):
        L.LinearOperatorDiag([1., 2.], is_square=False)
    with pytest.raises(ValueError, match="Argument diag must have at least 1 dimension."):
        L.LinearOperatorDiag(1.)


def test_complex_diag():
    d = np.array([1 + 1j, 2 - 1j])
    op = L.LinearOperatorDiag(d)
    assert hints(op) == [None, None, None, True]                     # complex: not known
    rhs = np.array([[1.], [1j]])
    logdet, det, sol, h = run([op.log_abs_determinant(), op.determinant(),
                               op.solve(rhs, adjoint=True), op.H.to_dense()])
    assert logdet.dtype == np.complex128                             # TF casts it back
    np.testing.assert_allclose(logdet, np.log(np.abs(d)).sum())
    np.testing.assert_allclose(det, d.prod())
    np.testing.assert_allclose(sol, rhs / np.conj(d)[:, None])
    np.testing.assert_allclose(h, np.diag(np.conj(d)))


def test_identity():
    op = L.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64)
    assert op.shape.as_list() == [2, 3, 3] and hints(op) == [True, True, True, True]
    check_methods(op, np.broadcast_to(np.eye(3), (2, 3, 3)), X3)     # x broadcast to [2, 3, 2]
    assert run(op.add_to_tensor(np.zeros((3, 3)))).tolist() == np.eye(3).tolist()
    assert L.LinearOperatorIdentity(2).dtype == tf.float32
    d = L.LinearOperatorDiag(np.array([1., 2., 3.]))
    assert op.matmul(d) is d and op.inverse() is op and op.H is op
    for kwargs, message in [({"is_self_adjoint": False}, "An identity operator is always self "
                                                         "adjoint."),
                            ({"num_rows": -1}, "Argument num_rows must be non-negative.  "
                                               "Found: -1"),
                            ({"num_rows": [2]}, r"Argument num_rows must be a 0-D Tensor.  "
                                                r"Found: \[2\]"),
                            ({"batch_shape": [-1]}, r"Argument batch_shape must be "
                                                    r"non-negative.  Found:\[-1\]")]:
        with pytest.raises(ValueError, match=message):
            L.LinearOperatorIdentity(**{"num_rows": 2, **kwargs})
    with pytest.raises(TypeError, match="Argument num_rows must be integer type."):
        L.LinearOperatorIdentity(2.)


def test_identity_of_unknown_size():
    n = tf.placeholder_with_default(np.int32(2), [])
    op = L.LinearOperatorIdentity(n, batch_shape=[3])
    assert op.shape.as_list() == [3, None, None]                      # TF: (3, ?, ?)
    shape, dense, trace = run([op.shape_tensor(), op.to_dense(), op.trace()])
    assert shape.tolist() == [3, 2, 2]
    np.testing.assert_array_equal(dense, np.broadcast_to(np.eye(2), (3, 2, 2)))
    np.testing.assert_array_equal(trace, [2., 2., 2.])


def test_scaled_identity():
    op = L.LinearOperatorScaledIdentity(3, np.array([2., -3.]))
    assert op.shape.as_list() == [2, 3, 3] and hints(op) == [None, True, None, True]
    dense = np.array([2., -3.])[:, None, None] * np.eye(3)
    check_methods(op, dense, X3[None] + np.zeros((2, 1, 1)))
    added, inv = run([op.add_to_tensor(np.ones((2, 3, 3))), op.inverse().to_dense()])
    np.testing.assert_allclose(added, dense + 1)
    np.testing.assert_allclose(inv, np.linalg.inv(dense))
    product = L.LinearOperatorScaledIdentity(3, np.float64(2.)).matmul(
        L.LinearOperatorDiag(np.array([1., 2., 3.])))
    assert type(product).__name__ == "LinearOperatorDiag"            # TF 2.15.1
    np.testing.assert_allclose(run(product.to_dense()), np.diag([2., 4., 6.]))
    c = L.LinearOperatorScaledIdentity(2, np.complex128(1 + 2j))
    det, mm = run([c.determinant(), c.matmul(np.array([[1.], [1j]]), adjoint=True)])
    np.testing.assert_allclose(det, (1 + 2j) ** 2)
    np.testing.assert_allclose(mm, (1 - 2j) * np.array([[1.], [1j]]))
    with pytest.raises(ValueError, match="A ScaledIdentity operator is always square."):
        L.LinearOperatorScaledIdentity(2, 1., is_square=False)


# -- LowerTriangular ------------------------------------------------------------------------

def test_lower_triangular_reads_only_the_lower_triangle():
    op = L.LinearOperatorLowerTriangular(TRIL)
    assert hints(op) == [None, None, None, True]
    check_methods(op, np.tril(TRIL), X3)
    solved = run(op.solve(np.stack([X3, 2 * X3])))                    # rhs batch broadcasts
    np.testing.assert_allclose(solved, np.linalg.solve(np.tril(TRIL), np.stack([X3, 2 * X3])))
    with pytest.raises(ValueError, match="Only square lower triangular operators supported"):
        L.LinearOperatorLowerTriangular(TRIL, is_square=False)


# -- Composition, Inversion, Adjoint --------------------------------------------------------

def test_composition():
    full = L.LinearOperatorFullMatrix(A, is_self_adjoint=True, is_positive_definite=True)
    lt = L.LinearOperatorLowerTriangular(TRIL)
    op = L.LinearOperatorComposition([full, lt])
    assert op.name == "LinearOperatorFullMatrix_o_LinearOperatorLowerTriangular"
    assert hints(op) == [None, None, None, True]
    check_methods(op, A @ np.tril(TRIL), X3)
    d = L.LinearOperatorDiag(np.array([[1., 2., 3.], [4., -5., 6.]]))
    batch = L.LinearOperatorComposition([d, full])
    assert batch.shape.as_list() == [2, 3, 3]
    assert type(full.matmul(lt)).__name__ == "LinearOperatorComposition"


def test_composition_hints_from_the_form_a_ah():
    lt = L.LinearOperatorLowerTriangular(TRIL)
    assert hints(L.LinearOperatorComposition([lt, lt.H])) == [None, True, None, True]
    lt2 = L.LinearOperatorLowerTriangular(TRIL, is_non_singular=True)
    aat = L.LinearOperatorComposition([lt2, lt2.H])
    assert hints(aat) == [True, True, True, True]                    # TF 2.15.1
    chol = run(aat.cholesky().to_dense())
    np.testing.assert_allclose(chol, np.linalg.cholesky(np.tril(TRIL) @ np.tril(TRIL).T),
                               rtol=1e-6)
    ident = L.LinearOperatorIdentity(2)
    with pytest.raises(ValueError, match="The composition of non-singular operators is always "
                                         "non-singular."):
        L.LinearOperatorComposition([ident, ident], is_non_singular=False)
    with pytest.raises(ValueError, match=r"Expected a non-empty list of operators. Found: \[\]"):
        L.LinearOperatorComposition([])
    with pytest.raises(TypeError, match="Expected all operators to have the same dtype."):
        L.LinearOperatorComposition([L.LinearOperatorFullMatrix(np.eye(2)),
                                     L.LinearOperatorDiag([1., 2.])])
    bad = L.LinearOperatorComposition([L.LinearOperatorFullMatrix(np.eye(2)),
                                       L.LinearOperatorFullMatrix(np.eye(3))])
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        bad.shape
    with pytest.raises(ValueError, match="Operators are incompatible. Expected `x` to have "
                                         "dimension 2 but got 3."):
        L.LinearOperatorFullMatrix(np.eye(2)).matmul(L.LinearOperatorFullMatrix(np.eye(3)))


def test_inversion_and_adjoint():
    b = np.array([[[1., 2.], [3., 4.]], [[2., 0.], [1., 3.]]])
    inv = L.LinearOperatorInversion(L.LinearOperatorFullMatrix(b))
    assert inv.name == "LinearOperatorFullMatrix_inv" and hints(inv) == [None, None, None, True]
    check_methods(inv, np.linalg.inv(b), np.arange(8.).reshape(2, 2, 2) + 1)
    rect = np.arange(6.).reshape(2, 3)
    op = L.LinearOperatorAdjoint(L.LinearOperatorFullMatrix(rect))
    assert op.name == "LinearOperatorFullMatrix_adjoint" and op.shape.as_list() == [3, 2]
    check_methods(op, rect.T, np.ones((2, 2)), square=False)
    assert run(op.shape_tensor()).tolist() == [3, 2]
    assert op.H is op.operator
    with pytest.raises(ValueError, match="An operator is self-adjoint if and only if its "
                                         "inverse is self-adjoint."):
        L.LinearOperatorInversion(L.LinearOperatorFullMatrix(np.eye(2), is_self_adjoint=True),
                                  is_self_adjoint=False)
    with pytest.raises(ValueError, match="must have `is_non_singular` equal to `True` or "
                                         "`None`"):
        L.LinearOperatorInversion(L.LinearOperatorFullMatrix(np.eye(2), is_non_singular=False))
    with pytest.raises(ValueError, match="An operator is square if and only if its adjoint is "
                                         "square."):
        L.LinearOperatorAdjoint(L.LinearOperatorFullMatrix(np.eye(2), is_square=True),
                                is_square=False)


def test_solve_with_an_operator_gives_an_operator():
    d = L.LinearOperatorDiag(np.array([2., 4.]))
    full = L.LinearOperatorFullMatrix(np.array([[1., 2.], [3., 4.]]))
    quotient = d.solve(L.LinearOperatorDiag(np.array([1., 1.])))
    assert type(quotient).__name__ == "LinearOperatorDiag"
    general = full.solve(d)
    assert type(general).__name__ == "LinearOperatorComposition"
    q, g = run([quotient.to_dense(), general.to_dense()])
    np.testing.assert_allclose(q, np.diag([.5, .25]))
    np.testing.assert_allclose(g, np.linalg.solve([[1., 2.], [3., 4.]], np.diag([2., 4.])))


# -- gradients flow through the ops the methods build ---------------------------------------

def test_gradients():
    assert check_gradients(lambda a, x: L.LinearOperatorFullMatrix(a).solve(x), [A, X3])
    assert check_gradients(lambda b: L.LinearOperatorFullMatrix(
        b + tf.matrix_transpose(b), is_self_adjoint=True,
        is_positive_definite=True).log_abs_determinant(), [A])       # the Cholesky path
    assert check_gradients(lambda d: L.LinearOperatorDiag(d).log_abs_determinant(),
                           [[1., -2., 3.]])
    assert check_gradients(lambda t, x: L.LinearOperatorLowerTriangular(t).solve(
        x, adjoint=True), [TRIL, X3])
    assert check_gradients(lambda m: L.LinearOperatorScaledIdentity(3, m).determinant(),
                           [[2., -1.5]])
    assert check_gradients(lambda a: L.LinearOperatorComposition([
        L.LinearOperatorFullMatrix(a), L.LinearOperatorLowerTriangular(a)]).inverse().matmul(
        tf.constant(X3)), [A])
