"""Random numbers -- mirrors TensorFlow's random_ops (python/ops/random_ops.py) and its seeding
rules (python/framework/random_seed.py).

A random op is a node like any other: every time it runs it draws new numbers. Which numbers
depends on two seeds:

  * the graph-level seed, set by `tf.set_random_seed(1234)`, and
  * the op-level seed, the `seed=` argument of the op.

`get_seed` turns them into the two integers every random op stores as attrs `seed` and `seed2`,
with TF's exact rule:

  graph seed set, op seed None  ->  op seed = how many ops of the graph were seeded this way
                                     before (0 for the first, 1 for the next, ...)
  op seed set, graph seed None  ->  graph seed = DEFAULT_GRAPH_SEED (87654321)
  both set                      ->  both are used
  neither                       ->  (0, 0): fresh entropy, different numbers in every session

Each op keeps its own generator in its session (created on the op's first run from the two
seeds), so successive `sess.run` calls of the op give new numbers, and a new session -- or an
identical graph rebuilt with the same seeds -- replays the same sequence. The numbers themselves
are TF's: they come from its Philox4x32-10 generator and its CPU kernels' conversions (see
philox.py), so `tf.set_random_seed(1); tf.random_normal([784, 100])` gives the matrix TensorFlow
2.x gives -- up to the last bit of about 1% of the entries, because TF takes logf and sincosf
from the C library and the sandbox rounds double-precision ones. RandomShuffle and Multinomial
follow the seeds but not TF's algorithms.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import get_default_graph, name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from .philox import PhiloxGenerator

__all__ = ["random_normal", "truncated_normal", "random_uniform", "random_shuffle",
           "multinomial", "set_random_seed", "get_seed"]

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


# -- seeds ----------------------------------------------------------------------

def set_random_seed(seed):
    """Sets the graph-level seed of the default graph: every random op built afterwards
    becomes reproducible (from one session to the next)."""
    get_default_graph().seed = seed


def _truncate_seed(seed):
    return int(seed) % _MAXINT32     # fits a 32-bit int, as TF's attrs do


def get_seed(op_seed):
    """The (graph seed, op seed) pair a random op should use -- TF's rule, see module doc.
    (None, None) means "not seeded": the op draws fresh entropy in every session."""
    graph = get_default_graph()
    global_seed = graph.seed
    if global_seed is not None:
        if op_seed is None:       # TF 2's rule (TF 1.x used the graph's op count instead)
            op_seed = graph._random_seed_count
            graph._random_seed_count += 1
        seeds = _truncate_seed(global_seed), _truncate_seed(op_seed)
    elif op_seed is not None:
        seeds = DEFAULT_GRAPH_SEED, _truncate_seed(op_seed)
    else:
        seeds = None, None
    if seeds == (0, 0):          # (0, 0) means "unseeded" to the kernels: avoid it
        return 0, _MAXINT32
    return seeds


def _seed_attrs(seed):
    seed1, seed2 = get_seed(seed)
    return {"seed": seed1 or 0, "seed2": seed2 or 0}


def generator_for(ctx, seed, seed2):
    """The Philox generator of one random op in one session (kept in `ctx.state`, created on
    the op's first run). Other stateful random kernels (e.g. dropout) use it too."""
    rng = ctx.state.get("rng")
    if rng is None:
        rng = ctx.state["rng"] = PhiloxGenerator(seed, seed2)
    return rng


# -- shapes -----------------------------------------------------------------------

def _shape_tensor(shape):
    """The `shape` argument as a 1-D integer Tensor named 'shape' (a list, tuple, NumPy array,
    TensorShape, an int32/int64 Tensor such as tf.shape(x), or a list mixing ints and scalar
    Tensors)."""
    if isinstance(shape, Tensor) or hasattr(shape, "_as_graph_element"):
        return convert_to_tensor(shape)
    if isinstance(shape, TensorShape):
        shape = shape.as_list()
    return convert_to_tensor(shape, dtype=_dtypes.int32, name="shape")  # [n, tf.shape(x)[0]] too


def _constant_shape(shape_tensor):
    """What the graph knows of the shape a 1-D shape tensor will hold (TF's
    constant_value_as_shape, for the common cases)."""
    rank = shape_tensor.get_shape()
    if rank.ndims is not None and rank.ndims != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {rank.ndims}")
    op = shape_tensor.op
    if op.type == "Const":
        return TensorShape([int(d) for d in op.get_attr("value")])
    if op.type == "Shape":
        return op.inputs[0].get_shape()
    if op.type == "Pack":
        return TensorShape([int(x.op.get_attr("value")) if x.op.type == "Const" else None
                            for x in op.inputs])
    if rank.ndims == 1 and rank[0].value is not None:
        return unknown_shape(rank[0].value)
    return unknown_shape()


def _random_shape(op):
    return _constant_shape(op.inputs[0])


def _dims(shape):
    """A run-time shape array as a tuple of ints, checked like TF's kernels check it."""
    if shape.ndim != 1:
        raise errors.InvalidArgumentError(None, None, f"shape must be a vector of ints, got "
                                          f"an array of shape {list(shape.shape)}.")
    dims = tuple(int(d) for d in shape)
    for d in dims:
        if d < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0: the "
                                              f"shape {list(dims)} has a negative dimension.")
    return dims


