"""tf.nn.fractional_max_pool and fractional_avg_pool -- as TensorFlow 1.15's
python/ops/nn_ops.py defines them, computed as core/kernels/fractional_max_pool_op.cc,
fractional_avg_pool_op.cc and fractional_pool_common.cc do.

Fractional pooling (Graham 2014) shrinks height and width by a non-integer pooling_ratio
[1.0, rh, rw, 1.0]: the windows are k or k + 1 long, mixed at random (or, pseudo_random,
as ceil(alpha * (i + u)) for one random u). The boundaries come from TF's Philox generator
exactly as its kernel draws them (sandbox/ops/philox.py), so with deterministic=True and a
seed the sandbox pools over the very windows TensorFlow does:

    y, rows, cols = tf.nn.fractional_max_pool(x, [1.0, 1.44, 1.73, 1.0], deterministic=True,
                                              seed=7, seed2=3)
"""
import collections
import math
import secrets

import numpy as np

from ..framework import dtypes, errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from . import array_ops
from .conv_ops import _known_shape
from .philox import _uint64_to_double, philox_blocks

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


class _Philox32:
    """TF's GuardedPhiloxRandom as the fractional pools use it: ReserveSamples32(n) hands out
    the words of the next ceil(n / 4) Philox blocks, one at a time (SingleSampleAdapter)."""

    def __init__(self, seed, seed2):
        seed, seed2 = int(seed), int(seed2)
        if seed == 0 and seed2 == 0:                    # unseeded: fresh numbers every run
            seed, seed2 = secrets.randbits(64), secrets.randbits(64)
        seed &= (1 << 64) - 1
        self.key = (seed & 0xFFFFFFFF, seed >> 32)
        self.counter = (seed2 & ((1 << 64) - 1)) << 64

    def reserve32(self, n):
        blocks = (n + 3) // 4
        words = philox_blocks(self.key, self.counter, blocks).reshape(-1)
        self.counter = (self.counter + blocks) & ((1 << 128) - 1)
        return words


def _pooling_sequence(n_in, n_out, gen, pseudo_random):
    """GeneratePoolingSequence: the n_out + 1 window boundaries over n_in entries, every
    window k = n_in // n_out or k + 1 long."""
    k = n_in // n_out
    if pseudo_random:
        alpha = n_in / n_out
        max_u = min((k + 2) / alpha - 1, (n_in + 1 - k) / alpha - (n_out - 1))
        w = gen.reserve32(2)
        u = float(_uint64_to_double(w[0:1], w[1:2])[0]) * max_u
        cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, n_out)] + [n_in + 1]
        diff = [cum[i + 1] - cum[i] for i in range(n_out)]
    else:
        diff = [k + (i < n_in % n_out) for i in range(n_out)]
        words = gen.reserve32(n_out)
        for i in range(n_out - 1):                      # RandomShuffle
            j = i + int(words[i]) % (n_out - i)
            diff[i], diff[j] = diff[j], diff[i]
    return np.concatenate([[0], np.cumsum(diff)]).astype(np.int64)


def _fractional_windows(x, rows, cols, overlapping):
    """For every output cell (i, j): the input rows and columns of its window."""
    def spans(seq, size):
        ends = [min(seq[i + 1] if overlapping else seq[i + 1] - 1, size - 1)
                for i in range(len(seq) - 1)]
        return [(int(seq[i]), int(ends[i]) + 1) for i in range(len(seq) - 1)]
    return spans(rows, x.shape[1]), spans(cols, x.shape[2])


