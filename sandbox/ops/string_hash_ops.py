"""String hashing -- mirrors TensorFlow's core/kernels/string_to_hash_bucket_op.cc (and its
python/ops/string_ops.py wrappers): each string of a tensor becomes `hash(s) % num_buckets`,
an int64 bucket id, as for hashing words or ids into an embedding table.

    tf.string_to_hash_bucket_fast(["hello", ""], 1000)          # FarmHash Fingerprint64
    tf.string_to_hash_bucket_strong(["hello"], 1000, key=[1, 2])  # SipHash-2-4, keyed
    tf.string_to_hash_bucket(["hello"], 1000)                    # TF's legacy Hash64

The three hashes are ported byte for byte (all arithmetic modulo 2**64), so the buckets are
the ones TF gives:

  * Fingerprint64 -- FarmHash's farmhash::Fingerprint64 (farmhashna::Hash64): strings of up
    to 16, 17..32 and 33..64 bytes are mixed by short special cases; longer ones are read in
    64-byte blocks by two 32-byte "weak hashes" and a running state, then folded with
    HashLen16 (a Murmur-like multiply/xor-shift mix). TF promises it never changes.
  * SipHash-2-4 -- the keyed hash of Aumasson and Bernstein (highwayhash::SipHash in TF):
    four 64-bit state words seeded from the 128-bit key [k0, k1], two add-rotate-xor rounds
    per 8-byte word, four to finish. Without the key its outputs cannot be predicted.
  * Hash64 -- TF's own core/lib/hash/hash.cc: MurmurHash64A with the seed 0xDECAFCAFFE.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op, unchanged_shape
from ..framework.tensor import convert_to_tensor

__all__ = ["string_to_hash_bucket_fast", "string_to_hash_bucket_strong",
           "string_to_hash_bucket", "fingerprint"]

_M = (1 << 64) - 1


def _fetch64(s, i):
    return int.from_bytes(s[i:i + 8], "little")


def _fetch32(s, i):
    return int.from_bytes(s[i:i + 4], "little")


def _rot(v, shift):                          # rotate right, as FarmHash's Rotate
    return v if shift == 0 else ((v >> shift) | (v << (64 - shift))) & _M


# -- FarmHash Fingerprint64 (farmhashna::Hash64) ----------------------------------------------

_K0 = 0xc3a5c85c97cb3127
_K1 = 0xb492b66fbe98f273
_K2 = 0x9ae16a3b2f90404f


def _shift_mix(v):
    return v ^ (v >> 47)


def _hash_len16(u, v, mul):
    a = ((u ^ v) * mul) & _M
    a ^= a >> 47
    b = ((v ^ a) * mul) & _M
    b ^= b >> 47
    return (b * mul) & _M


def _hash_len0to16(s):
    n = len(s)
    if n >= 8:
        mul = _K2 + n * 2
        a = (_fetch64(s, 0) + _K2) & _M
        b = _fetch64(s, n - 8)
        c = (_rot(b, 37) * mul + a) & _M
        d = ((_rot(a, 25) + b) * mul) & _M
        return _hash_len16(c, d, mul)
    if n >= 4:
        mul = _K2 + n * 2
        return _hash_len16(n + (_fetch32(s, 0) << 3), _fetch32(s, n - 4), mul)
    if n > 0:
        y = (s[0] + (s[n >> 1] << 8)) & 0xffffffff
        z = (n + (s[n - 1] << 2)) & 0xffffffff
        return (_shift_mix(((y * _K2) ^ (z * _K0)) & _M) * _K2) & _M
    return _K2


def _hash_len17to32(s):
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K1) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    return _hash_len16((_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M,
                       (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)


def _hash_len33to64(s):
    n = len(s)
    mul = _K2 + n * 2
    a = (_fetch64(s, 0) * _K2) & _M
    b = _fetch64(s, 8)
    c = (_fetch64(s, n - 8) * mul) & _M
    d = (_fetch64(s, n - 16) * _K2) & _M
    y = (_rot((a + b) & _M, 43) + _rot(c, 30) + d) & _M
    z = _hash_len16(y, (a + _rot((b + _K2) & _M, 18) + c) & _M, mul)
    e = (_fetch64(s, 16) * mul) & _M
    f = _fetch64(s, 24)
    g = ((y + _fetch64(s, n - 32)) * mul) & _M
    h = ((z + _fetch64(s, n - 24)) * mul) & _M
    return _hash_len16((_rot((e + f) & _M, 43) + _rot(g, 30) + h) & _M,
                       (e + _rot((f + a) & _M, 18) + g) & _M, mul)


def _weak_hash_len32_with_seeds(s, i, a, b):
    w, x, y, z = (_fetch64(s, i + 8 * k) for k in range(4))
    a = (a + w) & _M
    b = _rot((b + a + z) & _M, 21)
    c = a
    a = (a + x + y) & _M
    b = (b + _rot(a, 44)) & _M
    return (a + z) & _M, (b + c) & _M


def fingerprint64(s):
    """FarmHash's Fingerprint64 of the bytes `s`, as an int in [0, 2**64)."""
    n = len(s)
    if n <= 16:
        return _hash_len0to16(s)
    if n <= 32:
        return _hash_len17to32(s)
    if n <= 64:
        return _hash_len33to64(s)
    seed = 81
    x = seed
    y = (seed * _K1 + 113) & _M
    z = (_shift_mix((y * _K2 + 113) & _M) * _K2) & _M
    v = (0, 0)
    w = (0, 0)
    x = (x * _K2 + _fetch64(s, 0)) & _M
    end = ((n - 1) // 64) * 64
    last64 = end + ((n - 1) & 63) - 63
    i = 0
    while True:
        x = (_rot((x + y + v[0] + _fetch64(s, i + 8)) & _M, 37) * _K1) & _M
        y = (_rot((y + v[1] + _fetch64(s, i + 48)) & _M, 42) * _K1) & _M
        x ^= w[1]
        y = (y + v[0] + _fetch64(s, i + 40)) & _M
        z = (_rot((z + w[0]) & _M, 33) * _K1) & _M
        v = _weak_hash_len32_with_seeds(s, i, (v[1] * _K1) & _M, (x + w[0]) & _M)
        w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _M,
                                        (y + _fetch64(s, i + 16)) & _M)
        z, x = x, z
        i += 64
        if i == end:
            break
    mul = _K1 + ((z & 0xff) << 1)
    i = last64
    w0 = (w[0] + ((n - 1) & 63)) & _M
    v0 = (v[0] + w0) & _M
    w0 = (w0 + v0) & _M
    v, w = (v0, v[1]), (w0, w[1])
    x = (_rot((x + y + v[0] + _fetch64(s, i + 8)) & _M, 37) * mul) & _M
    y = (_rot((y + v[1] + _fetch64(s, i + 48)) & _M, 42) * mul) & _M
    x ^= (w[1] * 9) & _M
    y = (y + v[0] * 9 + _fetch64(s, i + 40)) & _M
    z = (_rot((z + w[0]) & _M, 33) * mul) & _M
    v = _weak_hash_len32_with_seeds(s, i, (v[1] * mul) & _M, (x + w[0]) & _M)
    w = _weak_hash_len32_with_seeds(s, i + 32, (z + w[1]) & _M,
                                    (y + _fetch64(s, i + 16)) & _M)
    z, x = x, z
    return _hash_len16((_hash_len16(v[0], w[0], mul) + _shift_mix(y) * _K0 + z) & _M,
                       (_hash_len16(v[1], w[1], mul) + x) & _M, mul)


