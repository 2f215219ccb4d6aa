"""Candidate samplers -- mirrors TensorFlow's candidate_sampling_ops (python/ops/
candidate_sampling_ops.py; kernels core/kernels/candidate_sampler_ops.cc, range_sampler.cc).

A softmax over 50,000 words costs a [batch, 50000] matmul and -- on a cluster -- pulls the whole
[50000, dim] output matrix from the ps every step. Sampled losses (nce_loss,
sampled_softmax_loss in ops/sampled_losses.py) score the true class against a few *sampled*
classes instead; a candidate sampler draws them:

    sampled, true_expected, sampled_expected = tf.nn.log_uniform_candidate_sampler(
        true_classes=labels, num_true=1, num_sampled=64, unique=True, range_max=50000)

  sampled           [num_sampled] int64, the classes drawn (all different when unique=True)
  true_expected     [batch, num_true] how many times each true class is expected among them
  sampled_expected  [num_sampled] the same for each drawn class

The losses subtract log(expected count) from the logits, which corrects for the sampler's
preferences. The log-uniform (Zipfian) sampler assumes class ids sorted by frequency:
P(c) = log((c + 2) / (c + 1)) / log(range_max + 1). The fixed unigram sampler takes the
frequencies themselves (P(c) proportional to count(c) ** distortion); the learned one counts
the true classes it has seen (P(c) proportional to 1 + times c was a true class).

With unique=True, classes are drawn until num_sampled different ones came up, and the
expected count of a class with probability p after n tries is 1 - (1 - p)^n (p * n when no
draw was repeated), as in TF's RangeSampler. The draws follow the graph's seeds (random_ops:
the same seed draws the same classes in every session), but not TF's exact numbers.
"""
import collections

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .random_ops import generator_for, get_seed

__all__ = ["log_uniform_candidate_sampler", "uniform_candidate_sampler",
           "fixed_unigram_candidate_sampler", "learned_unigram_candidate_sampler",
           "all_candidate_sampler", "compute_accidental_hits"]


def _probabilities(kind, range_max, weights=None):
    if kind == "unigram":                           # the fixed and learned samplers
        return weights / weights.sum()
    classes = np.arange(range_max, dtype=np.float64)
    if kind == "log_uniform":
        return np.log((classes + 2.0) / (classes + 1.0)) / np.log(range_max + 1.0)
    return np.full(range_max, 1.0 / range_max)


def _draw(kind, rng, range_max, n, p=None):
    u = rng.random((n,), np.float64)
    if kind == "unigram":                           # inverse of the cumulative distribution
        cdf = np.cumsum(p)
        return np.minimum(np.searchsorted(cdf, u * cdf[-1], side="right"), range_max - 1)
    if kind == "log_uniform":                       # TF's LogUniformSampler::Sample
        return np.minimum((np.exp(u * np.log(range_max + 1.0)) - 1.0).astype(np.int64),
                          range_max - 1)
    return np.minimum((u * range_max).astype(np.int64), range_max - 1)


def _sample(kind, ctx, true_classes, num_true, num_sampled, unique, range_max, seed, seed2,
            weights=None):
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(
            None, None, f"true_classes must be a matrix with num_true={num_true} columns, got "
            f"shape {list(true_classes.shape)}")
    if unique and num_sampled > range_max:
        raise errors.InvalidArgumentError(
            None, None, f"Sampler's range is too small: num_sampled={num_sampled} unique "
            f"classes cannot be drawn from range_max={range_max}.")
    rng = generator_for(ctx, seed, seed2)
    p = _probabilities(kind, range_max, weights)
    if unique and np.count_nonzero(p) < num_sampled:
        raise errors.InvalidArgumentError(
            None, None, f"Only {np.count_nonzero(p)} classes have a non-zero weight: "
            f"num_sampled={num_sampled} unique classes cannot be drawn.")
    if unique:
        sampled, seen, tries = [], set(), 0
        while len(sampled) < num_sampled:
            for c in _draw(kind, rng, range_max, num_sampled, p):
                tries += 1
                if c not in seen:
                    seen.add(c)
                    sampled.append(c)
                    if len(sampled) == num_sampled:
                        break
        sampled = np.array(sampled, np.int64)
    else:
        sampled, tries = _draw(kind, rng, range_max, num_sampled, p), num_sampled

    def expected(q):                    # TF's ExpectedCountHelper
        if tries == num_sampled:
            return q * num_sampled
        return -np.expm1(tries * np.log1p(-np.minimum(q, 1 - 1e-12)))
    classes = np.clip(true_classes.astype(np.int64), 0, range_max - 1)
    return (sampled, expected(p[classes]).astype(np.float32),
            expected(p[sampled]).astype(np.float32))


