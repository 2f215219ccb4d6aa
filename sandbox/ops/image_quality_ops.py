"""Image quality: multi-scale SSIM and JPEG degradation -- mirrors TensorFlow 1.15's
ssim_multiscale, adjust_jpeg_quality and random_jpeg_quality (python/ops/image_ops_impl.py)
and the op EncodeJpegVariableQuality (core/kernels/encode_jpeg_op.cc).

ssim_multiscale (Wang, Simoncelli & Bovik, 2003) compares two images at 5 scales: the image,
then 2x2 average-pooled again and again (a side of odd length is first padded by mirroring
its last row or column). At each coarser scale it keeps SSIM's contrast-structure term cs, at
the coarsest the full SSIM, and combines them as a weighted geometric mean

    MS-SSIM = prod_i relu(cs_i) ** power_factors[i]   (the last factor: relu(ssim))

per channel, then averages the channels. The per-scale SSIM is image_ops.ssim's (its Gaussian
window, VALID filtering). With the 5 default factors an image needs at least 11 * 2**4 = 176
pixels per side; fewer factors allow smaller images.

adjust_jpeg_quality encodes the image as a JPEG of that quality (0 .. 100) and decodes it
again: the blocking and blurring a model meets in the wild. random_jpeg_quality draws the
quality uniformly from [min_jpeg_quality, max_jpeg_quality) with random_uniform (TF's numbers
and seeds). The codec is Pillow's libjpeg (sandbox/ops/image_codec_ops.py), not TF's
libjpeg-turbo: the round trip loses about as much, but the pixels are not TF's, and may differ
from them by several levels.
"""
from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from . import (array_ops, basic_math_ops, math_ops, nn_ops, random_ops, reduction_ops,
               slicing_ops)
from .conv_ops import avg_pool
from .depthwise_conv_ops import depthwise_conv2d
from .image_codec_ops import EncodeJpeg, decode_jpeg
from .image_ops import _check_pair, _gaussian_kernel, convert_image_dtype
from .slicing_ops import pad

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)

_MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


# -- multi-scale SSIM ----------------------------------------------------------------------

def _ssim_per_channel(img1, img2, max_val, kernel, k1, k2):
    """SSIM and its contrast-structure term cs, each averaged over height and width only:
    two [N, channels] tensors (TF's _ssim_per_channel, compensation 1)."""
    def blur(x):
        return depthwise_conv2d(x, kernel, [1, 1, 1, 1], "VALID")

    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = blur(img1), blur(img2)
    num0 = mean0 * mean1 * 2.0
    den0 = basic_math_ops.square(mean0) + basic_math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = blur(img1 * img2) * 2.0
    den1 = blur(basic_math_ops.square(img1) + basic_math_ops.square(img2))
    cs = (num1 - num0 + c2) / (den1 - den0 + c2)
    return (reduction_ops.reduce_mean(luminance * cs, [-3, -2]),
            reduction_ops.reduce_mean(cs, [-3, -2]))


