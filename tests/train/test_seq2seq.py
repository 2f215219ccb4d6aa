"""tf.contrib.seq2seq (sandbox/contrib/seq2seq/): sequence_loss, the helpers, BasicDecoder
with dynamic_decode, attention, tile_batch -- and a small seq2seq model that learns to copy.

TF 2.15.1 has no tf.contrib (and tensorflow_addons is not installed), so the reference
numbers here come from small NumPy re-implementations of TF 1.15's formulas
(contrib/seq2seq/python/ops/loss.py, basic_decoder.py, decoder.py, attention_wrapper.py),
run on the variables' values the sandbox's graph initialized."""
import numpy as np
import pytest

import sandbox as tf

s2s = tf.contrib.seq2seq


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


def _softmax(x):
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


def _lstm(x, c, h, kernel, bias):
    """NumPy BasicLSTMCell step (forget_bias 1)."""
    i, j, f, o = np.split(np.concatenate([x, h], 1) @ kernel + bias, 4, axis=1)
    c = c * _sigmoid(f + 1.0) + _sigmoid(i) * np.tanh(j)
    return np.tanh(c) * _sigmoid(o), c


def test_sequence_loss_reductions_and_errors_as_tf():
    rng = np.random.RandomState(0)
    logits = rng.randn(2, 3, 4).astype(np.float32)
    targets = np.array([[0, 1, 2], [3, 0, 1]], np.int32)
    weights = np.array([[1, 1, 0], [1, 0.5, 0]], np.float32)
    # NumPy reference: crossent[b, t] * weights[b, t], then TF's reductions
    xent = -np.log(_softmax(logits))[np.arange(2)[:, None], np.arange(3), targets] * weights
    nz = (weights != 0).astype(np.float32)
    with np.errstate(invalid="ignore", divide="ignore"):
        cases = [
            ({}, xent.sum() / weights.sum()),
            (dict(average_across_batch=False), xent.sum(1) / weights.sum(1)),
            (dict(average_across_timesteps=False),
             np.nan_to_num(xent.sum(0) / weights.sum(0))),          # div_no_nan: 0 at t=2
            (dict(average_across_timesteps=False, average_across_batch=False), xent),
            (dict(average_across_timesteps=False, average_across_batch=False,
                  sum_over_timesteps=True, sum_over_batch=True), xent.sum() / nz.sum()),
            (dict(average_across_timesteps=False, average_across_batch=False,
                  sum_over_batch=True), np.nan_to_num(xent.sum(0) / nz.sum(0))),
            # an average and a sum asked on different axes: TF averages, and ignores the sum
            (dict(average_across_timesteps=False, sum_over_timesteps=True),
             np.nan_to_num(xent.sum(0) / weights.sum(0))),
        ]
    losses = [s2s.sequence_loss(logits, targets, weights, **kw) for kw, _ in cases]
    assert [loss.get_shape().as_list() for loss in losses] == [[], [2], [3], [2, 3], [], [3], [3]]
    assert losses[0].op.name.startswith("sequence_loss/")
    with tf.Session() as sess:
        got = sess.run(losses)
    for value, (_, want) in zip(got, cases):
        np.testing.assert_allclose(value, want, rtol=1e-5)
    with pytest.raises(ValueError, match=r"Logits must be a \[batch_size x sequence_length x "
                                         r"logits\] tensor"):
        s2s.sequence_loss(logits[0], targets, weights)
    with pytest.raises(ValueError, match=r"Targets must be a \[batch_size x sequence_length\]"):
        s2s.sequence_loss(logits, targets[0], weights)
    with pytest.raises(ValueError, match="average_across_timesteps and sum_over_timesteps "
                                         "cannot be set to True at same time."):
        s2s.sequence_loss(logits, targets, weights, sum_over_timesteps=True)
    with pytest.raises(ValueError, match="average_across_batch and sum_over_batch cannot"):
        s2s.sequence_loss(logits, targets, weights, sum_over_batch=True)