def _check_float(dtype, op_name):
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if not dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in "
                        f"list of allowed values: float16, float32, float64 (op {op_name}).")
    return dtype


# -- the ops ---------------------------------------------------------------------

class _RandomOp(OpDef):
    abstract = True
    uses_context = True
    stateful = True
    differentiable = False      # gradients() treats random numbers as constants


class RandomStandardNormal(_RandomOp):
    """Samples from the normal distribution with mean 0 and standard deviation 1."""
    shape = _random_shape

    def kernel(ctx, step, shape, seed, seed2, dtype, T=None):
        return generator_for(ctx, seed, seed2).standard_normal(_dims(shape),
                                                               dtype.as_numpy_dtype)


class TruncatedNormal(_RandomOp):
    """Standard normal samples, re-drawn until each lies within 2 standard deviations."""
    shape = _random_shape

    def kernel(ctx, step, shape, seed, seed2, dtype, T=None):
        return generator_for(ctx, seed, seed2).truncated_normal(_dims(shape),
                                                                dtype.as_numpy_dtype)


class RandomUniform(_RandomOp):
    """Samples uniformly from [0, 1)."""
    shape = _random_shape

    def kernel(ctx, step, shape, seed, seed2, dtype, T=None):
        return generator_for(ctx, seed, seed2).random(_dims(shape), dtype.as_numpy_dtype)


class RandomUniformInt(_RandomOp):
    """Samples integers uniformly from [minval, maxval)."""
    shape = _random_shape

    def kernel(ctx, step, shape, minval, maxval, seed, seed2, Tout, T=None):
        for what, v in (("minval", minval), ("maxval", maxval)):
            if np.ndim(v) != 0:
                raise errors.InvalidArgumentError(None, None, f"{what} must be 0-D, got shape "
                                                  f"{list(np.shape(v))}")
        lo, hi = int(minval), int(maxval)
        if lo >= hi:
            raise errors.InvalidArgumentError(None, None, f"Need minval < maxval: {lo} >= {hi}")
        return generator_for(ctx, seed, seed2).integers(lo, hi, _dims(shape),
                                                        Tout.as_numpy_dtype)


class RandomShuffle(_RandomOp):
    """Shuffles the tensor along its first dimension (a copy; the input is untouched)."""
    shape = unchanged_shape

    def kernel(ctx, step, value, seed, seed2, T=None):
        if np.ndim(value) == 0:
            return value
        return value[generator_for(ctx, seed, seed2).permutation(len(value))]


class Multinomial(_RandomOp):
    """Draws `num_samples` class indices per row of `logits` (unnormalized log-probabilities)."""

    def shape(op):
        logits = op.inputs[0].get_shape().with_rank(2)
        n = op.inputs[1]
        samples = int(n.op.get_attr("value")) if n.op.type == "Const" else None
        return TensorShape([logits[0], samples])

    def kernel(ctx, step, logits, num_samples, seed, seed2, output_dtype, T=None):
        if logits.ndim != 2:
            raise errors.InvalidArgumentError(None, None, "logits should be a matrix, got shape "
                                              f"{list(logits.shape)}")
        rng = generator_for(ctx, seed, seed2)
        logits = logits.astype(np.float64)
        cdf = np.cumsum(np.exp(logits - logits.max(axis=1, keepdims=True)), axis=1)
        cdf /= cdf[:, -1:]
        u = rng.random((logits.shape[0], int(num_samples)), np.float64)
        index = (u[:, :, None] >= cdf[:, None, :]).sum(axis=2)   # first class with cdf > u
        return np.minimum(index, logits.shape[1] - 1).astype(output_dtype.as_numpy_dtype)