# -- SipHash-2-4 ---------------------------------------------------------------------------

def siphash24(k0, k1, s):
    """SipHash-2-4 of the bytes `s` under the 128-bit key (k0, k1), as an int."""
    v0 = k0 ^ 0x736f6d6570736575
    v1 = k1 ^ 0x646f72616e646f6d
    v2 = k0 ^ 0x6c7967656e657261
    v3 = k1 ^ 0x7465646279746573

    def rounds(count):
        nonlocal v0, v1, v2, v3
        for _ in range(count):
            v0 = (v0 + v1) & _M
            v1 = _rot(v1, 51) ^ v0           # rotate left 13
            v0 = _rot(v0, 32)
            v2 = (v2 + v3) & _M
            v3 = _rot(v3, 48) ^ v2           # rotate left 16
            v0 = (v0 + v3) & _M
            v3 = _rot(v3, 43) ^ v0           # rotate left 21
            v2 = (v2 + v1) & _M
            v1 = _rot(v1, 47) ^ v2           # rotate left 17
            v2 = _rot(v2, 32)

    n = len(s)
    full = n - n % 8
    for i in range(0, full, 8):
        m = _fetch64(s, i)
        v3 ^= m
        rounds(2)
        v0 ^= m
    m = ((n & 0xff) << 56) | int.from_bytes(s[full:], "little")
    v3 ^= m
    rounds(2)
    v0 ^= m
    v2 ^= 0xff
    rounds(4)
    return v0 ^ v1 ^ v2 ^ v3