class _CandidateSampler(OpDef):
    abstract = True
    multi_output = True
    uses_context = True
    stateful = True
    differentiable = False
    kind = None

    def shape(op):
        n, k = op.get_attr("num_sampled"), op.get_attr("num_true")
        batch = op.inputs[0].get_shape().with_rank(2)[0]
        return [TensorShape([n]), TensorShape([batch, k]), TensorShape([n])]


class LogUniformCandidateSampler(_CandidateSampler):
    """Classes drawn with P(c) = log((c+2)/(c+1)) / log(range_max+1) (Zipf's law)."""

    def kernel(ctx, step, true_classes, num_true, num_sampled, unique, range_max, seed=0,
               seed2=0):
        return _sample("log_uniform", ctx, true_classes, num_true, num_sampled, unique,
                       range_max, seed, seed2)


class UniformCandidateSampler(_CandidateSampler):
    """Classes drawn uniformly from [0, range_max)."""

    def kernel(ctx, step, true_classes, num_true, num_sampled, unique, range_max, seed=0,
               seed2=0):
        return _sample("uniform", ctx, true_classes, num_true, num_sampled, unique,
                       range_max, seed, seed2)


def _unigram_weights(range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard,
                     unigrams):
    """TF's FixedUnigramSampler weights: 0 for each reserved id, then count ** distortion for
    each class (from `unigrams`, or the last comma-separated field of each line of
    `vocab_file`), keeping only the ids with id % num_shards == shard. As in TF's
    range_sampler.cc, the counts' ids start after the reserved ids *of this shard*."""
    if vocab_file:
        with open(vocab_file, encoding="utf-8") as f:
            counts = [float(line.rstrip("\n").split(",")[-1]) for line in f if line.strip()]
    else:
        counts = [float(u) for u in unigrams]
    if not counts:
        raise errors.InvalidArgumentError(None, None, "FixedUnigramCandidateSampler: give "
                                          "either vocab_file or unigrams (the class counts).")
    reserved = np.arange(num_reserved_ids)
    reserved = np.zeros(np.count_nonzero(reserved % num_shards == shard))
    ids = reserved.size + np.arange(len(counts))
    powered = np.power(np.asarray(counts, np.float64), distortion)
    weights = np.concatenate([reserved, powered[ids % num_shards == shard]])
    if weights.size != range_max:
        raise errors.InvalidArgumentError(
            None, None, f"FixedUnigramCandidateSampler: range_max={range_max} but the shard "
            f"has {weights.size} classes (num_reserved_ids + the counts given, in shard "
            f"{shard} of {num_shards}): they must be equal.")
    return weights


class FixedUnigramCandidateSampler(_CandidateSampler):
    """Classes drawn in proportion to given counts (raised to `distortion`)."""

    def kernel(ctx, step, true_classes, num_true, num_sampled, unique, range_max,
               vocab_file="", distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0,
               unigrams=(), seed=0, seed2=0):
        weights = ctx.state.get("weights")
        if weights is None:
            weights = ctx.state["weights"] = _unigram_weights(
                range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard,
                unigrams)
        return _sample("unigram", ctx, true_classes, num_true, num_sampled, unique, range_max,
                       seed, seed2, weights)


class LearnedUnigramCandidateSampler(_CandidateSampler):
    """Classes drawn in proportion to how often they were true classes so far: every class
    starts with a count of 1, and after each draw the op adds 1 for each of the batch's true
    classes (TF's UnigramSampler; the counts live as long as the session)."""

    def kernel(ctx, step, true_classes, num_true, num_sampled, unique, range_max, seed=0,
               seed2=0):
        counts = ctx.state.get("counts")
        if counts is None:
            counts = ctx.state["counts"] = np.ones(range_max, np.float64)
        out = _sample("unigram", ctx, true_classes, num_true, num_sampled, unique, range_max,
                      seed, seed2, counts.copy())
        seen = true_classes.astype(np.int64).ravel()
        np.add.at(counts, seen[(seen >= 0) & (seen < range_max)], 1.0)
        return out


class AllCandidateSampler(_CandidateSampler):
    """The classes 0 .. num_sampled-1, each expected once (for testing a sampled loss against
    the full one)."""

    def kernel(ctx, step, true_classes, num_true, num_sampled, unique, seed=0, seed2=0):
        return (np.arange(num_sampled, dtype=np.int64),
                np.ones(true_classes.shape, np.float32), np.ones(num_sampled, np.float32))


