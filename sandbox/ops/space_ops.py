"""Moving space into depth or into the batch -- mirrors TensorFlow 1.x's space_to_depth,
depth_to_space, space_to_batch(_nd) and batch_to_space(_nd) (python/ops/array_ops.py,
core/kernels/spacetodepth_op.cc, spacetobatch_op.cc) and their gradients
(python/ops/array_grad.py).

    space_to_depth(x, b)   [N, H, W, C] -> [N, H/b, W/b, C*b*b]: each b x b block of pixels
                           becomes one pixel with b*b times the channels (depth_to_space: back)
    space_to_batch_nd(x, block_shape, paddings)
                           pads the spatial dims, then moves each position of a block into
                           its own batch entry: [N, H, W, C] -> [N*bh*bw, H'/bh, W'/bw, C];
                           batch_to_space_nd(x, block_shape, crops) undoes it. (How atrous /
                           dilated convolution is built.)

    extract_image_patches(x, ksizes, strides, rates, padding)
                           each ksize window of pixels (dilated by `rates`) as one pixel of
                           depth kh*kw*C: [N, H, W, C] -> [N, H', W', kh*kw*C]
    extract_volume_patches(x, ksizes, strides, padding)
                           the same for volumes: [N, P, R, C, D] -> [N, P', R', C', kp*kr*kc*D]

Each pair are inverses, so each op's gradient is its partner; the patches' gradient adds each
patch's gradient back where its pixels came from. Only the NHWC layout.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from ..framework.tensor_util import constant_value, int_tensor, shape_text

__all__ = ["space_to_depth", "depth_to_space", "space_to_batch_nd", "batch_to_space_nd",
           "space_to_batch", "batch_to_space", "required_space_to_batch_paddings",
           "extract_image_patches", "extract_volume_patches"]


def _check_nhwc(data_format):
    if data_format != "NHWC":
        raise NotImplementedError(f"The sandbox has only the NHWC layout, got data_format="
                                  f"{data_format!r}")


def _s2d(x, b):
    n, h, w, c = x.shape
    x = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(n, h // b, w // b, b * b * c)


def _d2s(x, b):
    n, h, w, c = x.shape
    x = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return x.reshape(n, h * b, w * b, c // (b * b))


class SpaceToDepth(OpDef):
    def shape(op):
        s, b = op.inputs[0].get_shape(), op.get_attr("block_size")
        if s.ndims is None:
            return unknown_shape(4)
        if s.ndims != 4:
            raise ValueError(f"Shape must be rank 4 but is rank {s.ndims}")
        n, h, w, c = s.as_list()
        for d in (h, w):
            if d is not None and d % b:
                raise ValueError(f"Dimension size must be evenly divisible by {b} but is {d}")
        return TensorShape([n, None if h is None else h // b, None if w is None else w // b,
                            None if c is None else c * b * b])

    def kernel(input, block_size=2, data_format="NHWC", T=None):  # noqa: A002
        if input.ndim != 4 or input.shape[1] % block_size or input.shape[2] % block_size:
            raise errors.InvalidArgumentError(
                None, None, f"Image height and width must be divisible by block_size "
                f"{block_size}, got input of shape {shape_text(input.shape)}")
        return _s2d(input, block_size)

    def gradient(op, grad):
        return [depth_to_space(grad, op.get_attr("block_size"))]


class DepthToSpace(OpDef):
    def shape(op):
        s, b = op.inputs[0].get_shape(), op.get_attr("block_size")
        if s.ndims is None:
            return unknown_shape(4)
        if s.ndims != 4:
            raise ValueError(f"Shape must be rank 4 but is rank {s.ndims}")
        n, h, w, c = s.as_list()
        if c is not None and c % (b * b):
            raise ValueError(f"Dimension size must be evenly divisible by {b * b} but is {c}")
        return TensorShape([n, None if h is None else h * b, None if w is None else w * b,
                            None if c is None else c // (b * b)])

    def kernel(input, block_size=2, data_format="NHWC", T=None):  # noqa: A002
        if input.ndim != 4 or input.shape[3] % (block_size * block_size):
            raise errors.InvalidArgumentError(
                None, None, f"Input depth must be divisible by block_size * block_size "
                f"({block_size * block_size}), got input of shape {shape_text(input.shape)}")
        return _d2s(input, block_size)

    def gradient(op, grad):
        return [space_to_depth(grad, op.get_attr("block_size"))]


def _block_op(op_type, input, block_size, data_format, name):
    _check_nhwc(data_format)
    if int(block_size) < 2:
        raise ValueError(f"Value for attr 'block_size' of {block_size} must be at least "
                         "minimum 2")
    with name_scope(name, op_type, [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return apply_op(op_type, [x], {"block_size": int(block_size),
                                       "data_format": data_format,
                                       "T": x.dtype.base_dtype}, name=scope)


def space_to_depth(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """[N, H, W, C] -> [N, H/b, W/b, C*b*b]: blocks of b x b pixels become channels."""
    return _block_op("SpaceToDepth", input, block_size, data_format, name)


def depth_to_space(input, block_size, name=None, data_format="NHWC"):  # noqa: A002
    """[N, H, W, C] -> [N, H*b, W*b, C/(b*b)]: the inverse of space_to_depth."""
    return _block_op("DepthToSpace", input, block_size, data_format, name)


# -- space_to_batch_nd / batch_to_space_nd ------------------------------------------------------

def _s2b(x, block, pads):
    m = len(block)
    pad = [(0, 0)] + [tuple(p) for p in pads] + [(0, 0)] * (x.ndim - 1 - m)
    x = np.pad(x, pad)
    n = x.shape[0]
    spatial = x.shape[1:1 + m]
    rest = x.shape[1 + m:]
    shape = [n]
    for d, b in zip(spatial, block):
        shape += [d // b, b]
    x = x.reshape(shape + list(rest))
    # axes: 0 batch, then (outer_i, block_i) pairs, then the rest
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    x = x.transpose(perm)
    return x.reshape([n * int(np.prod(block))] + [d // b for d, b in zip(spatial, block)] +
                     list(rest))


def _b2s(x, block, crops):
    m = len(block)
    prod = int(np.prod(block))
    n = x.shape[0] // prod
    spatial = x.shape[1:1 + m]
    rest = x.shape[1 + m:]
    x = x.reshape(list(block) + [n] + list(spatial) + list(rest))
    perm = [m]
    for i in range(m):
        perm += [m + 1 + i, i]
    perm += list(range(1 + 2 * m, 1 + 2 * m + len(rest)))
    x = x.transpose(perm).reshape([n] + [d * b for d, b in zip(spatial, block)] + list(rest))
    index = [slice(None)] + [slice(c[0], x.shape[1 + i] - c[1]) for i, c in enumerate(crops)]
    return x[tuple(index)]


class SpaceToBatchND(OpDef):
    def shape(op):
        s = op.inputs[0].get_shape()
        block, pads = constant_value(op.inputs[1]), constant_value(op.inputs[2])
        if s.ndims is None or block is None or pads is None:
            return unknown_shape(s.ndims)
        dims = s.as_list()
        m = len(block)
        out = [None if dims[0] is None else dims[0] * int(np.prod(block))]
        for i in range(m):
            d = dims[1 + i]
            if d is None:
                out.append(None)
                continue
            padded = d + int(pads[i][0]) + int(pads[i][1])
            if padded % int(block[i]):
                raise ValueError(f"padded_shape[{i}]={padded} is not divisible by "
                                 f"block_shape[{i}]={int(block[i])}")
            out.append(padded // int(block[i]))
        return TensorShape(out + dims[1 + m:])

    def kernel(input, block_shape, paddings, T=None, Tblock_shape=None,  # noqa: A002
               Tpaddings=None):
        block, pads = block_shape.tolist(), paddings.tolist()
        for i, b in enumerate(block):
            padded = input.shape[1 + i] + pads[i][0] + pads[i][1]
            if padded % b:
                raise errors.InvalidArgumentError(
                    None, None, f"padded_shape[{i}]={padded} is not divisible by "
                    f"block_shape[{i}]={b}")
        return _s2b(input, block, pads)

    def gradient(op, grad):
        return [batch_to_space_nd(grad, op.inputs[1], op.inputs[2]), None, None]


class BatchToSpaceND(OpDef):
    def shape(op):
        s = op.inputs[0].get_shape()
        block, crops = constant_value(op.inputs[1]), constant_value(op.inputs[2])
        if s.ndims is None or block is None or crops is None:
            return unknown_shape(s.ndims)
        dims = s.as_list()
        m = len(block)
        prod = int(np.prod(block))
        if dims[0] is not None and dims[0] % prod:
            raise ValueError(f"Input batch dimension ({dims[0]}) is not divisible by the "
                             f"product of block sizes ({prod})")
        out = [None if dims[0] is None else dims[0] // prod]
        for i in range(m):
            d = dims[1 + i]
            out.append(None if d is None else d * int(block[i]) - int(crops[i][0]) -
                       int(crops[i][1]))
        return TensorShape(out + dims[1 + m:])

    def kernel(input, block_shape, crops, T=None, Tblock_shape=None, Tcrops=None):  # noqa
        block = block_shape.tolist()
        if input.shape[0] % int(np.prod(block)):
            raise errors.InvalidArgumentError(
                None, None, f"Input batch dimension ({input.shape[0]}) is not divisible by "
                f"the product of block sizes ({int(np.prod(block))})")
        return _b2s(input, block, crops.tolist())

    def gradient(op, grad):
        return [space_to_batch_nd(grad, op.inputs[1], op.inputs[2]), None, None]


def space_to_batch_nd(input, block_shape, paddings, name=None):  # noqa: A002
    """Pads the M spatial dims (after the batch dim) by `paddings` and moves each position
    of a block_shape block into its own batch entry."""
    with name_scope(name, "SpaceToBatchND", [input, block_shape, paddings]) as scope:
        x = convert_to_tensor(input, name="input")
        b = int_tensor(block_shape, name="block_shape")
        p = int_tensor(paddings, name="paddings")
        return apply_op("SpaceToBatchND", [x, b, p], {"T": x.dtype.base_dtype,
                                                      "Tblock_shape": b.dtype.base_dtype,
                                                      "Tpaddings": p.dtype.base_dtype},
                        name=scope)


def batch_to_space_nd(input, block_shape, crops, name=None):  # noqa: A002
    """The inverse of space_to_batch_nd: batch entries back into blocks, then `crops`
    removed."""
    with name_scope(name, "BatchToSpaceND", [input, block_shape, crops]) as scope:
        x = convert_to_tensor(input, name="input")
        b = int_tensor(block_shape, name="block_shape")
        c = int_tensor(crops, name="crops")
        return apply_op("BatchToSpaceND", [x, b, c], {"T": x.dtype.base_dtype,
                                                      "Tblock_shape": b.dtype.base_dtype,
                                                      "Tcrops": c.dtype.base_dtype},
                        name=scope)


def space_to_batch(input, paddings, block_size=None, name=None, block_shape=None):  # noqa
    """space_to_batch_nd for a 4-D input with a square block: block_size x block_size."""
    if block_size is None:
        block_size = block_shape
    if block_size is None:
        raise TypeError("space_to_batch() needs block_size")
    return space_to_batch_nd(input, [int(block_size)] * 2, paddings, name=name)


def batch_to_space(input, crops, block_size, name=None, block_shape=None):  # noqa: A002
    """batch_to_space_nd for a 4-D input with a square block: block_size x block_size."""
    if block_size is None:
        block_size = block_shape
    return batch_to_space_nd(input, [int(block_size)] * 2, crops, name=name)


def required_space_to_batch_paddings(input_shape, block_shape, base_paddings=None,
                                     name=None):
    """(paddings, crops) for space_to_batch_nd / batch_to_space_nd: base_paddings (default
    zeros) with the end paddings grown until each padded dim divides by its block."""
    from . import array_ops, math_ops
    with name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        shape = int_tensor(input_shape, name="input_shape")
        block = int_tensor(block_shape, name="block_shape")
        if base_paddings is None:
            base = array_ops.zeros(array_ops.stack([array_ops.size(block), 2]), _dtypes.int32)
        else:
            base = int_tensor(base_paddings, name="base_paddings")
        pad_start, orig_pad_end = base[:, 0], base[:, 1]
        full = shape + pad_start + orig_pad_end
        extra = math_ops.floormod(block - math_ops.floormod(full, block), block)
        pad_end = orig_pad_end + extra
        paddings = array_ops.stack([pad_start, pad_end], axis=1, name="paddings")
        crops = array_ops.stack([array_ops.zeros_like(extra), extra], axis=1, name="crops")
        return paddings, crops


# -- extract_image_patches ------------------------------------------------------------------

def _patch_geometry(size, k, stride, rate, padding):
    """(output size, padding before) of one spatial dim, as TF's conv shape rules."""
    eff = (k - 1) * rate + 1
    if padding == "VALID":
        return (size - eff) // stride + 1, 0
    out = -(-size // stride)
    total = max((out - 1) * stride + eff - size, 0)
    return out, total // 2


def _patch_index(shape, ksizes, strides, rates, padding):
    """The paddings of the input and one index array per spatial dim, which pick every
    patch pixel out of the padded input: padded[:, *index, :] is [N, O1.., K1.., C] (the
    outputs' positions, then the pixels of a patch). Any number of spatial dims (2 for
    images, 3 for volumes); ksizes, strides and rates are the full [1, ..., 1] lists."""
    n = len(shape) - 2
    pads, index = [(0, 0)], []
    for i in range(n):
        out, before = _patch_geometry(shape[1 + i], ksizes[1 + i], strides[1 + i],
                                      rates[1 + i], padding)
        pixel = (np.arange(out)[:, None] * strides[1 + i] +
                 np.arange(ksizes[1 + i])[None, :] * rates[1 + i])
        after = max(int(pixel.max(initial=-1)) + 1 - before - shape[1 + i], 0)
        pads.append((before, after))
        spread = [1] * (2 * n)
        spread[i], spread[n + i] = pixel.shape
        index.append(pixel.reshape(spread))
    return pads + [(0, 0)], tuple(index)


def _extract_patches(images, ksizes, strides, rates, padding):
    """Every patch flattened into the depth: [N, O1.., K1 * .. * C]."""
    pads, index = _patch_index(images.shape, ksizes, strides, rates, padding)
    patches = np.pad(images, pads)[(slice(None),) + index]     # [N, O1.., K1.., C]
    n_spatial = len(index)
    return patches.reshape(patches.shape[:1 + n_spatial] + (-1,))


def _patches_grad(images, grad, ksizes, strides, rates, padding):
    """Adds each patch's gradient back onto the pixels it was cut from."""
    pads, index = _patch_index(images.shape, ksizes, strides, rates, padding)
    padded = np.zeros([d + a + b for d, (a, b) in zip(images.shape, pads)], grad.dtype)
    n_spatial = len(index)
    g = grad.reshape(grad.shape[:1 + n_spatial] + tuple(ksizes[1:-1]) + images.shape[-1:])
    np.add.at(padded, (slice(None),) + index, g)
    inside = tuple(slice(a, a + d) for d, (a, _) in zip(images.shape, pads))
    return padded[inside]


def _patches_shape(op, n_spatial, rates):
    s = op.inputs[0].get_shape()
    if s.ndims is None:
        return unknown_shape(n_spatial + 2)
    if s.ndims != n_spatial + 2:
        raise ValueError(f"Shape must be rank {n_spatial + 2} but is rank {s.ndims}")
    dims = s.as_list()
    k, st, pad = (op.get_attr(a) for a in ("ksizes", "strides", "padding"))
    out = [None if d is None else _patch_geometry(d, k[1 + i], st[1 + i], rates[1 + i], pad)[0]
           for i, d in enumerate(dims[1:-1])]
    depth = None if dims[-1] is None else dims[-1] * int(np.prod(k[1:-1]))
    return TensorShape([dims[0]] + out + [depth])


class ExtractImagePatches(OpDef):
    def shape(op):
        return _patches_shape(op, 2, op.get_attr("rates"))

    def kernel(images, ksizes=None, strides=None, rates=None, padding="VALID", T=None):
        return _extract_patches(images, ksizes, strides, rates, padding)

    def gradient(op, grad):
        return [apply_op("ExtractImagePatchesGrad", [op.inputs[0], grad],
                         {a: op.get_attr(a) for a in ("ksizes", "strides", "rates", "padding")}
                         | {"T": grad.dtype.base_dtype}, name="ExtractImagePatchesGrad")]


class ExtractImagePatchesGrad(OpDef):
    """Adds each patch's gradient back onto the pixels it was cut from."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(images, grad, ksizes=None, strides=None, rates=None, padding="VALID", T=None):
        return _patches_grad(images, grad, ksizes, strides, rates, padding)


class ExtractVolumePatches(OpDef):
    """extract_image_patches in 3-D: [N, planes, rows, cols, C] -> [N, OP, OR, OC,
    kp * kr * kc * C]; no rates."""
    def shape(op):
        return _patches_shape(op, 3, [1] * 5)

    def kernel(input, ksizes=None, strides=None, padding="VALID", T=None):  # noqa: A002
        return _extract_patches(input, ksizes, strides, [1] * 5, padding)

    def gradient(op, grad):
        return [apply_op("ExtractVolumePatchesGrad", [op.inputs[0], grad],
                         {a: op.get_attr(a) for a in ("ksizes", "strides", "padding")}
                         | {"T": grad.dtype.base_dtype}, name="ExtractVolumePatchesGrad")]


class ExtractVolumePatchesGrad(OpDef):
    """Adds each volume patch's gradient back onto the voxels it was cut from (a sandbox op:
    TF 2.x builds it from a sparse matmul)."""
    differentiable = False

    def shape(op):
        return op.inputs[0].get_shape()

    def kernel(input, grad, ksizes=None, strides=None, padding="VALID", T=None):  # noqa: A002
        return _patches_grad(input, grad, ksizes, strides, [1] * 5, padding)


def extract_image_patches(images, ksizes=None, strides=None, rates=None, padding=None,
                          name=None, sizes=None):
    """Patches of ksizes = [1, kh, kw, 1] pixels, every strides = [1, sh, sw, 1], their
    pixels rates = [1, rh, rw, 1] apart, padding 'VALID' or 'SAME' (zeros), each flattened
    into the depth: [N, H, W, C] -> [N, OH, OW, kh * kw * C]."""
    ksizes = sizes if ksizes is None else ksizes
    if ksizes is None or strides is None or rates is None or padding is None:
        raise TypeError("extract_image_patches() needs ksizes, strides, rates and padding")
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"padding must be 'VALID' or 'SAME', got {padding!r}")
    for attr, v in (("ksizes", ksizes), ("strides", strides), ("rates", rates)):
        if len(v) != 4 or v[0] != 1 or v[3] != 1:
            raise ValueError(f"{attr} must be of the form [1, rows, cols, 1], got {list(v)}")
    with name_scope(name, "ExtractImagePatches", [images]) as scope:
        x = convert_to_tensor(images, name="images")
        return apply_op("ExtractImagePatches", [x],
                        {"ksizes": [int(k) for k in ksizes], "strides": [int(k) for k in strides],
                         "rates": [int(k) for k in rates], "padding": padding,
                         "T": x.dtype.base_dtype}, name=scope)


def extract_volume_patches(input, ksizes, strides, padding, name=None):  # noqa: A002
    """Patches of ksizes = [1, kp, kr, kc, 1] voxels, every strides = [1, sp, sr, sc, 1],
    padding 'VALID' or 'SAME' (zeros), each flattened into the depth: [N, P, R, C, depth] ->
    [N, OP, OR, OC, kp * kr * kc * depth] (TF's ExtractVolumePatches)."""
    if padding not in ("VALID", "SAME"):
        raise ValueError(f"padding must be 'VALID' or 'SAME', got {padding!r}")
    for attr, v in (("ksizes", ksizes), ("strides", strides)):
        if len(v) != 5 or v[0] != 1 or v[4] != 1:
            raise ValueError(f"extract_volume_patches: {attr} must be of the form "
                             f"[1, planes, rows, cols, 1], got {list(v)}")
    with name_scope(name, "ExtractVolumePatches", [input]) as scope:
        x = convert_to_tensor(input, name="input")
        return apply_op("ExtractVolumePatches", [x],
                        {"ksizes": [int(k) for k in ksizes], "strides": [int(k) for k in strides],
                         "padding": padding, "T": x.dtype.base_dtype}, name=scope)
