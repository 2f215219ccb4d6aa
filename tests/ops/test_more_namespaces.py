"""Tests for TF 1.15's smaller namespaces: tf.linalg (sandbox/ops/linalg_impl.py and aliases),
tf.manip, tf.bitwise (ops/bitwise_ops.py), tf.sets (ops/set_ops.py), tf.queue,
tf.quantization, tf.nest (data/nest.py) and tf.config. The numbers are TF 2.15.1's
(tf.compat.v1, graph mode)."""
import collections

import numpy as np
import pytest

import sandbox as tf
from sandbox.api import config as config_module
from sandbox.framework import errors


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def assert_sparse(value, indices, values, dense_shape):
    np.testing.assert_array_equal(value.indices, np.array(indices, np.int64).reshape(
        -1, len(dense_shape)))
    np.testing.assert_array_equal(value.values, values)
    np.testing.assert_array_equal(value.dense_shape, dense_shape)


# -- tf.linalg -------------------------------------------------------------------------------

A = np.array([[4., 1., 2.], [1., 5., 3.], [2., 3., 6.]], np.float32)       # positive definite
M = np.array([[0., 2., 1.], [3., 1., 4.], [1., 1., 0.]], np.float32)       # needs pivoting


def test_linalg_aliases_are_the_top_level_functions():
    la = tf.linalg
    assert la.inv is tf.matrix_inverse and la.det is tf.matrix_determinant
    assert la.band_part is tf.matrix_band_part and la.sqrtm is tf.matrix_square_root
    assert la.matmul is tf.matmul and la.solve is tf.matrix_solve
    assert la.triangular_solve is tf.matrix_triangular_solve and la.lstsq is tf.matrix_solve_ls
    assert la.eigh is tf.self_adjoint_eig and la.diag is tf.matrix_diag
    assert la.tensor_diag is tf.diag and la.transpose is tf.matrix_transpose


