"""tf.nn.dynamic_rnn / static_rnn / bidirectional_dynamic_rnn and the cells of tf.nn.rnn_cell:
variable names, shapes and numbers against TensorFlow 1.15.

The expected numbers were measured with TF 1.15.5 (/tmp/tf115) running the same program: inputs
from np.random.RandomState(0).uniform(-1, 1, (2, 3, 4)), and every variable (sorted by name)
assigned np.random.RandomState(1).uniform(-0.5, 0.5, shape) before the run.
"""
import numpy as np
import pytest

import sandbox as tf
from sandbox.cluster import LocalCluster
from tests.gradcheck import check_gradients

rc = tf.nn.rnn_cell
X = np.random.RandomState(0).uniform(-1, 1, (2, 3, 4)).astype(np.float32)


def _run(make_cell, mode="dyn", x=X):
    """Builds the RNN in a new graph, sets the weights as the TF run did, returns (variable
    names and shapes, outputs, final state) as NumPy."""
    with tf.Graph().as_default():
        cell = make_cell()
        if mode == "static":
            outputs, state = tf.nn.static_rnn(cell, tf.unstack(tf.constant(x), axis=1),
                                              dtype=tf.float32)
            outputs = tf.stack(outputs, 1)
        elif mode == "time_major":
            outputs, state = tf.nn.dynamic_rnn(cell, tf.constant(x.transpose(1, 0, 2)),
                                               dtype=tf.float32, time_major=True)
        else:
            outputs, state = tf.nn.dynamic_rnn(
                cell, tf.constant(x), dtype=tf.float32,
                sequence_length=[3, 2] if mode == "dyn_seq" else None)
        variables = sorted(tf.global_variables(), key=lambda v: v.name)
        rng = np.random.RandomState(1)
        assigns = [v.assign(rng.uniform(-0.5, 0.5, v.get_shape().as_list()).astype(np.float32))
                   for v in variables]
        with tf.Session() as sess:
            sess.run(assigns)
            out, st = sess.run([outputs, state])
        names = [(v.name, v.get_shape().as_list()) for v in variables]
        return names, out, st, state


# -- measured in TF 1.15 ----------------------------------------------------------------

LSTM_NAMES = [("rnn/basic_lstm_cell/bias:0", [12]), ("rnn/basic_lstm_cell/kernel:0", [7, 12])]
BASIC_LSTM_SEQ_OUT = [[[-0.079727, -0.126165, -0.032001], [-0.085361, -0.207715, -0.106087],
                       [-0.004539, -0.173824, -0.113771]],
                      [[-0.235514, -0.170049, -0.02365], [-0.14061, -0.275936, -0.046627],
                       [0.0, 0.0, 0.0]]]
BASIC_LSTM_SEQ_C = [[-0.007665, -0.390904, -0.193334], [-0.46002, -0.502308, -0.092216]]
BASIC_LSTM_SEQ_H = [[-0.004539, -0.173824, -0.113771], [-0.14061, -0.275936, -0.046627]]


def test_basic_lstm_dynamic_rnn_with_sequence_length_matches_tf():
    names, out, state, state_t = _run(lambda: rc.BasicLSTMCell(3), "dyn_seq")
    assert names == LSTM_NAMES
    assert isinstance(state_t, rc.LSTMStateTuple)
    np.testing.assert_allclose(out, BASIC_LSTM_SEQ_OUT, atol=2e-6)     # zeros past length 2
    np.testing.assert_allclose(state.c, BASIC_LSTM_SEQ_C, atol=2e-6)   # copied through
    np.testing.assert_allclose(state.h, BASIC_LSTM_SEQ_H, atol=2e-6)


