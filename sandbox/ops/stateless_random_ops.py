"""Stateless random numbers -- mirrors TensorFlow's python/ops/stateless_random_ops.py and its
CPU kernels (core/kernels/stateless_random_ops.cc, stateless_random_ops_v2.cc,
random_ops_util.h, stateless_random_ops_v2_util.h, multinomial_op.cc).

A stateless random op is a pure function of its `seed` input, a [2] int32/int64 tensor: it has
no generator that advances from one run to the next, so the same seed gives the same numbers on
every run, in every session and on every machine -- TensorFlow's own numbers:

    tf.random.stateless_uniform([2], seed=[1, 2])      # [0.84406, 0.19204533] in TF and here

How TF turns the seed into numbers (GenerateKey in stateless_random_ops.cc, which TF 2's
StatelessRandomGetKeyCounter also calls before StatelessRandomUniformV2 ... with the default
Philox algorithm):

  * the two seeds, each widened to 64 bits (an int32 seed sign-extended), form the 128-bit
    counter (seed0 low, seed0 high, seed1 low, seed1 high) of ONE Philox4x32-10 block under the
    fixed key (0x3ec8f720, 0x02461e29);
  * that block's four words (m0, m1, m2, m3) "scramble" the seed: the op's generator gets the
    key (m0, m1) and the counter (0, 0, m2, m3);
  * from there the numbers come out exactly as in the stateful kernels (philox.py): group g
    from block counter + g, the truncated normal's group g from block counter + 256 g on
    (128 g in double), with the same float conversions and samplers.

So uniforms and integers are TF's bit for bit; normals and truncated normals too, except the
last bit of about 1% of them (TF's Box-Muller takes logf/sincosf from the C library, the
sandbox rounds double-precision ones: see random_ops.py).

The graph has TF 1.15's ops (StatelessRandomUniform, StatelessRandomNormal,
StatelessTruncatedNormal, StatelessRandomUniformInt, StatelessMultinomial, taking the seed
itself); TF 2's StatelessRandomGetKeyCounter + StatelessRandomUniformV2 ... pairs compute the
same numbers.

StatelessMultinomial (stateless_categorical / stateless_multinomial) reads the words as one
stream (SimplePhilox over a SingleSampleAdapter): each sample takes two words, Uint64ToDouble,
times the row's unnormalised cdf total, and the first class whose cdf exceeds it (upper_bound),
row after row. TF's CPU kernel splits the batch among threads when batch * 50 * (num_samples *
log2(classes) + classes) reaches about 2e5, and each thread's first row then starts further
along the stream (row * (num_samples + 3) / 4 blocks), so for such large batches TF's numbers
depend on the machine's thread count; the sandbox gives the one-thread (single stream) numbers.

Only the Philox algorithm exists here (`alg="auto_select"` is Philox on TF's CPU, and
"philox"); stateless ops have no gradient.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .philox import PhiloxGenerator, _uint64_to_double, philox_at
from .random_ops import _constant_shape, _dims, _shape_tensor

__all__ = ["stateless_random_uniform", "stateless_random_normal",
           "stateless_truncated_normal", "stateless_categorical", "stateless_multinomial"]

_M64 = (1 << 64) - 1
_SCRAMBLE_KEY = (0x3EC8F720, 0x02461E29)      # GenerateKey's fixed key
_ALGORITHMS = (None, "auto_select", "philox", 1, 3)   # Algorithm.PHILOX = 1, AUTO_SELECT = 3
_UNIFORM_DTYPES = (_dtypes.float16, _dtypes.float32, _dtypes.float64, _dtypes.int32,
                   _dtypes.int64)


# -- the seed -------------------------------------------------------------------

def key_counter(seed):
    """GenerateKey: the Philox (key, 128-bit counter) of a [2] seed array."""
    s0, s1 = (int(s) & _M64 for s in seed)          # int32 seeds are sign-extended first
    mix = philox_at(_SCRAMBLE_KEY, s0 | (s1 << 64), np.zeros(1, np.uint64))[0]
    return (int(mix[0]), int(mix[1])), (int(mix[2]) << 64) | (int(mix[3]) << 96)


def _generator(seed):
    """A Philox generator at the seed's key and counter (PhiloxGenerator's own seeding is
    the stateful ops'; it is replaced here)."""
    seed = np.asarray(seed)
    if seed.shape != (2,):
        raise errors.InvalidArgumentError(None, None, f"seed must have shape [2], not "
                                          f"{list(seed.shape)}")
    rng = PhiloxGenerator(1, 1)
    rng.key, rng.counter = key_counter(seed)
    return rng