def test_linalg_functions_match_tensorflow():
    la = tf.linalg
    m = tf.constant(M)
    lu, perm = la.lu(m)
    sign, log_abs = la.slogdet(m)
    out = run({
        "logdet": la.logdet(tf.constant(A)), "sign": sign, "log_abs": log_abs,
        "expm": la.expm(m * 0.3), "lu": lu, "perm": perm,
        "lu_solve": la.lu_solve(lu, perm, tf.constant([[1.], [2.], [3.]])),
        "lu_inv": la.lu_matrix_inverse(lu, perm), "lu_rec": la.lu_reconstruct(lu, perm),
        "matvec": la.matvec(m, tf.constant([1., 2., 3.])), "adjoint": la.adjoint(m),
        "pinv": la.pinv(tf.constant([[1., 2.], [2., 4.], [0., 1.]])),
        "rank": la.matrix_rank(tf.constant([[1., 2.], [2., 4.]])),
        "normalize": la.normalize(tf.constant([3., 4.])),
        "grad": tf.gradients(log_abs, m)[0],
        "logm": la.logm(tf.constant(A.astype(np.complex64))),
    })
    # TF 2.15.1's numbers
    np.testing.assert_allclose(out["logdet"], 4.248495, rtol=1e-6)
    assert out["sign"] == 1.0
    np.testing.assert_allclose(out["log_abs"], 2.3025851, rtol=1e-6)
    np.testing.assert_allclose(out["expm"], [[1.4322339, 0.88342226, 0.7955027],
                                             [1.4612072, 2.0100186, 1.821274],
                                             [0.5233553, 0.5233553, 1.3233749]], rtol=1e-5)
    np.testing.assert_allclose(out["lu"], [[3., 1., 4.], [0., 2., 1.],
                                           [0.33333334, 0.3333333, -1.6666667]], rtol=1e-5)
    np.testing.assert_array_equal(out["perm"], [1, 0, 2])
    assert out["perm"].dtype == np.int32
    np.testing.assert_allclose(out["lu_solve"], [[1.9], [1.1], [-1.2]], rtol=1e-5)
    np.testing.assert_allclose(out["lu_inv"], [[-0.4, 0.1, 0.7], [0.4, -0.1, 0.3],
                                               [0.2, 0.2, -0.6]], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(out["lu_rec"], M, atol=1e-6)
    np.testing.assert_array_equal(out["matvec"], [7., 17., 3.])
    np.testing.assert_array_equal(out["adjoint"], M.T)
    np.testing.assert_allclose(out["pinv"], [[0.2, 0.4, -2.], [0., 0., 1.]], atol=1e-6)
    assert out["rank"] == 1 and out["rank"].dtype == np.int32
    np.testing.assert_allclose(out["normalize"][0], [0.6, 0.8])
    np.testing.assert_allclose(out["normalize"][1], [5.])
    np.testing.assert_allclose(out["grad"], np.linalg.inv(M).T, rtol=1e-5)   # d log|det|
    np.testing.assert_allclose(out["logm"], [[1.2787359, 0.1105215, 0.40939218],
                                             [0.11052164, 1.4161643, 0.60063463],
                                             [0.40939218, 0.6006348, 1.5535934]], rtol=2e-6)
    assert la.lu(m, output_idx_type=tf.int64)[1].dtype == tf.int64
    assert la.expm(m).op.type == "MatrixExponential" and log_abs.op.type == \
        "LogMatrixDeterminant"


def test_tridiagonal_solve_and_matmul_in_each_format():
    la = tf.linalg
    rhs = tf.constant([[1.], [2.], [3.]])
    compact = tf.constant([[1., 2., 3.], [4., 5., 6.], [7., 8., 0.]])   # super, main, sub
    sequence = (tf.constant([0., 1., 2.]), tf.constant([4., 5., 6.]), tf.constant([7., 8., 0.]))
    matrix = tf.constant([[4., 1., 0.], [8., 5., 2.], [0., 0., 6.]])     # = compact's
    solved = la.tridiagonal_solve(compact, rhs)
    assert solved.op.type == "TridiagonalSolve" and solved.op.name == "TridiagonalSolve"
    out = run([solved, la.tridiagonal_solve(sequence, rhs, diagonals_format="sequence"),
               la.tridiagonal_solve(matrix, rhs, diagonals_format="matrix"),
               la.tridiagonal_matmul(tf.constant([[0., 2., 3.], [4., 5., 6.], [7., 8., 0.]]),
                                     rhs)])
    # TF 2.15.1's numbers
    np.testing.assert_allclose(out[0], [[1 / 3], [-1 / 3], [0.5]], rtol=1e-6)
    np.testing.assert_allclose(out[1], [[0.25], [-0.1], [0.5]], rtol=1e-6)
    np.testing.assert_allclose(out[2], out[0], rtol=1e-6)
    np.testing.assert_array_equal(out[3], [[4.], [24.], [18.]])
    with pytest.raises(ValueError, match="diagonals_format"):
        la.tridiagonal_solve(compact, rhs, diagonals_format="banded")


# -- tf.manip, tf.queue, tf.quantization -----------------------------------------------------

def test_manip_queue_and_quantization_are_the_top_level_names():
    assert tf.manip.roll is tf.roll and tf.manip.tile is tf.tile
    assert tf.manip.gather_nd is tf.gather_nd and tf.manip.reshape is tf.reshape
    assert tf.queue.FIFOQueue is tf.FIFOQueue and tf.queue.QueueBase is tf.QueueBase
    assert tf.queue.PriorityQueue is tf.PriorityQueue
    assert tf.quantization.quantize is tf.quantize
    assert tf.quantization.fake_quant_with_min_max_args is tf.fake_quant_with_min_max_args

    rolled = tf.manip.roll(tf.constant([[1, 2, 3], [4, 5, 6]]), shift=[1, -1], axis=[0, 1])
    q = tf.queue.FIFOQueue(3, [tf.int32], shapes=[[]])
    enqueue = q.enqueue_many([[7, 8]])
    fake = tf.quantization.fake_quant_with_min_max_args(
        tf.constant([-7., -1.3, 0.1, 2.71, 6.5]), min=-6., max=6.)
    quantized = tf.quantization.quantize(tf.constant([-1., -0.3, 0.2, 1.]), -1., 1., tf.quint8)
    back = tf.quantization.dequantize(*quantized)
    with tf.Session() as sess:
        sess.run(enqueue)
        out = sess.run([rolled, q.dequeue(), fake, back])
    # TF 2.15.1's numbers
    np.testing.assert_array_equal(out[0], [[5, 6, 4], [2, 3, 1]])
    assert out[1] == 7
    np.testing.assert_allclose(out[2], [-6.0235295, -1.3176471, 0.09411765, 2.7294118,
                                        5.9764705], rtol=1e-6)
    np.testing.assert_allclose(out[3], [-1., -0.30196077, 0.20000005, 1.], rtol=1e-6)


def test_quantize_and_dequantize_matches_tensorflow():
    qd = tf.quantization.quantize_and_dequantize
    x = tf.constant([-1.3, -0.5, 0.0, 0.37, 0.5, 2.0, 2.6])
    given = qd(x, -1.0, 2.0, range_given=True)
    assert given.op.type == "QuantizeAndDequantizeV2"
    assert given.op.inputs[1].name == "QuantizeAndDequantizeV2/input_min:0"
    out = run([given, qd(x, 0., 0.),
               qd(x, -1.0, 2.0, range_given=True, num_bits=4, narrow_range=True),
               qd(tf.constant([0.1, 0.5, 3.0]), 0., 0., signed_input=False, num_bits=4),
               qd(tf.constant([2.5, 3.5, -2.5]), -127., 127., range_given=True),
               qd(tf.constant([2.5, 3.5, -2.5]), -127., 127., range_given=True,
                  round_mode="HALF_UP"),
               qd(tf.constant([[-1., 0.5], [2., -4.]]), [-1., -4.], [2., 0.5], range_given=True,
                  axis=1),
               tf.gradients(given * tf.constant([1., 2., 3., 4., 5., 6., 7.]), x)[0]])
    # TF 2.15.1's numbers (the range [-1, 2] grows to [-2.0157, 2] to keep 0 exact)
    np.testing.assert_array_equal(out[0], np.float32([-1.3070866, -0.503937, 0., 0.36220473,
                                                      0.503937, 2., 2.]))
    np.testing.assert_array_equal(out[1], np.float32([-1.3102362, -0.49133858, 0., 0.36850393,
                                                      0.49133858, 2.0062993, 2.6]))
    np.testing.assert_allclose(out[2], [-1.4285715, -0.5714286, 0., 0.2857143, 0.5714286, 2.,
                                        2.], rtol=1e-6)
    np.testing.assert_allclose(out[3], [0., 0.4, 3.], rtol=1e-6)
    np.testing.assert_array_equal(out[4], [2., 4., -2.])          # half to even
    np.testing.assert_array_equal(out[5], [3., 4., -2.])          # half up
    np.testing.assert_allclose(out[6], [[-1.007874, 0.5], [2., -4.]], rtol=1e-6)
    np.testing.assert_array_equal(out[7], [1., 2., 3., 4., 5., 6., 7.])   # straight through
    with pytest.raises(errors.InvalidArgumentError, match="Invalid range: input_min 2 > "
                       "input_max -1"):
        run(qd(x, 2.0, -1.0, range_given=True))


# -- tf.bitwise ------------------------------------------------------------------------------

def test_bitwise_ops_match_tensorflow_including_out_of_range_shifts():
    bw = tf.bitwise
    x = tf.constant(np.array([0, 5, -3, 127, -128], np.int8))
    y = tf.constant(np.array([1, 3, 7, 8, 9], np.int8))
    u = tf.constant(np.array([1, 200, 255], np.uint8))
    u_shift = tf.constant(np.array([1, 9, 200], np.uint8))
    i = tf.constant([-1, 1, -16])
    i_shift = tf.constant([40, -1, 2])
    out = run([bw.bitwise_and(x, y), bw.bitwise_or(x, y), bw.bitwise_xor(x, y), bw.invert(x),
               bw.left_shift(x, y), bw.right_shift(x, y), bw.left_shift(u, u_shift),
               bw.right_shift(u, u_shift), bw.left_shift(i, i_shift),
               bw.right_shift(i, i_shift),
               bw.bitwise_and(tf.constant([[1], [2]]), tf.constant([3, 1, 2]))])
    # TF 2.15.1's numbers: shift amounts are clamped to [0, bits - 1]
    expected = [[0, 1, 5, 8, 0], [1, 7, -1, 127, -119], [1, 6, -6, 119, -119],
                [-1, -6, 2, -128, 127], [0, 40, -128, -128, 0], [0, 0, -1, 0, -1],
                [2, 0, 128], [0, 1, 1], [-2147483648, 1, -64], [-1, 1, -4],
                [[1, 1, 0], [2, 0, 2]]]
    for got, want in zip(out, expected):
        np.testing.assert_array_equal(got, want)
    assert out[0].dtype == np.int8 and out[6].dtype == np.uint8
    assert bw.left_shift(x, y).op.type == "LeftShift" and bw.invert(x).op.type == "Invert"
    with pytest.raises(TypeError, match="DataType float32 not in list of allowed values"):
        bw.bitwise_and(tf.constant([1.]), tf.constant([2.]))


# -- tf.sets ---------------------------------------------------------------------------------

def test_sets_of_dense_tensors_match_tensorflow():
    a = tf.constant([[[1, 2, 2, 5], [4, 3, 1, 1]], [[6, 0, 9, 9], [8, 8, 8, 8]]], tf.int64)
    b = tf.constant([[[2, 1, 7, 7], [1, 1, 1, 1]], [[0, 9, 9, 3], [8, 8, 8, 8]]], tf.int64)
    inter = tf.sets.set_intersection(a, b)
    assert inter.indices.op.type == "DenseToDenseSetOperation"
    assert inter.indices.get_shape().as_list() == [None, 3]
    assert inter.dense_shape.get_shape().as_list() == [3]
    out = run([inter, tf.sets.union(a, b), tf.sets.difference(a, b),
               tf.sets.set_difference(a, b, aminusb=False),
               tf.sets.difference(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 2], [3, 4]])),
               tf.sets.intersection(tf.constant([["a", "b", "b"], ["c", "a", "d"]]),
                                    tf.constant([["b", "x", "a"], ["a", "a", "a"]]))])
    # TF 2.15.1's SparseTensorValues
    assert_sparse(out[0], [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]],
                  [1, 2, 1, 0, 9, 8], [2, 2, 2])
    assert_sparse(out[1], [[0, 0, 0], [0, 0, 1], [0, 0, 2], [0, 0, 3], [0, 1, 0], [0, 1, 1],
                           [0, 1, 2], [1, 0, 0], [1, 0, 1], [1, 0, 2], [1, 0, 3], [1, 1, 0]],
                  [1, 2, 5, 7, 1, 3, 4, 0, 3, 6, 9, 8], [2, 2, 4])
    assert_sparse(out[2], [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]], [5, 3, 4, 6],
                  [2, 2, 2])
    assert_sparse(out[3], [[0, 0, 0], [1, 0, 0]], [7, 3], [2, 2, 1])
    assert_sparse(out[4], [], [], [2, 0])
    assert_sparse(out[5], [[0, 0], [0, 1], [1, 0]], [b"a", b"b", b"a"], [2, 2])
    with pytest.raises(TypeError, match="invalid dtype"):
        tf.sets.union(tf.constant([[1.]]), tf.constant([[1.]]))
    with pytest.raises(ValueError, match="at least rank 2"):
        tf.sets.union(tf.constant([1, 2]), tf.constant([[1, 2]]))
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal"):
        tf.sets.union(tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 2, 3]]))