def test_static_rnn_and_time_major_give_the_same_numbers():
    _, out_static, _, _ = _run(lambda: rc.BasicLSTMCell(3), "static")
    names, out_tm, state, state_t = _run(lambda: rc.BasicLSTMCell(3, state_is_tuple=False),
                                         "time_major")
    assert names == LSTM_NAMES
    assert state_t.get_shape().as_list() == [2, 6]          # concat([c, h], 1)
    np.testing.assert_allclose(out_static[0], BASIC_LSTM_SEQ_OUT[0], atol=2e-6)
    np.testing.assert_allclose(out_tm[:, 0], BASIC_LSTM_SEQ_OUT[0], atol=2e-6)
    # TF 1.15: the final c of example 1 after all 3 steps
    np.testing.assert_allclose(state[1, :3], [-0.303366, -0.712394, -0.11981], atol=2e-6)


def test_lstm_cell_with_peepholes_projection_and_clipping_matches_tf():
    names, out, state, _ = _run(lambda: rc.LSTMCell(3, use_peepholes=True, num_proj=2,
                                                    cell_clip=0.5, proj_clip=0.3))
    assert names == [("rnn/lstm_cell/bias:0", [12]), ("rnn/lstm_cell/kernel:0", [6, 12]),
                     ("rnn/lstm_cell/projection/kernel:0", [3, 2]),
                     ("rnn/lstm_cell/w_f_diag:0", [3]), ("rnn/lstm_cell/w_i_diag:0", [3]),
                     ("rnn/lstm_cell/w_o_diag:0", [3])]
    assert out.shape == (2, 3, 2)
    np.testing.assert_allclose(out[:, 2], [[-0.005493, -0.097409], [0.043275, -0.176256]],
                               atol=2e-6)
    np.testing.assert_allclose(state.c[1], [-0.340478, -0.5, -0.124259], atol=2e-6)  # clipped


def test_gru_cell_matches_tf():
    names, out, state, _ = _run(lambda: rc.GRUCell(3), "dyn_seq")
    assert names == [("rnn/gru_cell/candidate/bias:0", [3]),
                     ("rnn/gru_cell/candidate/kernel:0", [7, 3]),
                     ("rnn/gru_cell/gates/bias:0", [6]), ("rnn/gru_cell/gates/kernel:0", [7, 6])]
    np.testing.assert_allclose(out[0, 0], [-0.146576, 0.069389, -0.211771], atol=2e-6)
    np.testing.assert_allclose(state, [[-0.329072, 0.069173, -0.516236],
                                       [-0.199897, 0.291034, -0.231591]], atol=2e-6)
    np.testing.assert_array_equal(out[1, 2], 0.0)


def test_basic_rnn_cell_static_matches_tf():
    names, out, state, _ = _run(lambda: rc.BasicRNNCell(3), "static")
    assert names == [("rnn/basic_rnn_cell/bias:0", [3]), ("rnn/basic_rnn_cell/kernel:0", [7, 3])]
    np.testing.assert_allclose(state, [[-0.682064, -0.073601, -0.656106],
                                       [-0.829367, -0.068403, -0.817257]], atol=2e-6)
    np.testing.assert_allclose(out[:, -1], state, atol=1e-7)


def test_multi_rnn_cell_matches_tf():
    names, out, state, state_t = _run(
        lambda: rc.MultiRNNCell([rc.BasicLSTMCell(3), rc.GRUCell(2)]))
    assert [n for n, _ in names] == [
        "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/bias:0",
        "rnn/multi_rnn_cell/cell_0/basic_lstm_cell/kernel:0",
        "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias:0",
        "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/kernel:0",
        "rnn/multi_rnn_cell/cell_1/gru_cell/gates/bias:0",
        "rnn/multi_rnn_cell/cell_1/gru_cell/gates/kernel:0"]
    assert isinstance(state_t, tuple) and isinstance(state_t[0], rc.LSTMStateTuple)
    np.testing.assert_allclose(out[1, 2], [0.472416, 0.07916], atol=2e-6)
    np.testing.assert_allclose(state[0].h[1], [-0.166422, -0.268378, -0.073993], atol=2e-6)


