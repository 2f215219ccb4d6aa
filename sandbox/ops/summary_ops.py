"""Summary ops -- mirrors TensorFlow's ScalarSummary, HistogramSummary, ImageSummary and
MergeSummary (core/kernels/summary_op.cc, summary_image_op.cc, python/summary/summary.py,
python/ops/logging_ops.py).

A summary op records a value for TensorBoard. When run it outputs a *serialized Summary
protocol buffer* (a string tensor holding bytes): a list of (tag, value) pairs such as
('loss', 0.25) or ('weights', <histogram>). The program fetches it and hands it to a
tf.summary.FileWriter, which appends it to an event file that TensorBoard reads.

    tf.summary.scalar('loss', loss)       # collected in GraphKeys.SUMMARIES
    merged = tf.summary.merge_all()       # one op producing all of them in one Summary
    writer.add_summary(sess.run(merged), step)

The protocol buffers come from tensorboardX (imported only when a summary op runs), so the
files it writes are the ones TensorBoard expects. This module also keeps the TF 0.x names
(tf.scalar_summary, tf.histogram_summary, tf.merge_summary, tf.merge_all_summaries).
"""
import contextlib
import re

import numpy as np

from ..framework import dtypes
from ..framework import errors
from ..framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from ..framework.op_def import OpDef, apply_op, scalar_shape
from ..framework.tensor import convert_to_tensor

__all__ = ["scalar_summary", "histogram_summary", "merge_summary", "merge_all_summaries"]


def _summary_pb2():
    from tensorboardX.proto import summary_pb2
    return summary_pb2


def _serialized(summary):
    """A Summary proto as the value of a scalar string tensor."""
    return np.array(summary.SerializeToString(), dtype=object)


def _text(tag):
    return tag.decode() if isinstance(tag, bytes) else str(tag)


# -- kernels ---------------------------------------------------------------------------

class ScalarSummary(OpDef):
    """Summary with one simple_value per element: tags[i] -> values[i]."""
    shape = scalar_shape
    differentiable = False

    def kernel(tags, values, T=None):
        tags, values = np.asarray(tags), np.asarray(values)
        if tags.shape != values.shape:
            raise errors.InvalidArgumentError(
                None, None, f"tags and values not the same shape: {list(tags.shape)} != "
                f"{list(values.shape)} (tags: {tags.reshape(-1)[:3].tolist()}).")
        pb = _summary_pb2()
        return _serialized(pb.Summary(value=[
            pb.Summary.Value(tag=_text(tag), simple_value=float(value))
            for tag, value in zip(tags.reshape(-1), values.reshape(-1))]))


_BUCKET_LIMITS = []


def _default_bucket_limits():
    """TF's default histogram buckets (core/lib/histogram/histogram.cc): limits growing by
    10% from 1e-12 to 1e20, mirrored for negative values, with 0 and +-DBL_MAX."""
    if not _BUCKET_LIMITS:
        positive = [1e-12]
        while positive[-1] * 1.1 < 1e20:
            positive.append(positive[-1] * 1.1)
        positive.append(np.finfo(np.float64).max)
        positive = np.array(positive)
        _BUCKET_LIMITS.append(np.concatenate([-positive[::-1], [0.0], positive]))
    return _BUCKET_LIMITS[0]


class HistogramSummary(OpDef):
    """Summary with a histogram of all the values (TF's bucket scheme)."""
    shape = scalar_shape
    differentiable = False

    def kernel(tag, values, T=None):
        tag = np.asarray(tag)
        if tag.ndim != 0:
            raise errors.InvalidArgumentError(None, None, "tags must be scalar, got shape "
                                              f"{list(tag.shape)}.")
        tag = _text(tag.item())
        values = np.asarray(values, dtype=np.float64).reshape(-1)
        if not np.all(np.isfinite(values)):
            raise errors.InvalidArgumentError(None, None, f"Nan in summary histogram for: {tag}")
        limits = _default_bucket_limits()
        # Bucket i counts the values in [limits[i-1], limits[i]).
        index = np.minimum(np.searchsorted(limits, values, side="right"), len(limits) - 1)
        counts = np.bincount(index, minlength=len(limits))
        # Runs of empty buckets are written as one empty bucket (as TF's EncodeToProto).
        keep = (counts > 0) | np.append(counts[1:] > 0, True)
        pb = _summary_pb2()
        histo = pb.HistogramProto(
            min=values.min() if values.size else limits[-1],
            max=values.max() if values.size else -limits[-1],
            num=values.size, sum=values.sum(), sum_squares=values.dot(values),
            bucket_limit=limits[keep].tolist(), bucket=counts[keep].astype(float).tolist())
        return _serialized(pb.Summary(value=[pb.Summary.Value(tag=tag, histo=histo)]))


