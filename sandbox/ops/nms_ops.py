"""Non-max suppression, the rest of the family -- mirrors TensorFlow 1.15's
non_max_suppression_with_scores, non_max_suppression_padded, non_max_suppression_overlaps and
combined_non_max_suppression (python/ops/image_ops_impl.py) and their kernels in
core/kernels/non_max_suppression_op.cc (NonMaxSuppressionV4, V5, WithOverlaps,
CombinedNonMaxSuppression). Plain tf.image.non_max_suppression (V3) is in image_ops.py.

A detector proposes many overlapping boxes per object; NMS keeps the best-scoring one and
drops the boxes that overlap a kept box by more than a threshold (IoU: intersection over
union). Every variant runs TF's loop: take the best remaining candidate, compare it with the
boxes kept so far (newest first), keep it or drop it.

  with_scores   also returns the kept scores; soft_nms_sigma > 0 is Soft-NMS (Bodla et al.,
                2017): instead of dropping an overlapping box, its score is multiplied by
                exp(-iou^2 / (2 sigma)) and it goes back into the queue (iou_threshold then
                plays no part; score_threshold still drops it)
  padded        pads the indices with 0 to max_output_size and returns how many are real
  overlaps      takes a precomputed [n, n] overlap matrix instead of boxes
  combined      the batched multi-class version of detection heads (SSD, RetinaNet): NMS per
                image and per class, then the best max_total_size of all classes, padded

Boxes are [y1, x1, y2, x2] (either corner first); the arithmetic is float32, as in TF.
None of these has a gradient: as in TF, tf.gradients through with_scores or combined raises
LookupError (wrap their outputs in tf.stop_gradient).
"""
import collections
import heapq

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import constant_value, shape_text
from .bounding_box_ops import _check_dim, _check_rank
from .image_ops import _iou

__all__ = []   # reached as tf.image.* (sandbox/api/image.py)


def _invalid(message):
    return errors.InvalidArgumentError(None, None, message)


# -- checks (TF's ParseAndCheck* helpers) -----------------------------------------------------

def _scalar(value, what):
    if np.ndim(value) != 0:
        raise _invalid(f"{what} must be 0-D, got shape {shape_text(list(np.shape(value)))}")
    return value[()]


def _check_boxes(boxes, scores):
    if boxes.ndim != 2:
        raise _invalid(f"boxes must be 2-D{shape_text(list(boxes.shape))}")
    if boxes.shape[1] != 4:
        raise _invalid("boxes must have 4 columns")
    _check_scores(scores, boxes.shape[0])


def _check_scores(scores, num_boxes):
    if scores.ndim != 1:
        raise _invalid(f"scores must be 1-D{shape_text(list(scores.shape))}")
    if scores.shape[0] != num_boxes:
        raise _invalid("scores has incompatible shape")


def _check_iou(iou_threshold):
    if not 0 <= iou_threshold <= 1:
        raise _invalid("iou_threshold must be in [0, 1]")


# -- the selection loop (TF's DoNonMaxSuppressionOp) ------------------------------------------

def _suppress(scores, similarities, max_output_size, threshold, score_threshold,
              soft_nms_sigma=0.0, pad=False):
    """(indices, scores, count): the candidates kept, best first. `similarities(i, js)` is
    the overlap of candidate i with the kept candidates js (a float array).

    A candidate is taken from a priority queue (best score, then lowest index). Hard NMS
    drops it when it overlaps a kept box by more than `threshold`. Soft-NMS multiplies its
    score by exp(-overlap^2 / (2 sigma)) for each kept box it had not met yet and, when the
    score fell, puts it back in the queue (unless it fell to score_threshold or below)."""
    max_output_size = int(max_output_size)
    if max_output_size < 0:
        raise _invalid("output size must be non-negative")
    dtype = scores.dtype
    soft = soft_nms_sigma > 0
    scale = dtype.type(-0.5) / dtype.type(soft_nms_sigma) if soft else dtype.type(0)
    queue = [(-s, i, 0) for i, s in enumerate(scores) if s > score_threshold]
    heapq.heapify(queue)
    selected, selected_scores = [], []
    while len(selected) < max_output_size and queue:
        negative, index, begin = heapq.heappop(queue)
        original = score = -negative
        hard = False
        newest_first = selected[begin:][::-1]
        sims = similarities(index, newest_first) if newest_first else ()
        for sim in sims:
            # expf, correctly rounded (NumPy's float32 exp may be one ulp off)
            weight = dtype.type(np.float32(np.exp(np.float64(np.float32(scale * sim * sim)))))
            score = dtype.type(score * (weight if soft or sim <= threshold else 0))
            if not soft and sim > threshold:
                hard = True
                break
            if score <= score_threshold:
                break
        if hard:
            continue
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(queue, (-score, index, len(selected)))
    count = len(selected)
    if pad:
        selected += [0] * (max_output_size - count)
        selected_scores += [0] * (max_output_size - count)
    return (np.array(selected, dtype=np.int32), np.array(selected_scores, dtype=dtype),
            np.int32(count))