def test_bidirectional_dynamic_rnn_matches_tf():
    with tf.Graph().as_default():
        (of, ob), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(
            rc.GRUCell(2), rc.BasicRNNCell(2), tf.constant(X), sequence_length=[3, 2],
            dtype=tf.float32)
        variables = sorted(tf.global_variables(), key=lambda v: v.name)
        assert [v.name for v in variables] == [
            "bidirectional_rnn/bw/basic_rnn_cell/bias:0",
            "bidirectional_rnn/bw/basic_rnn_cell/kernel:0",
            "bidirectional_rnn/fw/gru_cell/candidate/bias:0",
            "bidirectional_rnn/fw/gru_cell/candidate/kernel:0",
            "bidirectional_rnn/fw/gru_cell/gates/bias:0",
            "bidirectional_rnn/fw/gru_cell/gates/kernel:0"]
        rng = np.random.RandomState(1)
        assigns = [v.assign(rng.uniform(-0.5, 0.5, v.get_shape().as_list()).astype(np.float32))
                   for v in variables]
        with tf.Session() as sess:
            sess.run(assigns)
            of, ob, sf, sb = sess.run([of, ob, sf, sb])
    # TF 1.15's numbers
    np.testing.assert_allclose(of[1], [[-0.512173, -0.277735], [-0.52512, -0.024588], [0, 0]],
                               atol=2e-6)
    np.testing.assert_allclose(ob[1], [[-0.11366, -0.038802], [-0.088994, 0.081434], [0, 0]],
                               atol=2e-6)
    np.testing.assert_allclose(sf, [[-0.463236, 0.270232], [-0.52512, -0.024588]], atol=2e-6)
    np.testing.assert_allclose(sb, [[-0.35842, 0.010104], [-0.11366, -0.038802]], atol=2e-6)


# -- behaviour ---------------------------------------------------------------------------

def test_cell_reuse_naming_and_errors_as_in_tf():
    with tf.Graph().as_default():
        x = tf.zeros([2, 3, 4])
        cell = rc.BasicLSTMCell(3)
        tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
        with pytest.raises(ValueError, match="rnn/basic_lstm_cell/kernel already exists"):
            tf.nn.dynamic_rnn(rc.BasicLSTMCell(3), x, dtype=tf.float32)   # as TF 1.15
        tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)                       # same cell: reuse
        named = rc.BasicLSTMCell(3, name="mycell")
        tf.nn.dynamic_rnn(named, x, dtype=tf.float32, scope="enc")
        with tf.variable_scope("outer"):
            tf.nn.dynamic_rnn(rc.GRUCell(2, name="g"), x, dtype=tf.float32)
        assert [v.name for v in tf.global_variables()] == [
            "rnn/basic_lstm_cell/kernel:0", "rnn/basic_lstm_cell/bias:0",
            "enc/mycell/kernel:0", "enc/mycell/bias:0",
            "outer/rnn/g/gates/kernel:0", "outer/rnn/g/gates/bias:0",
            "outer/rnn/g/candidate/kernel:0", "outer/rnn/g/candidate/bias:0"]
        with pytest.raises(ValueError, match="you must give a dtype"):
            tf.nn.dynamic_rnn(cell, x)
        with pytest.raises(ValueError, match="time dimension"):
            tf.nn.dynamic_rnn(cell, tf.placeholder(tf.float32, [None, None, 4]),
                              dtype=tf.float32)