def _image_values(images):
    """A batch of images as uint8, as TF's ImageSummary scales float images: to [0, 255] when
    all values are >= 0, else around 128 (the largest magnitude to 127); non-finite pixels
    red."""
    if images.dtype == np.uint8:
        return images
    values = images.astype(np.float64)
    out = np.empty(values.shape, dtype=np.uint8)
    for i, image in enumerate(values):
        finite = np.isfinite(image).all(axis=-1)
        good = image[finite]
        lo = good.min() if good.size else 0.0
        hi = good.max() if good.size else 0.0
        if lo >= 0:
            scale, offset = (255.0 / hi if hi > 0 else 0.0), 0.0
        else:
            scale = 127.0 / max(-lo, hi) if max(-lo, hi) > 0 else 0.0
            offset = 128.0
        scaled = (np.where(finite[..., None], image, 0) * scale + offset).astype(np.float32)
        out[i] = scaled.astype(np.uint8)
        bad = np.zeros(image.shape[-1], dtype=np.uint8)
        bad[0] = 255
        if image.shape[-1] in (2, 4):
            bad[-1] = 255
        out[i][~finite] = bad
    return out


class ImageSummary(OpDef):
    """Summary with up to max_images PNG images from a batch [b, h, w, 1, 3 or 4]: tags
    'tag/image' when max_images is 1, else 'tag/image/0', 'tag/image/1' ..."""
    shape = scalar_shape
    differentiable = False

    def kernel(tag, tensor, max_images=3, T=None, bad_color=None):
        tag = _text(np.asarray(tag).item())
        if tensor.ndim != 4 or tensor.shape[3] not in (1, 3, 4):
            raise errors.InvalidArgumentError(
                None, None, f"Tensor must be 4-D with last dim 1, 3, or 4, not "
                f"{list(tensor.shape)}")
        import io
        from PIL import Image
        images = _image_values(tensor[:max_images])
        pb = _summary_pb2()
        values = []
        for i, image in enumerate(images):
            channels = image.shape[2]
            buffer = io.BytesIO()
            Image.fromarray(image[:, :, 0] if channels == 1 else image,
                            mode={1: "L", 3: "RGB", 4: "RGBA"}[channels]).save(buffer, "PNG")
            name = f"{tag}/image" if max_images == 1 else f"{tag}/image/{i}"
            values.append(pb.Summary.Value(tag=name, image=pb.Summary.Image(
                height=image.shape[0], width=image.shape[1], colorspace=channels,
                encoded_image_string=buffer.getvalue())))
        return _serialized(pb.Summary(value=values))


class MergeSummary(OpDef):
    """One Summary holding the values of all the input Summaries (tags must be unique)."""
    shape = scalar_shape
    differentiable = False

    def kernel(*inputs, N=None):
        pb = _summary_pb2()
        merged, tags = pb.Summary(), set()
        for serialized in inputs:
            for item in np.asarray(serialized, dtype=object).reshape(-1):
                try:
                    summary = pb.Summary.FromString(item)
                except Exception:
                    raise errors.InvalidArgumentError(
                        None, None, "Could not parse one of the summary inputs") from None
                for value in summary.value:
                    if value.tag and value.tag in tags:
                        raise errors.InvalidArgumentError(
                            None, None, f"Duplicate tag {value.tag} found in summary inputs")
                    tags.add(value.tag)
                    merged.value.add().CopyFrom(value)
        return _serialized(merged)


# -- building the ops ---------------------------------------------------------------------

_INVALID_TAG_CHARACTERS = re.compile(r"[^-/\w\.]")


def clean_tag(name):
    """Replaces characters a tag may not contain by '_' and drops leading slashes."""
    if name is not None:
        name = _INVALID_TAG_CHARACTERS.sub("_", name).lstrip("/")
    return name