def _seed_tensor(seed):
    seed = convert_to_tensor(seed, name="seed")
    if seed.dtype.base_dtype not in (_dtypes.int32, _dtypes.int64):
        raise TypeError(f"Value passed to parameter 'seed' has DataType {seed.dtype.name} not "
                        "in list of allowed values: int32, int64")
    return seed


def _check_seed_shape(seed):
    """The ops' shape functions: seed must be a vector of 2 (TF's WithRank and WithValue)."""
    shape = seed.get_shape()
    if shape.ndims is not None:
        if shape.ndims != 1:
            raise ValueError(f"Shape must be rank 1 but is rank {shape.ndims}")
        n = shape.as_list()[0]
        if n is not None and n != 2:
            raise ValueError(f"Dimension must be 2 but is {n}")


def _check_alg(alg):
    if isinstance(alg, str):
        alg = alg.lower()
    if alg not in _ALGORITHMS:
        raise ValueError(f"Unsupported algorithm {alg!r}: the sandbox implements only Philox "
                         "('philox', or 'auto_select', which is Philox on TF's CPU).")


# -- the ops ---------------------------------------------------------------------

def _stateless_shape(op):
    _check_seed_shape(op.inputs[1])
    return _constant_shape(op.inputs[0])


class _StatelessOp(OpDef):
    abstract = True
    differentiable = False      # TF registers no gradient for stateless random ops
    shape = _stateless_shape


class StatelessRandomUniform(_StatelessOp):
    """Uniform numbers in [0, 1), a pure function of the seed."""

    def kernel(shape, seed, dtype, T=None, Tseed=None):
        return _generator(seed).random(_dims(shape), dtype.as_numpy_dtype)


class StatelessRandomNormal(_StatelessOp):
    """Standard normal numbers, a pure function of the seed."""

    def kernel(shape, seed, dtype, T=None, Tseed=None):
        return _generator(seed).standard_normal(_dims(shape), dtype.as_numpy_dtype)


class StatelessTruncatedNormal(_StatelessOp):
    """Standard normal numbers within 2 standard deviations, a pure function of the seed."""

    def kernel(shape, seed, dtype, T=None, Tseed=None):
        return _generator(seed).truncated_normal(_dims(shape), dtype.as_numpy_dtype)


class StatelessRandomUniformInt(_StatelessOp):
    """Integers uniform in [minval, maxval): minval + word % (maxval - minval)."""

    def kernel(shape, seed, minval, maxval, dtype, T=None, Tseed=None):
        for what, v in (("minval", minval), ("maxval", maxval)):
            if np.ndim(v) != 0:
                raise errors.InvalidArgumentError(None, None, f"{what} must be 0-D, got shape "
                                                  f"{list(np.shape(v))}")
        dims = _dims(shape)
        rng = _generator(seed)
        lo, hi = int(minval), int(maxval)
        if int(np.prod(dims, dtype=np.int64)) == 0:
            return np.empty(dims, dtype.as_numpy_dtype)
        if lo >= hi:
            raise errors.InvalidArgumentError(None, None, f"Need minval < maxval, got {lo} >= "
                                              f"{hi}")
        return rng.integers(lo, hi, dims, dtype.as_numpy_dtype)


