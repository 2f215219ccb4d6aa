"""TensorFlow's random-number generator, Philox4x32-10 -- mirrors lib/random/philox_random.h,
lib/random/random_distributions.h and GuardedPhiloxRandom (core/util/guarded_philox_random.h).

Why the sandbox does not simply use NumPy's generator: with `tf.set_random_seed(1)` TensorFlow's
random ops give the same numbers on every machine, and tutorials print and plot them. A student
who runs the same program in TensorFlow and in the sandbox should see the same initial weights,
and so the same training curve. So the numbers are computed exactly as TensorFlow's CPU kernels
compute them:

  * Philox4x32-10 is a counter-based generator: a 64-bit key (the op's `seed`) and a 128-bit
    counter go through ten rounds of multiply-and-xor and come out as four random 32-bit words.
    The counter starts at (0, 0, seed2): the op's `seed2` picks its stream.
  * Output group g of a kernel (4 floats, or 2 doubles) is made from block `base + g`.
  * Each run of an op reserves 256 blocks per output element (`ReserveRandomOutputs(n, 256)`),
    so the next run starts far past anything this one could have used.
  * Floats come from the 23 low bits of a word (a number in [1, 2), minus 1); normals from the
    Box-Muller transform of two such floats, in single precision as the kernel does it.

The arithmetic is vectorised with NumPy (32-bit words held in uint64 so that products fit).
"""
import secrets

import numpy as np

__all__ = ["PhiloxGenerator"]

_M32 = 0xFFFFFFFF
_MASK128 = (1 << 128) - 1
_MULTIPLIERS = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_KEY_STEPS = (0x9E3779B9, 0xBB67AE85)
_ROUNDS = 10
_RESERVED_BLOCKS_PER_OUTPUT = 256    # ReserveRandomOutputs(size, 256)
_CHUNK = 1 << 20                     # blocks per pass: bounds the scratch memory for big shapes
_EPSILON = np.float32(1.0e-7)
_TRUNCATE = 2.0


def philox_at(key, counter, offsets):
    """Philox4x32-10 of the 128-bit counters `counter + offsets` (offsets: uint64 array): a
    (len(offsets), 4) uint32 array, word 0 first (TF's `ResultType`)."""
    start = np.uint64(counter & 0xFFFFFFFFFFFFFFFF)
    lo = start + offsets                                  # wraps past 2**64 ...
    hi = np.uint64(counter >> 64) + (lo < start)          # ... and carries into the high half
    m32, s32 = np.uint64(_M32), np.uint64(32)
    c0, c1, c2, c3 = lo & m32, lo >> s32, hi & m32, hi >> s32
    k0, k1 = key
    for _ in range(_ROUNDS):
        p0 = _MULTIPLIERS[0] * c0
        p1 = _MULTIPLIERS[1] * c2
        c0, c1, c2, c3 = ((p1 >> s32) ^ c1 ^ np.uint64(k0), p1 & m32,
                          (p0 >> s32) ^ c3 ^ np.uint64(k1), p0 & m32)
        k0, k1 = (k0 + _KEY_STEPS[0]) & _M32, (k1 + _KEY_STEPS[1]) & _M32
    return np.stack([c0, c1, c2, c3], axis=1).astype(np.uint32)


def philox_blocks(key, counter, n):
    """The `n` consecutive blocks counter, counter + 1, ..."""
    return philox_at(key, counter, np.arange(n, dtype=np.uint64))


# -- from random words to numbers (random_distributions.h) --------------------------------