class ComputeAccidentalHits(OpDef):
    """Where a sampled class is one of the row's true classes: (row, sampled position,
    -FLT_MAX), so that adding the weight to that logit takes the true class out of the
    negatives."""
    multi_output = True
    differentiable = False

    def shape(op):
        return [TensorShape([None])] * 3

    def kernel(true_classes, sampled_candidates, num_true, seed=0, seed2=0):
        rows, ids = [], []
        for i, row in enumerate(np.asarray(true_classes)):
            true = set(int(c) for c in row)
            for j, c in enumerate(np.asarray(sampled_candidates)):
                if int(c) in true:
                    rows.append(i)
                    ids.append(j)
        weights = np.full(len(rows), -np.finfo(np.float32).max, np.float32)
        return np.array(rows, np.int32), np.array(ids, np.int64), weights


# -- public functions ------------------------------------------------------------------------

def _sampler(op_type, true_classes, num_true, num_sampled, unique, range_max, seed, name,
             default_name, extra_attrs=None):
    seed1, seed2 = get_seed(seed)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), "seed": seed1 or 0, "seed2": seed2 or 0,
             **(extra_attrs or {})}
    if range_max is not None:
        attrs["range_max"] = int(range_max)
    true_classes = convert_to_tensor(true_classes, dtype=_dtypes.int64, name="true_classes")
    return _SAMPLER_OUTPUTS[op_type](*apply_op(
        op_type, [true_classes], attrs, name=name or default_name,
        output_dtypes=[_dtypes.int64, _dtypes.float32, _dtypes.float32]))


# What the samplers return: namedtuples named after the op, as TF's
# (`sampled = tf.nn.log_uniform_candidate_sampler(...).sampled_candidates`).
_SAMPLER_OUTPUTS = {
    op_type: collections.namedtuple(op_type, ["sampled_candidates", "true_expected_count",
                                              "sampled_expected_count"])
    for op_type in ("LogUniformCandidateSampler", "UniformCandidateSampler",
                    "FixedUnigramCandidateSampler", "LearnedUnigramCandidateSampler",
                    "AllCandidateSampler")}
ComputeAccidentalHitsOutput = collections.namedtuple("ComputeAccidentalHits",
                                                     ["indices", "ids", "weights"])


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """(sampled_candidates, true_expected_count, sampled_expected_count) from the log-uniform
    (Zipfian) distribution over [0, range_max): class ids must be sorted by frequency."""
    return _sampler("LogUniformCandidateSampler", true_classes, num_true, num_sampled, unique,
                    range_max, seed, name, "LogUniformCandidateSampler")


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """As log_uniform_candidate_sampler, every class equally likely."""
    return _sampler("UniformCandidateSampler", true_classes, num_true, num_sampled, unique,
                    range_max, seed, name, "UniformCandidateSampler")


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """As log_uniform_candidate_sampler, each class drawn with probability proportional to
    count ** distortion: the counts are `unigrams` (a list, one per class) or the last
    comma-separated field of each line of `vocab_file`; the first num_reserved_ids ids get
    weight 0; with num_shards > 1 only the ids of `shard` (id % num_shards == shard) are
    kept, and range_max must be their number."""
    extra = {"vocab_file": vocab_file, "distortion": float(distortion),
             "num_reserved_ids": int(num_reserved_ids), "num_shards": int(num_shards),
             "shard": int(shard), "unigrams": [float(u) for u in unigrams]}
    return _sampler("FixedUnigramCandidateSampler", true_classes, num_true, num_sampled,
                    unique, range_max, seed, name, "FixedUnigramCandidateSampler", extra)


def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """As log_uniform_candidate_sampler, each class drawn in proportion to how often it has
    been a true class in the op's earlier runs (plus 1): uniform at first."""
    return _sampler("LearnedUnigramCandidateSampler", true_classes, num_true, num_sampled,
                    unique, range_max, seed, name, "LearnedUnigramCandidateSampler")


def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """Every class 0 .. num_sampled-1 (the full softmax, as a 'sampler')."""
    return _sampler("AllCandidateSampler", true_classes, num_true, num_sampled, unique, None,
                    seed, name, "AllCandidateSampler")


def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """(indices, ids, weights): each place where a sampled candidate equals one of the row's
    true classes; weights are -FLT_MAX, to be added to those logits."""
    seed1, seed2 = get_seed(seed)
    true_classes = convert_to_tensor(true_classes, dtype=_dtypes.int64, name="true_classes")
    sampled = convert_to_tensor(sampled_candidates, dtype=_dtypes.int64,
                                name="sampled_candidates")
    return ComputeAccidentalHitsOutput(*apply_op(
        "ComputeAccidentalHits", [true_classes, sampled],
        {"num_true": int(num_true), "seed": seed1 or 0, "seed2": seed2 or 0},
        name=name or "ComputeAccidentalHits",
        output_dtypes=[_dtypes.int32, _dtypes.int64, _dtypes.float32]))
