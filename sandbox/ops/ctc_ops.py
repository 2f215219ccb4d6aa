"""Connectionist temporal classification -- tf.nn.ctc_loss, ctc_loss_v2, ctc_greedy_decoder,
ctc_beam_search_decoder (and _v2), ctc_unique_labels and collapse_repeated, as TensorFlow
1.15's python/ops/ctc_ops.py defines them, computed as core/kernels/ctc_loss_op.cc and
core/util/ctc/ctc_loss_calculator.h (the forward-backward algorithm) and
core/kernels/ctc_decoder_ops.cc with core/util/ctc/ctc_decoder.h (the greedy decoder) and
ctc_beam_search.h, ctc_beam_entry.h (the beam search, its beam a gtl::TopN) do.

CTC scores a label sequence against per-frame class scores without an alignment: the
network emits, at each of max_time frames, logits over num_classes classes, the last one
being "blank". A path (one class per frame) spells a labelling once repeats are merged and
blanks dropped; the loss is -log of the total probability of the paths that spell the label.

    loss = tf.nn.ctc_loss(labels,            # SparseTensor int32 [batch, max_label_len]
                          logits,            # [max_time, batch, num_classes] (time major)
                          sequence_length)   # [batch] int32: frames used of each example
    decoded, neg_sum_logits = tf.nn.ctc_greedy_decoder(logits, sequence_length)

The kernel runs the forward (alpha) and backward (beta) recursions of Graves (2006) in log
space over l' -- the label with a blank before, between and after its entries -- and gives
the loss and, in the same pass, its gradient with respect to the logits: softmax(logits)
minus the posterior of each class at each frame. tf.gradients uses that second output, as
TF's _CTCLossGrad does; there is no second derivative.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tensor_util import shape_text
from . import array_ops, comparison_ops, math_ops, slicing_ops

__all__ = []   # reached as tf.nn.* (sandbox/nn.py)


# -- the loss calculator (ctc_loss_calculator.h) ------------------------------------------

def _l_prime(label, blank):
    out = [blank]
    for v in label:
        out += [v, blank]
    return np.asarray(out)


def _alpha_beta(lp, logy, blank, merge):
    """Log alpha and log beta, [U, T], over the band of (u, t) that can still reach the
    end (TF's loop bounds), as ctc_loss_calculator.h's Calculate{Forward,Backward}Variables."""
    U, T = len(lp), logy.shape[1]
    ly = logy[lp]                                       # [U, T]: log y of l'[u] at t
    stay = merge | (lp == blank)                        # may stay on u
    skip = np.zeros(U, bool)                            # may jump u-2 -> u
    skip[2:] = (lp[2:] != blank) & ~(merge & (lp[2:] == lp[:-2]))
    alpha = np.full((U, T), -np.inf)
    beta = np.full((U, T), -np.inf)
    alpha[0, 0] = ly[0, 0]
    alpha[1, 0] = ly[1, 0]
    u = np.arange(U)
    for t in range(1, T):
        prev = alpha[:, t - 1]
        s = np.where(stay, prev, -np.inf)
        s[1:] = np.logaddexp(s[1:], prev[:-1])
        s[2:] = np.where(skip[2:], np.logaddexp(s[2:], prev[:-2]), s[2:])
        band = (u >= max(0, U - 2 * (T - t))) & (u < min(U, 2 * (t + 1)))
        alpha[:, t] = np.where(band, ly[:, t] + s, -np.inf)
    beta[U - 2:, T - 1] = 0
    for t in range(T - 2, -1, -1):
        nxt = beta[:, t + 1] + ly[:, t + 1]
        s = np.where(stay, nxt, -np.inf)
        s[:-1] = np.logaddexp(s[:-1], nxt[1:])
        s[:-2] = np.where(skip[2:], np.logaddexp(s[:-2], nxt[2:]), s[:-2])
        band = (u >= max(0, U - 2 * (T - t))) & (u < min(U, 2 * (t + 1)))
        beta[:, t] = np.where(band, s, -np.inf)
    return alpha, beta


def _ctc_loss_and_grad(inputs, labels, seq_len, blank, collapse, merge, ignore_longer,
                       check_time=True):
    """TF's CTCLossCalculator::CalculateLoss: per-example loss [B] and gradient [T, B, C]."""
    max_time, batch, num_classes = inputs.shape
    loss = np.zeros(batch, np.float64)
    grad = np.zeros(inputs.shape, np.float64)
    for b in range(batch):
        if seq_len[b] < 0:
            raise errors.InvalidArgumentError(None, None, f"seq_len({b}) < 0")
        if seq_len[b] > max_time:
            raise errors.InvalidArgumentError(None, None, f"seq_len({b}) > num_time_steps")
    l_primes = []
    for b, label in enumerate(labels):                  # PopulateLPrimes
        if len(label) == 0:
            raise errors.InvalidArgumentError(None, None, f"Labels length is zero in batch {b}")
        kept, finished = [], False
        for i, v in enumerate(label):
            if i == 0 or not collapse or v != label[i - 1]:
                if v >= num_classes - 1:
                    finished = True
                elif finished:
                    raise errors.InvalidArgumentError(
                        None, None, f"Saw a non-null label (index >= num_classes - 1) "
                        f"following a null label, batch: {b} num_classes: {num_classes} "
                        f"labels: {','.join(map(str, label))} labels seen so far: "
                        f"{','.join(map(str, kept))}")
                else:
                    kept.append(int(v))
        if any(v < 0 for v in kept):
            raise errors.InvalidArgumentError(
                None, None, f"All labels must be nonnegative integers, batch: {b} labels: "
                f"{','.join(map(str, kept))}")
        if check_time and not ignore_longer and len(label) > seq_len[b]:
            raise errors.InvalidArgumentError(
                None, None, f"Not enough time for target transition sequence (required: "
                f"{len(label)}, available: {seq_len[b]}){b}You can turn this error into a "
                f"warning by using the flag ignore_longer_outputs_than_inputs")
        l_primes.append(_l_prime(kept, blank))
    with np.errstate(divide="ignore", invalid="ignore"):
        for b in range(batch):
            T = int(seq_len[b])
            if T == 0 or (ignore_longer and len(labels[b]) > T):
                continue
            x = inputs[:T, b].astype(np.float64)
            e = np.exp(x - x.max(axis=1, keepdims=True))
            y = e / e.sum(axis=1, keepdims=True)                     # [T, C]
            logy = np.log(y).T                                       # [C, T]
            lp = l_primes[b]
            alpha, beta = _alpha_beta(lp, logy, blank, merge)
            log_p = np.logaddexp.reduce(alpha[:, 0] + beta[:, 0])
            loss[b] = -log_p
            if log_p == -np.inf:
                grad[:T, b] = y
                continue
            occupancy = np.full((num_classes, T), -np.inf)
            for u, label in enumerate(lp):
                occupancy[label] = np.logaddexp(occupancy[label], alpha[u] + beta[u])
            grad[:T, b] = y - np.exp(occupancy - log_p).T
    return loss, grad


def _labels_by_batch(indices, values, batch, max_time):
    """The label sequence of each example, from the SparseTensor's [batch, time] indices
    (which must be in order and inside [batch, max_time], as TF's IndicesValid wants)."""
    if indices.ndim != 2 or indices.shape[1] != 2:
        raise errors.InvalidArgumentError(None, None, f"labels_indices is not a matrix: "
                                          f"{shape_text(indices.shape)}")
    if indices.shape[0] != values.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"labels_indices and labels_values must contain the same number of "
            f"rows, but saw shapes: {shape_text(indices.shape)} vs. "
            f"{shape_text(values.shape)}")
    for i, (b, t) in enumerate(indices):
        if not (0 <= b < batch and 0 <= t < max_time):
            raise errors.InvalidArgumentError(
                None, None, f"label SparseTensor is not valid: indices[{i}] = [{b},{t}] is "
                f"out of bounds: need 0 <= index < [{batch},{max_time}]")
        if i and tuple(indices[i - 1]) >= (b, t):
            raise errors.InvalidArgumentError(
                None, None, f"label SparseTensor is not valid: indices[{i}] = [{b},{t}] is "
                f"out of order. Many sparse ops require sorted indices.\n    Use "
                f"`tf.sparse.reorder` to create a correctly ordered copy.\n\n")
    labels = [[] for _ in range(batch)]
    for (b, _), v in zip(indices, values):
        labels[int(b)].append(int(v))
    return labels