def test_sizes_zero_state_and_unknown_batch():
    cell = rc.BasicLSTMCell(3)
    assert cell.state_size == rc.LSTMStateTuple(3, 3) and cell.output_size == 3
    assert rc.LSTMCell(4, num_proj=2).state_size == rc.LSTMStateTuple(4, 2)
    assert rc.LSTMCell(4, num_proj=2).output_size == 2
    assert rc.MultiRNNCell([cell, rc.GRUCell(5)]).state_size == (rc.LSTMStateTuple(3, 3), 5)
    with tf.Graph().as_default():
        zs = cell.zero_state(5, tf.float32)
        assert zs.c.get_shape().as_list() == [5, 3] and zs.dtype == tf.float32
        x = tf.placeholder(tf.float32, [None, 3, 4])
        outputs, state = tf.nn.dynamic_rnn(rc.GRUCell(3), x, dtype=tf.float32)
        assert outputs.get_shape().as_list() == [None, 3, 3]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out, st = sess.run([outputs, state], {x: np.ones((4, 3, 4), np.float32)})
        assert out.shape == (4, 3, 3) and st.shape == (4, 3)
        np.testing.assert_allclose(out[:, -1], st)


def test_dynamic_rnn_gradients_match_finite_differences():
    """Gradients with respect to the inputs, the initial state and the weights (fed through
    a custom getter so the checker can vary them)."""
    rng = np.random.RandomState(3)
    x = rng.uniform(-1, 1, (2, 3, 2))
    h0 = rng.uniform(-1, 1, (2, 2))
    kernel = rng.uniform(-0.5, 0.5, (4, 4))
    bias = rng.uniform(-0.5, 0.5, (4,))

    def build_rnn(x_t, h_t, kernel_t, bias_t):
        def getter(getter, name, *args, **kwargs):
            return {"kernel": kernel_t[:, :2], "bias": bias_t[:2]}[name.split("/")[-1]]

        with tf.variable_scope("g", custom_getter=getter):
            outputs, state = tf.nn.dynamic_rnn(rc.BasicRNNCell(2), x_t, initial_state=h_t,
                                               sequence_length=[3, 2])
        return outputs + tf.expand_dims(state, 1)

    check_gradients(build_rnn, [x, h0, kernel, bias])

    def build_lstm(x_t, h_t, kernel_t, bias_t):
        def getter(getter, name, *args, **kwargs):
            return {"kernel": tf.concat([kernel_t, kernel_t], 1),
                    "bias": tf.concat([bias_t, bias_t], 0)}[name.split("/")[-1]]

        with tf.variable_scope("g", custom_getter=getter):
            outputs, state = tf.nn.dynamic_rnn(
                rc.BasicLSTMCell(2), x_t, initial_state=rc.LSTMStateTuple(h_t, h_t * 0.5))
        return outputs * 2.0 + tf.expand_dims(state.c, 1)

    check_gradients(build_lstm, [x, h0, kernel, bias])


def test_training_an_lstm_reduces_the_loss():
    """A tiny sequence classifier (the last output of an LSTM) trains with Adam."""
    rng = np.random.RandomState(0)
    xs = rng.normal(size=(32, 5, 3)).astype(np.float32)
    ys = (xs[:, :, 0].sum(axis=1) > 0).astype(np.int64)
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.placeholder(tf.float32, [None, 5, 3])
        y = tf.placeholder(tf.int64, [None])
        outputs, _ = tf.nn.dynamic_rnn(rc.BasicLSTMCell(8), x, dtype=tf.float32)
        logits = tf.layers.dense(outputs[:, -1], 2) if hasattr(tf.layers, "dense") else \
            tf.matmul(outputs[:, -1], tf.get_variable("w", [8, 2]))
        loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y,
                                                                             logits=logits))
        train = tf.train.AdamOptimizer(0.05).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(loss, {x: xs, y: ys})
            for _ in range(40):
                sess.run(train, {x: xs, y: ys})
            last = sess.run(loss, {x: xs, y: ys})
    assert last < 0.5 * first