def _halve(images):
    """One scale down: pad an odd height or width by mirroring its edge (SYMMETRIC), then
    2x2 average pooling."""
    height, width = images.get_shape().as_list()[1:3]
    if height is None or width is None:
        shape = array_ops.shape(images)
        extra = array_ops.stack([0, 0, 0, shape[1] % 2, 0, shape[2] % 2, 0, 0])
        images = pad(images, array_ops.reshape(extra, [4, 2]), mode="SYMMETRIC")
    elif height % 2 or width % 2:
        images = pad(images, [[0, 0], [0, height % 2], [0, width % 2], [0, 0]],
                     mode="SYMMETRIC")
    return avg_pool(images, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")


def ssim_multiscale(img1, img2, max_val, power_factors=_MSSSIM_WEIGHTS, filter_size=11,
                    filter_sigma=1.5, k1=0.01, k2=0.03):
    """Multi-scale SSIM of each pair of images (shape [..., height, width, channels]): one
    value per pair, in [0, 1] (1 for equal images). `max_val` is the images' dynamic range
    (1.0 for floats in [0, 1], 255 for uint8); power_factors weigh the scales, the first for
    the full image. The channel count must be known when the graph is built."""
    with name_scope(None, "MS-SSIM", [img1, img2]):
        img1, img2 = convert_to_tensor(img1, name="img1"), convert_to_tensor(img2, name="img2")
        _check_pair(img1, img2)
        max_val = convert_image_dtype(math_ops.cast(max_val, img1.dtype.base_dtype),
                                      _dtypes.float32)
        img1 = convert_image_dtype(img1, _dtypes.float32)
        img2 = convert_image_dtype(img2, _dtypes.float32)
        shape = img1.get_shape()
        if shape.ndims is None:
            raise ValueError("ssim_multiscale needs the images' rank known when the graph is "
                             "built.")
        tail = shape.as_list()[-3:]
        channels = tail[2]
        if channels is None:
            raise ValueError(f"ssim_multiscale needs the images' channel count known when the "
                             f"graph is built, got shape {shape}.")
        smallest = [d if d is None else -(-d // 2 ** (len(power_factors) - 1)) for d in tail[:2]]
        if any(d is not None and d < filter_size for d in smallest):
            raise ValueError(f"The images ({tail[0]}x{tail[1]}) are too small for "
                             f"{len(power_factors)} scales: the coarsest ({smallest[0]}x"
                             f"{smallest[1]}) must be at least {filter_size}x{filter_size} "
                             "(the filter size). Use fewer power_factors or larger images.")
        heads = shape.as_list()[:-3]
        head_shape = heads if None not in heads else array_ops.shape(img1)[:-3]
        flat = [-1] + tail if None not in tail[:2] else \
            slicing_ops.concat([[-1], array_ops.shape(img1)[-3:]], 0)
        imgs = [array_ops.reshape(x, flat) for x in (img1, img2)]
        kernel = convert_to_tensor(_gaussian_kernel(filter_size, filter_sigma, channels))
        mcs = []
        for k in range(len(power_factors)):
            with name_scope(None, f"Scale{k}", imgs):
                if k > 0:
                    imgs = [_halve(x) for x in imgs]
                ssim_per_channel, cs = _ssim_per_channel(imgs[0], imgs[1], max_val, kernel,
                                                         k1, k2)
                mcs.append(nn_ops.relu(cs))
        mcs.pop()                       # the coarsest scale contributes its full SSIM
        mcs_and_ssim = array_ops.stack(mcs + [nn_ops.relu(ssim_per_channel)], axis=-1)
        factors = convert_to_tensor([float(f) for f in power_factors], dtype=_dtypes.float32)
        ms_ssim = reduction_ops.reduce_prod(math_ops.pow(mcs_and_ssim, factors), [-1])
        value = reduction_ops.reduce_mean(ms_ssim, [-1])          # mean over the channels
        return array_ops.reshape(value, head_shape)


# -- JPEG quality ------------------------------------------------------------------------------

class EncodeJpegVariableQuality(OpDef):
    """uint8 [height, width, 1 or 3] and a quality tensor (0 .. 100) -> JPEG bytes."""
    differentiable = False

    def shape(op):
        images, quality = (t.get_shape() for t in op.inputs)
        if images.ndims is not None and images.ndims != 3:
            raise ValueError(f"Shape must be rank 3 but is rank {images.ndims}")
        if quality.ndims is not None and quality.ndims != 0:
            raise ValueError(f"Shape must be rank 0 but is rank {quality.ndims}")
        return TensorShape([])

    def kernel(images, quality):
        if quality.ndim != 0:
            raise errors.InvalidArgumentError(None, None, f"quality must be scalar: "
                                              f"{list(quality.shape)}")
        return EncodeJpeg.kernel(images, quality=int(quality))


def adjust_jpeg_quality(image, jpeg_quality, name=None):
    """The image after a JPEG round trip at quality `jpeg_quality` (an int 0 .. 100, or an
    int32 tensor): encoded with Pillow's libjpeg and decoded again, in the image's dtype.
    A single image [height, width, 1 or 3]. The pixels are close to, but not, TF's (whose
    codec is libjpeg-turbo)."""
    with name_scope(name, "adjust_jpeg_quality", [image]) as scope:
        image = convert_to_tensor(image, name="image")
        shape = image.get_shape()
        channels = shape.as_list()[-1] if shape.ndims else None
        orig_dtype = image.dtype.base_dtype
        image = convert_image_dtype(image, _dtypes.uint8, saturate=True)
        if not isinstance(jpeg_quality, Tensor):
            jpeg_quality = convert_to_tensor(jpeg_quality, dtype=_dtypes.int32)
        encoded = apply_op("EncodeJpegVariableQuality", [image, jpeg_quality], {},
                           name="EncodeJpegVariableQuality", output_dtypes=[_dtypes.string])
        image = decode_jpeg(encoded, channels=channels or 0)
        return convert_image_dtype(image, orig_dtype, saturate=True, name=scope)


def random_jpeg_quality(image, min_jpeg_quality, max_jpeg_quality, seed=None):
    """adjust_jpeg_quality with a quality drawn on every run uniformly from
    [min_jpeg_quality, max_jpeg_quality) (random_uniform's int32 numbers and seeds)."""
    if min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100 or \
            max_jpeg_quality > 100:
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    jpeg_quality = random_ops.random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed,
                                             dtype=_dtypes.int32)
    return adjust_jpeg_quality(image, jpeg_quality)