def _check_inputs(inputs, seq_len, error=errors.InvalidArgumentError):
    if inputs.ndim != 3:
        raise errors.InvalidArgumentError(None, None, "inputs is not a 3-Tensor")
    if seq_len.ndim != 1:
        raise errors.InvalidArgumentError(None, None, "sequence_length is not a vector")
    if inputs.shape[1] != seq_len.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"len(sequence_length) != batch_size.  len(sequence_length):  "
            f"{seq_len.shape[0]} batch_size: {inputs.shape[1]}")
    for b, n in enumerate(seq_len):
        if n > inputs.shape[0]:
            raise error(None, None, f"sequence_length({b}) <= {inputs.shape[0]}")


def _ctc_loss_shape(op):
    x = op.inputs[0].get_shape().with_rank(3)
    seq_len = op.inputs[3].get_shape().with_rank(1)
    if not x[1].is_compatible_with(seq_len[0]):
        raise ValueError(f"Dimensions must be equal, but are {x[1]} and {seq_len[0]}")
    return [TensorShape([x[1].value]), x]


def _ctc_loss_gradient(op, grad_loss, grad_grad):
    """TF's _CTCLossGrad: the op's own gradient output times the incoming gradient of each
    example's loss. A second derivative is refused, as TF's prevent_gradient refuses it."""
    unused = grad_grad is None or (grad_grad.op.type == "ZerosLike" and
                                   grad_grad.op.inputs[0] is op.outputs[1])
    if not unused:     # (gradients() passes zeros for an output nobody differentiates)
        raise LookupError("Gradient explicitly disabled. Reason: Currently there is no way to "
                          "take the second  derivative of ctc_loss due to the fused "
                          "implementation's interaction  with tf.gradients()")
    grad = op.outputs[1]
    return [array_ops.expand_dims(grad_loss, -1) * grad] + [None] * (len(op.inputs) - 1)