@contextlib.contextmanager
def summary_scope(name, family=None, default_name=None, values=None):
    """Opens the name scope of a summary and yields (tag, scope): the tag is the scope's name,
    so summaries made inside `tf.name_scope('train')` get tags like 'train/loss'."""
    name = clean_tag(name)
    family = clean_tag(family)
    base = name if family is None else f"{family}/{name}"
    with name_scope(base, default_name, values) as scope:
        tag = scope.rstrip("/") if family is None else f"{family}/{scope.rstrip('/')}"
        yield tag, scope


def collect(val, collections, default_collections):
    """Adds the summary op's output to `collections` (default: `default_collections`)."""
    for key in (default_collections if collections is None else collections):
        add_to_collection(key, val)


def _summary_op(op_type, tag, values, name):
    values = convert_to_tensor(values)
    tag = convert_to_tensor(tag, dtype=dtypes.string)
    return apply_op(op_type, [tag, values], {"T": values.dtype.base_dtype}, name=name,
                    output_dtypes=[dtypes.string])


def scalar(name, tensor, collections=None, family=None):
    """A summary op recording the scalar `tensor` under the tag `name` (tf.summary.scalar)."""
    tensor = convert_to_tensor(tensor)
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        val = _summary_op("ScalarSummary", tag, tensor, scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def histogram(name, values, collections=None, family=None):
    """A summary op recording a histogram of `values` (tf.summary.histogram)."""
    values = convert_to_tensor(values)
    with summary_scope(name, family, values=[values]) as (tag, scope):
        val = _summary_op("HistogramSummary", tag, values, scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def image(name, tensor, max_outputs=3, collections=None, family=None):
    """A summary op recording up to max_outputs images of the batch `tensor` [b, h, w, c]
    (c = 1, 3 or 4; uint8, or floats rescaled to [0, 255]) as PNGs (tf.summary.image)."""
    tensor = convert_to_tensor(tensor)
    with summary_scope(name, family, values=[tensor]) as (tag, scope):
        if tensor.get_shape().ndims not in (None, 4):
            raise ValueError(f"Shape must be rank 4 but is rank {tensor.get_shape().ndims} "
                             f"for the images of summary {name!r}")
        tag = convert_to_tensor(tag, dtype=dtypes.string)
        val = apply_op("ImageSummary", [tag, tensor],
                       {"max_images": int(max_outputs), "T": tensor.dtype.base_dtype},
                       name=scope, output_dtypes=[dtypes.string])
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def _merge_op(inputs, name):
    inputs = [convert_to_tensor(x) for x in inputs]
    return apply_op("MergeSummary", inputs, {"N": len(inputs)}, name=name or "MergeSummary",
                    output_dtypes=[dtypes.string])


def merge(inputs, collections=None, name=None):
    """One op merging the given summary tensors into one Summary (tf.summary.merge)."""
    name = clean_tag(name)
    with name_scope(name, "Merge", inputs):
        val = _merge_op(inputs, name)
        collect(val, collections, [])
    return val


def merge_all(key=GraphKeys.SUMMARIES, scope=None, name=None):
    """Merges every summary in collection `key` (optionally whose name matches `scope`);
    None when there are none."""
    summary_ops = get_collection(key, scope=scope)
    if not summary_ops:
        return None
    return merge(summary_ops, name=name)


# -- TF 0.x names --------------------------------------------------------------------------

def scalar_summary(tags, values, collections=None, name=None):
    """TF 0.x: a summary of scalar values with explicit `tags` (one tag per value)."""
    with name_scope(name, "ScalarSummary", [tags, values]) as scope:
        val = _summary_op("ScalarSummary", tags, values, scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def histogram_summary(tag, values, collections=None, name=None):
    """TF 0.x: a histogram summary with an explicit `tag`."""
    with name_scope(name, "HistogramSummary", [tag, values]) as scope:
        val = _summary_op("HistogramSummary", tag, values, scope)
        collect(val, collections, [GraphKeys.SUMMARIES])
    return val


def merge_summary(inputs, collections=None, name=None):
    """TF 0.x name of tf.summary.merge."""
    with name_scope(name, "MergeSummary", inputs):
        val = _merge_op(inputs, name)
        collect(val, collections, [])
    return val


def merge_all_summaries(key=GraphKeys.SUMMARIES):
    """TF 0.x name of tf.summary.merge_all."""
    summary_ops = get_collection(key)
    if not summary_ops:
        return None
    return merge_summary(summary_ops)