def test_dropout_wrapper_and_contrib_names():
    from sandbox.ops import contrib_rnn
    assert contrib_rnn.BasicLSTMCell is rc.BasicLSTMCell          # as in TF 1.15
    assert contrib_rnn.static_rnn is tf.nn.static_rnn
    with tf.Graph().as_default():
        cell = rc.DropoutWrapper(rc.BasicRNNCell(4), output_keep_prob=0.5, seed=3)
        outputs, _ = tf.nn.dynamic_rnn(cell, tf.ones([50, 2, 3]), dtype=tf.float32)
        assert [v.name for v in tf.global_variables()] == ["rnn/basic_rnn_cell/kernel:0",
                                                           "rnn/basic_rnn_cell/bias:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            out = sess.run(outputs)
    zero_fraction = np.mean(out == 0)
    assert 0.3 < zero_fraction < 0.7


def test_rnn_variables_go_to_the_ps_and_into_checkpoints(tmp_path):
    """The cells create their variables with tf.get_variable: replica_device_setter places
    them on the ps (the step's ops on the worker) and a Saver stores them by TF's names."""
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(ps_tasks=1)):
            outputs, state = tf.nn.dynamic_rnn(rc.BasicLSTMCell(3), tf.constant(X),
                                               dtype=tf.float32)
        kernel, bias = tf.global_variables()
        assert kernel.device == bias.device == "/job:ps/task:0"
        assert outputs.op.device == "/job:worker"
        saver = tf.train.Saver()
        with LocalCluster({"ps": 1, "worker": 1}) as cluster:
            with tf.Session(cluster.target("worker", 0)) as sess:
                sess.run(tf.global_variables_initializer())
                want = sess.run(outputs)
                path = saver.save(sess, str(tmp_path / "model"))
    assert sorted(name for name, _ in tf.train.list_variables(path)) == [
        "rnn/basic_lstm_cell/bias", "rnn/basic_lstm_cell/kernel"]
    with tf.Graph().as_default():                       # a new graph restores by name
        outputs, _ = tf.nn.dynamic_rnn(rc.BasicLSTMCell(3), tf.constant(X), dtype=tf.float32)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, path)
            np.testing.assert_allclose(sess.run(outputs), want)


def test_custom_cells_written_the_tf1_ways():
    class Accumulate(rc.RNNCell):            # a TF-1 cell that overrides __call__
        @property
        def state_size(self):
            return 2

        @property
        def output_size(self):
            return 2

        def __call__(self, inputs, state, scope=None):
            new = state + inputs
            return new * 2.0, new

    class Scale(rc.RNNCell):                 # TF's LayerRNNCell way: build + call
        state_size = output_size = property(lambda self: 2)

        def __init__(self, k):               # (without calling RNNCell.__init__)
            self.k = k

        def build(self, inputs_shape):
            self.w = self.add_variable("w", [inputs_shape[-1].value],
                                       initializer=tf.constant_initializer(3.0))

        def call(self, inputs, state):
            return inputs * self.w * self.k + state, inputs * self.w * self.k + state

    x = X[:, :, :2]
    with tf.Graph().as_default():
        acc, acc_state = tf.nn.dynamic_rnn(Accumulate(), tf.constant(x), dtype=tf.float32)
        scaled, _ = tf.nn.dynamic_rnn(Scale(0.5), tf.constant(x), dtype=tf.float32, scope="s")
        assert [v.name for v in tf.global_variables()] == ["s/scale/w:0"]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            a, a_state, s = sess.run([acc, acc_state, scaled])
    np.testing.assert_allclose(a, 2 * np.cumsum(x, axis=1), rtol=1e-6)
    np.testing.assert_allclose(a_state, np.sum(x, axis=1), rtol=1e-6)
    np.testing.assert_allclose(s, 1.5 * np.cumsum(x, axis=1), rtol=1e-6)