class CTCLoss(OpDef):
    """Per-example CTC loss and its gradient with respect to inputs (blank = last class)."""
    multi_output = True
    shape = _ctc_loss_shape
    gradient = _ctc_loss_gradient

    def kernel(inputs, labels_indices, labels_values, sequence_length,
               preprocess_collapse_repeated=False, ctc_merge_repeated=True,
               ignore_longer_outputs_than_inputs=False, T=None):
        _check_inputs(inputs, sequence_length)
        max_time, batch, num_classes = inputs.shape
        if batch == 0:
            raise errors.InvalidArgumentError(None, None, "batch_size must not be 0")
        labels = _labels_by_batch(labels_indices, labels_values, batch, max_time)
        loss, grad = _ctc_loss_and_grad(inputs, labels, sequence_length, num_classes - 1,
                                        preprocess_collapse_repeated, ctc_merge_repeated,
                                        ignore_longer_outputs_than_inputs)
        return loss.astype(inputs.dtype), grad.astype(inputs.dtype)


class CTCLossDense(OpDef):
    """The sandbox's kernel for ctc_loss_v2 with dense labels [batch, max_label_len] and
    label_length [batch] (TF builds this from array ops: ctc_ops.ctc_loss_dense); blank is
    class blank_index."""
    multi_output = True
    gradient = _ctc_loss_gradient

    def shape(op):
        x = op.inputs[0].get_shape().with_rank(3)
        batch = x[1].merge_with(op.inputs[1].get_shape().with_rank(2)[0])
        return [TensorShape([batch.value]), x]

    def kernel(logits, labels, label_length, logit_length, blank_index=0, T=None):
        _check_inputs(logits, logit_length)
        num_classes = logits.shape[2]
        order = [c for c in range(num_classes) if c != blank_index] + [blank_index]
        rolled = logits[:, :, order]                    # blank last, as the calculator wants
        seqs = [[int(v) - (v > blank_index) for v in row[:int(n)]]
                for row, n in zip(labels, label_length)]
        loss, grad = _ctc_loss_and_grad(rolled, seqs, logit_length, num_classes - 1,
                                        False, True, False, check_time=False)
        unrolled = np.empty_like(grad)
        unrolled[:, :, order] = grad
        return loss.astype(logits.dtype), unrolled.astype(logits.dtype)


