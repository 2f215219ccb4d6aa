"""tf.contrib.rnn's LSTMBlockCell, GRUBlockCellV2 and stacked bidirectional RNNs
(ops/contrib_rnn_cells.py). LSTMBlockCell's new cell state and output equal, to 1e-5, what TF
2.15.1's own fused kernel (tf.raw_ops.LSTMBlockCell) gives for the same weights and state --
with and without peepholes and clipping -- and its variables are TF's."""
import numpy as np
import pytest

import sandbox as tf

RNG = np.random.RandomState(0)
X, C, H = (RNG.randn(2, 3).astype(np.float32), RNG.randn(2, 4).astype(np.float32),
           RNG.randn(2, 4).astype(np.float32))
W, B = RNG.randn(7, 16).astype(np.float32) * 0.5, RNG.randn(16).astype(np.float32) * 0.1
WCI, WCF, WCO = [RNG.randn(4).astype(np.float32) for _ in range(3)]
# tf.raw_ops.LSTMBlockCell(x=X, cs_prev=C, h_prev=H, w=W, wci=WCI, wcf=WCF, wco=WCO, b=B,
# forget_bias=1.0, cell_clip=..., use_peephole=...) under TF 2.15.1: (cs, h)
TF_PLAIN_CS = [[0.482806, -0.451855, 0.685098, 0.794643],
               [-0.268671, 1.418688, -0.544457, 0.001055]]


def _run_block_cell(use_peephole, cell_clip):
    with tf.Graph().as_default():
        cell = tf.contrib.rnn.LSTMBlockCell(4, cell_clip=cell_clip, use_peephole=use_peephole)
        _, state = cell(tf.constant(X), tf.contrib.rnn.LSTMStateTuple(tf.constant(C),
                                                                      tf.constant(H)))
        values = {"lstm_cell/kernel": W, "lstm_cell/bias": B, "lstm_cell/w_i_diag": WCI,
                  "lstm_cell/w_f_diag": WCF, "lstm_cell/w_o_diag": WCO}
        names = [v.op.name for v in tf.global_variables()]
        with tf.Session() as sess:
            for v in tf.global_variables():
                v.load(values[v.op.name], sess)
            return names, sess.run(state)


def test_lstm_block_cell_is_tfs_fused_lstm():
    names, state = _run_block_cell(False, -1.0)
    assert names == ["lstm_cell/kernel", "lstm_cell/bias"]
    np.testing.assert_allclose(state.c, TF_PLAIN_CS, atol=1e-5)
    names, state = _run_block_cell(True, 0.5)
    assert names == ["lstm_cell/kernel", "lstm_cell/bias", "lstm_cell/w_i_diag",
                     "lstm_cell/w_f_diag", "lstm_cell/w_o_diag"]
    assert np.abs(state.c).max() <= 0.5 + 1e-7            # the cell state is clipped
    # peepholes and clipping as TF's kernel computes them, in NumPy
    sig = lambda v: 1 / (1 + np.exp(-v))                   # noqa: E731
    i, ci, f, o = np.split(np.concatenate([X, H], 1) @ W + B, 4, axis=1)
    cs = np.clip(np.tanh(ci) * sig(i + C * WCI) + C * sig(f + 1.0 + C * WCF), -0.5, 0.5)
    np.testing.assert_allclose(state.c, cs, atol=1e-5)
    np.testing.assert_allclose(state.h, np.tanh(cs) * sig(o + cs * WCO), atol=1e-5)


def test_gru_block_cell_v2_and_stacked_bidirectional_rnns():
    with tf.Graph().as_default():
        inputs = tf.ones([2, 5, 3])
        cells_fw = [tf.contrib.rnn.GRUBlockCellV2(4), tf.contrib.rnn.LSTMBlockCell(2)]
        cells_bw = [tf.contrib.rnn.GRUBlockCellV2(4), tf.contrib.rnn.LSTMBlockCell(2)]
        out, states_fw, states_bw = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            cells_fw, cells_bw, inputs, dtype=tf.float32, sequence_length=[5, 3])
        assert out.get_shape().as_list() == [2, 5, 4] and len(states_fw) == len(states_bw) == 2
        names = [v.op.name for v in tf.global_variables()]
        assert "stack_bidirectional_rnn/cell_0/bidirectional_rnn/fw/gru_cell/gates/kernel" \
            in names
        assert "stack_bidirectional_rnn/cell_1/bidirectional_rnn/bw/lstm_cell/kernel" in names
        static_out, _, _ = tf.contrib.rnn.stack_bidirectional_rnn(
            [tf.nn.rnn_cell.GRUCell(3)], [tf.nn.rnn_cell.GRUCell(3)], tf.unstack(inputs, axis=1),
            dtype=tf.float32, scope="static")
        assert len(static_out) == 5 and static_out[0].get_shape().as_list() == [2, 6]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            values = sess.run(out)
        assert np.all(values[1, 3:] == 0.0)        # past its sequence_length: zeros, as in TF
    with pytest.raises(ValueError, match="same depth"):
        tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            [tf.nn.rnn_cell.GRUCell(3)] * 2, [tf.nn.rnn_cell.GRUCell(3)], tf.ones([1, 2, 3]),
            dtype=tf.float32)
    with pytest.raises(ValueError, match="at least one bw cell"):
        tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            [tf.nn.rnn_cell.GRUCell(3)], [], tf.ones([1, 2, 3]), dtype=tf.float32)