class StatelessRandomUniformFullInt(_StatelessOp):
    """Integers over the dtype's whole range: the words' bits (two words per int64)."""

    def kernel(shape, seed, dtype, T=None, Tseed=None):
        dims = _dims(shape)
        rng = _generator(seed)

        def convert(words, np_dtype):
            if np.dtype(np_dtype) == np.int64:
                bits = words[:, 0::2].astype(np.uint64) | \
                    (words[:, 1::2].astype(np.uint64) << np.uint64(32))
                return bits.view(np.int64).reshape(-1)
            return words.view(np.int32).reshape(-1)
        return rng._fill(dims, dtype.as_numpy_dtype, convert)


def _multinomial_shape(op):
    logits = op.inputs[0].get_shape()
    if logits.ndims is not None and logits.ndims != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {logits.ndims}")
    logits = logits.with_rank(2)
    _check_seed_shape(op.inputs[2])
    n = op.inputs[1]
    samples = None
    if n.op.type == "Const":
        samples = int(n.op.get_attr("value"))
        if samples < 0:
            raise ValueError("Dimension size, given by scalar input 1, must be non-negative "
                             f"but is {samples}")
    return TensorShape([logits[0], samples])


class StatelessMultinomial(OpDef):
    """`num_samples` class indices per row of `logits`, a pure function of the seed."""
    differentiable = False
    shape = _multinomial_shape

    def kernel(logits, num_samples, seed, output_dtype, T=None, Tseed=None):
        if logits.ndim != 2:
            raise errors.InvalidArgumentError(None, None, "logits should be a matrix, got shape "
                                              f"{list(logits.shape)}")
        if np.ndim(num_samples) != 0:
            raise errors.InvalidArgumentError(None, None, "num_samples should be a scalar, got "
                                              f"shape {list(np.shape(num_samples))}")
        n = int(num_samples)
        if n < 0:
            raise errors.InvalidArgumentError(None, None,
                                              f"num_samples should be nonnegative, got {n}")
        batch, classes = logits.shape
        rng = _generator(seed)
        if classes <= 0:
            raise errors.InvalidArgumentError(None, None,
                                              f"num_classes should be positive, got {classes}")
        out = np.zeros((batch, n), output_dtype.as_numpy_dtype)
        if batch == 0 or n == 0:
            return out
        # SimplePhilox.RandDouble: two words of the stream per sample, row after row
        doubles = batch * n
        words = philox_at(rng.key, rng.counter,
                          np.arange(-(-doubles // 2), dtype=np.uint64)).reshape(-1)
        u = _uint64_to_double(words[0:2 * doubles:2], words[1:2 * doubles:2]).reshape(batch, n)
        for b in range(batch):
            row = logits[b]
            finite = np.isfinite(row)
            top = row[finite].max() if finite.any() else np.finfo(row.dtype).min
            weights = np.exp(row.astype(np.float64) - float(top))
            cdf = np.cumsum(np.where(finite, weights, 0.0))   # not normalised, as in TF
            out[b] = np.searchsorted(cdf, u[b] * cdf[-1], side="right")   # upper_bound
        return out


# -- public functions ------------------------------------------------------------

def _float_dtype(dtype):
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in "
                        "list of allowed values: float16, float32, float64")
    return dtype


def stateless_random_uniform(shape, seed, minval=0, maxval=None, dtype=_dtypes.float32,
                             name=None, alg="auto_select"):
    """Uniform numbers in [minval, maxval), the same for the same `seed` (a [2] int32/int64
    tensor). Floats default to [0, 1); integer dtypes need `maxval`, or `minval=None` and
    `maxval=None` for the dtype's whole range."""
    from . import math_ops
    dtype = _dtypes.as_dtype(dtype).base_dtype
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(f"Argument `dtype` got invalid value {dtype!r}. Accepted dtypes are "
                         "(tf.float16, tf.float32, tf.float64, tf.int32, tf.int64).")
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype!r}, argument `minval` and "
                             "`maxval` must be both None or not None. Got "
                             f"`minval`={minval} and `maxval`={maxval}.")
    elif maxval is None:
        maxval = 1
    _check_alg(alg)
    with name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as name:
        shape_tensor = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        attrs = {"dtype": dtype, "T": shape_tensor.dtype, "Tseed": seed.dtype}
        if dtype.is_integer and minval is None:
            return apply_op("StatelessRandomUniformFullInt", [shape_tensor, seed], attrs,
                            name=name, output_dtypes=[dtype])
        minval = convert_to_tensor(minval, dtype=dtype, name="min")
        maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
        if dtype.is_integer:
            return apply_op("StatelessRandomUniformInt", [shape_tensor, seed, minval, maxval],
                            attrs, name=name, output_dtypes=[dtype])
        rnd = apply_op("StatelessRandomUniform", [shape_tensor, seed], attrs,
                       output_dtypes=[dtype])
        scaled = math_ops.multiply(rnd, math_ops.subtract(maxval, minval, name="sub"),
                                   name="mul")
        return math_ops.add(scaled, minval, name=name)