def _box_similarities(boxes):
    boxes = boxes.astype(np.float32)
    return lambda i, js: _iou(boxes[i], boxes[js])


# -- shapes -----------------------------------------------------------------------------------

def _nms_shape(op, num_outputs, padded):
    """TF's NMSShapeFn: boxes [n, 4], scores [n], scalars; outputs [max_output_size] when
    padded (and max_output_size is a constant), else [None]; a scalar count last."""
    for index, rank in ((0, 2), (1, 1), (2, 0), (3, 0), (4, 0)):
        _check_rank(op, index, rank)
    _check_dim(op, 0, 1, 4)
    boxes, scores = op.inputs[0].get_shape(), op.inputs[1].get_shape()
    if boxes.ndims is not None and scores.ndims is not None:
        n, m = boxes.as_list()[0], scores.as_list()[0]
        if n is not None and m is not None and n != m:
            raise ValueError(f"Dimensions must be equal, but are {n} and {m}")
    size = None
    if padded:
        value = constant_value(op.inputs[2])
        size = None if value is None else int(value)
    return [TensorShape([size])] * (num_outputs - 1) + [TensorShape([])]


class NonMaxSuppressionV4(OpDef):
    """NonMaxSuppressionV3, optionally padded: (indices, how many are real)."""
    multi_output = True
    differentiable = False

    def shape(op):
        return _nms_shape(op, 2, op.get_attr("pad_to_max_output_size"))

    def kernel(boxes, scores, max_output_size, iou_threshold, score_threshold, T=None,
               T_threshold=None, pad_to_max_output_size=False):
        max_output_size = _scalar(max_output_size, "max_output_size")
        iou_threshold = _scalar(iou_threshold, "iou_threshold")
        _check_iou(iou_threshold)
        score_threshold = _scalar(score_threshold, "score_threshold")
        _check_boxes(boxes, scores)
        indices, _, count = _suppress(scores, _box_similarities(boxes), max_output_size,
                                      iou_threshold, score_threshold,
                                      pad=pad_to_max_output_size)
        return indices, count


class NonMaxSuppressionV5(OpDef):
    """NonMaxSuppressionV4 that also returns the kept scores, with Soft-NMS."""
    multi_output = True

    def shape(op):
        _check_rank(op, 5, 0)
        return _nms_shape(op, 3, op.get_attr("pad_to_max_output_size"))

    def kernel(boxes, scores, max_output_size, iou_threshold, score_threshold,
               soft_nms_sigma, T=None, pad_to_max_output_size=False):
        max_output_size = _scalar(max_output_size, "max_output_size")
        iou_threshold = _scalar(iou_threshold, "iou_threshold")
        _check_iou(iou_threshold)
        score_threshold = _scalar(score_threshold, "score_threshold")
        soft_nms_sigma = _scalar(soft_nms_sigma, "soft_nms_sigma")
        if not soft_nms_sigma >= 0:
            raise _invalid("soft_nms_sigma_val must be >= 0")
        _check_boxes(boxes, scores)
        return _suppress(scores, _box_similarities(boxes), max_output_size, iou_threshold,
                         score_threshold, soft_nms_sigma, pad=pad_to_max_output_size)