def ctc_loss(labels, inputs=None, sequence_length=None, preprocess_collapse_repeated=False,
             ctc_merge_repeated=True, ignore_longer_outputs_than_inputs=False,
             time_major=True, logits=None):
    """The CTC loss of each example: labels an int32 SparseTensor ([batch, label position]
    -> class), inputs the logits [max_time, batch, num_classes] (or [batch, max_time,
    num_classes] with time_major=False), sequence_length [batch]. The last class is the
    blank. Returns the negative log probabilities, [batch]."""
    if not isinstance(labels, SparseTensor):
        raise TypeError(f"Expected argument `labels` to be a SparseTensor. Received "
                        f"labels={labels} of type: {type(labels).__name__}")
    if logits is not None and inputs is not None:
        raise ValueError("Cannot specify both 'logits' and 'inputs'")
    inputs = logits if logits is not None else inputs
    inputs = convert_to_tensor(inputs, name="logits")
    if not inputs.dtype.base_dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'inputs' has DataType "
                        f"{inputs.dtype.base_dtype.name} not in list of allowed values: "
                        f"float32, float64")
    if not time_major:
        inputs = array_ops.transpose(inputs, [1, 0, 2])
    values = labels.values
    if values.dtype.base_dtype != dtypes.int32:
        raise TypeError(f"Input 'labels_values' of 'CTCLoss' Op has type "
                        f"{values.dtype.base_dtype.name} that does not match expected type of "
                        f"int32.")
    seq_len = convert_to_tensor(sequence_length, dtype=dtypes.int32, name="sequence_length")
    loss, _ = apply_op("CTCLoss", [inputs, labels.indices, values, seq_len],
                       {"T": inputs.dtype.base_dtype,
                        "preprocess_collapse_repeated": bool(preprocess_collapse_repeated),
                        "ctc_merge_repeated": bool(ctc_merge_repeated),
                        "ignore_longer_outputs_than_inputs":
                            bool(ignore_longer_outputs_than_inputs)},
                       name="CTCLoss", output_dtypes=[inputs.dtype.base_dtype] * 2)
    return loss


def _num_classes(logits):
    n = logits.get_shape().with_rank(3)[2].value
    if n is None:
        raise ValueError("ctc_loss_v2 needs the number of classes (logits' last dimension) "
                         "known when the graph is built")
    return n


def ctc_loss_v2(labels, logits, label_length, logit_length, logits_time_major=True,
                unique=None, blank_index=None, name=None):
    """CTC loss with the blank anywhere: labels a SparseTensor (blank_index required) or a
    dense int tensor [batch, max_label_length] with label_length (blank_index 0 unless
    given). Returns the negative log probabilities, [batch]. (`unique` only speeds up TF's
    dense computation; the result is the same without it.)"""
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when labels is a "
                             "SparseTensor.")
        logits = convert_to_tensor(logits, name="logits")
        num_classes = _num_classes(logits)
        if blank_index < 0:
            blank_index += num_classes
        if blank_index != num_classes - 1:
            logits = slicing_ops.concat([logits[:, :, :blank_index],
                                         logits[:, :, blank_index + 1:],
                                         logits[:, :, blank_index:blank_index + 1]], axis=2)
            values = labels.values
            labels = SparseTensor(labels.indices,
                                  comparison_ops.where(values < blank_index, values, values - 1),
                                  labels.dense_shape)
        return ctc_loss(labels=labels, inputs=logits, sequence_length=logit_length,
                        time_major=logits_time_major)
    if blank_index is None:
        blank_index = 0
    with name_scope(name, "ctc_loss_dense", [logits, labels, label_length, logit_length]):
        logits = convert_to_tensor(logits, name="logits")
        if not logits_time_major:
            logits = array_ops.transpose(logits, [1, 0, 2])
        if blank_index < 0:
            blank_index += _num_classes(logits)
        labels = convert_to_tensor(labels, name="labels")
        label_length = convert_to_tensor(label_length, name="label_length")
        logit_length = math_ops.cast(convert_to_tensor(logit_length, name="logit_length"),
                                     dtypes.int32)
        loss, _ = apply_op("CTCLossDense", [logits, labels, label_length, logit_length],
                           {"T": logits.dtype.base_dtype, "blank_index": int(blank_index)},
                           name="CTCLossDense", output_dtypes=[logits.dtype.base_dtype] * 2)
        return loss


