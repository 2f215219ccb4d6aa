"""Random crops that keep an object in view -- mirrors TensorFlow 1.15's
tf.image.sample_distorted_bounding_box (python/ops/image_ops_impl.py) and its kernel,
core/kernels/sample_distorted_bounding_box_op.cc (op SampleDistortedBoundingBoxV2).

The classic Inception augmentation: pick a random window of the image that still shows at
least `min_object_covered` of one of the labelled boxes, then crop to it:

    begin, size, bbox = tf.image.sample_distorted_bounding_box(
        tf.shape(image), bounding_boxes=boxes,          # [1, N, 4] floats in [0, 1]
        min_object_covered=0.5, area_range=[0.3, 1.0])
    crop = tf.slice(image, begin, size)                # begin/size: [y, x, 0], [h, w, -1]

Each attempt (at most max_attempts) draws an aspect ratio w/h in aspect_ratio_range, a height
such that the window's area is in area_range (fractions of the image), then the window's
corner; the first window covering enough of some box wins. When none does, the whole image is
returned. `bboxes` is the window as [[[ymin, xmin, ymax, xmax]]] in fractions, ready for
tf.image.draw_bounding_boxes.

The random numbers are TF's: the kernel reads 32-bit Philox words exactly as TF's
SimplePhilox does (uniform floats, and integers by rejection sampling), so with the same
`seed` / `seed2` the sandbox picks TF's windows. As in TF 1.x, this function takes the two
seeds literally (the graph-level seed of tf.set_random_seed plays no part): seed = seed2 = 0
means fresh entropy in every session; otherwise every session replays the same sequence of
windows, one per run.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from .philox import _uint32_to_float, philox_blocks
from .random_ops import generator_for

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)

_MASK128 = (1 << 128) - 1
_MAX_INT32 = 2 ** 31 - 1


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


def _check_rank(op, index, rank):
    """Shape functions' checks, worded as TF's (the graph adds the op and input shapes)."""
    got = op.inputs[index].get_shape().ndims
    if got is not None and got != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {got}")


def _check_dim(op, index, axis, value):
    shape = op.inputs[index].get_shape()
    if shape.ndims is not None:
        got = shape.as_list()[axis]
        if got is not None and got != value:
            raise ValueError(f"Dimension must be {value} but is {got}")


# -- TF's random words: SimplePhilox over PhiloxRandom -------------------------------------

class _SimplePhilox:
    """The 32-bit words of Philox blocks counter, counter + 1, ... one at a time, word 0 of
    each block first (TF's SingleSampleAdapter), with TF's RandFloat and Uniform(n)."""

    def __init__(self, key, counter):
        self._key, self._counter = key, counter
        self._words, self._next = np.empty(0, np.uint32), 0

    def rand32(self):
        if self._next == len(self._words):
            self._words = philox_blocks(self._key, self._counter, 16).reshape(-1)
            self._counter = (self._counter + 16) & _MASK128
            self._next = 0
        word = self._words[self._next]
        self._next += 1
        return word

    def rand_float(self):
        """Uint32ToFloat: uniform in [0, 1)."""
        return _uint32_to_float(self.rand32())

    def uniform(self, n):
        """ExactUniformInt<uint32>: uniform in [0, n), rejecting the words that would bias
        the remainder."""
        n = int(n)
        if n == 0:
            self.rand32()
            return 0
        if n & (n - 1) == 0:
            return int(self.rand32()) & (n - 1)
        rem = (0xFFFFFFFF % n) + 1
        while True:
            word = int(self.rand32())
            if word >= rem:
                return word % n


# -- the kernel ------------------------------------------------------------------------------

def _lrintf(x):
    return int(np.rint(np.float32(x)))


def _random_crop(width, height, min_rel_area, max_rel_area, aspect_ratio, random):
    """TF's GenerateRandomCrop, in its float32 arithmetic: (x, y, w, h) or None."""
    f32 = np.float32
    if max_rel_area <= 0 or aspect_ratio <= 0 or width <= 0 or height <= 0 or \
            min_rel_area > max_rel_area:
        return None
    min_area = f32(f32(min_rel_area * f32(width)) * f32(height))
    max_area = f32(f32(max_rel_area * f32(width)) * f32(height))
    h = _lrintf(np.sqrt(f32(min_area / aspect_ratio)))
    max_h = _lrintf(np.sqrt(f32(max_area / aspect_ratio)))
    if _lrintf(f32(max_h) * aspect_ratio) > width:
        # the largest max_h with round(max_h * aspect_ratio) <= width
        max_h = int((width + 0.5 - float(f32(1e-7))) / float(aspect_ratio))
        if _lrintf(f32(max_h) * aspect_ratio) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += random.uniform(max_h - h + 1)
    w = _lrintf(f32(h) * aspect_ratio)
    area = f32(w * h)
    if area < min_area:                 # rounding left the area too small: one row more
        h += 1
        w = _lrintf(f32(h) * aspect_ratio)
        area = f32(w * h)
    if area > max_area:                 # ... or too large: one row less
        h -= 1
        w = _lrintf(f32(h) * aspect_ratio)
        area = f32(w * h)
    if area < min_area or area > max_area or w > width or h > height or w <= 0 or h <= 0:
        return None
    y = random.uniform(height - h) if h < height else 0
    x = random.uniform(width - w) if w < width else 0
    return x, y, w, h


def _covers(crop, boxes, min_object_covered):
    """TF's SatisfiesOverlapConstraints: the crop has a pixel and shows at least
    min_object_covered of some box (boxes of less than one pixel do not count)."""
    x, y, w, h = crop
    if np.float32(w * h) < 1:
        return False
    for x0, y0, x1, y1 in boxes:
        area = np.float32((x1 - x0) * (y1 - y0))
        if area < 1:
            continue
        ix0, iy0, ix1, iy1 = max(x, x0), max(y, y0), min(x + w, x1), min(y + h, y1)
        inter = np.float32(0) if ix0 > ix1 or iy0 > iy1 else np.float32((ix1 - ix0) *
                                                                          (iy1 - iy0))
        if np.float32(inter / area) >= min_object_covered:
            return True
    return False


def _check_attrs(aspect_ratio_range, area_range, max_attempts):
    if len(aspect_ratio_range) != 2:
        raise _invalid("Aspect ratio range field must specify 2 dimensions")
    if not (aspect_ratio_range[0] > 0 and aspect_ratio_range[1] > 0):
        raise _invalid(f"Aspect ratio range must be non-negative: [{aspect_ratio_range[0]}, "
                       f"{aspect_ratio_range[1]}]")
    if len(area_range) != 2:
        raise _invalid("Area range field must specify 2 dimensions")
    if not (area_range[0] > 0 and area_range[1] > 0):
        raise _invalid(f"Area range must be non-negative: [{area_range[0]}, {area_range[1]}]")
    if not (area_range[0] <= 1 and area_range[1] <= 1):
        raise _invalid(f"Area range must be less then or equal to 1.0: [{area_range[0]}, "
                       f"{area_range[1]}]")
    if max_attempts <= 0:
        raise _invalid(f"Max attempts must be non-negative: {max_attempts}")


def _pixel_boxes(bounding_boxes, width, height):
    if bounding_boxes.ndim != 3:
        raise _invalid(f"input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                       f"{shape_text(list(bounding_boxes.shape))}")
    if bounding_boxes.shape[-1] != 4:
        raise _invalid(f"bounding boxes must have shape [4] or [*, 4], got "
                       f"{shape_text(list(bounding_boxes.shape))}")
    boxes = bounding_boxes.astype(np.float32).reshape(-1, 4)
    bad = boxes[(boxes < 0) | (boxes > 1)]
    if bad.size:
        raise _invalid(f"All bounding box coordinates must be in [0.0, 1.0]: {bad[0]}")
    xs0, ys0 = (boxes[:, 1] * np.float32(width)), (boxes[:, 0] * np.float32(height))
    xs1, ys1 = (boxes[:, 3] * np.float32(width)), (boxes[:, 2] * np.float32(height))
    return [tuple(int(v) for v in box) for box in zip(xs0, ys0, xs1, ys1)]


class SampleDistortedBoundingBoxV2(OpDef):
    """(begin, size, bboxes) of a random window of an image of size image_size that covers
    min_object_covered of one of bounding_boxes (or the whole image, after max_attempts)."""
    multi_output = True
    uses_context = True
    stateful = True
    differentiable = False

    def shape(op):
        _check_rank(op, 0, 1)
        _check_rank(op, 1, 3)
        _check_rank(op, 2, 0)
        _check_dim(op, 0, 0, 3)
        _check_dim(op, 1, 2, 4)
        return [TensorShape([3]), TensorShape([3]), TensorShape([1, 1, 4])]

    def kernel(ctx, step, image_size, bounding_boxes, min_object_covered, seed=0, seed2=0,
               aspect_ratio_range=(0.75, 1.33), area_range=(0.05, 1.0), max_attempts=100,
               use_image_if_no_bounding_boxes=False, T=None):
        _check_attrs(aspect_ratio_range, area_range, max_attempts)
        if image_size.shape != (3,):
            raise _invalid(f"image_size must be 1-dimensional and contain 3 elements, got "
                           f"shape {shape_text(list(image_size.shape))}")
        height, width = int(image_size[0]), int(image_size[1])
        if not 0 <= height < _MAX_INT32 or not 0 <= width < _MAX_INT32:
            raise _invalid("image height and width must be in [0, int32 max)")
        if np.ndim(min_object_covered) != 0:
            raise _invalid(f"min_object_covered must be 0-D, got shape "
                           f"{shape_text(list(np.shape(min_object_covered)))}")
        covered = np.float32(min_object_covered)
        if not covered >= 0:
            raise _invalid(f"Min object covered must be non-negative: {covered}")
        boxes = _pixel_boxes(bounding_boxes, width, height)
        if not boxes:
            if not use_image_if_no_bounding_boxes:
                raise _invalid("No bounding boxes provided as input. One must enable "
                               "use_image_if_no_bounding_boxes if you wish to not provide "
                               "any bounding boxes.")
            boxes = [(0, 0, width, height)]

        # GuardedPhiloxRandom::ReserveSamples32(4 * max_attempts): this run's words start at
        # the generator's counter, the next run's max_attempts blocks further on.
        rng = generator_for(ctx, seed, seed2)
        random = _SimplePhilox(rng.key, rng.counter)
        rng.counter = (rng.counter + max_attempts) & _MASK128

        lo_ratio, hi_ratio = (np.float32(r) for r in aspect_ratio_range)
        lo_area, hi_area = (np.float32(a) for a in area_range)
        crop = None
        for _ in range(max_attempts):
            ratio = np.float32(random.rand_float() * np.float32(hi_ratio - lo_ratio)) + lo_ratio
            candidate = _random_crop(width, height, lo_area, hi_area, np.float32(ratio),
                                     random)
            if candidate is not None and _covers(candidate, boxes, covered):
                crop = candidate
                break
        x, y, w, h = crop if crop is not None else (0, 0, width, height)
        dtype = T.as_numpy_dtype
        bbox = np.float32([y, x, y + h, x + w]) / np.float32([height, width, height, width])
        return (np.array([y, x, 0], dtype=dtype), np.array([h, w, -1], dtype=dtype),
                bbox.reshape(1, 1, 4))


def sample_distorted_bounding_box(image_size, bounding_boxes, seed=None, seed2=None,
                                  min_object_covered=0.1, aspect_ratio_range=None,
                                  area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """A random crop window of an image of shape `image_size` ([height, width, channels],
    integers) that shows at least `min_object_covered` of one of `bounding_boxes` ([batch,
    N, 4] floats [ymin, xmin, ymax, xmax] in [0, 1]; the batch only groups the boxes).

    Returns (begin, size, bboxes): begin = [y, x, 0] and size = [h, w, -1] for tf.slice
    (image_size's dtype), and bboxes = [[[ymin, xmin, ymax, xmax]]] (float32) for
    draw_bounding_boxes. aspect_ratio_range (default [0.75, 1.33]) bounds w / h, area_range
    (default [0.05, 1.0]) the window's share of the image; after max_attempts (default 100)
    failed draws the window is the whole image. With no boxes, the whole image stands for the
    object if use_image_if_no_bounding_boxes, else the run fails. `seed` and `seed2` are the
    op's two seeds, used as given (TF 1's behaviour; the graph seed does not matter)."""
    with name_scope(name, "sample_distorted_bounding_box"):
        image_size = convert_to_tensor(image_size, name="image_size")
        dtype = image_size.dtype.base_dtype
        if dtype not in (_dtypes.uint8, _dtypes.int8, _dtypes.int16, _dtypes.int32,
                         _dtypes.int64):
            raise TypeError(f"Value passed to parameter 'image_size' has DataType "
                            f"{dtype.name} not in list of allowed values: uint8, int8, int16, "
                            "int32, int64")
        bounding_boxes = convert_to_tensor(bounding_boxes, dtype=_dtypes.float32,
                                           name="bounding_boxes")
        min_object_covered = convert_to_tensor(min_object_covered, dtype=_dtypes.float32,
                                               name="min_object_covered")
        attrs = {"seed": int(seed or 0), "seed2": int(seed2 or 0),
                 "aspect_ratio_range": [float(r) for r in (aspect_ratio_range or
                                                           [0.75, 1.33])],
                 "area_range": [float(a) for a in (area_range or [0.05, 1.0])],
                 "max_attempts": int(100 if max_attempts is None else max_attempts),
                 "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes),
                 "T": dtype}
        return tuple(apply_op("SampleDistortedBoundingBoxV2",
                              [image_size, bounding_boxes, min_object_covered], attrs,
                              name="SampleDistortedBoundingBoxV2",
                              output_dtypes=[dtype, dtype, _dtypes.float32]))