class NonMaxSuppressionWithOverlaps(OpDef):
    """Greedy NMS over a given [n, n] overlap matrix: overlaps[i, j] is how much box i
    overlaps box j (any measure; a box is dropped when it exceeds overlap_threshold)."""
    differentiable = False

    def shape(op):
        for index, rank in ((0, 2), (1, 1), (2, 0), (3, 0), (4, 0)):
            _check_rank(op, index, rank)
        overlaps, scores = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        dims = (overlaps.as_list() if overlaps.ndims is not None else []) + \
            (scores.as_list() if scores.ndims is not None else [])
        known = [d for d in dims if d is not None]
        if known and any(d != known[0] for d in known):
            raise ValueError(f"Dimensions must be equal, but are {known[0]} and "
                              f"{next(d for d in known if d != known[0])}")
        return TensorShape([None])

    def kernel(overlaps, scores, max_output_size, overlap_threshold, score_threshold):
        max_output_size = _scalar(max_output_size, "max_output_size")
        overlap_threshold = _scalar(overlap_threshold, "overlap_threshold")
        score_threshold = _scalar(score_threshold, "score_threshold")
        if overlaps.ndim != 2:
            raise _invalid(f"overlaps must be 2-D{shape_text(list(overlaps.shape))}")
        if overlaps.shape[1] != overlaps.shape[0]:
            raise _invalid(f"overlaps must be square{shape_text(list(overlaps.shape))}")
        _check_scores(scores, overlaps.shape[0])
        overlaps = overlaps.astype(np.float32)
        indices, _, _ = _suppress(scores.astype(np.float32),
                                  lambda i, js: overlaps[i, js], max_output_size,
                                  np.float32(overlap_threshold), np.float32(score_threshold))
        return indices


# -- combined (batched, multi-class) ----------------------------------------------------------

def _combined_size(op):
    """max_detections: max_total_size, or with pad_per_class at most
    max_output_size_per_class * num_classes (None if unknown)."""
    total = constant_value(op.inputs[3])
    total = None if total is None else int(total)
    if total is not None and total <= 0:
        raise ValueError("max_total_size should be > 0 ")
    if not op.get_attr("pad_per_class"):
        return total
    per_class = constant_value(op.inputs[2])
    per_class = None if per_class is None else int(per_class)
    if per_class is not None and per_class <= 0:
        raise ValueError("max_output_size_per_class must be > 0 if pad_per_class is "
                          "set to true ")
    scores = op.inputs[1].get_shape()
    classes = scores.as_list()[2] if scores.ndims == 3 else None
    if None in (total, per_class, classes):
        return None
    return min(total, per_class * classes)


class CombinedNonMaxSuppression(OpDef):
    """boxes [batch, num_boxes, q, 4] (q = 1: shared by all classes, or one per class),
    scores [batch, num_boxes, classes] -> per image, NMS in each class, then the best of all
    classes: (nmsed_boxes [batch, max_detections, 4], nmsed_scores, nmsed_classes,
    valid_detections [batch])."""
    multi_output = True

    def shape(op):
        for index, rank in ((0, 4), (1, 3), (2, 0), (3, 0), (4, 0), (5, 0)):
            _check_rank(op, index, rank)
        boxes, scores = op.inputs[0].get_shape(), op.inputs[1].get_shape()
        b_dims = boxes.as_list() if boxes.ndims is not None else [None] * 4
        s_dims = scores.as_list() if scores.ndims is not None else [None] * 3
        for a, b in zip(b_dims[:2], s_dims[:2]):
            if a is not None and b is not None and a != b:
                raise ValueError(f"Dimensions must be equal, but are {a} and {b}")
        _check_dim(op, 0, 3, 4)
        q, classes = b_dims[2], s_dims[2]
        if q is not None and classes is not None and q != 1 and q != classes:
            raise ValueError("third dimension of boxes must be either 1 or equal to the "
                              "third dimension of scores")
        batch = b_dims[0] if b_dims[0] is not None else s_dims[0]
        size = _combined_size(op)
        return [TensorShape([batch, size, 4]), TensorShape([batch, size]),
                TensorShape([batch, size]), TensorShape([batch])]

    def kernel(boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
               score_threshold, pad_per_class=False, clip_boxes=True):
        if boxes.ndim < 1 or scores.ndim < 1 or boxes.shape[0] != scores.shape[0]:
            raise _invalid("boxes and scores must have same batch size")
        per_class = int(_scalar(max_output_size_per_class, "max_size_per_class"))
        total = int(_scalar(max_total_size, "max_total_size"))
        if total <= 0:
            raise _invalid("max_total_size must be > 0")
        iou_threshold = np.float32(_scalar(iou_threshold, "iou_threshold"))
        score_threshold = np.float32(_scalar(score_threshold, "score_threshold"))
        _check_iou(iou_threshold)
        if boxes.ndim != 4:
            raise _invalid(f"boxes must be 4-D{shape_text(list(boxes.shape))}")
        if scores.ndim != 3:
            raise _invalid(f"scores must be 3-D{shape_text(list(scores.shape))}")
        batch, num_boxes, q, _ = boxes.shape
        classes = scores.shape[2]
        if q not in (1, classes):
            raise _invalid("third dimension of boxes must be either 1 or num classes")
        if boxes.shape[3] != 4:
            raise _invalid("boxes must have 4 columns")
        if scores.shape[1] != num_boxes:
            raise _invalid("scores has incompatible shape")
        if per_class <= 0:
            raise _invalid("max_size_per_class must be positive")
        size = min(total, per_class * classes) if pad_per_class else total
        out_boxes = np.zeros((batch, size, 4), np.float32)
        out_scores = np.zeros((batch, size), np.float32)
        out_classes = np.zeros((batch, size), np.float32)
        valid = np.zeros(batch, np.int32)
        for b in range(batch):
            found = _combined_image(boxes[b].astype(np.float32), scores[b].astype(np.float32),
                                    min(per_class, num_boxes), iou_threshold, score_threshold)
            valid[b] = count = min(size, sum(1 for c in found if c[1] >= 0))
            for k, (score, klass, box) in enumerate(found[:count]):
                out_boxes[b, k] = np.clip(box, 0, 1) if clip_boxes else box
                out_scores[b, k], out_classes[b, k] = score, klass
        return out_boxes, out_scores, out_classes, valid