def test_static_bidirectional_rnn_matches_tf():
    with tf.Graph().as_default():
        outs, _, sb = tf.nn.static_bidirectional_rnn(
            rc.GRUCell(2), rc.BasicRNNCell(2), tf.unstack(tf.constant(X), axis=1),
            sequence_length=[3, 2], dtype=tf.float32)
        variables = sorted(tf.global_variables(), key=lambda v: v.name)
        assert [v.name for v in variables][:2] == [
            "bidirectional_rnn/bw/basic_rnn_cell/bias:0",
            "bidirectional_rnn/bw/basic_rnn_cell/kernel:0"]
        rng = np.random.RandomState(1)
        assigns = [v.assign(rng.uniform(-0.5, 0.5, v.get_shape().as_list()).astype(np.float32))
                   for v in variables]
        with tf.Session() as sess:
            sess.run(assigns)
            outs, sb = sess.run([outs, sb])
    # TF 1.15's numbers: [forward, backward] concatenated per step
    np.testing.assert_allclose(outs[1], [[-0.511449, 0.088624, -0.117585, 0.091408],
                                         [-0.52512, -0.024588, -0.088994, 0.081434]], atol=2e-6)
    np.testing.assert_allclose(outs[2], [[-0.463236, 0.270232, -0.573823, 0.044162],
                                         [0, 0, 0, 0]], atol=2e-6)
    np.testing.assert_allclose(sb, [[-0.35842, 0.010104], [-0.11366, -0.038802]], atol=2e-6)


def test_residual_and_device_wrappers():
    assert sorted(rc.__all__) == sorted(  # TF 1.15's dir(tf.nn.rnn_cell)
        ["BasicLSTMCell", "BasicRNNCell", "DeviceWrapper", "DropoutWrapper", "GRUCell",
         "LSTMCell", "LSTMStateTuple", "MultiRNNCell", "RNNCell", "ResidualWrapper"])
    with tf.Graph().as_default():
        inner = rc.BasicRNNCell(4)
        cell = rc.DeviceWrapper(rc.ResidualWrapper(inner), "/job:worker/task:1")
        outputs, state = tf.nn.dynamic_rnn(cell, tf.constant(X), dtype=tf.float32)
        assert [v.name for v in tf.global_variables()] == ["rnn/basic_rnn_cell/kernel:0",
                                                           "rnn/basic_rnn_cell/bias:0"]
        assert cell.variables == inner.variables
        assert outputs.op.inputs[0].op.device == "/job:worker/task:1"
        assert state.op.device == "/job:worker/task:1"
    with tf.Graph().as_default():                  # the numbers: output = rnn output + input
        inner = rc.BasicRNNCell(4)
        res, _ = tf.nn.dynamic_rnn(rc.ResidualWrapper(inner), tf.constant(X), dtype=tf.float32)
        plain, _ = tf.nn.dynamic_rnn(inner, tf.constant(X), dtype=tf.float32)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            r, p = sess.run([res, plain])
    np.testing.assert_allclose(r, p + X, rtol=1e-6)


