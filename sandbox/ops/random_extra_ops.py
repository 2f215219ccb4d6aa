"""More random numbers -- mirrors random_gamma, random_poisson and random_crop of TensorFlow
1.x's python/ops/random_ops.py, and the orthogonal and uniform-unit-scaling initializers of
python/ops/init_ops.py.

    tf.random_gamma([10], alpha=[0.5, 1.5])   shape [10, 2]: 10 draws for each alpha
    tf.random_poisson([1.0, 5.0], [10])       shape [10, 2]
    tf.random_crop(image, [24, 24, 3])        a random window of `size` out of `value`
    tf.orthogonal_initializer(gain)           a (flattened) orthogonal matrix, times gain
    tf.uniform_unit_scaling_initializer(f)    U(-m, m) with m = f * sqrt(3 / fan_in)

random_gamma and random_poisson follow TF's seed rules (tf.set_random_seed and `seed=`) but
draw with NumPy's generator, seeded from the op's two seeds: they are NOT TF's numbers. The
other three are built from random_uniform / random_normal, which draw TF's own numbers (see
random_ops.py), so they give what TF gives with the same seeds.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.graph import control_dependencies, name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from . import array_ops, basic_math_ops, math_ops, random_ops
from .diag_ops import matrix_diag_part
from .init_ops import Initializer, _assert_float_dtype
from .matrix_decomposition_ops import qr
from .random_ops import _constant_shape, _dims, _seed_attrs, _shape_tensor

__all__ = ["random_gamma", "random_poisson", "random_crop", "orthogonal_initializer",
           "uniform_unit_scaling_initializer"]


def _numpy_generator(ctx, seed, seed2):
    """The op's own NumPy generator in this session (fresh entropy when unseeded)."""
    rng = ctx.state.get("np_rng")
    if rng is None:
        rng = ctx.state["np_rng"] = np.random.default_rng(
            None if seed == 0 and seed2 == 0 else [int(seed), int(seed2)])
    return rng


def _sample_shape(op):
    s = _constant_shape(op.inputs[0])
    tail = op.inputs[1].get_shape()
    for t in op.inputs[2:]:
        tail = tail if t.get_shape().ndims is None else TensorShape(
            np.broadcast_shapes(tuple(tail.as_list()), tuple(t.get_shape().as_list())))
    if s.ndims is None or tail.ndims is None:
        return unknown_shape()
    return s.concatenate(tail)


class RandomGamma(OpDef):
    """shape + alpha.shape draws of Gamma(alpha, 1) (NumPy's generator)."""
    uses_context = True
    stateful = True
    differentiable = False
    shape = _sample_shape

    def kernel(ctx, step, shape, alpha, seed=0, seed2=0, T=None, S=None):
        rng = _numpy_generator(ctx, seed, seed2)
        dims = _dims(shape) + alpha.shape
        return rng.standard_gamma(np.broadcast_to(alpha, dims)).astype(alpha.dtype)


class RandomPoisson(OpDef):
    """shape + rate.shape draws of Poisson(rate) (NumPy's generator)."""
    uses_context = True
    stateful = True
    differentiable = False
    shape = _sample_shape

    def kernel(ctx, step, shape, rate, seed=0, seed2=0, dtype=None, S=None, R=None):
        rng = _numpy_generator(ctx, seed, seed2)
        dims = _dims(shape) + rate.shape
        return rng.poisson(np.broadcast_to(rate, dims)).astype(dtype.as_numpy_dtype)


def random_gamma(shape, alpha, beta=None, dtype=_dtypes.float32, seed=None, name=None):
    """Draws from Gamma(alpha, beta) (beta: the rate, default 1): a tensor of shape
    shape + broadcast(alpha, beta).shape. (NumPy's numbers, not TF's.)"""
    dtype = _assert_float_dtype(dtype).base_dtype
    with name_scope(name, "random_gamma", [shape, alpha, beta]):
        shape_tensor = _shape_tensor(shape)
        alpha = convert_to_tensor(alpha, dtype=dtype, name="alpha")
        beta = convert_to_tensor(1.0 if beta is None else beta, dtype=dtype, name="beta")
        alpha_b = math_ops.add(alpha, array_ops.zeros_like(beta))
        sample = apply_op("RandomGamma", [shape_tensor, alpha_b],
                          {**_seed_attrs(seed), "T": dtype, "S": shape_tensor.dtype},
                          name="RandomGamma", output_dtypes=[dtype])
        return basic_math_ops.maximum(
            np.finfo(dtype.as_numpy_dtype).tiny, math_ops.realdiv(sample, beta))