def test_basic_decoder_two_steps_as_unrolled_by_hand():
    rng = np.random.RandomState(1)
    x = rng.randn(2, 2, 3).astype(np.float32)                 # [batch, time, depth]
    cell = tf.nn.rnn_cell.BasicLSTMCell(4)
    helper = s2s.TrainingHelper(x, [2, 1])
    layer = tf.layers.Dense(5, name="projection")
    decoder = s2s.BasicDecoder(cell, helper, cell.zero_state(2, tf.float32), layer)
    assert decoder.output_size.rnn_output.as_list() == [5]
    outputs = {}
    for impute in (False, True):
        with tf.variable_scope("", reuse=impute):
            outputs[impute] = s2s.dynamic_decode(decoder, impute_finished=impute)
    out, state, lengths = outputs[False]
    assert isinstance(out, s2s.BasicDecoderOutput)
    assert out.rnn_output.get_shape().as_list() == [2, None, 5]
    assert out.sample_id.get_shape().as_list() == [2, None]
    assert out.sample_id.dtype == tf.int32 and lengths.dtype == tf.int32
    names = sorted(v.op.name for v in tf.global_variables())
    assert names == ["decoder/basic_lstm_cell/bias", "decoder/basic_lstm_cell/kernel",
                     "decoder/projection/bias", "decoder/projection/kernel"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        k, b, w, wb = sess.run([cell.variables[0], cell.variables[1], layer.kernel, layer.bias])
        got = sess.run(outputs)
    # by hand: two LSTM steps on the ground-truth inputs, then the projection
    c = h = np.zeros((2, 4), np.float32)
    hs, cs = [], []
    for t in range(2):
        h, c = _lstm(x[:, t], c, h, k, b)
        hs.append(h)
        cs.append(c)
    logits = np.stack(hs, 1) @ w + wb
    for impute in (False, True):
        out, state, lengths = got[impute]
        np.testing.assert_array_equal(lengths, [2, 1])
        want = logits.copy()
        want_c, want_h = cs[1].copy(), hs[1].copy()
        if impute:   # example 1 finished after step 0: zero output, its state from step 0
            want[1, 1] = 0
            want_c[1], want_h[1] = cs[0][1], hs[0][1]
        np.testing.assert_allclose(out.rnn_output, want, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(out.sample_id[0], want[0].argmax(-1))
        np.testing.assert_allclose(state.c, want_c, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(state.h, want_h, rtol=1e-5, atol=1e-6)
    with pytest.raises(TypeError, match="helper must be a Helper"):
        s2s.BasicDecoder(cell, "helper", cell.zero_state(2, tf.float32))
    with pytest.raises(ValueError, match="Expected sequence_length to be a vector"):
        s2s.TrainingHelper(x, 2)


def test_inference_helpers_stop_at_end_token_or_maximum_iterations():
    # a "cell" whose outputs are fixed logits: step t emits id ids[b, t] (ends with 2)
    ids = np.array([[3, 2, 0, 0], [4, 4, 4, 4]])
    table = np.eye(5, dtype=np.float32)[ids]                   # [batch, time, 5] one-hot
    identity = np.eye(5, dtype=np.float32)                      # the embedding

    class Lookup(tf.nn.rnn_cell.RNNCell):       # output = table[:, state], state + 1
        state_size, output_size = 1, 5

        def __call__(self, inputs, state, scope=None):
            step = tf.cast(state[0, 0], tf.int32)
            return tf.gather(tf.transpose(tf.constant(table), [1, 0, 2]), step), state + 1

    class Echo(tf.nn.rnn_cell.RNNCell):         # logits = 50 * inputs: samples are the argmax
        state_size, output_size = 1, 5

        def __call__(self, inputs, state, scope=None):
            return 50.0 * inputs, state

    def decode(cell, helper, **kwargs):
        return s2s.dynamic_decode(s2s.BasicDecoder(cell, helper, tf.zeros([2, 1])), **kwargs)

    custom = s2s.CustomHelper(
        lambda: (tf.constant([False, False]), tf.zeros([2, 5])),
        lambda time, outputs, state: tf.argmax(outputs, -1, output_type=tf.int32),
        lambda time, outputs, state, sample_ids: (tf.equal(sample_ids, 2),
                                                  tf.one_hot(sample_ids, 5), state))
    greedy = s2s.GreedyEmbeddingHelper(identity, [1, 1], 2)
    # at temperature 0.01 the one-hot logits become certain: sampling is the argmax
    sampling = s2s.SampleEmbeddingHelper(identity, [1, 1], 2, softmax_temperature=0.01, seed=3)
    inference = s2s.InferenceHelper(lambda outputs: outputs, [5], tf.float32, tf.zeros([2, 5]),
                                    lambda sample_ids: tf.reduce_all(sample_ids > 5, -1))
    results = {
        "custom": decode(Lookup(), custom, output_time_major=True, maximum_iterations=4),
        "greedy, 3 steps": decode(Lookup(), greedy, output_time_major=True,
                                  maximum_iterations=3),
        "greedy": decode(Lookup(), greedy, output_time_major=True, maximum_iterations=4),
        "sampling": decode(Lookup(), sampling, output_time_major=True, maximum_iterations=4),
        "inference": decode(Lookup(), inference, maximum_iterations=2),
        "never sampled": decode(Echo(), s2s.ScheduledEmbeddingTrainingHelper(
            table, [4, 4], identity, 0.0, seed=1)),
        "always sampled": decode(Echo(), s2s.ScheduledEmbeddingTrainingHelper(
            table, [4, 4], identity, 1.0, seed=1)),
    }
    with tf.Session() as sess:
        got = sess.run(results)
    for key, n_steps in (("custom", 4), ("greedy, 3 steps", 3), ("greedy", 4),
                         ("sampling", 4)):
        out, _, lengths = got[key]
        assert out.sample_id.shape == (n_steps, 2)              # time major
        np.testing.assert_array_equal(out.sample_id.T, ids[:, :n_steps])
        np.testing.assert_array_equal(lengths, [2, n_steps])    # example 0 ended at step 1
    out, _, lengths = got["inference"]
    np.testing.assert_array_equal(out.sample_id, table[:, :2])  # sample_fn: the outputs
    np.testing.assert_array_equal(lengths, [2, 2])
    # scheduled sampling, never: the ground truth, sample_id -1; always: step 0's id fed
    # back at every step
    np.testing.assert_array_equal(got["never sampled"][0].rnn_output, 50 * table)
    np.testing.assert_array_equal(got["never sampled"][0].sample_id, np.full((2, 4), -1))
    np.testing.assert_array_equal(got["always sampled"][0].sample_id,
                                  np.repeat(ids[:, :1], 4, axis=1))


def _np_bahdanau(query, keys, wq, v, g=None, b=None):
    if g is not None:
        v = g * v / np.sqrt((v ** 2).sum())
        return (v * np.tanh(keys + (query @ wq)[:, None] + b)).sum(-1)
    return (v * np.tanh(keys + (query @ wq)[:, None])).sum(-1)


def test_luong_and_bahdanau_scores_masking_and_the_wrapper():
    rng = np.random.RandomState(2)
    memory = rng.randn(2, 3, 4).astype(np.float32)
    query = rng.randn(2, 5).astype(np.float32)
    lengths = np.array([3, 2], np.int32)
    luong = s2s.LuongAttention(5, memory, memory_sequence_length=lengths, scale=True)
    with tf.variable_scope("b"):
        bahdanau = s2s.BahdanauAttention(5, memory, memory_sequence_length=lengths,
                                         normalize=True)
    with tf.variable_scope("attention"):
        luong_alignments, _ = luong(tf.constant(query), None)
        bahdanau_alignments, _ = bahdanau(tf.constant(query), None)
    assert luong_alignments.get_shape().as_list() == [2, 3]
    names = sorted(v.op.name for v in tf.global_variables())
    assert names == ["attention/bahdanau_attention/attention_b",
                     "attention/bahdanau_attention/attention_g",
                     "attention/bahdanau_attention/attention_v",
                     "attention/bahdanau_attention/query_layer/kernel",
                     "attention/luong_attention/attention_g",
                     "b/memory_layer/kernel", "memory_layer/kernel"]
    cell = s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(5), luong, attention_layer_size=6,
                                alignment_history=True)
    assert cell.output_size == 6 and cell.state_size.attention == 6
    inputs = rng.randn(2, 2, 3).astype(np.float32)
    decoder = s2s.BasicDecoder(cell, s2s.TrainingHelper(inputs, [2, 2]),
                               cell.zero_state(2, tf.float32))
    out, state, _ = s2s.dynamic_decode(decoder)
    history = state.alignment_history.stack()
    assert [v.op.name for v in cell.variables] == [
        "decoder/attention_wrapper/basic_rnn_cell/kernel",
        "decoder/attention_wrapper/basic_rnn_cell/bias",
        "decoder/attention_wrapper/attention_layer/kernel"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        luong_a, bahdanau_a, outputs, history, time = sess.run(
            [luong_alignments, bahdanau_alignments, out.rnn_output, history, state.time])
        var = sess.run({v.op.name: v for v in tf.global_variables()})
    mask = np.arange(3) < lengths[:, None]
    # Luong: g * query . (memory @ W); position 2 of example 1 is masked (weight 0)
    score = var["attention/luong_attention/attention_g"] * np.einsum(
        "bd,btd->bt", query, memory @ var["memory_layer/kernel"])
    np.testing.assert_allclose(luong_a, _softmax(np.where(mask, score, -np.inf)), rtol=1e-5)
    assert luong_a[1, 2] == 0
    # Bahdanau, normalized: (g v / |v|) . tanh(memory @ W1 + query @ W2 + b)
    keys = memory @ var["b/memory_layer/kernel"]
    score = _np_bahdanau(query, keys, *(var["attention/bahdanau_attention/" + n] for n in (
        "query_layer/kernel", "attention_v", "attention_g", "attention_b")))
    np.testing.assert_allclose(bahdanau_a, _softmax(np.where(mask, score, -np.inf)),
                               rtol=1e-5)
    # the wrapper, two steps by hand: cell on [input, attention], Luong on the cell's output
    kernel, bias = (var["decoder/attention_wrapper/basic_rnn_cell/" + n]
                    for n in ("kernel", "bias"))
    layer = var["decoder/attention_wrapper/attention_layer/kernel"]
    h, attention, want_outputs, want_history = np.zeros((2, 5)), np.zeros((2, 6)), [], []
    for t in range(2):
        h = np.tanh(np.concatenate([inputs[:, t], attention, h], 1) @ kernel + bias)
        score = var["attention/luong_attention/attention_g"] * np.einsum(
            "bd,btd->bt", h, memory @ var["memory_layer/kernel"])
        alignments = _softmax(np.where(mask, score, -np.inf))
        context = np.einsum("bt,btd->bd", alignments, memory * mask[:, :, None])
        attention = np.concatenate([h, context], 1) @ layer
        want_outputs.append(attention)
        want_history.append(alignments)
    np.testing.assert_allclose(outputs, np.stack(want_outputs, 1), rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(history, np.stack(want_history), rtol=1e-4, atol=1e-6)
    assert time == 2
    with pytest.raises(tf.errors.InvalidArgumentError,   # TF's assert_equal, statically
                       match="When calling zero_state of AttentionWrapper attention_wrapper: "
                             "Non-matching batch sizes"):
        cell.zero_state(3, tf.float32)
    with pytest.raises(TypeError, match="attention_mechanism must be an AttentionMechanism"):
        s2s.AttentionWrapper(tf.nn.rnn_cell.BasicRNNCell(5), "memory")
    with pytest.raises(ValueError, match="Incompatible or unknown inner dimensions between "
                                         "query and keys"):
        luong(tf.zeros([2, 4]), None)


def test_monotonic_attention_modes_and_mechanism():
    rng = np.random.RandomState(4)
    p = rng.uniform(0.05, 0.95, (2, 5)).astype(np.float32)
    previous = rng.dirichlet(np.ones(5), 2).astype(np.float32)
    # NumPy: q[j] = (1 - p[j-1]) q[j-1] + previous[j], attention = p * q
    q, want = previous[:, 0], []
    for j in range(5):
        if j:
            q = (1 - p[:, j - 1]) * q + previous[:, j]
        want.append(p[:, j] * q)
    want = np.stack(want, 1)
    one_hot = np.eye(5, dtype=np.float32)[[1, 3]]
    hard_p = np.array([[.9, .2, .7, .8, .1], [.9, .9, .2, .4, .6]], np.float32)
    modes = [s2s.monotonic_attention(p, previous, mode) for mode in ("recursive", "parallel")]
    hard = s2s.monotonic_attention(hard_p, one_hot, "hard")
    memory = rng.randn(2, 5, 3).astype(np.float32)
    query = rng.randn(2, 4).astype(np.float32)
    mechanism = s2s.BahdanauMonotonicAttention(4, memory, memory_sequence_length=[5, 3],
                                               score_bias_init=-1.0)
    initial = mechanism.initial_alignments(2, tf.float32)
    with tf.variable_scope("w"):
        alignments, _ = mechanism(tf.constant(query), initial)
    assert sorted(v.op.name for v in tf.global_variables()) == [
        "memory_layer/kernel", "w/bahdanau_monotonic_attention/attention_score_bias",
        "w/bahdanau_monotonic_attention/attention_v",
        "w/bahdanau_monotonic_attention/query_layer/kernel"]
    with pytest.raises(ValueError, match="mode must be 'recursive', 'parallel', or 'hard'."):
        s2s.monotonic_attention(p, previous, "soft")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        recursive, parallel, got_hard, first, got = sess.run(
            modes + [hard, initial, alignments])
        var = sess.run({v.op.name: v for v in tf.global_variables()})
    np.testing.assert_allclose(recursive, want, rtol=1e-5)
    np.testing.assert_allclose(parallel, want, rtol=1e-4)
    # hard: the attention moves from the previous position to the first p > .5 at or after it
    np.testing.assert_array_equal(got_hard, np.eye(5)[[2, 4]])
    np.testing.assert_array_equal(first, np.eye(5)[[0, 0]])
    score = _np_bahdanau(query, memory @ var["memory_layer/kernel"], *(
        var["w/bahdanau_monotonic_attention/" + n] for n in ("query_layer/kernel",
                                                             "attention_v")))
    choose = 1 / (1 + np.exp(-(score - 1.0))) * (np.arange(5) < [[5], [3]])   # masked: 0
    stay = np.cumprod(np.concatenate([np.ones((2, 1)), 1 - choose[:, :-1]], 1), 1)
    np.testing.assert_allclose(got, choose * stay, rtol=1e-5, atol=1e-7)


def test_hardmax_tile_batch_and_state_clone():
    state = s2s.AttentionWrapperState(cell_state=tf.zeros([2, 3]), attention=tf.zeros([2, 4]),
                                      time=tf.zeros([], tf.int32), alignments=tf.zeros([2, 5]),
                                      alignment_history=(), attention_state=tf.zeros([2, 5]))
    cloned = state.clone(cell_state=tf.placeholder(tf.float32))
    assert cloned.cell_state.get_shape().as_list() == [2, 3]     # the old static shape
    assert cloned.attention is state.attention
    tiled = s2s.tile_batch({"a": tf.constant([[1, 2], [3, 4]]),
                            "b": tf.placeholder(tf.float32, [None, 7])}, 3)
    assert tiled["a"].get_shape().as_list() == [6, 2]
    assert tiled["b"].get_shape().as_list() == [None, 7]
    hard = s2s.hardmax([[0.1, 2.0, -1.0], [3.0, 0.0, 1.0]])
    with tf.Session() as sess:
        a, h = sess.run([tiled["a"], hard])
    np.testing.assert_array_equal(a, [[1, 2]] * 3 + [[3, 4]] * 3)
    np.testing.assert_array_equal(h, [[0, 1, 0], [1, 0, 0]])


def test_gather_tree_and_beam_search_against_brute_force():
    # TF 1.15's beam_search_ops_test.testGatherTreeOne: [max_time, batch, beam]
    step_ids = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9], [-1, -1, -1]], np.int32)[:, None]
    parent_ids = np.array([[0, 0, 0], [0, 1, 1], [2, 1, 2], [-1, -1, -1]], np.int32)[:, None]
    beams = s2s.gather_tree(step_ids, parent_ids, [3], 10)
    assert beams.get_shape().as_list() == [4, 1, 3]
    # an end_token (5) inside beam 1: what follows it there becomes end_token
    cut = s2s.gather_tree(step_ids, parent_ids, [3], 5)

    # beam search over fixed per-step logits (whatever the inputs): the best 3 sequences
    # are then the best 3 of all vocab ** 3, found by brute force in NumPy
    rng = np.random.RandomState(3)
    vocab, end, width = 4, 3, 3
    logits = rng.randn(3, vocab).astype(np.float32)
    logits[:2, end] = -10.0                   # no end before the last step ...
    logits[2, end] = 10.0                     # ... and certainly then

    class Fixed(tf.nn.rnn_cell.RNNCell):      # output = logits[state], state + 1
        state_size, output_size = 1, vocab

        def __call__(self, inputs, state, scope=None):
            return tf.gather(tf.constant(logits), tf.cast(state[:, 0], tf.int32)), state + 1

    decoder = s2s.BeamSearchDecoder(Fixed(), np.eye(vocab, dtype=np.float32), [0, 0], end,
                                    s2s.tile_batch(tf.zeros([2, 1]), width), width)
    out, state, _ = s2s.dynamic_decode(decoder, maximum_iterations=5)
    assert isinstance(out, s2s.FinalBeamSearchDecoderOutput)
    assert out.predicted_ids.get_shape().as_list() == [2, None, width]
    with tf.Session() as sess:
        got_beams, got_cut, got, lengths = sess.run([beams, cut, out, state.lengths])
    np.testing.assert_array_equal(got_beams[:, 0], [[2, 2, 2], [6, 5, 6], [7, 8, 9],
                                                   [10, 10, 10]])
    np.testing.assert_array_equal(got_cut[:, 0], [[2, 2, 2], [6, 5, 6], [7, 5, 9], [5, 5, 5]])
    log_p = logits - np.log(np.exp(logits).sum(-1, keepdims=True))
    totals = sorted(((log_p[0, a] + log_p[1, b] + log_p[2, c], (a, b, c))
                     for a in range(vocab) for b in range(vocab) for c in range(vocab)),
                    reverse=True)[:width]
    for b in range(2):
        np.testing.assert_array_equal(got.predicted_ids[b].T, [seq for _, seq in totals])
        np.testing.assert_allclose(got.beam_search_decoder_output.scores[b, -1],
                                   [score for score, _ in totals], rtol=1e-5)
    np.testing.assert_array_equal(lengths, np.full((2, width), 3))


def test_copy_task_trains_and_greedy_and_beam_search_decoding_copy():
    """embedding + LSTM encoder, Bahdanau attention decoder with TrainingHelper,
    sequence_loss, Adam; then greedy decoding and beam search (the same variables, reused
    as the TF 1.x NMT tutorial does) reproduce the sequences."""
    tf.set_random_seed(0)
    rng = np.random.RandomState(0)
    vocab, steps, batch, go, eos, width = 8, 4, 6, 1, 2, 3
    source = rng.randint(3, vocab, size=(batch, steps)).astype(np.int32)
    target_out = np.concatenate([source, np.full((batch, 1), eos, np.int32)], 1)
    target_in = np.concatenate([np.full((batch, 1), go, np.int32), source], 1)
    embedding = tf.get_variable("embedding", [vocab, 16])
    encoder_outputs, encoder_state = tf.nn.dynamic_rnn(
        tf.nn.rnn_cell.BasicLSTMCell(32), tf.nn.embedding_lookup(embedding, source),
        dtype=tf.float32)
    decoder_cell = tf.nn.rnn_cell.BasicLSTMCell(32)
    projection = tf.layers.Dense(vocab, use_bias=False, name="output_projection")

    def attention_cell(memory, state, rows):
        mechanism = s2s.BahdanauAttention(32, memory, memory_sequence_length=[steps] * rows)
        cell = s2s.AttentionWrapper(decoder_cell, mechanism, attention_layer_size=32,
                                    alignment_history=rows > batch)
        return cell, cell.zero_state(rows, tf.float32).clone(cell_state=state)

    with tf.variable_scope("model"):
        cell, initial_state = attention_cell(encoder_outputs, encoder_state, batch)
        helper = s2s.TrainingHelper(tf.nn.embedding_lookup(embedding, target_in),
                                    [steps + 1] * batch)
        outputs, _, _ = s2s.dynamic_decode(s2s.BasicDecoder(cell, helper, initial_state,
                                                            projection))
        greedy = s2s.GreedyEmbeddingHelper(embedding, tf.fill([batch], go), eos)
        decoded, _, lengths = s2s.dynamic_decode(
            s2s.BasicDecoder(cell, greedy, initial_state, projection),
            maximum_iterations=2 * steps)
    with tf.variable_scope("model", reuse=True):
        beam_cell, beam_state = attention_cell(s2s.tile_batch(encoder_outputs, width),
                                               s2s.tile_batch(encoder_state, width),
                                               batch * width)
        beam, final, _ = s2s.dynamic_decode(
            s2s.BeamSearchDecoder(beam_cell, embedding, tf.fill([batch], go), eos, beam_state,
                                  width, output_layer=projection),
            maximum_iterations=2 * steps)
    loss = s2s.sequence_loss(outputs.rnn_output, target_out, tf.ones([batch, steps + 1]))
    train = tf.train.AdamOptimizer(0.02).minimize(loss)
    names = {v.op.name for v in tf.trainable_variables()}
    assert names == {"embedding", "rnn/basic_lstm_cell/kernel", "rnn/basic_lstm_cell/bias",
                     "model/memory_layer/kernel",
                     "model/decoder/attention_wrapper/basic_lstm_cell/kernel",
                     "model/decoder/attention_wrapper/basic_lstm_cell/bias",
                     "model/decoder/attention_wrapper/bahdanau_attention/query_layer/kernel",
                     "model/decoder/attention_wrapper/bahdanau_attention/attention_v",
                     "model/decoder/attention_wrapper/attention_layer/kernel",
                     "model/decoder/output_projection/kernel"}
    assert beam.predicted_ids.get_shape().as_list() == [batch, None, width]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss)
        for _ in range(100):
            last, _ = sess.run([loss, train])
        ids, decoded_lengths, beam_ids, beam_lengths, history = sess.run(
            [decoded.sample_id, lengths, beam.predicted_ids, final.lengths,
             final.cell_state.alignment_history])
    assert first > 1.5 and last < 0.05, (first, last)
    np.testing.assert_array_equal(ids, target_out)             # the copy, then EOS
    np.testing.assert_array_equal(decoded_lengths, [steps + 1] * batch)
    np.testing.assert_array_equal(beam_ids[:, :steps + 1, 0], target_out)   # the best beam
    np.testing.assert_array_equal(beam_lengths[:, 0], [steps + 1] * batch)
    # the alignment history, stacked and reordered along the beams: [time, batch * beam, T]
    assert history.shape[1:] == (batch * width, steps)
    np.testing.assert_allclose(history.sum(-1), 1, rtol=1e-5)