# -- public functions ------------------------------------------------------------

def random_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None, name=None):
    """Samples from a normal distribution: `RandomStandardNormal * stddev + mean`."""
    from . import math_ops
    dtype = _check_float(dtype, "RandomStandardNormal")
    with name_scope(name, "random_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = apply_op("RandomStandardNormal", [shape_tensor],
                       {**_seed_attrs(seed), "dtype": dtype, "T": shape_tensor.dtype},
                       output_dtypes=[dtype])
        mul = math_ops.multiply(rnd, stddev_tensor, name="mul")
        return math_ops.add(mul, mean_tensor, name=name)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=_dtypes.float32, seed=None,
                     name=None):
    """Samples from a normal distribution, re-drawing values more than 2 stddev from the mean."""
    from . import math_ops
    dtype = _check_float(dtype, "TruncatedNormal")
    with name_scope(name, "truncated_normal", [shape, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        mean_tensor = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_tensor = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = apply_op("TruncatedNormal", [shape_tensor],
                       {**_seed_attrs(seed), "dtype": dtype, "T": shape_tensor.dtype},
                       output_dtypes=[dtype])
        mul = math_ops.multiply(rnd, stddev_tensor, name="mul")
        return math_ops.add(mul, mean_tensor, name=name)


def _is_number(x, value):
    return isinstance(x, (int, float, np.number)) and x == value


def random_uniform(shape, minval=0, maxval=None, dtype=_dtypes.float32, seed=None, name=None):
    """Samples uniformly from [minval, maxval): floats default to [0, 1); integer dtypes need
    `maxval` and use the RandomUniformInt op."""
    from . import math_ops
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.int32,
                     _dtypes.int64):
        raise ValueError(f"Invalid dtype {dtype.name} for random_uniform: use a float dtype, "
                         "int32 or int64.")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    unit = not dtype.is_integer and _is_number(minval, 0) and _is_number(maxval, 1)
    with name_scope(name, "random_uniform", [shape, minval, maxval]) as name:
        shape_tensor = _shape_tensor(shape)
        if unit:     # [0, 1): the op's own output, no scale and shift (dropout's case)
            return apply_op("RandomUniform", [shape_tensor],
                            {**_seed_attrs(seed), "dtype": dtype, "T": shape_tensor.dtype},
                            name=name, output_dtypes=[dtype])
        minval = convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
        attrs = {**_seed_attrs(seed), "T": shape_tensor.dtype}
        if dtype.is_integer:
            return apply_op("RandomUniformInt", [shape_tensor, minval, maxval],
                            {**attrs, "Tout": dtype}, name=name, output_dtypes=[dtype])
        rnd = apply_op("RandomUniform", [shape_tensor], {**attrs, "dtype": dtype},
                       output_dtypes=[dtype])
        scaled = math_ops.multiply(rnd, math_ops.subtract(maxval, minval, name="sub"),
                                   name="mul")
        return math_ops.add(scaled, minval, name=name)


def random_shuffle(value, seed=None, name=None):
    """Randomly shuffles a tensor along its first dimension."""
    value = convert_to_tensor(value, name="value")
    with value.graph.as_default():
        return apply_op("RandomShuffle", [value], {**_seed_attrs(seed), "T": value.dtype},
                        name=name or "RandomShuffle")


def multinomial(logits, num_samples, seed=None, name=None, output_dtype=None):
    """Draws samples from categorical distributions: `logits` is [batch, classes] of
    unnormalized log-probabilities; the result is [batch, num_samples] class indices."""
    with name_scope(name, "multinomial", [logits]):
        logits = convert_to_tensor(logits, name="logits")
        num_samples = convert_to_tensor(num_samples, dtype=_dtypes.int32, name="num_samples")
        output_dtype = _dtypes.as_dtype(output_dtype or _dtypes.int64)
        return apply_op("Multinomial", [logits, num_samples],
                        {**_seed_attrs(seed), "T": logits.dtype, "output_dtype": output_dtype},
                        output_dtypes=[output_dtype])
