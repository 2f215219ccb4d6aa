"""Tests for sandbox/ops/linear_operator/: the structured operators (Kronecker, LowRankUpdate,
BlockDiag, Zeros, Householder, Permutation, Toeplitz, Tridiag, Circulant 1-3D,
BlockLowerTriangular). Each operator's methods are checked against NumPy on its dense matrix
(built here from the definition); TF 2.15.1 (tf.compat.v1) gives the same numbers for every
operator built here, and the numbers quoted as TF's are its outputs."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients
from tests.ops.test_linear_operator import check_methods, hints, run

L = tf.linalg
M2 = np.array([[1., 2.], [3., 4.]])
M3 = np.array([[2., 1., 0.], [0., 3., 1.], [1., 0., 2.]])
X3 = np.array([[1., 2.], [3., 4.], [5., 6.]])


def full(m, **kwargs):
    return L.LinearOperatorFullMatrix(np.asarray(m, np.float64), **kwargs)


def block_diag(*blocks):
    n = sum(b.shape[-1] for b in blocks)
    out = np.zeros((n, n))
    i = 0
    for b in blocks:
        out[i:i + b.shape[0], i:i + b.shape[1]] = b
        i += b.shape[0]
    return out


# -- Kronecker ----------------------------------------------------------------------------------

def test_kronecker():
    op = L.LinearOperatorKronecker([full(M2), full(M3)])
    assert op.name == "LinearOperatorFullMatrix_x_LinearOperatorFullMatrix"
    assert op.shape.as_list() == [6, 6] and hints(op) == [None, None, None, True]
    check_methods(op, np.kron(M2, M3), np.arange(12.).reshape(6, 2) - 3)
    np.testing.assert_allclose(run(op.determinant()), -1352., rtol=1e-9)      # TF 2.15.1
    assert type(op.inverse()).__name__ == "LinearOperatorKronecker"
    np.testing.assert_allclose(run(op.inverse().to_dense()), np.linalg.inv(np.kron(M2, M3)),
                               atol=1e-12)


def test_kronecker_batches_three_factors_and_rectangles():
    d = np.array([[1., -2.], [3., .5]])
    op = L.LinearOperatorKronecker([L.LinearOperatorDiag(d), full(M2)])
    assert op.shape.as_list() == [2, 4, 4]
    dense = np.stack([np.kron(np.diag(r), M2) for r in d])
    check_methods(op, dense, np.arange(16.).reshape(2, 4, 2))
    np.testing.assert_allclose(run(op.determinant()), [16., 9.], rtol=1e-9)   # TF 2.15.1
    three = L.LinearOperatorKronecker([full(M2), L.LinearOperatorDiag(np.array([1., 2.])),
                                       full(M2)])
    check_methods(three, np.kron(np.kron(M2, np.diag([1., 2.])), M2),
                  np.arange(16.).reshape(8, 2))
    row = np.array([[1., 2., 3.]])
    rect = L.LinearOperatorKronecker([full(M2), full(row)])
    assert rect.shape.as_list() == [2, 6] and rect.is_square is False
    check_methods(rect, np.kron(M2, row), np.arange(12.).reshape(6, 2), square=False)
    with pytest.raises(ValueError, match="The Kronecker product of non-singular operators is "
                                         "always non-singular."):
        L.LinearOperatorKronecker([L.LinearOperatorIdentity(2)] * 2, is_non_singular=False)
    p = tf.placeholder(tf.float64, [None, None])
    dyn = L.LinearOperatorKronecker([L.LinearOperatorFullMatrix(p),
                                     L.LinearOperatorDiag(np.array([1., -1., 2.]))])
    assert dyn.shape.as_list() == [None, None]
    shape, mm = run([dyn.shape_tensor(), dyn.matmul(tf.ones([6, 2], tf.float64))], {p: M2})
    assert shape.tolist() == [6, 6]
    np.testing.assert_allclose(mm, np.kron(M2, np.diag([1., -1., 2.])) @ np.ones((6, 2)))


# -- LowRankUpdate ------------------------------------------------------------------------------

U = np.array([[1., .5], [0., 1.], [2., -1.]])


def test_low_rank_update_positive_definite_uses_cholesky():
    base = L.LinearOperatorDiag(np.array([1., 2., 3.]), is_positive_definite=True)
    op = L.LinearOperatorLowRankUpdate(base, U)
    assert hints(op) == [True, True, True, True] and op.shape.as_list() == [3, 3]
    dense = np.diag([1., 2., 3.]) + U @ U.T
    check_methods(op, dense, X3)
    np.testing.assert_allclose(run(op.log_abs_determinant()), 3.7256934272366524)  # TF
    with pytest.raises(ValueError, match="Since UDU\\^H is self-adjoint, this must be a "
                                         "self-adjoint operator."):
        L.LinearOperatorLowRankUpdate(base, U, is_self_adjoint=False)
    with pytest.raises(ValueError, match="Default diagonal is the identity, which is positive."):
        L.LinearOperatorLowRankUpdate(base, U, is_diag_update_positive=False)
    with pytest.raises(ValueError, match="Dimensions 3 and 4 are not compatible"):
        L.LinearOperatorLowRankUpdate(base, np.ones((4, 2)))


def test_low_rank_update_general_and_batched():
    v = np.array([[0., 1.], [1., 1.], [1., 0.]])
    base = np.array([[3., 1., 0.], [0., 4., 1.], [1., 0., 5.]])
    op = L.LinearOperatorLowRankUpdate(full(base), U, diag_update=np.array([2., -.5]), v=v)
    assert hints(op) == [None, None, None, True]
    check_methods(op, base + U @ np.diag([2., -.5]) @ v.T, X3)
    np.testing.assert_allclose(run(op.determinant()), 75.75, rtol=1e-9)         # TF 2.15.1
    diags = np.array([[1., 2., 3.], [2., 2., 2.]])
    batched = L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag(diags), U,
                                            diag_update=np.array([1., 2.]),
                                            is_diag_update_positive=True)
    assert batched.shape.as_list() == [2, 3, 3]
    assert hints(batched) == [None, True, None, True]                           # TF 2.15.1
    dense = np.stack([np.diag(r) + U @ np.diag([1., 2.]) @ U.T for r in diags])
    check_methods(batched, dense, np.stack([X3, X3 + 1]))


# -- BlockDiag --------------------------------------------------------------------------------

def test_block_diag():
    op = L.LinearOperatorBlockDiag([full(M2), full(M3)])
    assert op.name == "LinearOperatorFullMatrix_ds_LinearOperatorFullMatrix"
    assert op.shape.as_list() == [5, 5] and hints(op) == [None, None, None, True]
    dense = block_diag(M2, M3)
    check_methods(op, dense, np.arange(10.).reshape(5, 2))
    np.testing.assert_allclose(run(op.determinant()), -26., rtol=1e-9)          # TF 2.15.1
    inv, h = run([op.inverse().to_dense(), op.adjoint().to_dense()])
    np.testing.assert_allclose(inv, np.linalg.inv(dense), atol=1e-12)
    np.testing.assert_allclose(h, dense.T)
    product = op.matmul(L.LinearOperatorBlockDiag([full(M2), full(M3)]))
    assert type(product).__name__ == "LinearOperatorBlockDiag"                  # TF 2.15.1
    np.testing.assert_allclose(run(product.to_dense()), dense @ dense)
    d = np.array([[1., -2.], [3., .5]])
    batched = L.LinearOperatorBlockDiag([L.LinearOperatorDiag(d), full(M3)])
    assert batched.shape.as_list() == [2, 5, 5]
    check_methods(batched, np.stack([block_diag(np.diag(r), M3) for r in d]),
                  np.arange(10.).reshape(5, 2))
    spd = L.LinearOperatorBlockDiag([full([[2., 1.], [1., 2.]], is_self_adjoint=True,
                                          is_positive_definite=True),
                                     L.LinearOperatorDiag(np.array([4., 9.]),
                                                          is_positive_definite=True)])
    assert type(spd.cholesky()).__name__ == "LinearOperatorBlockDiag"
    np.testing.assert_allclose(run(spd.cholesky().to_dense()), np.linalg.cholesky(
        block_diag(np.array([[2., 1.], [1., 2.]]), np.diag([4., 9.]))), atol=1e-12)
    with pytest.raises(ValueError, match="Can only represent a block diagonal of square "
                                         "matrices."):                          # TF 1.15
        L.LinearOperatorBlockDiag([full(np.ones((2, 3)))])


# -- Zeros ------------------------------------------------------------------------------------

def test_zeros():
    op = L.LinearOperatorZeros(3, dtype=tf.float64)
    assert hints(op) == [False, True, False, True]
    got = run([op.matmul(np.ones((3, 2))), op.matmul(np.ones((2, 3)), adjoint_arg=True),
               op.to_dense(), op.determinant(), op.trace(), op.diag_part(),
               op.add_to_tensor(np.ones((3, 3)))])
    for value, expected in zip(got, [np.zeros((3, 2)), np.zeros((3, 2)), np.zeros((3, 3)), 0.,
                                     0., np.zeros(3), np.ones((3, 3))]):
        np.testing.assert_array_equal(value, expected)
    rect = L.LinearOperatorZeros(2, 3, batch_shape=[2], is_square=False, is_self_adjoint=False,
                                 dtype=tf.float64)
    assert rect.shape.as_list() == [2, 2, 3]
    mm, mm_a, diag = run([rect.matmul(np.ones((3, 4))), rect.matmul(np.ones((2, 4)),
                                                                     adjoint=True),
                          rect.diag_part()])
    assert mm.shape == (2, 2, 4) and mm_a.shape == (2, 3, 4) and diag.shape == (2, 2)
    assert not mm.any()
    assert type(op.matmul(full(np.eye(3)))).__name__ == "LinearOperatorZeros"   # TF 2.15.1
    assert type(full(np.eye(3)).matmul(op)).__name__ == "LinearOperatorZeros"
    with pytest.raises(ValueError, match="A zero operator is always singular."):
        L.LinearOperatorZeros(2, is_non_singular=True)
    with pytest.raises(ValueError, match=r"initialized as is_square=True, but got num_rows\(2\) "
                                         r"!= num_columns\(3\)"):
        L.LinearOperatorZeros(2, 3)
    with pytest.raises(errors.InvalidArgumentError, match="Zero operators are always "
                                                          "non-invertible."):
        op.assert_non_singular()


# -- Householder, Permutation --------------------------------------------------------------

def test_householder():
    v = np.array([1., 2., 2.])
    op = L.LinearOperatorHouseholder(v)
    assert hints(op) == [None, True, False, True] and op.inverse() is op
    check_methods(op, np.eye(3) - 2 * np.outer(v, v) / v.dot(v), X3)
    vb = np.array([[1., 0., 1.], [0., 3., 4.]])
    batched = L.LinearOperatorHouseholder(vb)
    assert batched.shape.as_list() == [2, 3, 3]
    check_methods(batched, np.stack([np.eye(3) - 2 * np.outer(r, r) / r.dot(r) for r in vb]),
                  X3)
    with pytest.raises(ValueError, match="A Householder operator is always non-positive "
                                         "definite."):
        L.LinearOperatorHouseholder(v, is_positive_definite=True)
    with pytest.raises(errors.InvalidArgumentError, match="always non-positive definite"):
        op.assert_positive_definite()


def test_permutation():
    op = L.LinearOperatorPermutation(np.array([2, 0, 1], np.int32), dtype=tf.float64)
    assert op.dtype == tf.float64 and hints(op) == [None, None, None, True]
    check_methods(op, np.eye(3)[[2, 0, 1]], X3)
    perms = np.array([[1, 0, 2], [2, 1, 0]], np.int32)
    batched = L.LinearOperatorPermutation(perms, dtype=tf.float64)
    assert batched.shape.as_list() == [2, 3, 3]
    check_methods(batched, np.stack([np.eye(3)[p] for p in perms]), X3)
    assert L.LinearOperatorPermutation(np.array([1, 0], np.int32)).dtype == tf.float32
    with pytest.raises(ValueError, match="Argument `perm` must be a vector of unique integers "
                                         "from 0 to 2."):
        L.LinearOperatorPermutation(np.array([0, 0, 1], np.int32))
    with pytest.raises(TypeError, match="Argument `perm` must be integer dtype."):
        L.LinearOperatorPermutation(np.array([0., 1.]))


# -- Toeplitz, Tridiag ----------------------------------------------------------------------

def toeplitz(col, row):
    n = len(col)
    return np.array([[col[i - j] if i >= j else row[j - i] for j in range(n)]
                     for i in range(n)])


def test_toeplitz():
    op = L.LinearOperatorToeplitz(np.array([1., 2., 3.]), np.array([1., 4., 5.]))
    dense = toeplitz([1., 2., 3.], [1., 4., 5.])                      # [[1, 4, 5], [2, 1, 4] ...
    check_methods(op, dense, X3)
    np.testing.assert_allclose(run(op.determinant()), 38., rtol=1e-9)            # TF 2.15.1
    cols, rows = np.array([[1., 2., 3.], [4., 0., 1.]]), np.array([[1., 4., 5.], [9., -1., 2.]])
    batched = L.LinearOperatorToeplitz(cols, rows)
    assert batched.shape.as_list() == [2, 3, 3]
    check_methods(batched, np.stack([toeplitz(c, r) for c, r in zip(cols, rows)]), X3)
    f32 = L.LinearOperatorToeplitz(np.float32([1., 2., 3.]), np.float32([1., 4., 5.]))
    got = run(f32.matmul(X3.astype(np.float32)))                    # through complex64 FFTs
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, dense @ X3, rtol=1e-5)
    with pytest.raises(ValueError, match="Expected square matrix, got row and col with "
                                         "mismatched dimensions."):
        L.LinearOperatorToeplitz(np.ones(2), np.ones(3))


def test_tridiag_formats():
    compact = np.array([[1., 2., 3., 0.], [4., 5., 6., 7.], [0., 8., 9., 10.]])
    dense = np.diag(compact[1]) + np.diag(compact[0, :-1], 1) + np.diag(compact[2, 1:], -1)
    x = np.arange(8.).reshape(4, 2) + 1
    for op in [L.LinearOperatorTridiag(compact),
               L.LinearOperatorTridiag(list(compact), diagonals_format="sequence"),
               L.LinearOperatorTridiag(dense, diagonals_format="matrix")]:
        assert op.shape.as_list() == [4, 4]
        check_methods(op, dense, x)
    np.testing.assert_allclose(run(L.LinearOperatorTridiag(compact).determinant()), -360.,
                               rtol=1e-9)                                          # TF 2.15.1
    batched = L.LinearOperatorTridiag(np.stack([compact, 2 * compact]))
    assert batched.shape.as_list() == [2, 4, 4]
    check_methods(batched, np.stack([dense, 2 * dense]), np.stack([x, x - 1]))
    with pytest.raises(ValueError, match="Argument `diagonals_format` must be one of compact, "
                                         "matrix, or sequence. Received : banded."):
        L.LinearOperatorTridiag(compact, diagonals_format="banded")
    with pytest.raises(errors.InvalidArgumentError, match="non-conjugate subdiagonal"):
        run(L.LinearOperatorTridiag(tf.placeholder_with_default(compact, [3, 4]))
            .assert_self_adjoint())


# -- Circulant ----------------------------------------------------------------------------

def circulant_dense(spectrum, depth):
    """Column j of the operator: ifftn(spectrum * fftn(e_j)) over the block dimensions."""
    block = spectrum.shape[-depth:]
    n = int(np.prod(block))
    axes = tuple(range(-depth, 0))
    cols = [np.fft.ifftn(spectrum * np.fft.fftn(np.eye(n)[j].reshape(block), axes=axes),
                         axes=axes).reshape(spectrum.shape[:-depth] + (n,)) for j in range(n)]
    return np.stack(cols, axis=-1)


def test_circulant_real_spectrum():
    spectrum = np.array([6., -1., 2., -1.])                          # Hermitian: a real matrix
    op = L.LinearOperatorCirculant(spectrum, input_output_dtype=tf.float64)
    assert hints(op) == [None, True, None, True] and op.shape.as_list() == [4, 4]
    dense = circulant_dense(spectrum, 1).real
    check_methods(op, dense, np.arange(8.).reshape(4, 2) + 1)
    kernel = run(op.convolution_kernel())
    np.testing.assert_allclose(kernel, [1.5, 1., 2.5, 1.])                         # TF 2.15.1
    np.testing.assert_allclose(dense[:, 0], kernel)                 # the first column
    run(op.assert_hermitian_spectrum())
    product = op.matmul(L.LinearOperatorCirculant(np.array([1., 2., 1., 2.]),
                                                  input_output_dtype=tf.float64))
    assert type(product).__name__ == "LinearOperatorCirculant"
    np.testing.assert_allclose(run(product.to_dense()),
                               dense @ circulant_dense(np.array([1., 2., 1., 2.]), 1).real,
                               atol=1e-12)
    batched = L.LinearOperatorCirculant(np.array([[4., 1., 1.], [2., .5, .5]]),
                                        input_output_dtype=tf.float64)
    assert batched.shape.as_list() == [2, 3, 3]
    check_methods(batched, circulant_dense(np.array([[4., 1., 1.], [2., .5, .5]]), 1).real, X3)
    with pytest.raises(ValueError, match="A real spectrum always corresponds to a self-adjoint "
                                         "operator."):
        L.LinearOperatorCirculant(spectrum, is_self_adjoint=False)


def test_circulant_complex_and_2d_3d():
    spectrum = np.array([1 + 1j, 2 - 1j, 3 + 0j]).astype(np.complex64)
    op = L.LinearOperatorCirculant(spectrum)
    assert op.dtype == tf.complex64 and hints(op) == [None, None, None, True]
    x = np.array([[1.], [2j], [1 - 1j]]).astype(np.complex64)
    dense = circulant_dense(spectrum.astype(np.complex128), 1)
    mm, mm_a, det, tr = run([op.matmul(x), op.matmul(x, adjoint=True), op.determinant(),
                             op.trace()])
    np.testing.assert_allclose(mm, dense @ x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mm_a, dense.conj().T @ x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(det, 9 + 3j, rtol=1e-6)                             # TF 2.15.1
    np.testing.assert_allclose(tr, 6 + 0j, rtol=1e-6)
    s2 = np.array([[8., 1.], [2., 1.], [2., 1.]])      # Hermitian: s[k] = s[-k]
    op2 = L.LinearOperatorCirculant2D(s2, input_output_dtype=tf.float64)
    assert op2.shape.as_list() == [6, 6]
    check_methods(op2, circulant_dense(s2, 2).real, np.arange(12.).reshape(6, 2))
    np.testing.assert_allclose(run(op2.determinant()), np.prod(s2), rtol=1e-9)
    s3 = np.arange(1., 9.).reshape(2, 2, 2)
    op3 = L.LinearOperatorCirculant3D(s3, input_output_dtype=tf.float64)
    assert op3.shape.as_list() == [8, 8]
    check_methods(op3, circulant_dense(s3, 3).real, np.arange(16.).reshape(8, 2))
    with pytest.raises(ValueError, match="Argument spectrum must have at least 2 dimensions."):
        L.LinearOperatorCirculant2D(np.ones(4))


# -- BlockLowerTriangular -------------------------------------------------------------------

def test_block_lower_triangular():
    a = full([[2., 1.], [1., 3.]])
    below = np.array([[1., 2.], [3., 4.], [5., 6.]])
    m21 = full(below)
    d = L.LinearOperatorDiag(np.array([4., 5., 6.]))
    op = L.LinearOperatorBlockLowerTriangular([[a], [m21, d]])
    assert op.shape.as_list() == [5, 5] and hints(op) == [None, None, None, True]
    dense = np.zeros((5, 5))
    dense[:2, :2], dense[2:, :2] = [[2., 1.], [1., 3.]], below
    dense[2:, 2:] = np.diag([4., 5., 6.])
    check_methods(op, dense, np.arange(10.).reshape(5, 2) + 1)
    np.testing.assert_allclose(run(op.determinant()), 600., rtol=1e-9)            # TF 2.15.1
    inverse = op.inverse()
    assert type(inverse).__name__ == "LinearOperatorBlockLowerTriangular"
    np.testing.assert_allclose(run(inverse.to_dense()), np.linalg.inv(dense), atol=1e-12)
    three = L.LinearOperatorBlockLowerTriangular(
        [[a], [full(np.ones((2, 2))), L.LinearOperatorDiag(np.array([1., 2.]))],
         [full(np.arange(4.).reshape(2, 2)), full(np.eye(2)), a]])
    dense3 = run(three.to_dense())
    np.testing.assert_allclose(run(three.inverse().to_dense()), np.linalg.inv(dense3),
                               atol=1e-12)
    with pytest.raises(ValueError, match=r"Argument `operators\[1\]` must contain `2` blocks. "
                                         r"Received: 1 blocks."):
        L.LinearOperatorBlockLowerTriangular([[a], [m21]])
    with pytest.raises(ValueError, match=r"Argument `operators\[1\]\[0\].domain_dimension` "
                                         r"\(3\) must be the same as `operators\[0\]\[0\]"):
        L.LinearOperatorBlockLowerTriangular([[a], [full(np.ones((3, 3))), d]])


# -- gradients ------------------------------------------------------------------------------

def test_gradients_of_structured_operators():
    def base():
        return L.LinearOperatorDiag(np.array([1., 2., 3.]), is_positive_definite=True)
    assert check_gradients(lambda u, x: L.LinearOperatorLowRankUpdate(base(), u).solve(x),
                           [U, X3])
    assert check_gradients(lambda u: L.LinearOperatorLowRankUpdate(base(), u)
                           .log_abs_determinant(), [U])
    assert check_gradients(lambda m: L.LinearOperatorKronecker([
        L.LinearOperatorFullMatrix(m), L.LinearOperatorDiag(np.array([1., -1.]))]).matmul(
        tf.ones([6, 2], tf.float64)), [M3])
    assert check_gradients(lambda s: L.LinearOperatorCirculant(
        s, input_output_dtype=tf.float64).matmul(tf.constant(X3)), [[6., -1., 2.]])
    assert check_gradients(lambda c, r: L.LinearOperatorToeplitz(c, r).matmul(tf.constant(X3)),
                           [[1., 2., 3.], [1., 4., 5.]])
    assert check_gradients(lambda dg: L.LinearOperatorTridiag(dg).solve(tf.constant(X3)),
                           [[[1., 2., 0.], [5., 6., 7.], [0., 1., 2.]]])
    assert check_gradients(lambda v: L.LinearOperatorHouseholder(v).matmul(tf.constant(X3)),
                           [[1., 2., 2.]])
    assert check_gradients(lambda m: L.LinearOperatorBlockLowerTriangular([
        [L.LinearOperatorFullMatrix(m)],
        [L.LinearOperatorFullMatrix(np.ones((2, 3))), L.LinearOperatorDiag(np.array([2., 3.]))]
    ]).solve(tf.ones([5, 1], tf.float64)), [M3])