# -- decoding ---------------------------------------------------------------------------

class CTCGreedyDecoder(OpDef):
    """Best path decoding: the top class of every frame, repeats merged, blanks dropped."""
    multi_output = True
    differentiable = False

    def shape(op):
        x = op.inputs[0].get_shape().with_rank(3)
        return [TensorShape([None, 2]), TensorShape([None]), TensorShape([2]),
                TensorShape([x[1].value, 1])]

    def kernel(inputs, sequence_length, merge_repeated=True, blank_index=-1, T=None):
        _check_inputs(inputs, sequence_length, errors.FailedPreconditionError)
        max_time, batch, num_classes = inputs.shape
        blank = num_classes + blank_index if blank_index < 0 else blank_index
        decoded, scores = [], np.zeros((batch, 1), inputs.dtype)
        top = np.argmax(inputs, axis=2)                           # [T, B], first max
        for b in range(batch):
            out, prev = [], -1
            n = int(sequence_length[b])
            scores[b, 0] = -np.sum(inputs[np.arange(n), b, top[:n, b]])
            for c in top[:n, b]:
                if c != blank and not (merge_repeated and c == prev):
                    out.append(int(c))
                prev = c
            decoded.append(out)
        return _sparse_output(decoded, batch) + (scores,)


def _sparse_output(decoded, batch):
    indices = [[b, t] for b, seq in enumerate(decoded) for t in range(len(seq))]
    values = [v for seq in decoded for v in seq]
    longest = max((len(s) for s in decoded), default=0)
    return (np.asarray(indices, np.int64).reshape(-1, 2), np.asarray(values, np.int64),
            np.asarray([batch, longest], np.int64))


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """Greedy (best path) decoding of inputs [max_time, batch, num_classes]: returns
    ([SparseTensor of the decoded classes, [batch, max_decoded_length]], neg_sum_logits
    [batch, 1], the negative sum of each frame's greatest logit)."""
    x = convert_to_tensor(inputs, name="inputs")
    seq_len = convert_to_tensor(sequence_length, dtype=dtypes.int32, name="sequence_length")
    blank = -1 if blank_index is None else int(blank_index)
    ix, val, shape, log_prob = apply_op(
        "CTCGreedyDecoder", [x, seq_len],
        {"T": x.dtype.base_dtype, "merge_repeated": bool(merge_repeated),
         "blank_index": blank}, name="CTCGreedyDecoder",
        output_dtypes=[dtypes.int64, dtypes.int64, dtypes.int64, x.dtype.base_dtype])
    return [SparseTensor(ix, val, shape)], log_prob


class _Beam:
    """A prefix of the beam search (ctc_beam_entry.h's BeamEntry): its last label, its parent,
    its children by label, and the log probabilities (total, ending in blank, ending in its
    label) of the step before (old) and of this step (new)."""
    __slots__ = ("parent", "label", "children", "old", "new")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, {}
        self.old = [-np.inf, -np.inf, -np.inf]          # total, blank, label
        self.new = [-np.inf, -np.inf, -np.inf]

    def active(self):
        return self.new[0] != -np.inf

    def labels(self, merge_repeated):
        out, prev, e = [], -1, self
        while e.parent is not None:
            if not merge_repeated or e.label != prev:
                out.append(e.label)
            prev, e = e.label, e.parent
        return out[::-1]