def _combined_image(boxes, scores, per_class, iou_threshold, score_threshold):
    """TF's DoNMSPerClass for every class, then SelectResultPerBatch's sort: a list of
    (score, class, box), best first. Each class has per_class slots; the empty ones sort as
    score -1 (TF's placeholder), after the real ones unless scores are below -1."""
    found = []
    for klass in range(scores.shape[1]):
        class_boxes = boxes[:, klass if boxes.shape[1] > 1 else 0]
        class_scores = scores[:, klass]
        order = [i for i in np.argsort(-class_scores, kind="stable")
                 if class_scores[i] > score_threshold]
        kept = []
        for i in order:
            if len(kept) >= per_class:
                break
            if not kept or (_iou(class_boxes[i], class_boxes[kept[::-1]]) <= iou_threshold).all():
                kept.append(i)
        found += [(class_scores[i], klass, class_boxes[i]) for i in kept]
        found += [(np.float32(-1), -1, np.zeros(4, np.float32))] * (per_class - len(kept))
    return sorted(found, key=lambda c: -c[0])


# -- the functions --------------------------------------------------------------------------

# What TF's generated wrappers return: tuples whose fields have the outputs' names.
NonMaxSuppressionV4Output = collections.namedtuple("NonMaxSuppressionV4",
                                                   ["selected_indices", "valid_outputs"])
CombinedNonMaxSuppressionOutput = collections.namedtuple(
    "CombinedNonMaxSuppression",
    ["nmsed_boxes", "nmsed_scores", "nmsed_classes", "valid_detections"])


def _boxes_and_scores(boxes, scores):
    boxes = convert_to_tensor(boxes, name="boxes")
    scores = convert_to_tensor(scores, name="scores")
    dtype = boxes.dtype.base_dtype
    if dtype not in (_dtypes.float16, _dtypes.float32):
        raise TypeError(f"Value passed to parameter 'boxes' has DataType {dtype.name} not in "
                        "list of allowed values: float16, float32")
    return boxes, scores


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """(selected_indices, selected_scores): non_max_suppression that also returns the
    scores of the boxes kept. With soft_nms_sigma > 0 it is Soft-NMS: overlapping boxes are
    not dropped but their scores decay by exp(-iou^2 / (2 soft_nms_sigma)) (iou_threshold is
    then not used), so selected_scores may be below the input scores."""
    with name_scope(name, "non_max_suppression_with_scores"):
        boxes, scores = _boxes_and_scores(boxes, scores)
        dtype = boxes.dtype.base_dtype
        n = convert_to_tensor(max_output_size, dtype=_dtypes.int32, name="max_output_size")
        iou = convert_to_tensor(iou_threshold, dtype=dtype, name="iou_threshold")
        st = convert_to_tensor(score_threshold, dtype=dtype, name="score_threshold")
        sigma = convert_to_tensor(soft_nms_sigma, dtype=dtype, name="soft_nms_sigma")
        indices, kept_scores, _ = apply_op(
            "NonMaxSuppressionV5", [boxes, scores, n, iou, st, sigma],
            {"T": dtype, "pad_to_max_output_size": False}, name="NonMaxSuppressionV5",
            output_dtypes=[_dtypes.int32, dtype, _dtypes.int32])
        return indices, kept_scores


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None):
    """(selected_indices, valid_outputs): non_max_suppression whose indices, with
    pad_to_max_output_size, are padded with 0 to exactly max_output_size entries (a static
    shape, as XLA / TPUs need); valid_outputs says how many are real. TF 1.15's version:
    one image, boxes [num_boxes, 4]."""
    with name_scope(name, "non_max_suppression_padded"):
        boxes, scores = _boxes_and_scores(boxes, scores)
        n = convert_to_tensor(max_output_size, dtype=_dtypes.int32, name="max_output_size")
        iou = convert_to_tensor(iou_threshold, dtype=_dtypes.float32, name="iou_threshold")
        st = convert_to_tensor(score_threshold, dtype=_dtypes.float32, name="score_threshold")
        indices, valid = apply_op(
            "NonMaxSuppressionV4", [boxes, scores, n, iou, st],
            {"T": boxes.dtype.base_dtype, "T_threshold": _dtypes.float32,
             "pad_to_max_output_size": bool(pad_to_max_output_size)},
            name="NonMaxSuppressionV4", output_dtypes=[_dtypes.int32, _dtypes.int32])
        return NonMaxSuppressionV4Output(indices, valid)