def test_sets_of_sparse_tensors_and_set_size():
    sparse = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [1, 2]],
                             tf.constant([1, 3, 2, 5], tf.int64), [2, 4])
    dense = tf.constant([[1, 2, 2, 5], [4, 3, 1, 1]], tf.int64)
    dense_sparse = tf.sets.intersection(dense, sparse)
    flipped = tf.sets.difference(sparse, dense)        # sparse - dense: b - a after the swap
    assert dense_sparse.indices.op.type == "DenseToSparseSetOperation"
    union = tf.sets.union(tf.SparseTensor([[0, 0], [0, 1], [1, 0]],
                                          tf.constant([4, 1, 2], tf.int64), [2, 2]),
                          tf.SparseTensor([[0, 0], [1, 0], [1, 1]],
                                          tf.constant([1, 9, 3], tf.int64), [2, 3]))
    assert union.indices.op.type == "SparseToSparseSetOperation"
    assert union.indices.get_shape().as_list() == [None, 2]
    sizes = tf.sets.size(tf.SparseTensor([[0, 0, 0], [0, 0, 1], [1, 1, 0]],
                                         tf.constant([3, 3, 1], tf.int64), [2, 2, 4]))
    assert sizes.op.type == "SetSize" and sizes.dtype == tf.int32
    out = run([dense_sparse, flipped, union, sizes])
    # TF 2.15.1's numbers
    assert_sparse(out[0], [[0, 0]], [1], [2, 1])
    assert_sparse(out[1], [[0, 0], [1, 0], [1, 1]], [3, 2, 5], [2, 2])
    assert_sparse(out[2], [[0, 0], [0, 1], [1, 0], [1, 1], [1, 2]], [1, 4, 2, 3, 9], [2, 3])
    np.testing.assert_array_equal(out[3], [[1, 0], [0, 1]])
    with pytest.raises(TypeError, match="Expected `SparseTensor`"):
        tf.sets.size(dense)
    unsorted = tf.SparseTensor([[1, 0], [0, 0]], tf.constant([1, 2], tf.int64), [2, 2])
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"indices\[1\] = \[0,0\] is out of order"):
        run(tf.sets.size(unsorted))