def random_poisson(lam, shape, dtype=_dtypes.float32, seed=None, name=None):
    """Draws from Poisson(lam): a tensor of shape shape + lam.shape. (NumPy's numbers, not
    TF's.)"""
    dtype = _dtypes.as_dtype(dtype).base_dtype
    with name_scope(name, "random_poisson", [lam, shape]) as scope:
        shape_tensor = _shape_tensor(shape)
        lam = convert_to_tensor(lam, name="lam")
        return apply_op("RandomPoisson", [shape_tensor, lam],
                        {**_seed_attrs(seed), "dtype": dtype, "S": shape_tensor.dtype,
                         "R": lam.dtype.base_dtype}, name=scope, output_dtypes=[dtype])


def random_crop(value, size, seed=None, name=None):
    """A random window of shape `size` out of `value` (the same offset in every dim as TF
    draws it: random_uniform ints modulo the room left)."""
    from .check_ops import assert_greater_equal  # (check_ops imports much; keep it local)
    from .control_flow_ops import identity
    with name_scope(name, "random_crop", [value, size]) as scope:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=_dtypes.int32, name="size")
        shape = array_ops.shape(value)
        check = assert_greater_equal(shape, size, message="Need value.shape >= size, got ",
                                     summarize=1000)
        with control_dependencies([check]):
            shape = identity(shape)
        limit = shape - size + 1
        offset = math_ops.floormod(random_ops.random_uniform(
            array_ops.shape(shape), dtype=size.dtype.base_dtype,
            maxval=size.dtype.base_dtype.max, seed=seed), limit)
        from .slicing_ops import slice as _slice
        return _slice(value, offset, size, name=scope)


class Orthogonal(Initializer):
    """An orthogonal matrix (of shape [prod(shape[:-1]), shape[-1]], reshaped), times gain:
    the Q of a QR decomposition of a normal random matrix, its signs fixed by R's diagonal."""

    def __init__(self, gain=1.0, seed=None, dtype=_dtypes.float32):
        self.gain = gain
        self.seed = seed
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _assert_float_dtype(dtype or self.dtype)
        shape = list(shape)
        if len(shape) < 2:
            raise ValueError("The tensor to initialize must be at least two-dimensional")
        rows = int(np.prod(shape[:-1]))
        cols = int(shape[-1])
        flat = (max(rows, cols), min(rows, cols))
        a = random_ops.random_normal(flat, dtype=dtype, seed=self.seed)
        q, r = qr(a, full_matrices=False)
        q = q * basic_math_ops.sign(matrix_diag_part(r))
        if rows < cols:
            q = array_ops.matrix_transpose(q)
        return math_ops.multiply(convert_to_tensor(self.gain, dtype=dtype),
                                 array_ops.reshape(q, shape))

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
    """U(-m, m), m = factor * sqrt(3 / input_size), input_size = prod(shape[:-1]): keeps
    the scale of a layer's input in its output (deprecated in TF for variance_scaling)."""

    def __init__(self, factor=1.0, seed=None, dtype=_dtypes.float32):
        self.factor = factor
        self.seed = seed
        self.dtype = _assert_float_dtype(dtype)

    def __call__(self, shape, dtype=None, partition_info=None):
        dtype = _assert_float_dtype(dtype or self.dtype)
        scale_shape = list(shape)
        if partition_info is not None:
            scale_shape = list(partition_info.full_shape)
        input_size = 1.0
        for d in scale_shape[:-1]:
            input_size *= float(d)
        input_size = max(input_size, 1.0)
        max_val = float(np.sqrt(3 / input_size) * self.factor)
        return random_ops.random_uniform(shape, -max_val, max_val, dtype, seed=self.seed)

    def get_config(self):
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


orthogonal_initializer = Orthogonal
uniform_unit_scaling_initializer = UniformUnitScaling
