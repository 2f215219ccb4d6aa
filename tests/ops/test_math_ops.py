"""Tests for the math ops (sandbox/ops/math_ops.py, basic_math_ops.py, comparison_ops.py,
reduction_ops.py, matmul_ops.py): values against NumPy, gradients against finite differences,
dtype rules, TF-1 names and deprecated aliases, error messages."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import sandbox as tf
from sandbox.framework import errors
from tests.gradcheck import check_gradients

FAST = settings(max_examples=25, deadline=None)


def run(fetches, feed_dict=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed_dict)


def values(shape, dtype=np.float32, low=-3, high=3):
    return hnp.arrays(dtype, shape, elements=st.floats(low, high, width=32)
                      if np.dtype(dtype).kind == "f" else st.integers(low, high))


def op_types():
    return [op.type for op in tf.get_default_graph().get_operations()]


# ---------------------------------------------------------------------------------------
# Elementwise binary ops: forward values with broadcasting
# ---------------------------------------------------------------------------------------

BINARY = [
    (tf.add, np.add), (tf.subtract, np.subtract), (tf.multiply, np.multiply),
    (tf.maximum, np.maximum), (tf.minimum, np.minimum),
    (tf.squared_difference, lambda a, b: (a - b) ** 2),
    (tf.realdiv, np.true_divide), (tf.truediv, np.true_divide), (tf.divide, np.true_divide),
    (tf.floordiv, np.floor_divide), (tf.floormod, np.mod), (tf.pow, np.power),
]


@FAST
@given(st.data(), hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=4))
@pytest.mark.parametrize("tf_fn,np_fn", BINARY, ids=[f[0].__name__ for f in BINARY])
def test_binary_forward_float32_broadcasting(tf_fn, np_fn, data, shapes):
    tf.reset_default_graph()
    a = data.draw(values(shapes.input_shapes[0], low=0.5, high=3))
    b = data.draw(values(shapes.input_shapes[1], low=0.5, high=3))
    out = tf_fn(tf.constant(a), tf.constant(b))
    assert out.dtype == tf.float32
    assert out.get_shape().as_list() == list(shapes.result_shape)
    got = run(out)
    assert np.asarray(got).dtype == np.float32
    np.testing.assert_allclose(got, np_fn(a, b), rtol=1e-5, atol=1e-6)


@FAST
@given(st.data(), hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=2, max_side=3))
def test_integer_arithmetic(data, shapes):
    tf.reset_default_graph()
    a = data.draw(values(shapes.input_shapes[0], np.int32, -9, 9))
    b = data.draw(values(shapes.input_shapes[1], np.int32, 1, 5)) * \
        data.draw(st.sampled_from([1, -1]))
    ta, tb = tf.constant(a), tf.constant(b)
    res = run([ta + tb, ta - tb, ta * tb, ta // tb, ta % tb, tf.div(ta, tb),
               tf.truncatediv(ta, tb), tf.truncatemod(ta, tb), ta / tb])
    expect = [a + b, a - b, a * b, a // b, a % b, a // b,
              np.trunc(a / b).astype(np.int32), np.fmod(a, b), a / b]
    for got, want in zip(res, expect):
        np.testing.assert_array_equal(got, want)
    assert [np.asarray(r).dtype for r in res[:8]] == [np.int32] * 8
    assert np.asarray(res[8]).dtype == np.float64           # int32 / int32 -> float64


def test_integer_division_by_zero_is_an_error():
    with pytest.raises(errors.InvalidArgumentError, match="Integer division by zero"):
        run(tf.constant([4, 2]) // tf.constant([2, 0]))


def test_truediv_dtype_table():
    for dt, want in [(tf.int8, tf.float32), (tf.int16, tf.float32), (tf.uint8, tf.float32),
                     (tf.int32, tf.float64), (tf.int64, tf.float64), (tf.float32, tf.float32),
                     (tf.float64, tf.float64)]:
        assert tf.truediv(tf.constant([3], dt), tf.constant([2], dt)).dtype == want
    assert run(tf.constant(7) / 2) == 3.5
    with pytest.raises(TypeError, match="Invalid dtype"):
        tf.truediv(tf.constant(True), tf.constant(False))


def test_div_is_python2_division():
    assert run(tf.div(tf.constant(7), tf.constant(2))) == 3
    assert run(tf.div(tf.constant(-7), 2)) == -4              # floor, not truncation
    assert run(tf.div(tf.constant(7.0), 2.0)) == 3.5
    assert tf.div(tf.constant(7), 2).op.type == "FloorDiv"
    assert tf.div(tf.constant(7.0), 2).op.type == "RealDiv"


def test_add_strings():
    out = tf.add(tf.constant(["a", "b"]), tf.constant("z"))
    assert list(run(out)) == [b"az", b"bz"]


def test_scalar_mul_and_aliases():
    x = tf.constant([1.0, 2.0])
    assert list(run(tf.scalar_mul(3, x))) == [3.0, 6.0]
    with pytest.raises(ValueError, match="Only scalar"):
        tf.scalar_mul([1.0, 2.0], x)
    assert tf.sub is tf.subtract and tf.mul is tf.multiply and tf.neg is tf.negative
    assert tf.mod is tf.floormod and tf.inv is tf.reciprocal
    assert tf.sub(x, 1).op.type == "Sub" and tf.mul(x, 2).op.type == "Mul"


def test_static_broadcast_shape_and_error():
    a = tf.placeholder(tf.float32, [None, 3])
    assert (a + tf.placeholder(tf.float32, [4, 1])).get_shape().as_list() == [4, 3]
    assert (a + tf.placeholder(tf.float32, [None, 1])).get_shape().as_list() == [None, 3]
    assert (a + tf.placeholder(tf.float32)).get_shape().ndims is None
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 3 and 4 for "
                                         r"'add_\d+' \(op: 'Add'\) with input shapes"):
        a + tf.placeholder(tf.float32, [2, 4])


def test_runtime_incompatible_shapes():
    a, b = tf.placeholder(tf.float32, [None]), tf.placeholder(tf.float32, [None])
    with pytest.raises(errors.InvalidArgumentError, match=r"Incompatible shapes: \[2\] vs. "
                                                          r"\[3\]"):
        run(a * b, {a: [1, 2], b: [1, 2, 3]})


# ---------------------------------------------------------------------------------------
# Binary gradients (finite differences), including broadcasting
# ---------------------------------------------------------------------------------------

GRAD_SHAPES = [((2, 3), (2, 3)), ((2, 3), (3,)), ((3, 1), (1, 2)), ((), (2, 2)),
               ((2, 1, 3), (4, 1))]


@pytest.mark.parametrize("shapes", GRAD_SHAPES, ids=str)
@pytest.mark.parametrize("fn", [tf.add, tf.subtract, tf.multiply, tf.truediv, tf.maximum,
                                tf.minimum, tf.squared_difference, tf.pow, tf.floormod],
                         ids=lambda f: f.__name__)
def test_binary_gradients(fn, shapes):
    rng = np.random.default_rng(1)
    a = rng.uniform(0.5, 2.0, shapes[0])
    b = rng.uniform(0.5, 2.0, shapes[1]) + 0.01   # no ties for max/min, away from x/y kinks
    if fn is tf.floormod:
        b = b + 2.5                               # stay away from the jumps of x mod y
    check_gradients(fn, [a, b])


def test_operator_gradients():
    rng = np.random.default_rng(2)
    check_gradients(lambda x, y: (x * y - x / y + 2 * x - 1 / y) ** 2 + (-x) @ y,
                    [rng.uniform(1, 2, (2, 2)), rng.uniform(1, 2, (2, 2))])


def test_pow_gradient_at_zero_base_is_finite():
    x, y = tf.constant([0.0, 2.0]), tf.constant([2.0, 3.0])
    gx, gy = run(tf.gradients(tf.pow(x, y), [x, y]))
    np.testing.assert_allclose(gx, [0.0, 12.0])
    np.testing.assert_allclose(gy, [0.0, 8 * np.log(2.0)], rtol=1e-6)


def test_maximum_gradient_tie_goes_to_x():
    x, y = tf.constant([1.0, 2.0]), tf.constant([1.0, 3.0])
    gx, gy = run(tf.gradients(tf.maximum(x, y), [x, y]))
    assert list(gx) == [1.0, 0.0] and list(gy) == [0.0, 1.0]


def test_floordiv_has_no_gradient():
    x = tf.constant([3.0])
    assert tf.gradients(tf.floordiv(x, 2.0), x) == [None]


def test_no_sum_op_when_shapes_match_but_sum_when_broadcast():
    a, b = tf.placeholder(tf.float32, [2, 3]), tf.placeholder(tf.float32, [2, 3])
    tf.gradients(a + b, [a, b])
    assert "SumToShape" not in op_types()
    c = tf.placeholder(tf.float32, [3])
    ga, gc = tf.gradients(a * c, [a, c])
    assert op_types().count("SumToShape") == 1
    assert gc.get_shape().as_list() == [3] and ga.get_shape().as_list() == [2, 3]
    av, cv = np.ones((2, 3), np.float32), np.arange(3, dtype=np.float32)
    got_a, got_c = run([ga, gc], {a: av, c: cv})
    np.testing.assert_array_equal(got_c, [2, 2, 2])
    np.testing.assert_array_equal(got_a, np.broadcast_to(cv, (2, 3)))


def test_bias_add_gradient_sums_only_the_bias():
    x = tf.placeholder(tf.float32, [None, 10])
    b = tf.placeholder(tf.float32, [10])
    gx, gb = tf.gradients(x + b, [x, b])
    assert op_types().count("SumToShape") == 1 and gx.op.type == "OnesLike"
    xv = np.ones((4, 10), np.float32)
    got_x, got_b = run([gx, gb], {x: xv, b: np.zeros(10)})
    assert got_x.shape == (4, 10) and got_b.tolist() == [4.0] * 10
    y = tf.placeholder(tf.float32, [None, 10])             # [?, 10] - [?, 10] may broadcast
    gx, gy = tf.gradients(x - y, [x, y])
    assert gx.op.type == "SumToShape"
    got_x, got_y = run([gx, gy], {x: np.ones((1, 10)), y: np.ones((3, 10))})
    assert got_x.tolist() == [[3.0] * 10] and got_y.shape == (3, 10)


def test_sum_to_shape_with_unknown_static_shapes():
    a, b = tf.placeholder(tf.float64), tf.placeholder(tf.float64)
    ga, gb = tf.gradients(tf.reduce_sum(a * b, [0, 1]), [a, b])
    av, bv = np.arange(6.0).reshape(2, 3), np.array([[1.0], [2.0]])
    got_a, got_b = run([ga, gb], {a: av, b: bv})
    np.testing.assert_allclose(got_a, np.broadcast_to(bv, (2, 3)))
    np.testing.assert_allclose(got_b, av.sum(axis=1, keepdims=True))


# ---------------------------------------------------------------------------------------
# Operators and dtype rules
# ---------------------------------------------------------------------------------------

def test_operator_names_and_types():
    x = tf.constant([1.0, 2.0])
    b = tf.constant([True, False])
    cases = [(x + 1, "add", "Add"), (1 + x, "add_1", "Add"), (x - 1, "sub", "Sub"),
             (1 - x, "sub_1", "Sub"), (x * 2, "mul", "Mul"), (2 * x, "mul_1", "Mul"),
             (x / 2, "truediv", "RealDiv"), (2 / x, "truediv_1", "RealDiv"),
             (x // 2, "floordiv", "FloorDiv"), (2 // x, "floordiv_1", "FloorDiv"),
             (x % 2, "mod", "FloorMod"), (x ** 2, "pow", "Pow"), (2 ** x, "pow_1", "Pow"),
             (-x, "Neg", "Neg"), (abs(x), "Abs", "Abs"), (x < 1, "Less", "Less"),
             (x <= 1, "LessEqual", "LessEqual"), (x > 1, "Greater", "Greater"),
             (x >= 1, "GreaterEqual", "GreaterEqual"), (b & b, "and", "LogicalAnd"),
             (b | b, "or", "LogicalOr"), (~b, "LogicalNot", "LogicalNot"),
             (b ^ b, "xor", "LogicalAnd")]
    for t, name, op_type in cases:
        assert (t.op.name, t.op.type) == (name, op_type)
    assert x.__div__(2).op.type == "RealDiv"
    assert tf.constant([7]).__div__(2).op.type == "FloorDiv"
    assert tf.constant(3).__rmod__(7).op.type == "FloorMod"
    got = run([x + 1, 1 - x, 2 / x, x % 2, 2 ** x, b ^ tf.constant([True, True]), ~b])
    np.testing.assert_allclose(got[0], [2, 3])
    np.testing.assert_allclose(got[1], [0, -1])
    np.testing.assert_allclose(got[2], [2, 1])
    np.testing.assert_allclose(got[3], [1, 0])
    np.testing.assert_allclose(got[4], [2, 4])
    assert list(got[5]) == [False, True] and list(got[6]) == [False, True]


def test_matmul_operator():
    a = tf.constant([[1.0, 2.0]])
    b = np.array([[3.0], [4.0]], np.float32)
    assert (a @ b).op.name == "matmul" and (a @ b).op.type == "MatMul"
    assert run(a @ b).tolist() == [[11.0]]
    assert run(b @ a).tolist() == [[3.0, 6.0], [4.0, 8.0]]


def test_equality_operator_stays_identity():
    x = tf.constant(1.0)
    assert (x == x) is True and (x == tf.constant(1.0)) is False


def test_python_and_numpy_scalars_take_the_tensor_dtype():
    x = tf.constant([1.0, 2.0])
    for other in (1, 1.5, np.float64(1), np.int64(1), np.array([1.0, 2.0])):
        assert (x + other).dtype == tf.float32
        assert (other + x).dtype == tf.float32
        assert (x * other).dtype == tf.float32
    assert (np.float64(2) * x).op.type == "Mul"
    i = tf.constant([1, 2])
    assert (i + 1).dtype == tf.int32 and (i * np.int64(2)).dtype == tf.int32
    assert tf.add(1.0, x).dtype == tf.float32         # the literal converts to x's dtype
    with pytest.raises(TypeError):
        i + 1.5                                      # 1.5 is not an int32


def test_variable_operators():
    v = tf.Variable([1.0, 2.0], name="v")
    out = v * 2 + 1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert list(sess.run(out)) == [3.0, 5.0]
        assert list(sess.run(1 - v)) == [0.0, -1.0]
        assert list(sess.run(tf.reduce_sum(v, 0, keepdims=True))) == [3.0]


def test_dtype_mismatch_names_both_tensors():
    x = tf.constant([1.0], name="floats")
    y = tf.constant([1], name="ints")
    for build in (lambda: x + y, lambda: tf.multiply(x, y), lambda: tf.matmul(x, y),
                  lambda: tf.maximum(x, y), lambda: x / y, lambda: x < y):
        with pytest.raises(TypeError) as info:
            build()
        text = str(info.value)
        assert "floats:0" in text and "ints:0" in text and "tf.cast" in text
        assert "float32" in text and "int32" in text


def test_bool_arithmetic_is_rejected():
    b = tf.constant([True])
    with pytest.raises(TypeError, match="DataType bool not in list of allowed values"):
        b + b
    with pytest.raises(TypeError, match="DataType bool"):
        tf.reduce_mean(b)
    with pytest.raises(TypeError, match="DataType int32"):
        tf.exp(tf.constant([1]))
    with pytest.raises(TypeError, match="DataType float32"):
        tf.logical_and(tf.constant(1.0), tf.constant(2.0))
    with pytest.raises(TypeError):
        ~tf.constant(1)


# ---------------------------------------------------------------------------------------
# matmul
# ---------------------------------------------------------------------------------------

@FAST
@given(st.integers(1, 4), st.integers(1, 4), st.integers(1, 4), st.booleans(),
       st.booleans(), st.booleans())
def test_matmul_forward(m, k, n, t_a, t_b, adjoint):
    tf.reset_default_graph()
    rng = np.random.default_rng(m * 100 + k * 10 + n)
    a = rng.standard_normal((k, m) if t_a else (m, k)).astype(np.float32)
    b = rng.standard_normal((n, k) if t_b else (k, n)).astype(np.float32)
    flags = dict(adjoint_a=t_a, adjoint_b=t_b) if adjoint else dict(transpose_a=t_a,
                                                                      transpose_b=t_b)
    out = tf.matmul(a, b, **flags)
    assert out.op.type == "MatMul" and out.get_shape().as_list() == [m, n]
    got = run(out)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, (a.T if t_a else a) @ (b.T if t_b else b), rtol=1e-5,
                               atol=1e-5)


@pytest.mark.parametrize("t_a,t_b", [(False, False), (True, False), (False, True),
                                     (True, True)])
def test_matmul_gradient_uses_transpose_flags(t_a, t_b):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((3, 2) if t_a else (2, 3))
    b = rng.standard_normal((4, 3) if t_b else (3, 4))
    check_gradients(lambda x, y: tf.matmul(x, y, transpose_a=t_a, transpose_b=t_b), [a, b])
    assert "Transpose" not in op_types()


@pytest.mark.parametrize("sa,sb", [((2, 2, 3), (2, 3, 2)), ((2, 2, 3), (3, 2)),
                                   ((1, 2, 3), (2, 3, 1))])
def test_batch_matmul(sa, sb):
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal(sa), rng.standard_normal(sb)
    out = tf.matmul(a, b)
    assert out.op.type == "BatchMatMulV2"
    assert out.get_shape().as_list() == list(np.matmul(a, b).shape)
    np.testing.assert_allclose(run(out), np.matmul(a, b))
    bt = np.swapaxes(b, -1, -2)
    np.testing.assert_allclose(run(tf.matmul(a, bt, transpose_b=True)), np.matmul(a, b))
    check_gradients(tf.matmul, [a, b])
    check_gradients(lambda x, y: tf.matmul(x, y, adjoint_a=True, adjoint_b=True),
                    [np.swapaxes(a, -1, -2), bt])


def test_matmul_shape_errors():
    x = tf.placeholder(tf.float32, [None, 784])
    with pytest.raises(ValueError, match=r"Dimensions must be equal, but are 784 and 785 "
                                         r"for 'MatMul' \(op: 'MatMul'\) with input shapes: "
                                         r"\[\?,784\], \[785,10\]"):
        tf.matmul(x, tf.zeros_like(tf.placeholder(tf.float32, [785, 10])))
    with pytest.raises(ValueError, match="Shape must be rank 2 but is rank 1"):
        tf.matmul(tf.constant([[1.0]]), tf.constant([1.0]))
    with pytest.raises(ValueError, match="Only one of transpose_a and adjoint_a"):
        tf.matmul(x, x, transpose_a=True, adjoint_a=True)
    a, b = tf.placeholder(tf.float32, [None, None]), tf.placeholder(tf.float32, [None, None])
    with pytest.raises(errors.InvalidArgumentError, match=r"Matrix size-incompatible: "
                                                          r"In\[0\]: \[2,3\], In\[1\]: \[2,3\]"):
        run(tf.matmul(a, b), {a: np.ones((2, 3)), b: np.ones((2, 3))})


# ---------------------------------------------------------------------------------------
# Unary ops
# ---------------------------------------------------------------------------------------

UNARY = [
    (tf.negative, np.negative, (-3, 3)), (tf.square, np.square, (-3, 3)),
    (tf.sqrt, np.sqrt, (0.125, 4)), (tf.rsqrt, lambda v: 1 / np.sqrt(v), (0.125, 4)),
    (tf.exp, np.exp, (-3, 3)), (tf.expm1, np.expm1, (-3, 3)), (tf.log, np.log, (0.125, 4)),
    (tf.log1p, np.log1p, (-0.5, 3)), (tf.abs, np.abs, (-3, 3)),
    (tf.sign, np.sign, (-3, 3)), (tf.reciprocal, np.reciprocal, (0.5, 3)),
    (tf.floor, np.floor, (-3, 3)), (tf.ceil, np.ceil, (-3, 3)),
    (tf.round, np.round, (-3, 3)), (tf.rint, np.rint, (-3, 3)), (tf.sin, np.sin, (-3, 3)),
    (tf.cos, np.cos, (-3, 3)), (tf.tanh, np.tanh, (-3, 3)),
    (tf.sigmoid, lambda v: 1 / (1 + np.exp(-v)), (-5, 5)),
]


@FAST
@given(st.data(), hnp.array_shapes(min_dims=0, max_dims=3, max_side=4))
@pytest.mark.parametrize("tf_fn,np_fn,bounds", UNARY, ids=[u[0].__name__ for u in UNARY])
def test_unary_forward(tf_fn, np_fn, bounds, data, shape):
    tf.reset_default_graph()
    a = data.draw(values(shape, low=bounds[0], high=bounds[1]))
    out = tf_fn(tf.constant(a))
    assert out.dtype == tf.float32 and out.get_shape().as_list() == list(shape)
    got = run(out)
    assert np.asarray(got).dtype == np.float32
    np.testing.assert_allclose(got, np_fn(a).astype(np.float32), rtol=2e-6, atol=1e-6)


def test_unary_default_names():
    x = tf.constant(1.0)
    for fn, name in [(tf.negative, "Neg"), (tf.square, "Square"), (tf.sqrt, "Sqrt"),
                     (tf.exp, "Exp"), (tf.log, "Log"), (tf.abs, "Abs"),
                     (tf.sigmoid, "Sigmoid"), (tf.tanh, "Tanh"), (tf.reciprocal, "Reciprocal")]:
        assert fn(x).op.name == name and fn(x, name="mine").op.name.startswith("mine")


@pytest.mark.parametrize("fn,low,high", [
    (tf.negative, -2, 2), (tf.square, -2, 2), (tf.sqrt, 0.5, 3), (tf.rsqrt, 0.5, 3),
    (tf.exp, -2, 2), (tf.expm1, -2, 2), (tf.log, 0.5, 3), (tf.log1p, -0.5, 2),
    (tf.abs, 0.2, 2), (tf.reciprocal, 0.5, 2), (tf.sin, -2, 2), (tf.cos, -2, 2),
    (tf.tanh, -2, 2), (tf.sigmoid, -3, 3), (tf.erf, -2, 2)], ids=lambda v: getattr(
        v, "__name__", str(v)))
def test_unary_gradients(fn, low, high):
    x = np.random.default_rng(4).uniform(low, high, (2, 3))
    check_gradients(fn, [x])
    if fn is tf.abs:
        check_gradients(fn, [-x])


@pytest.mark.parametrize("fn", [tf.sigmoid, tf.tanh, tf.sqrt, tf.rsqrt, tf.reciprocal],
                         ids=lambda f: f.__name__)
def test_second_derivatives_of_fused_gradient_ops(fn):
    x = np.random.default_rng(5).uniform(0.5, 2, (3,))
    check_gradients(lambda v: tf.gradients(fn(v) * v, v)[0], [x], rtol=1e-3)


def test_sigmoid_tanh_use_fused_gradient_ops():
    x = tf.placeholder(tf.float32, [3])
    tf.gradients(tf.sigmoid(x) + tf.tanh(x), x)
    assert "SigmoidGrad" in op_types() and "TanhGrad" in op_types()


def test_erf_values_and_rounding_rules():
    got = run(tf.erf(tf.constant([0.0, 0.5, -1.0], tf.float64)))
    np.testing.assert_allclose(got, [0.0, 0.5204998778130465, -0.8427007929497149])
    assert list(run(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5])))) == [0.0, 2.0, 2.0, -0.0]
    i = tf.constant([1, 2])
    assert tf.round(i) is i
    assert tf.gradients(tf.floor(tf.constant(1.5)) * 1.0, tf.constant(1.0)) == [None]


def test_nan_inf_predicates():
    x = tf.constant([1.0, np.nan, np.inf, -np.inf])
    nan, inf, fin = run([tf.is_nan(x), tf.is_inf(x), tf.is_finite(x)])
    assert list(nan) == [False, True, False, False]
    assert list(inf) == [False, False, True, True]
    assert list(fin) == [True, False, False, False]
    assert tf.is_nan(x).dtype == tf.bool


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------

REDUCTIONS = [(tf.reduce_sum, np.sum), (tf.reduce_mean, np.mean), (tf.reduce_max, np.max),
              (tf.reduce_min, np.min), (tf.reduce_prod, np.prod)]


@st.composite
def array_and_axis(draw, dtype=np.float32):
    shape = draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    a = draw(values(shape, dtype, -2, 2))
    ndim = len(shape)
    axis = draw(st.one_of(
        st.none(), st.integers(-ndim, ndim - 1),
        st.lists(st.integers(0, ndim - 1), min_size=1, max_size=ndim, unique=True)))
    return a, axis


@FAST
@given(array_and_axis(), st.booleans())
@pytest.mark.parametrize("tf_fn,np_fn", REDUCTIONS, ids=[r[0].__name__ for r in REDUCTIONS])
def test_reduction_forward(tf_fn, np_fn, a_axis, keepdims):
    tf.reset_default_graph()
    a, axis = a_axis
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    want = np_fn(a, axis=np_axis, keepdims=keepdims)
    out = tf_fn(tf.constant(a), axis=axis, keepdims=keepdims)
    assert out.get_shape().as_list() == list(np.shape(want))
    got = run(out)
    assert np.asarray(got).dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_reduction_deprecated_aliases_and_axis_forms():
    a = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    x = tf.constant(a)
    cases = [
        (tf.reduce_sum(x, reduction_indices=1), a.sum(1)),
        (tf.reduce_sum(x, reduction_indices=[1], keep_dims=True), a.sum(1, keepdims=True)),
        (tf.reduce_mean(x, axis=-1), a.mean(-1)),
        (tf.reduce_max(x, [0, -1]), a.max((0, 2))),
        (tf.reduce_sum(x, tf.constant([0, 2])), a.sum((0, 2))),
        (tf.reduce_sum(x, np.int64(2)), a.sum(2)),
        (tf.reduce_sum(x, []), a),
        (tf.reduce_mean(x, keep_dims=True), a.mean(keepdims=True)),
        (tf.reduce_min(x, None, True), a.min(keepdims=True)),
    ]
    for out, want in cases:
        assert out.get_shape().as_list() == list(want.shape)
        np.testing.assert_allclose(run(out), want)
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'reduction_indices'"):
        tf.reduce_sum(x, axis=0, reduction_indices=0)
    with pytest.raises(ValueError, match="Cannot specify both 'keepdims' and 'keep_dims'"):
        tf.reduce_sum(x, keepdims=True, keep_dims=True)


def test_reduction_names_and_errors():
    x = tf.constant([[1.0, 2.0]])
    for fn, name in [(tf.reduce_sum, "Sum"), (tf.reduce_mean, "Mean"), (tf.reduce_max, "Max"),
                     (tf.reduce_min, "Min"), (tf.reduce_prod, "Prod")]:
        assert fn(x).op.name == name and fn(x).op.type == name
    assert tf.reduce_sum(x, name="total").op.name == "total"
    with pytest.raises(ValueError, match="Invalid reduction dimension 2 for input with 2 "
                                         "dimensions"):
        tf.reduce_sum(x, 2)
    with pytest.raises(TypeError, match="int32 or int64"):
        tf.reduce_sum(x, 0.5)


def test_reduction_with_runtime_axis_and_unknown_shapes():
    x = tf.placeholder(tf.float32, [None, 3])
    axis = tf.placeholder(tf.int32, [])
    out = tf.reduce_sum(x, axis)
    assert out.get_shape().ndims is None
    assert tf.reduce_sum(x, axis, keepdims=True).get_shape().as_list() == [None, None]
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_allclose(run(out, {x: a, axis: 1}), a.sum(1))
    assert tf.reduce_mean(x, 1).get_shape().as_list() == [None]
    assert tf.reduce_mean(x).get_shape().as_list() == []


def test_reduction_of_unknown_rank():
    from sandbox.ops import array_ops
    if not hasattr(array_ops, "rank") or not hasattr(array_ops, "range"):
        pytest.skip("array_ops.rank / array_ops.range not written yet")
    x = tf.placeholder(tf.float32)
    out = tf.reduce_mean(x)
    assert out.get_shape().as_list() == []
    assert run(out, {x: [[1.0, 2.0], [3.0, 6.0]]}) == 3.0
    g = tf.gradients(out, x)[0]
    np.testing.assert_allclose(run(g, {x: np.ones((2, 2))}), np.full((2, 2), 0.25))


def test_integer_reductions_keep_dtype():
    i = tf.constant([[1, 2], [-3, -4]], tf.int32)
    mean, total, prod, top = run([tf.reduce_mean(i), tf.reduce_sum(i, 1),
                                  tf.reduce_prod(i), tf.reduce_max(i, 0)])
    assert np.asarray(mean).dtype == np.int32 and mean == -1      # -4 / 4
    assert run(tf.reduce_mean(tf.constant([1, 2]))) == 1          # 3 // 2, integer division
    assert run(tf.reduce_mean(tf.constant([-1, -2]))) == -1       # rounds toward zero
    assert total.dtype == np.int32 and list(total) == [3, -7]
    assert np.asarray(prod).dtype == np.int32 and prod == 24
    assert list(top) == [1, 2]


def test_reduce_all_any():
    b = tf.constant([[True, False], [True, True]])
    assert list(run(tf.reduce_all(b, 1))) == [False, True]
    assert list(run(tf.reduce_any(b, reduction_indices=0))) == [True, True]
    assert run(tf.reduce_all(b)) == False  # noqa: E712 -- numpy bool
    with pytest.raises(TypeError, match="DataType float32"):
        tf.reduce_all(tf.constant([1.0]))


@pytest.mark.parametrize("fn", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min,
                                tf.reduce_prod, tf.reduce_logsumexp],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("axis,keepdims", [(None, False), (1, False), ([0, 2], True),
                                           (-1, True)])
def test_reduction_gradients(fn, axis, keepdims):
    x = np.random.default_rng(6).uniform(0.5, 2, (2, 3, 2))
    check_gradients(lambda v: fn(v, axis=axis, keepdims=keepdims), [x])


def test_max_gradient_shares_ties_like_tf():
    x = tf.constant([[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]])
    g = run(tf.gradients(tf.reduce_max(x, 1), x)[0])
    np.testing.assert_allclose(g, [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    g = run(tf.gradients(tf.reduce_min(x), x)[0])
    np.testing.assert_allclose(g, [[1, 0, 0], [0, 0, 0]])


def test_prod_gradient_with_zeros():
    x = tf.constant([[2.0, 0.0, 3.0], [0.0, 0.0, 1.0], [1.0, 2.0, 4.0]])
    g = run(tf.gradients(tf.reduce_prod(x, 1), x)[0])
    np.testing.assert_allclose(g, [[0, 6, 0], [0, 0, 0], [8, 4, 2]])


def test_second_derivative_through_sum_and_mean():
    x = np.random.default_rng(7).uniform(0.5, 2, (2, 3))
    check_gradients(lambda v: tf.gradients(tf.reduce_sum(v * v * v), v)[0], [x], rtol=1e-3)
    check_gradients(lambda v: tf.gradients(tf.reduce_mean(v * v, 1), v)[0], [x], rtol=1e-3)
    check_gradients(lambda v: tf.gradients(tf.reduce_sum(v * [1.0, 2.0, 3.0]) ** 2, v)[0],
                    [x], rtol=1e-3)


def test_reduce_logsumexp_is_stable():
    x = tf.constant([[1000.0, 1000.0], [-np.inf, 0.0], [-np.inf, -np.inf]])
    got = run(tf.reduce_logsumexp(x, 1))
    np.testing.assert_allclose(got[:2], [1000 + np.log(2), 0.0], rtol=1e-6)
    assert got[2] == -np.inf
    assert tf.reduce_logsumexp(x, 1, keepdims=True).get_shape().as_list() == [3, 1]
    assert tf.reduce_logsumexp(x).get_shape().as_list() == []


def test_count_nonzero():
    x = tf.constant([[0.0, 1.0, 2.0], [0.0, 0.0, 3.0]])
    assert run(tf.count_nonzero(x)) == 3
    assert list(run(tf.count_nonzero(x, 1))) == [2, 1]
    assert tf.count_nonzero(x).dtype == tf.int64


def test_sum_gradient_values_and_shape():
    x = tf.constant([[1.0, 2.0]])
    g = run(tf.gradients(tf.reduce_sum(x), x)[0])
    assert g.shape == (1, 2) and g.tolist() == [[1.0, 1.0]]


# ---------------------------------------------------------------------------------------
# argmax / argmin / cumsum
# ---------------------------------------------------------------------------------------

@FAST
@given(array_and_axis(np.int32))
def test_argmax_argmin(a_axis):
    tf.reset_default_graph()
    a, axis = a_axis
    axis = axis if isinstance(axis, int) else None
    x = tf.constant(a)
    hi, lo = tf.argmax(x, axis), tf.argmin(x, dimension=axis)
    np_axis = 0 if axis is None else axis
    assert hi.dtype == tf.int64 and hi.get_shape().as_list() == \
        list(np.argmax(a, np_axis).shape)
    got_hi, got_lo = run([hi, lo])
    np.testing.assert_array_equal(got_hi, np.argmax(a, np_axis))
    np.testing.assert_array_equal(got_lo, np.argmin(a, np_axis))
    assert np.asarray(got_hi).dtype == np.int64


def test_argmax_options_and_errors():
    x = tf.constant([[1.0, 5.0], [7.0, 2.0]])
    out = tf.argmax(x, 1, output_type=tf.int32)
    assert out.dtype == tf.int32 and out.op.name == "ArgMax"
    assert run(out).dtype == np.int32 and list(run(out)) == [1, 0]
    assert list(run(tf.argmax(x))) == [1, 0]                     # TF-1 default axis 0
    with pytest.raises(ValueError, match="Cannot specify both 'axis' and 'dimension'"):
        tf.argmax(x, 0, dimension=1)
    with pytest.raises(ValueError, match=r"Expected dimension in the range \[-2, 2\), but "
                                         r"got 2"):
        tf.argmax(x, 2)
    assert tf.gradients(tf.cast(tf.argmax(x, 1), tf.float32), x) == [None]


@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("reverse", [False, True])
def test_cumsum(exclusive, reverse):
    a = np.arange(1.0, 7.0).reshape(2, 3)
    for axis in (0, 1, -1):
        flipped = np.flip(a, axis) if reverse else a
        want = np.cumsum(flipped, axis)
        if exclusive:
            want = want - flipped
        want = np.flip(want, axis) if reverse else want
        np.testing.assert_allclose(run(tf.cumsum(a, axis, exclusive, reverse)), want)
    check_gradients(lambda v: tf.cumsum(v, 1, exclusive=exclusive, reverse=reverse), [a])


# ---------------------------------------------------------------------------------------
# Comparisons, logic, where
# ---------------------------------------------------------------------------------------

COMPARE = [(tf.equal, np.equal), (tf.not_equal, np.not_equal), (tf.less, np.less),
           (tf.greater, np.greater), (tf.less_equal, np.less_equal),
           (tf.greater_equal, np.greater_equal)]


@FAST
@given(st.data(), hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3))
@pytest.mark.parametrize("tf_fn,np_fn", COMPARE, ids=[c[0].__name__ for c in COMPARE])
def test_comparisons(tf_fn, np_fn, data, shapes):
    tf.reset_default_graph()
    a = data.draw(values(shapes.input_shapes[0], np.int32, -2, 2))
    b = data.draw(values(shapes.input_shapes[1], np.int32, -2, 2))
    out = tf_fn(tf.constant(a), tf.constant(b))
    assert out.dtype == tf.bool and out.get_shape().as_list() == list(shapes.result_shape)
    got = run(out)
    assert np.asarray(got).dtype == np.bool_
    np.testing.assert_array_equal(got, np_fn(a, b))


def test_equal_strings_and_bools():
    assert list(run(tf.equal(tf.constant(["a", "b"]), "a"))) == [True, False]
    assert list(run(tf.not_equal(tf.constant([True, False]), True))) == [False, True]


def test_logical_ops():
    p = np.array([True, True, False, False])
    q = np.array([True, False, True, False])
    tp, tq = tf.constant(p), tf.constant(q)
    got = run([tf.logical_and(tp, tq), tf.logical_or(tp, tq), tf.logical_not(tp),
               tf.logical_xor(tp, tq)])
    for g, want in zip(got, [p & q, p | q, ~p, p ^ q]):
        np.testing.assert_array_equal(g, want)
    assert tf.get_default_graph().get_operation_by_name("LogicalXor").type == "LogicalAnd"


def test_where_coordinates():
    c = np.array([[True, False], [False, True], [True, True]])
    out = tf.where(c)
    assert out.dtype == tf.int64 and out.get_shape().as_list() == [None, 2]
    got = run(out)
    assert got.dtype == np.int64 and got.tolist() == [[0, 0], [1, 1], [2, 0], [2, 1]]
    assert run(tf.where([0.0, 2.0, 3.0])).tolist() == [[1], [2]]


def test_where_select_forms_and_gradient():
    x = np.arange(6.0).reshape(3, 2)
    y = -x
    full = np.array([[True, False], [False, True], [True, True]])
    rows = np.array([True, False, True])
    np.testing.assert_array_equal(run(tf.where(full, x, y)), np.where(full, x, y))
    np.testing.assert_array_equal(run(tf.where(rows, x, y)), np.where(rows[:, None], x, y))
    np.testing.assert_array_equal(run(tf.where(True, x, y)), x)
    assert tf.where(rows, x, y).op.type == "Select"
    check_gradients(lambda a, b: tf.where(full, a, b), [x, y])
    check_gradients(lambda a, b: tf.where(rows, a, b), [x, y])


def test_where_errors():
    x = tf.constant(np.ones((3, 2)))
    with pytest.raises(ValueError, match="x and y must both be non-None or both be None"):
        tf.where(True, x)
    with pytest.raises(ValueError, match="Dimension 0 in both shapes must be equal, but "
                                         "are 2 and 3"):
        tf.where([True, False], x, x)
    with pytest.raises(ValueError, match="Shapes must be equal rank"):
        tf.where([[True]], tf.constant([1.0]), tf.constant([1.0]))
    with pytest.raises(ValueError, match="Dimension 1 in both shapes must be equal"):
        tf.where(x > 0, x, tf.constant(np.ones((3, 3))))
    c = tf.placeholder(tf.bool)
    with pytest.raises(errors.InvalidArgumentError, match="'condition' must be"):
        run(tf.where(c, x, x), {c: [[True, False, True]]})


# ---------------------------------------------------------------------------------------
# cast
# ---------------------------------------------------------------------------------------

def test_cast_values_and_names():
    x = tf.constant([1.7, -1.7, 0.0])
    i = tf.cast(x, tf.int32)
    assert i.op.name == "Cast" and i.op.type == "Cast" and i.dtype == tf.int32
    assert run(i).tolist() == [1, -1, 0] and run(i).dtype == np.int32  # toward zero
    assert run(tf.cast(x, tf.bool)).tolist() == [True, True, False]
    assert run(tf.cast(tf.constant([True, False]), tf.float32)).tolist() == [1.0, 0.0]
    assert tf.cast(x, tf.float32) is x                           # no op when nothing to do
    assert tf.cast(x, "float64").dtype == tf.float64
    assert tf.cast([1, 2], tf.float32).dtype == tf.float32
    for fn, dt, name in [(tf.to_float, tf.float32, "ToFloat"), (tf.to_double, tf.float64,
                                                                 "ToDouble"),
                         (tf.to_int32, tf.int32, "ToInt32"), (tf.to_int64, tf.int64,
                                                              "ToInt64")]:
        out = fn(tf.constant([1], tf.int16))
        assert out.dtype == dt and out.op.name == name
    with pytest.raises(TypeError, match="strings"):
        tf.cast(tf.constant(["1"]), tf.int32)


def test_cast_gradients():
    x = tf.placeholder(tf.float32, [2])
    g = tf.gradients(tf.reduce_sum(tf.cast(x, tf.float64) * 3.0), x)[0]
    assert g.dtype == tf.float32
    assert run(g, {x: [1, 2]}).tolist() == [3.0, 3.0]
    assert tf.gradients(tf.cast(tf.cast(x, tf.int32), tf.float32), x) == [None]
    check_gradients(lambda v: tf.cast(tf.cast(v, tf.float32), tf.float64) * 2.0, [[0.5, 1.5]],
                    eps=1e-3, rtol=1e-3)


def test_saturate_cast():
    x = tf.constant([-300.0, 12.7, 300.0])
    out = tf.saturate_cast(x, tf.uint8)
    assert out.dtype == tf.uint8 and run(out).tolist() == [0, 12, 255]
    assert run(tf.saturate_cast(tf.constant([70000]), tf.int16)).tolist() == [32767]


def test_correct_prediction_accuracy_idiom():
    logits = tf.placeholder(tf.float32, [None, 3])
    labels = tf.placeholder(tf.float32, [None, 3])
    correct = tf.equal(tf.argmax(logits, 1), tf.argmax(labels, 1))
    accuracy = tf.reduce_mean(tf.cast(correct, tf.float32))
    got = run(accuracy, {logits: [[1, 2, 0], [3, 0, 1], [0, 0, 5], [1, 0, 0]],
                         labels: [[0, 1, 0], [0, 1, 0], [0, 0, 1], [1, 0, 0]]})
    assert got == pytest.approx(0.75)


# ---------------------------------------------------------------------------------------
# add_n, accumulate_n, lin_space
# ---------------------------------------------------------------------------------------

def test_add_n_and_accumulate_n():
    xs = [np.full((2,), i, np.float32) for i in range(1, 4)]
    assert run(tf.add_n(xs)).tolist() == [6.0, 6.0]
    assert run(tf.accumulate_n(xs)).tolist() == [6.0, 6.0]
    assert tf.add_n(xs).op.type == "AddN"
    with pytest.raises(ValueError):
        tf.add_n([])
    check_gradients(lambda a, b, c: tf.add_n([a, b, c]) * a, [x.astype(float) for x in xs])


def test_lin_space():
    out = tf.lin_space(0.0, 1.0, 5)
    assert out.get_shape().as_list() == [5] and out.dtype == tf.float32
    np.testing.assert_allclose(run(out), np.linspace(0, 1, 5))
    assert tf.linspace is tf.lin_space


def test_second_derivative_through_broadcast_sum():
    rng = np.random.default_rng(8)
    v, w = rng.uniform(0.5, 2, (2, 3)), rng.uniform(0.5, 2, (3,))
    check_gradients(lambda a, b: tf.gradients(tf.reduce_sum((a * b) ** 2), b)[0], [v, w],
                    rtol=1e-3)


def test_erf_without_scipy(monkeypatch):
    import math
    from sandbox.ops import basic_math_ops
    monkeypatch.setattr(basic_math_ops, "_np_erf", np.vectorize(math.erf, otypes=[np.float64]))
    got = run(tf.erf(tf.constant([0.5, -1.0])))
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, [0.5204999, -0.8427008], rtol=1e-6)


def test_arg_max_and_arg_min_are_tf0_names_of_argmax_and_argmin():
    x = tf.constant([[1.0, 5.0], [7.0, 2.0]])
    with tf.Session() as sess:
        got = sess.run([tf.arg_max(x, 1), tf.arg_min(x, 0), tf.arg_max(x, 0, tf.int32)])
    assert [g.tolist() for g in got] == [[1, 0], [0, 1], [1, 0]]
    assert got[0].dtype == np.int64 and got[2].dtype == np.int32


def test_div_no_nan_and_multiply_no_nan_are_tfs_ops_with_tfs_gradients():
    """TF's DivNoNan and MulNoNan ops (not a Select around a division), so a TF graph holding
    them imports and a loss's 'value' op is of TF's type; values and gradients measured with
    TF 2.15.1 (disable_v2_behavior). MulNoNan's gradient for y is x * grad even where y is 0."""
    x, y = tf.constant([1.0, 2.0, -3.0]), tf.constant([0.0, 4.0, 2.0])
    d = tf.div_no_nan(x, y)
    m = tf.math.multiply_no_nan(tf.constant([np.inf, 2.0, 3.0]), tf.constant([0.0, 1.0, 2.0]))
    xb, yb = tf.constant([[1.0], [2.0]]), tf.constant([0.0, 3.0])
    db = tf.div_no_nan(xb, yb, name="mine")
    assert (d.op.type, d.op.name, m.op.type, m.op.name, db.op.name) == (
        "DivNoNan", "div_no_nan", "MulNoNan", "multiply_no_nan", "mine")
    loss = tf.losses.mean_squared_error([1.0], [2.0], weights=0.0)
    assert loss.op.type == "DivNoNan" and loss.op.name.endswith("value")
    div_grads = tf.gradients(tf.reduce_sum(db * db), [xb, yb])
    mul_grads = tf.gradients(tf.reduce_sum(tf.math.multiply_no_nan(xb, yb)), [xb, yb])
    ints = tf.div_no_nan(tf.constant([3, 1]), tf.constant([2, 0]))    # cast as truediv casts
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(d), [0.0, 0.5, -1.5])
        np.testing.assert_allclose(sess.run(m), [0.0, 2.0, 6.0])
        np.testing.assert_allclose(sess.run(db), [[0.0, 1 / 3], [0.0, 2 / 3]], rtol=1e-6)
        gx, gy = sess.run(div_grads)
        np.testing.assert_allclose(gx, [[0.22222222], [0.44444445]], rtol=1e-6)
        np.testing.assert_allclose(gy, [0.0, -0.3703704], rtol=1e-6)
        gx, gy = sess.run(mul_grads)
        np.testing.assert_allclose(gx, [[3.0], [3.0]])
        np.testing.assert_allclose(gy, [3.0, 3.0])
        assert ints.dtype == tf.float64 and sess.run(ints).tolist() == [1.5, 0.0]
        assert sess.run(loss) == 0.0
    with pytest.raises(TypeError, match="not in list of allowed values.*op MulNoNan"):
        tf.math.multiply_no_nan(tf.constant([1]), tf.constant([0]))


def test_max_and_min_of_no_elements_are_the_dtypes_extremes_and_empty_repeats_work():
    """TF 2.15.1: reduce_max of nothing is -inf (floats) or the lowest integer, reduce_min the
    highest; tf.repeat of an empty tensor by empty repeats, and bincount of nothing, are empty."""
    with tf.Session() as sess:
        for dtype, low, high in ((tf.float32, -np.inf, np.inf), (tf.int32, -2**31, 2**31 - 1),
                                 (tf.uint8, 0, 255)):
            empty = tf.zeros([0], dtype)
            assert sess.run([tf.reduce_max(empty), tf.reduce_min(empty)]) == [low, high]
            assert sess.run(tf.reduce_max(tf.zeros([2, 0], dtype), axis=1)).tolist() == [low] * 2
        assert sess.run(tf.repeat(tf.zeros([0], tf.int32), tf.zeros([0], tf.int32))).size == 0
        assert sess.run(tf.repeat(tf.constant([1, 2]), tf.constant([0, 0]))).size == 0
        assert sess.run(tf.math.bincount(tf.zeros([0], tf.int32))).size == 0