def _beam_search(x, beam_width, top_paths, merge_repeated):
    """TF's CTCBeamSearchDecoder (ctc_beam_search.h) with its default scorer, on one
    example's logits x [T, C]: the top_paths best label sequences and their log
    probabilities. The beam is TF's TopN: at most beam_width prefixes, the worst dropped
    when a better one arrives."""
    num_classes = x.shape[1]
    blank = num_classes - 1
    root = _Beam(None, -1)
    root.new = [0.0, 0.0, -np.inf]
    leaves = [root]

    def bottom():
        return min(leaves, key=lambda e: e.new[0])

    def candidate(p):
        return p[0] > -np.inf and (len(leaves) < beam_width or p[0] > bottom().new[0])

    for row in x:
        mx = row.max()
        norm = mx + np.log(np.sum(np.exp(row - mx)))
        branches = sorted(leaves, key=lambda e: -e.new[0])
        leaves = []
        for b in branches:
            b.old = list(b.new)
        for b in branches:
            if b.parent is not None:
                if b.parent.active():
                    prev = b.parent.old[1] if b.label == b.parent.label else b.parent.old[0]
                    b.new[2] = np.logaddexp(b.new[2], prev)
                b.new[2] += row[b.label] - norm
            b.new[1] = b.old[0] + row[blank] - norm
            b.new[0] = np.logaddexp(b.new[1], b.new[2])
            leaves.append(b)
        for b in branches:
            if not candidate(b.old):
                continue
            for label in range(num_classes - 1):
                c = b.children.get(label)
                if c is None:
                    c = b.children[label] = _Beam(b, label)
                if c.active():
                    continue
                prev = b.old[1] if label == b.label else b.old[0]
                c.new = [row[label] - norm + prev, -np.inf, row[label] - norm + prev]
                if candidate(c.new):
                    if len(leaves) == beam_width:
                        worst = bottom()
                        worst.new = [-np.inf] * 3
                        leaves.remove(worst)
                    leaves.append(c)
                else:
                    c.old = [-np.inf] * 3
                    c.new = [-np.inf] * 3
    if top_paths > beam_width:
        raise errors.InvalidArgumentError(None, None,
                                          "requested more paths than the beam width.")
    if top_paths > len(leaves):
        raise errors.InvalidArgumentError(None, None,
                                          "Less leaves in the beam search than requested.")
    best = sorted(leaves, key=lambda e: -e.new[0])[:top_paths]
    return [e.labels(merge_repeated) for e in best], [e.new[0] for e in best]


class CTCBeamSearchDecoder(OpDef):
    """Prefix beam search: the top_paths most probable labellings found by a beam of
    beam_width prefixes (blank = last class)."""
    multi_output = True
    differentiable = False

    def shape(op):
        x = op.inputs[0].get_shape().with_rank(3)
        n = op.get_attr("top_paths")
        return ([TensorShape([None, 2])] * n + [TensorShape([None])] * n +
                [TensorShape([2])] * n + [TensorShape([x[1].value, n])])

    def kernel(inputs, sequence_length, beam_width, top_paths, merge_repeated=True, T=None):
        _check_inputs(inputs, sequence_length, errors.FailedPreconditionError)
        batch = inputs.shape[1]
        paths = [[] for _ in range(top_paths)]
        log_probs = np.zeros((batch, top_paths), inputs.dtype)
        for b in range(batch):
            x = inputs[:int(sequence_length[b]), b].astype(np.float64)
            seqs, scores = _beam_search(x, beam_width, top_paths, merge_repeated)
            for p in range(top_paths):
                paths[p].append(seqs[p])
            log_probs[b] = scores
        outs = [_sparse_output(paths[p], batch) for p in range(top_paths)]
        return tuple([o[0] for o in outs] + [o[1] for o in outs] + [o[2] for o in outs]
                     + [log_probs])


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1,
                            merge_repeated=True):
    """Beam search decoding of inputs [max_time, batch, num_classes] (logits; the last class
    is the blank): returns ([top_paths SparseTensors, the best labellings first],
    log_probability [batch, top_paths]). merge_repeated merges repeated labels of a beam's
    prefix in the output (TF 1's default)."""
    x = convert_to_tensor(inputs, name="inputs")
    seq_len = convert_to_tensor(sequence_length, dtype=dtypes.int32, name="sequence_length")
    beam_width, top_paths = int(beam_width), int(top_paths)
    if beam_width < 1:
        raise ValueError(f"Value for attr 'beam_width' of {beam_width} must be at least "
                         f"minimum 1")
    if top_paths < 1:
        raise ValueError(f"Value for attr 'top_paths' of {top_paths} must be at least "
                         f"minimum 1")
    outs = apply_op("CTCBeamSearchDecoder", [x, seq_len],
                    {"T": x.dtype.base_dtype, "beam_width": beam_width,
                     "top_paths": top_paths, "merge_repeated": bool(merge_repeated)},
                    name="CTCBeamSearchDecoder",
                    output_dtypes=[dtypes.int64] * (3 * top_paths) + [x.dtype.base_dtype])
    ix, vals, shapes = (outs[k * top_paths:(k + 1) * top_paths] for k in range(3))
    return ([SparseTensor(i, v, s) for i, v, s in zip(ix, vals, shapes)], outs[-1])