def _fractional_kernel_args(input, pooling_ratio, pseudo_random, deterministic, seed,  # noqa
                            seed2, what):
    """TF's checks when the kernel is built and run, then (output size, row and column
    pooling sequences)."""
    if len(pooling_ratio) != 4:
        raise errors.InvalidArgumentError(None, None, "pooling_ratio field must specify 4 "
                                          "dimensions")
    if pooling_ratio[0] != 1 or pooling_ratio[3] != 1:
        raise errors.UnimplementedError(None, None, f"Fractional {what} pooling is not yet "
                                        f"supported on the batch nor channel dimension.")
    if not deterministic and (seed != 0 or seed2 != 0):
        raise errors.InvalidArgumentError(None, None, "Both seed and seed2 should be 0 if "
                                          "deterministic is false.")
    if input.ndim != 4:
        raise errors.InvalidArgumentError(None, None, f"tensor_in must be 4-dimensional, got "
                                          f"{shape_text(input.shape)}")
    ratio = np.asarray(pooling_ratio, np.float32)
    for i in range(4):
        if input.shape[i] < ratio[i]:
            raise errors.InvalidArgumentError(
                None, None, f"Pooling ratio is higher than input dimension size for dimension "
                f"{i}. Input dim size: {input.shape[i]} pooling ratio: {ratio[i]:g}")
    out = [int(np.floor(np.float32(n) / r)) for n, r in zip(input.shape, ratio)]
    if deterministic and seed == 0 and seed2 == 0:
        seed, seed2 = secrets.randbits(63), secrets.randbits(63)
    gen = _Philox32(seed, seed2)
    rows = _pooling_sequence(input.shape[1], out[1], gen, pseudo_random)
    cols = _pooling_sequence(input.shape[2], out[2], gen, pseudo_random)
    return out, rows, cols


def _fractional_shape(op):
    x = op.inputs[0].get_shape().with_rank(4)
    ratio = np.asarray(op.get_attr("pooling_ratio"), np.float32)
    if len(ratio) != 4:
        raise ValueError(f"pooling_ratio field must specify 4 dimensions, got {len(ratio)}")
    for r in ratio:
        if r < 1:
            raise ValueError(f"pooling_ratio cannot be smaller than 1, got: {r:g}")
    dims = [None if d.value is None else int(np.floor(np.float32(d.value) / r))
            for d, r in zip(x, ratio)]
    return [TensorShape(dims), TensorShape([None if dims[1] is None else dims[1] + 1]),
            TensorShape([None if dims[2] is None else dims[2] + 1])]


def _max_windows(x, rows, cols, overlapping):
    """(max of every window, the flat index of the first max in it): [N, oh, ow, C] each."""
    n, h, w, c = x.shape
    rspans, cspans = _fractional_windows(x, rows, cols, overlapping)
    out = np.empty((n, len(rspans), len(cspans), c), x.dtype)
    arg = np.empty(out.shape, np.int64)
    for i, (r0, r1) in enumerate(rspans):
        for j, (c0, c1) in enumerate(cspans):
            win = x[:, r0:r1, c0:c1].reshape(n, -1, c)
            k = np.argmax(win, axis=1)
            out[:, i, j] = np.take_along_axis(win, k[:, None], axis=1)[:, 0]
            ys, xs = r0 + k // (c1 - c0), c0 + k % (c1 - c0)
            arg[:, i, j] = ((np.arange(n)[:, None] * h + ys) * w + xs) * c + np.arange(c)
    return out, arg


class FractionalMaxPool(OpDef):
    """Max pooling over windows of pseudo-randomly mixed sizes k and k + 1 (Graham 2014)."""
    multi_output = True
    stateful = True               # draws its pooling sequences (fixed with deterministic=True)
    shape = _fractional_shape

    def kernel(value, pooling_ratio, pseudo_random=False, overlapping=False,
               deterministic=False, seed=0, seed2=0, T=None):
        _, rows, cols = _fractional_kernel_args(value, pooling_ratio, pseudo_random,
                                                deterministic, seed, seed2, "max")
        return _max_windows(value, rows, cols, overlapping)[0], rows, cols

    def gradient(op, grad, _rows, _cols):
        return [apply_op("FractionalMaxPoolGrad",
                         [op.inputs[0], op.outputs[0], grad, op.outputs[1], op.outputs[2]],
                         {"T": grad.dtype.base_dtype,
                          "overlapping": op.get_attr("overlapping")},
                         name="FractionalMaxPoolGrad")]


class FractionalMaxPoolGrad(OpDef):
    """dinput of FractionalMaxPool: each window's gradient to its (first) maximum."""

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(orig_input, orig_output, out_backprop, row_pooling_sequence,
               col_pooling_sequence, overlapping=False, T=None):
        out, arg = _max_windows(orig_input, row_pooling_sequence, col_pooling_sequence,
                                overlapping)
        if out.shape != orig_output.shape or not np.array_equal(out, orig_output):
            raise errors.InvalidArgumentError(None, None, "tensor_out_dup is not the same as "
                                              "tensor_out")
        dx = np.zeros(orig_input.size, out_backprop.dtype)
        np.add.at(dx, arg.reshape(-1), out_backprop.reshape(-1))
        return dx.reshape(orig_input.shape)