def _uint32_to_float(x):
    """Uint32ToFloat: the 23 low bits as the mantissa of a float in [1, 2), minus 1."""
    return ((x & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - np.float32(1)


def _uint64_to_double(x0, x1):
    """Uint64ToDouble: 20 bits of x0 and all of x1 as the mantissa of a double in [1, 2)."""
    bits = ((x0.astype(np.uint64) & np.uint64(0xFFFFF)) << np.uint64(32)) | x1.astype(np.uint64)
    return (bits | np.uint64(0x3FF0000000000000)).view(np.float64) - 1.0


def _uint16_to_half(x):
    """Uint16ToHalf: the 10 low bits as the mantissa of a half in [1, 2), minus 1."""
    bits = ((x & np.uint32(0x3FF)) | np.uint32(15 << 10)).astype(np.uint16)
    return bits.view(np.float16) - np.float16(1)


def _box_muller_float(x0, x1):
    """BoxMullerFloat in single precision. logf and sincosf are computed in double and rounded,
    which is what glibc's correctly rounded float functions return."""
    u1 = np.maximum(_uint32_to_float(x0), _EPSILON)
    v1 = (2.0 * np.pi * _uint32_to_float(x1).astype(np.float64)).astype(np.float32)
    u2 = np.sqrt(np.float32(-2.0) * np.log(u1.astype(np.float64)).astype(np.float32))
    angle = v1.astype(np.float64)
    return np.sin(angle).astype(np.float32) * u2, np.cos(angle).astype(np.float32) * u2


def _box_muller_double(x0, x1, x2, x3):
    u1 = np.maximum(_uint64_to_double(x0, x1), 1.0e-7)
    v1 = 2.0 * np.pi * _uint64_to_double(x2, x3)
    u2 = np.sqrt(-2.0 * np.log(u1))
    return np.sin(v1) * u2, np.cos(v1) * u2


def _normals(words, dtype):
    """The normals a (n, 4) block of words gives: 4 per block in single (and half)
    precision, 2 per block in double."""
    if dtype == np.float64:
        d0, d1 = _box_muller_double(words[:, 0], words[:, 1], words[:, 2], words[:, 3])
        return np.stack([d0, d1], axis=1).reshape(-1)
    f0, f1 = _box_muller_float(words[:, 0], words[:, 1])
    f2, f3 = _box_muller_float(words[:, 2], words[:, 3])
    return np.stack([f0, f1, f2, f3], axis=1).reshape(-1).astype(dtype, copy=False)


def _uniforms(words, dtype):
    if dtype == np.float64:
        return _uint64_to_double(words[:, 0::2], words[:, 1::2]).reshape(-1)
    if dtype == np.float16:
        return _uint16_to_half(words).reshape(-1)
    return _uint32_to_float(words).reshape(-1)


def _per_block(dtype):
    return 2 if np.dtype(dtype) in (np.float64, np.int64) else 4


class PhiloxGenerator:
    """One random op's generator in one session (TF's GuardedPhiloxRandom): seeded once from
    the op's (seed, seed2) attrs, or from fresh entropy when both are 0."""

    def __init__(self, seed, seed2):
        seed, seed2 = int(seed), int(seed2)
        if seed == 0 and seed2 == 0:        # "not seeded": different numbers every session
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        seed &= (1 << 64) - 1
        seed2 &= (1 << 64) - 1
        self.key = (seed & _M32, seed >> 32)
        self.counter = seed2 << 64          # counter words (0, 0, seed2 low, seed2 high)

    def _reserve(self, count):
        """ReserveRandomOutputs(count, 256): this run's first counter; later runs start past it."""
        base = self.counter
        self.counter = (self.counter + count * _RESERVED_BLOCKS_PER_OUTPUT) & _MASK128
        return base

    def _fill(self, dims, dtype, convert):
        """`convert(words, dtype)` applied to blocks base, base+1, ... until prod(dims) values."""
        dtype = np.dtype(dtype)
        count = int(np.prod(dims, dtype=np.int64))
        base = self._reserve(count)
        per_block = _per_block(dtype)
        blocks = -(-count // per_block)
        parts = [convert(philox_blocks(self.key, (base + start) & _MASK128,
                                       min(_CHUNK, blocks - start)), dtype)
                 for start in range(0, blocks, _CHUNK)]
        if not parts:
            return np.empty(dims, dtype)
        out = np.concatenate(parts) if len(parts) > 1 else parts[0]
        return out[:count].reshape(dims)

    # -- what the kernels ask for --------------------------------------------------------
    def standard_normal(self, dims, dtype=np.float32):
        """RandomStandardNormal: NormalDistribution<PhiloxRandom, T>."""
        return self._fill(dims, dtype, _normals)

    def random(self, dims, dtype=np.float32):
        """RandomUniform: UniformDistribution<PhiloxRandom, T>, values in [0, 1)."""
        return self._fill(dims, dtype, _uniforms)

    def integers(self, low, high, dims, dtype=np.int32):
        """RandomUniformInt: lo + word % (hi - lo), one word per int32 and two per int64."""
        span = high - low

        def convert(words, dtype):
            if np.dtype(dtype) == np.int64:
                bits = words[:, 0::2].astype(np.uint64) | \
                    (words[:, 1::2].astype(np.uint64) << np.uint64(32))
                return (np.int64(low) + (bits % np.uint64(span)).astype(np.int64)).reshape(-1)
            rest = (words.astype(np.uint64) % np.uint64(span & _M32)).astype(np.int64)
            return (low + rest).astype(dtype).reshape(-1)
        return self._fill(dims, dtype, convert)

    def truncated_normal(self, dims, dtype=np.float32):
        """TruncatedNormal: TruncatedNormalDistribution<SingleSampleAdapter<PhiloxRandom>, T>.
        Output group g (4 floats, or 2 doubles) reads the words from block base + g * 256 on
        (in double, base + g * 128), turns each pair (each four) of words into two normals
        and keeps, in order, those with |x| < 2 until the group is full."""
        dtype = np.dtype(dtype)
        count = int(np.prod(dims, dtype=np.int64))
        base = self._reserve(count)
        per_group = _per_block(dtype)
        skip = per_group * _RESERVED_BLOCKS_PER_OUTPUT // 4
        groups = -(-count // per_group)
        out = np.empty(groups * per_group, dtype=dtype)
        found = np.zeros(groups, dtype=np.uint64)     # values each group has so far
        kind = np.float64 if dtype == np.float64 else np.float32
        for first in range(0, groups, _CHUNK):        # bounded scratch memory, as in _fill
            todo = np.arange(first, min(groups, first + _CHUNK), dtype=np.uint64)
            read = 0                                  # blocks each group has read so far
            while todo.size:                          # the groups still short of values
                words = philox_at(self.key, base, todo * np.uint64(skip) + np.uint64(read))
                candidates = _normals(words, kind).reshape(todo.size, -1)
                for value in candidates.T:            # in the order the kernel looks at them
                    take = (np.abs(value) < _TRUNCATE) & (found[todo] < per_group)
                    taking = todo[take]
                    out[taking * np.uint64(per_group) + found[taking]] = value[take]
                    found[taking] += 1
                read += 1
                todo = todo[found[todo] < per_group]
        return out[:count].reshape(dims)

    def permutation(self, n):
        """RandomShuffle's order. TF draws it with its own Fisher-Yates over Philox words; the
        sandbox seeds NumPy's permutation from this generator's next block instead (same
        seeds, same order, but not TF's order)."""
        words = philox_blocks(self.key, self._reserve(max(n, 1)), 1)[0]
        return np.random.default_rng([int(w) for w in words]).permutation(n)