def non_max_suppression_overlaps(overlaps, scores, max_output_size, overlap_threshold=0.5,
                                 score_threshold=float("-inf"), name=None):
    """Indices (int32) of the boxes greedy NMS keeps, given their pairwise overlaps
    ([n, n] floats, e.g. IoU computed your own way) instead of the boxes."""
    with name_scope(name, "non_max_suppression_overlaps"):
        overlaps = convert_to_tensor(overlaps, dtype=_dtypes.float32, name="overlaps")
        scores = convert_to_tensor(scores, dtype=_dtypes.float32, name="scores")
        n = convert_to_tensor(max_output_size, dtype=_dtypes.int32, name="max_output_size")
        threshold = convert_to_tensor(overlap_threshold, dtype=_dtypes.float32,
                                      name="overlap_threshold")
        st = convert_to_tensor(score_threshold, dtype=_dtypes.float32, name="score_threshold")
        return apply_op("NonMaxSuppressionWithOverlaps", [overlaps, scores, n, threshold, st],
                        {}, name="NonMaxSuppressionWithOverlaps",
                        output_dtypes=[_dtypes.int32])


def combined_non_max_suppression(boxes, scores, max_output_size_per_class, max_total_size,
                                 iou_threshold=0.5, score_threshold=float("-inf"),
                                 pad_per_class=False, clip_boxes=True, name=None):
    """Greedy NMS of a batch of detections, per image and per class, then the best
    max_total_size of all classes by score.

    boxes [batch, num_boxes, q, 4] (q = 1: one box for all classes, or q = num_classes),
    scores [batch, num_boxes, num_classes]. Returns (nmsed_boxes [batch, max_detections, 4],
    nmsed_scores [batch, max_detections], nmsed_classes [batch, max_detections] (class ids as
    floats), valid_detections [batch] int32), zero-padded past valid_detections.
    max_detections is max_total_size, or with pad_per_class min(max_total_size,
    max_output_size_per_class * num_classes). clip_boxes clips the returned boxes to [0, 1].
    """
    with name_scope(name, "combined_non_max_suppression"):
        boxes = convert_to_tensor(boxes, dtype=_dtypes.float32, name="boxes")
        scores = convert_to_tensor(scores, dtype=_dtypes.float32, name="scores")
        per_class = convert_to_tensor(max_output_size_per_class, dtype=_dtypes.int32,
                                      name="max_output_size_per_class")
        total = convert_to_tensor(max_total_size, dtype=_dtypes.int32, name="max_total_size")
        iou = convert_to_tensor(iou_threshold, dtype=_dtypes.float32, name="iou_threshold")
        st = convert_to_tensor(score_threshold, dtype=_dtypes.float32, name="score_threshold")
        return CombinedNonMaxSuppressionOutput(*apply_op(
            "CombinedNonMaxSuppression", [boxes, scores, per_class, total, iou, st],
            {"pad_per_class": bool(pad_per_class), "clip_boxes": bool(clip_boxes)},
            name="CombinedNonMaxSuppression",
            output_dtypes=[_dtypes.float32, _dtypes.float32, _dtypes.float32, _dtypes.int32]))