def _stateless_normal(op_type, default_name, shape, seed, mean, stddev, dtype, name, alg):
    from . import math_ops
    dtype = _float_dtype(dtype)
    _check_alg(alg)
    with name_scope(name, default_name, [shape, seed, mean, stddev]) as name:
        shape_tensor = _shape_tensor(shape)
        seed = _seed_tensor(seed)
        mean = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        rnd = apply_op(op_type, [shape_tensor, seed],
                       {"dtype": dtype, "T": shape_tensor.dtype, "Tseed": seed.dtype},
                       output_dtypes=[dtype])
        return math_ops.add(math_ops.multiply(rnd, stddev, name="mul"), mean, name=name)


def stateless_random_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dtypes.float32,
                            name=None, alg="auto_select"):
    """Normal numbers (`mean`, `stddev`), the same for the same `seed` ([2] int32/int64)."""
    return _stateless_normal("StatelessRandomNormal", "stateless_random_normal", shape, seed,
                             mean, stddev, dtype, name, alg)


def stateless_truncated_normal(shape, seed, mean=0.0, stddev=1.0, dtype=_dtypes.float32,
                               name=None, alg="auto_select"):
    """Normal numbers within 2 stddev of `mean`, the same for the same `seed`."""
    return _stateless_normal("StatelessTruncatedNormal", "stateless_truncated_normal", shape,
                             seed, mean, stddev, dtype, name, alg)


def _stateless_multinomial(logits, num_samples, seed, output_dtype, name, default_name):
    with name_scope(name, default_name, [logits, seed]):
        logits = convert_to_tensor(logits, name="logits")
        if logits.dtype.base_dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
            raise TypeError(f"Value passed to parameter 'logits' has DataType "
                            f"{logits.dtype.name} not in list of allowed values: float16, "
                            "float32, float64")
        num_samples = convert_to_tensor(num_samples, dtype=_dtypes.int32, name="num_samples")
        seed = _seed_tensor(seed)
        output_dtype = _dtypes.as_dtype(output_dtype or _dtypes.int64).base_dtype
        if output_dtype not in (_dtypes.int32, _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'output_dtype' has DataType "
                            f"{output_dtype.name} not in list of allowed values: int32, int64")
        return apply_op("StatelessMultinomial", [logits, num_samples, seed],
                        {"T": logits.dtype, "Tseed": seed.dtype, "output_dtype": output_dtype},
                        output_dtypes=[output_dtype])


def stateless_categorical(logits, num_samples, seed, dtype=_dtypes.int64, name=None):
    """`num_samples` class indices per row of `logits` ([batch, classes] unnormalised
    log-probabilities), the same for the same `seed`: a [batch, num_samples] tensor."""
    return _stateless_multinomial(logits, num_samples, seed, dtype, name,
                                  "stateless_categorical")


def stateless_multinomial(logits, num_samples, seed, output_dtype=_dtypes.int64, name=None):
    """stateless_categorical with TF 1's argument name `output_dtype`."""
    return _stateless_multinomial(logits, num_samples, seed, output_dtype, name,
                                  "stateless_multinomial")