# -- tf.nest ---------------------------------------------------------------------------------

def test_nest_flattens_packs_and_maps_as_tensorflow():
    point = collections.namedtuple("P", "x y")
    structure = {"b": [1, (2, 3)], "a": point(4, {"d": 5, "c": 6}), "e": None}
    # TF 2.15.1's results
    assert tf.nest.flatten(structure) == [4, 6, 5, 1, 2, 3, None]
    assert tf.nest.flatten(None) == [None] and tf.nest.flatten("ab") == ["ab"]
    packed = tf.nest.pack_sequence_as(structure, list(range(10, 17)))
    assert packed == {"b": [13, (14, 15)], "a": point(10, {"d": 12, "c": 11}), "e": 16}
    assert type(packed["a"]) is point
    ordered = collections.OrderedDict([("z", 1), ("a", 2)])
    assert tf.nest.flatten(ordered) == [2, 1]
    assert list(tf.nest.pack_sequence_as(ordered, [7, 8]).items()) == [("z", 8), ("a", 7)]
    assert tf.nest.map_structure(lambda a, b: a + b, [1, (2, 3)], [10, (20, 30)]) == \
        [11, (22, 33)]
    assert [tf.nest.is_nested(x) for x in ([1], "ab", point(1, 2), {}, 1)] == \
        [True, False, True, True, False]
    # tf.data's nest keeps a list as one value
    assert tf.data.Dataset.from_tensor_slices([1, 2]).output_shapes.as_list() == []