def test_op_names_of_cells_and_static_rnns_are_tfs():
    """What a program sees when it prints a cell's outputs: every call of a cell builds its
    ops in the name scope of its first call, with TF's op names (TF 2.15.1's compat.v1,
    whose cells are TF 1.15's, printed these names)."""
    with tf.Graph().as_default():
        x = tf.ones([2, 3])
        cell = rc.BasicLSTMCell(5)
        out1, s1 = cell(x, cell.zero_state(2, tf.float32))
        out2, s2 = cell(x, s1)
        with tf.variable_scope("outer"):
            out3, _ = cell(x, s2)
        assert [out1.name, s1.c.name] == ["basic_lstm_cell/Mul_2:0", "basic_lstm_cell/Add_1:0"]
        assert [out2.name, s2.c.name] == ["basic_lstm_cell/Mul_5:0", "basic_lstm_cell/Add_3:0"]
        assert out3.name == "basic_lstm_cell/Mul_8:0"
        gru = rc.GRUCell(4)
        g1, g_state = gru(x, gru.zero_state(2, tf.float32))
        g2, _ = gru(x, g_state)
        assert [g1.name, g2.name] == ["gru_cell/add:0", "gru_cell/add_1:0"]
        lstm = rc.LSTMCell(4, use_peepholes=True, num_proj=3)
        l1, l_state = lstm(x, lstm.zero_state(2, tf.float32))
        assert [l1.name, l_state.c.name] == ["lstm_cell/MatMul_1:0", "lstm_cell/add_3:0"]

        outs, _ = tf.nn.static_rnn(rc.BasicRNNCell(4), [x] * 3, dtype=tf.float32)
        assert [o.name for o in outs] == ["rnn/basic_rnn_cell/Tanh:0",
                                          "rnn/basic_rnn_cell/Tanh_1:0",
                                          "rnn/basic_rnn_cell/Tanh_2:0"]
        # a MultiRNNCell (not a layer cell) re-enters the variable scope first: m/m/
        multi = rc.MultiRNNCell([rc.GRUCell(4), rc.GRUCell(4)])
        outs, state = tf.nn.static_rnn(multi, [x] * 2, dtype=tf.float32, scope="m")
        assert [o.name for o in outs] == ["m/m/multi_rnn_cell/cell_1/gru_cell/add:0",
                                          "m/m/multi_rnn_cell/cell_1/gru_cell/add_1:0"]
        assert state[0].name == "m/m/multi_rnn_cell/cell_0/gru_cell/add_1:0"

        outs, fw, bw = tf.nn.static_bidirectional_rnn(rc.BasicLSTMCell(3), rc.BasicLSTMCell(3),
                                                      [x] * 3, dtype=tf.float32)
        assert [o.name for o in outs] == ["concat:0", "concat_1:0", "concat_2:0"]
        assert fw.h.name == "bidirectional_rnn/fw/fw/basic_lstm_cell/Mul_8:0"
        assert bw.c.name == "bidirectional_rnn/bw/bw/basic_lstm_cell/Add_5:0"
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first, last, h_fw, h_bw = sess.run([outs[0], outs[2], fw.h, bw.h])
        # outputs[t] = [forward at t, backward at t]: the forward's final state is its output
        # at the last step, the backward's at the first
        np.testing.assert_allclose(last[:, :3], h_fw, rtol=1e-6)
        np.testing.assert_allclose(first[:, 3:], h_bw, rtol=1e-6)


def test_static_bidirectional_rnn_reverses_each_example_to_its_length():
    x = np.arange(2 * 3 * 1, dtype=np.float32).reshape(2, 3, 1)
    with tf.Graph().as_default():
        steps = tf.unstack(tf.constant(x), axis=1)
        cell_fw = rc.BasicRNNCell(1, activation=tf.identity)
        cell_bw = rc.BasicRNNCell(1, activation=tf.identity)
        outs, _, state_bw = tf.nn.static_bidirectional_rnn(
            cell_fw, cell_bw, steps, dtype=tf.float32, sequence_length=[3, 2])
        ops = [op.type for op in tf.get_default_graph().get_operations()]
        assert ops.count("ReverseSequence") == 2         # inputs and outputs, as TF
        with tf.Session() as sess:
            for v in tf.global_variables():              # h' = x + h: a running sum
                sess.run(v.assign(np.array([[1.], [1.]] if v.shape.ndims == 2 else [0.],
                                           np.float32)))
            got, last_bw = sess.run([tf.stack(outs, 1), state_bw])
    # backward: example 0 sums 2, then 2+1, then 2+1+0 in reversed time; example 1 (length
    # 2) sums 4, then 4+3, and its step 2 is past its length (zero output)
    np.testing.assert_allclose(got[:, :, 1], [[3., 3., 2.], [7., 4., 0.]])
    np.testing.assert_allclose(got[:, :, 0], [[0., 1., 3.], [3., 7., 0.]])
    np.testing.assert_allclose(last_bw, [[3.], [7.]])