def ctc_beam_search_decoder_v2(inputs, sequence_length, beam_width=100, top_paths=1):
    """ctc_beam_search_decoder with merge_repeated=False (TF 2's tf.nn.ctc_beam_search_decoder,
    TF 1.15's tf.nn.ctc_beam_search_decoder_v2)."""
    return ctc_beam_search_decoder(inputs, sequence_length, beam_width=beam_width,
                                   top_paths=top_paths, merge_repeated=False)


# -- label helpers ------------------------------------------------------------------------

class CTCUniqueLabels(OpDef):
    """The sandbox's kernel for ctc_unique_labels (TF: map_fn of Unique over the rows): each
    row's distinct labels in order of first appearance, zero-padded, and each entry's index
    into them."""
    multi_output = True
    differentiable = False

    def shape(op):
        x = op.inputs[0].get_shape().with_rank(2)
        return [x, x]

    def kernel(labels, T=None):
        y = np.zeros(labels.shape, np.int64)
        idx = np.zeros(labels.shape, np.int32)
        for r, row in enumerate(labels):
            seen = {}
            for i, v in enumerate(row):
                idx[r, i] = seen.setdefault(v, len(seen))
            y[r, :len(seen)] = list(seen)
        return y, idx


def ctc_unique_labels(labels, name=None):
    """For dense labels [batch, max_label_length]: (unique_labels int64, unique_idx int32),
    each row's distinct labels (first appearance order, zero-padded) and the index of each
    entry among them -- what ctc_loss_v2's `unique` argument takes."""
    with name_scope(name, "ctc_unique_labels", [labels]):
        labels = convert_to_tensor(labels, name="labels")
        return tuple(apply_op("CTCUniqueLabels", [labels], {"T": labels.dtype.base_dtype},
                              name="CTCUniqueLabels",
                              output_dtypes=[dtypes.int64, dtypes.int32]))


class CollapseRepeated(OpDef):
    """The sandbox's kernel for collapse_repeated (TF builds it from masks and scatter_nd):
    repeated neighbours within each row's first seq_length entries merged into one."""
    multi_output = True
    differentiable = False

    def shape(op):
        x = op.inputs[0].get_shape().with_rank(2)
        return [TensorShape([x[0].value, None]), op.inputs[1].get_shape()]

    def kernel(labels, seq_length, T=None, Tlen=None):
        rows = []
        for row, n in zip(labels, seq_length):
            row = row[:max(int(n), 0)]
            keep = np.ones(len(row), bool)
            keep[1:] = row[1:] != row[:-1]
            rows.append(row[keep])
        new_len = np.asarray([len(r) for r in rows], seq_length.dtype)
        out = np.zeros((labels.shape[0], max((len(r) for r in rows), default=0)),
                       labels.dtype)
        for r, row in enumerate(rows):
            out[r, :len(row)] = row
        return out, new_len


def collapse_repeated(labels, seq_length, name=None):
    """Merges repeated labels: labels [batch, max_length] with seq_length [batch] ->
    (collapsed labels [batch, new_max_length], zero-padded; their lengths)."""
    with name_scope(name, "collapse_repeated_labels", [labels, seq_length]):
        labels = convert_to_tensor(labels, name="labels")
        seq_length = convert_to_tensor(seq_length, name="seq_length")
        return tuple(apply_op("CollapseRepeated", [labels, seq_length],
                              {"T": labels.dtype.base_dtype,
                               "Tlen": seq_length.dtype.base_dtype},
                              name="CollapseRepeated",
                              output_dtypes=[labels.dtype.base_dtype,
                                             seq_length.dtype.base_dtype]))