def test_nest_structure_errors_match_tensorflow():
    with pytest.raises(ValueError, match=r"(?s)More specifically: The two structures don't "
                       r"have the same number of elements.*Entire first structure:\n\[\., \.\]"):
        tf.nest.assert_same_structure([1, 2], [1])
    with pytest.raises(TypeError, match="don't have the same sequence type"):
        tf.nest.assert_same_structure([1, 2], (1, 2))
    tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)
    with pytest.raises(ValueError, match="don't have the same set of keys"):
        tf.nest.assert_same_structure({"a": 1}, {"b": 1})
    with pytest.raises(ValueError, match="Structure had 2 atoms, but flat_sequence had 3"):
        tf.nest.pack_sequence_as([1, [2]], [1, 2, 3])
    with pytest.raises(ValueError, match="Must provide at least one structure"):
        tf.nest.map_structure(lambda a: a)


# -- tf.config -------------------------------------------------------------------------------

def test_config_records_threads_and_lists_the_one_cpu(monkeypatch):
    monkeypatch.setattr(config_module, "_context", config_module._Context())
    threading = tf.config.threading
    # TF 2.15.1's defaults (tf.compat.v1, graph mode)
    assert threading.get_inter_op_parallelism_threads() == 0
    assert threading.get_intra_op_parallelism_threads() == 0
    assert tf.config.get_soft_device_placement() is False
    threading.set_inter_op_parallelism_threads(2)
    threading.set_intra_op_parallelism_threads(3)
    tf.config.set_soft_device_placement(True)
    assert threading.get_inter_op_parallelism_threads() == 2
    assert threading.get_intra_op_parallelism_threads() == 3
    assert tf.config.get_soft_device_placement() is True

    cpu, = tf.config.list_physical_devices()
    assert repr(cpu) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.experimental.list_physical_devices("CPU") == [cpu]
    assert tf.config.get_visible_devices() == [cpu]
    logical, = tf.config.list_logical_devices()
    assert (logical.name, logical.device_type) == ("/device:CPU:0", "CPU")
    with pytest.raises(RuntimeError, match="Inter op parallelism cannot be modified after "
                       "initialization"):
        threading.set_inter_op_parallelism_threads(5)
    with pytest.raises(ValueError, match="Cannot set memory growth on non-GPU"):
        tf.config.experimental.set_memory_growth(cpu, True)