# -- TF's legacy Hash64 (core/lib/hash/hash.cc: MurmurHash64A) -----------------------------

def hash64(s, seed=0xDECAFCAFFE):
    """TF's Hash64 of the bytes `s` (MurmurHash64A, seed 0xDECAFCAFFE), as an int."""
    m, r = 0xc6a4a7935bd1e995, 47
    n = len(s)
    h = (seed ^ (n * m)) & _M
    full = n - n % 8
    for i in range(0, full, 8):
        k = (_fetch64(s, i) * m) & _M
        k ^= k >> r
        k = (k * m) & _M
        h ^= k
        h = (h * m) & _M
    if n % 8:
        h ^= int.from_bytes(s[full:], "little")
        h = (h * m) & _M
    h ^= h >> r
    h = (h * m) & _M
    h ^= h >> r
    return h


# -- the ops ---------------------------------------------------------------------------------

def _bucketize(hash_fn, strings, num_buckets):
    flat = np.asarray(strings, dtype=object).reshape(-1)
    out = np.array([hash_fn(s if isinstance(s, bytes) else str(s).encode()) % num_buckets
                    for s in flat], dtype=np.uint64)
    return out.astype(np.int64).reshape(np.shape(strings))


class StringToHashBucketFast(OpDef):
    """Fingerprint64(s) % num_buckets for each string."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input, num_buckets=None):  # noqa: A002 -- TF's name
        return _bucketize(fingerprint64, input, num_buckets)


class StringToHashBucketStrong(OpDef):
    """SipHash-2-4(key, s) % num_buckets for each string."""
    shape = unchanged_shape
    differentiable = False

    def kernel(input, num_buckets=None, key=()):  # noqa: A002 -- TF's name
        if len(key) != 2:
            raise errors.InvalidArgumentError(None, None, "Key must have 2 elements")
        k0, k1 = (int(k) & _M for k in key)
        return _bucketize(lambda s: siphash24(k0, k1, s), input, num_buckets)


class StringToHashBucket(OpDef):
    """Hash64(s) % num_buckets for each string (TF's legacy hash)."""
    shape = unchanged_shape
    differentiable = False

    def kernel(string_tensor, num_buckets=None):
        return _bucketize(hash64, string_tensor, num_buckets)


def _check(op_type, x, num_buckets, arg):
    t = convert_to_tensor(x, name=arg)
    if t.dtype.base_dtype != _dtypes.string:
        raise TypeError(f"Value passed to parameter '{arg}' has DataType "
                        f"{t.dtype.base_dtype.name} not in list of allowed values: string")
    if isinstance(num_buckets, bool) or not isinstance(num_buckets, (int, np.integer)):
        raise TypeError(f"Expected int for argument 'num_buckets' not {num_buckets!r}.")
    if num_buckets < 1:
        raise ValueError(f"Attr 'num_buckets' of '{op_type}' Op passed {int(num_buckets)} "
                         "less than minimum 1.")
    return t


def string_to_hash_bucket_fast(input, num_buckets, name=None):  # noqa: A002 -- TF's name
    """Each string's bucket in [0, num_buckets): FarmHash's Fingerprint64 mod num_buckets
    (fast, stable across TF versions; not for adversarial inputs -- use the strong one)."""
    with name_scope(name, "StringToHashBucketFast", [input]) as scope:
        x = _check("StringToHashBucketFast", input, num_buckets, "input")
        return apply_op("StringToHashBucketFast", [x], {"num_buckets": int(num_buckets)},
                        name=scope, output_dtypes=[_dtypes.int64])


def string_to_hash_bucket_strong(input, num_buckets, key, name=None):  # noqa: A002
    """Each string's bucket in [0, num_buckets): SipHash-2-4 under `key` (two ints) mod
    num_buckets -- hard to collide on purpose without the key."""
    with name_scope(name, "StringToHashBucketStrong", [input]) as scope:
        x = _check("StringToHashBucketStrong", input, num_buckets, "input")
        if not isinstance(key, (list, tuple)):
            raise TypeError(f"Expected list for 'key' argument to "
                            f"'string_to_hash_bucket_strong' Op, not {key!r}.")
        return apply_op("StringToHashBucketStrong", [x],
                        {"num_buckets": int(num_buckets), "key": [int(k) for k in key]},
                        name=scope, output_dtypes=[_dtypes.int64])


def string_to_hash_bucket(string_tensor=None, num_buckets=None, name=None, input=None):  # noqa
    """Each string's bucket in [0, num_buckets) by TF's legacy Hash64 (deprecated in TF for
    string_to_hash_bucket_fast, which is faster and as stable). `input` is another name of
    string_tensor, as in TF."""
    if input is not None:
        if string_tensor is not None:
            raise ValueError("Cannot specify both 'string_tensor' and 'input'.")
        string_tensor = input
    with name_scope(name, "StringToHashBucket", [string_tensor]) as scope:
        x = _check("StringToHashBucket", string_tensor, num_buckets, "string_tensor")
        return apply_op("StringToHashBucket", [x], {"num_buckets": int(num_buckets)},
                        name=scope, output_dtypes=[_dtypes.int64])


# -- tf.fingerprint (core/kernels/fingerprint_op.cc) -----------------------------------------

def _digest(data):
    return np.frombuffer(fingerprint64(data).to_bytes(8, "little"), np.uint8)


class Fingerprint(OpDef):
    """[batch, 8] uint8: Fingerprint64 of each row's bytes, little-endian. A string row of
    one element is its bytes; of several, the concatenated fingerprints of its strings."""
    differentiable = False

    def shape(op):
        from ..framework.tensor_shape import TensorShape
        from ..framework.tensor_util import constant_value
        data = op.inputs[0].get_shape()
        if data.ndims == 0:
            raise ValueError("Shape must be at least rank 1 but is rank 0")
        method = constant_value(op.inputs[1])
        if method is not None:
            method = method.item() if hasattr(method, "item") else method
            method = method.decode() if isinstance(method, bytes) else str(method)
            if method != "farmhash64":
                raise ValueError(f"Unsupported method: {method}")
        return TensorShape([data[0].value if data.ndims else None, 8])

    def kernel(data, method, T=None):  # noqa: N803 -- TF's attr name
        method = method.item() if hasattr(method, "item") else method
        method = method.decode() if isinstance(method, bytes) else str(method)
        if method != "farmhash64":
            raise errors.InvalidArgumentError(None, None, f"Unsupported fingerprint method: "
                                              f"{method}")
        data = np.asarray(data)
        batch = data.shape[0]
        rows = data.reshape(batch, -1) if batch else data.reshape(0, 0)
        out = np.zeros((batch, 8), np.uint8)
        for b in range(batch):
            row = rows[b]
            if data.dtype == object:
                strings = [s if isinstance(s, bytes) else str(s).encode() for s in row]
                raw = strings[0] if len(strings) == 1 else \
                    b"".join(_digest(s).tobytes() for s in strings)
            else:
                raw = np.ascontiguousarray(row).astype(row.dtype.newbyteorder("<")).tobytes()
            out[b] = _digest(raw)
        return out


def fingerprint(data, method="farmhash64", name=None):
    """A [batch, 8] uint8 tensor: FarmHash's Fingerprint64 of each row (all but the first
    dimension) of `data`, of any dtype (tf.fingerprint; stable across TF versions)."""
    with name_scope(name, "Fingerprint", [data]) as scope:
        x = convert_to_tensor(data, name="data")
        m = convert_to_tensor(method, dtype=_dtypes.string, name="method")
        return apply_op("Fingerprint", [x, m], {"T": x.dtype.base_dtype}, name=scope,
                        output_dtypes=[_dtypes.uint8])