class FractionalAvgPool(OpDef):
    """Average pooling over windows of pseudo-randomly mixed sizes k and k + 1."""
    multi_output = True
    stateful = True
    shape = _fractional_shape

    def kernel(value, pooling_ratio, pseudo_random=False, overlapping=False,
               deterministic=False, seed=0, seed2=0, T=None):
        _, rows, cols = _fractional_kernel_args(value, pooling_ratio, pseudo_random,
                                                deterministic, seed, seed2, "average")
        rspans, cspans = _fractional_windows(value, rows, cols, overlapping)
        out = np.empty((value.shape[0], len(rspans), len(cspans), value.shape[3]),
                       value.dtype)
        for i, (r0, r1) in enumerate(rspans):
            for j, (c0, c1) in enumerate(cspans):
                out[:, i, j] = value[:, r0:r1, c0:c1].sum(axis=(1, 2)) / ((r1 - r0) * (c1 - c0))
        return out, rows, cols

    def gradient(op, grad, _rows, _cols):
        return [apply_op("FractionalAvgPoolGrad",
                         [array_ops.shape(op.inputs[0], out_type=dtypes.int64), grad,
                          op.outputs[1], op.outputs[2]],
                         {"T": grad.dtype.base_dtype,
                          "overlapping": op.get_attr("overlapping")},
                         name="FractionalAvgPoolGrad", output_dtypes=[grad.dtype.base_dtype])]


class FractionalAvgPoolGrad(OpDef):
    """dinput of FractionalAvgPool: each window's gradient shared evenly over it."""

    def shape(op):
        return _known_shape(op.inputs[0], 4)

    def kernel(orig_input_tensor_shape, out_backprop, row_pooling_sequence,
               col_pooling_sequence, overlapping=False, T=None):
        shape = tuple(int(d) for d in orig_input_tensor_shape)
        dx = np.zeros(shape, np.float64)
        rspans, cspans = _fractional_windows(np.empty(shape), row_pooling_sequence,
                                             col_pooling_sequence, overlapping)
        for i, (r0, r1) in enumerate(rspans):
            for j, (c0, c1) in enumerate(cspans):
                share = out_backprop[:, i, j].astype(np.float64) / ((r1 - r0) * (c1 - c0))
                dx[:, r0:r1, c0:c1] += share[:, None, None, :]
        return dx.astype(out_backprop.dtype)


def _fractional_pool(op_type, value, pooling_ratio, pseudo_random, overlapping,
                     deterministic, seed, seed2, name):
    ratio = [float(r) for r in pooling_ratio]
    x = convert_to_tensor(value, name="value")
    return _OUTPUTS[op_type](*apply_op(
        op_type, [x],
        {"T": x.dtype.base_dtype, "pooling_ratio": ratio, "pseudo_random": bool(pseudo_random),
         "overlapping": bool(overlapping), "deterministic": bool(deterministic),
         "seed": int(seed), "seed2": int(seed2)},
        name=name or op_type, output_dtypes=[x.dtype.base_dtype, dtypes.int64, dtypes.int64]))


# What the functions return: namedtuples named after the op, as TF's.
_OUTPUTS = {op_type: collections.namedtuple(op_type, ["output", "row_pooling_sequence",
                                                      "col_pooling_sequence"])
            for op_type in ("FractionalMaxPool", "FractionalAvgPool")}


def fractional_max_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
    """Fractional max pooling of an NHWC tensor by pooling_ratio [1.0, rh, rw, 1.0] (each at
    least 1): returns (output, row_pooling_sequence, col_pooling_sequence). The window
    boundaries are drawn as TF draws them; with deterministic=True and a nonzero seed/seed2
    they are TF's own, run after run."""
    return _fractional_pool("FractionalMaxPool", value, pooling_ratio, pseudo_random,
                            overlapping, deterministic, seed, seed2, name)


def fractional_avg_pool(value, pooling_ratio, pseudo_random=False, overlapping=False,
                        deterministic=False, seed=0, seed2=0, name=None):
    """Fractional average pooling: fractional_max_pool's windows, averaged."""
    return _fractional_pool("FractionalAvgPool", value, pooling_ratio, pseudo_random,
                            overlapping, deterministic, seed, seed2, name)
