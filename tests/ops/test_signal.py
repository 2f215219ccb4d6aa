"""tf.signal and tf.spectral.dct (sandbox/ops/signal_ops.py, mel_ops.py, dct_ops.py): values
and gradients against TF 2.15.1's tf.compat.v1.signal, names, shapes and errors."""
import numpy as np
import pytest

import sandbox as tf

S = tf.signal


def _build():
    """The same calls as the TF 2.15.1 script that printed EXPECTED."""
    x = tf.constant(np.sin(np.arange(12, dtype=np.float32) * 0.7)
                    + 0.1 * np.arange(12, dtype=np.float32))
    x2 = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 12) / 10.)
    out = {}
    out["frame"] = [S.frame(x, 5, 3), S.frame(x, 5, 3, pad_end=True, pad_value=-1.),
                    S.frame(tf.reshape(x2, [2, 3, 4]), 2, 1, axis=1)]
    out["ola"] = [S.overlap_and_add(tf.reshape(x2, [2, 3, 4]), 2),
                  S.overlap_and_add(tf.reshape(x2, [2, 4, 3]), 3)]
    out["win"] = [S.hann_window(6), S.hann_window(5), S.hann_window(6, periodic=False),
                  S.hamming_window(6), S.hamming_window(7, periodic=False), S.hann_window(1)]
    st = S.stft(x2, 6, 3)
    st2 = S.stft(x, 5, 2, fft_length=8, pad_end=True, window_fn=S.hamming_window)
    out["stft"] = [tf.real(st), tf.imag(st), tf.abs(st2)]
    inv = S.inverse_stft(st, 6, 3, window_fn=S.inverse_stft_window_fn(3))
    out["istft"] = [inv, S.inverse_stft(st2, 5, 2, fft_length=8),
                    S.inverse_stft_window_fn(2)(6, tf.float32)]
    y = tf.constant([[1., 2., 0.5, -1., 3.], [0., 1., 4., 2., -2.]])
    out["dct"] = [S.dct(y, 1), S.dct(y), S.dct(y, 3), S.dct(y, norm="ortho"),
                  S.dct(y, 3, norm="ortho"), S.idct(y), S.idct(y, 3, norm="ortho"),
                  S.idct(y, 1), S.dct(y, n=3), S.dct(y, n=7, norm="ortho")]
    out["mel"] = [S.linear_to_mel_weight_matrix(4, 9, 8000, 100., 3800.),
                  S.mfccs_from_log_mel_spectrograms(y)]
    loss = (tf.reduce_sum(tf.abs(st) ** 2)
            + tf.reduce_sum(S.dct(x2, norm="ortho") * tf.range(12, dtype=tf.float32))
            + tf.reduce_sum(S.overlap_and_add(tf.reshape(x2, [2, 4, 3]), 2) ** 2))
    loss_y = (tf.reduce_sum(S.mfccs_from_log_mel_spectrograms(y)[:, 1:3])
              + tf.reduce_sum(S.frame(y, 3, 2) * [1., 2., 3.]))
    out["grad"] = tf.gradients(loss, [x2]) + tf.gradients(loss_y, [y])
    return out, (st, st2, inv)


# TF 2.15.1's numbers for _build() (tf.compat.v1.signal, graph mode), 7 digits.
EXPECTED = {
    'frame': [
        [[0.0, 0.7442177, 1.18545, 1.163209, 0.7349882], [1.163209, 0.7349882, 0.1492168,
         -0.2715756, -0.2824526], [-0.2715756, -0.2824526, 0.1687333, 0.9168137, 1.656987]],
        [[0.0, 0.7442177, 1.18545, 1.163209, 0.7349882], [1.163209, 0.7349882, 0.1492168,
         -0.2715756, -0.2824526], [-0.2715756, -0.2824526, 0.1687333, 0.9168137, 1.656987],
         [0.9168137, 1.656987, 2.088168, -1.0, -1.0]],
        [[[[0.0, 0.1, 0.2, 0.3], [0.4, 0.5, 0.6, 0.7]], [[0.4, 0.5, 0.6, 0.7], [0.8, 0.9,
         1.0, 1.1]]], [[[1.2, 1.3, 1.4, 1.5], [1.6, 1.7, 1.8, 1.9]], [[1.6, 1.7, 1.8, 1.9],
         [2.0, 2.1, 2.2, 2.3]]]],
    ],
    'ola': [
        [[0.0, 0.1, 0.6, 0.8, 1.4, 1.6, 1.0, 1.1], [1.2, 1.3, 3.0, 3.2, 3.8, 4.0, 2.2, 2.3]],
        [[0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1], [1.2, 1.3, 1.4, 1.5,
         1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 2.2, 2.3]],
    ],
    'win': [
        [0.0, 0.25, 0.75, 1.0, 0.7499999, 0.2499998],
        [0.0, 0.5, 1.0, 0.5, 0.0],
        [0.0, 0.3454915, 0.9045085, 0.9045085, 0.3454914, 0.0],
        [0.08000001, 0.31, 0.77, 1.0, 0.77, 0.3099999],
        [0.08000001, 0.31, 0.77, 1.0, 0.77, 0.3099999, 0.08000001],
        [1.0],
    ],
    'stft': [
        [[[0.8999999, -0.5828426, 0.15, -0.01715735, 5.960464e-08], [1.8, -1.019975, 0.15,
         -0.03002533, 1.192093e-07], [2.7, -1.457107, 0.1499999, -0.04289335,
         1.192093e-07]], [[4.5, -2.33137, 0.15, -0.06862938, 2.384186e-07], [5.4, -2.768502,
         0.1499997, -0.08149731, 2.384186e-07], [6.299999, -3.205635, 0.1499999,
         -0.09436524, 2.384186e-07]]],
        [[[0.0, -0.2914214, 0.1500001, 0.008578584, 0.0], [0.0, -0.7285535, 0.3000002,
         0.0214465, 0.0], [0.0, -1.165686, 0.4500002, 0.03431451, 0.0]], [[0.0, -2.03995,
         0.7500003, 0.06005031, 0.0], [0.0, -2.477082, 0.9000003, 0.07291842, 0.0], [0.0,
         -2.914214, 1.05, 0.08578622, 0.0]]],
        [[2.27426, 1.926243, 1.149145, 0.4681877, 0.214238], [1.516808, 1.334824, 0.8590114,
         0.3576623, 0.09938794], [0.2712252, 0.3848738, 0.4154337, 0.2509896, 0.1273306],
         [0.6221212, 0.7373508, 0.650187, 0.3124067, 0.06298882], [3.293175, 2.83775,
         1.761008, 0.6869994, 0.04779506], [1.26017, 1.224936, 1.135376, 1.038118,
         0.9950519]],
    ],
    'istft': [
        [[0.0, 0.01, 0.1800001, 0.3, 0.4, 0.5000001, 0.6, 0.7, 0.8000001, 0.9, 0.9,
         0.1099999], [0.0, 0.1300001, 1.26, 1.5, 1.6, 1.7, 1.8, 1.9, 2.0, 2.1, 1.98,
         0.2299998]],
        [0.0, 0.2009388, 1.18545, 0.6281331, 0.7349882, 0.08057707, -0.2715756, -0.1525244,
         0.1687333, 0.4950794, 1.656987, 1.127611, 0.0, 0.0, 0.0],
        [0.0, 0.2222222, 0.6666667, 0.888889, 0.6666666, 0.2222221],
    ],
    'dct': [
        [[7.0, 2.24264, 3.0, -6.24264, 3.0], [12.0, 0.5857865, -10.0, 3.414214, 0.0]],
        [[11.0, -0.2775146, 4.854102, -8.05748, 1.854102], [10.0, 2.628656, -13.09017,
         4.253254, 1.90983]],
        [[6.291775, 0.09013557, 6.000001, -8.416374, 1.034463], [9.489323, -1.864724, -12.0,
         3.392588, 0.9828138]],
        [[2.459675, -0.08775781, 1.535002, -2.547999, 0.5863186], [2.236068, 0.8312539,
         -4.139475, 1.344997, 0.6039412]],
        [[2.12062, 0.159489, 2.028353, -2.530505, 0.458112], [3.000787, -0.5896773,
         -3.794734, 1.072831, 0.3107931]],
        [[6.291775, 0.09013557, 6.000001, -8.416374, 1.034463], [9.489323, -1.864724, -12.0,
         3.392588, 0.9828138]],
        [[2.459675, -0.08775781, 1.535002, -2.547999, 0.5863186], [2.236068, 0.8312539,
         -4.139475, 1.344997, 0.6039412]],
        [[7.0, 2.24264, 3.0, -6.24264, 3.0], [12.0, 0.5857865, -10.0, 3.414214, 0.0]],
        [[7.0, 0.8660254, -2.5], [10.0, -6.928203, 2.0]],
        [[2.078805, 0.7771325, 0.08755281, 1.256868, -1.580728, -1.855088, 1.672485],
         [1.889822, 1.80943, -1.616641, -3.358646, 0.349572, 1.986318, -0.4391379]],
    ],
    'mel': [
        [[0.0, 0.0, 0.0, 0.0], [0.8262501, 0.1737499, 0.0, 0.0], [0.0, 0.8179636, 0.1820364,
         0.0], [0.0, 0.07159404, 0.9284059, 0.0], [0.0, 0.0, 0.47875, 0.52125], [0.0, 0.0,
         0.0, 0.9869224], [0.0, 0.0, 0.0, 0.5666459], [0.0, 0.0, 0.0, 0.1997219], [0.0, 0.0,
         0.0, 0.0]],
        [[3.478505, -0.08775781, 1.535002, -2.547999, 0.5863186], [3.162278, 0.8312539,
         -4.139475, 1.344997, 0.6039412]],
    ],
    'grad': [
        [[13.51216, -14.52101, 8.803171, -1.188812, 7.260256, 3.247125, 10.76759, 5.140673,
         10.95607, 12.35469, 8.906132, 3.16195], [15.91216, -10.62101, 21.70317, 16.81119,
         19.26026, 17.64713, 28.76759, 17.14067, 25.35607, 30.35469, 19.40613, 7.061949]],
        [[2.113168, 2.176309, 3.367544, 1.432812, 2.910166], [2.113168, 2.176309, 3.367544,
         1.432812, 2.910166]],
    ],
}


def test_values_and_gradients_match_tf():
    out, (st, st2, inv) = _build()
    assert all(isinstance(g, tf.Tensor) for g in out["grad"])   # dense, as TF's
    # TF 2.15.1's static shapes and dtypes.
    assert (st.shape.as_list(), st.dtype.name) == ([2, 3, 5], "complex64")
    assert st2.shape.as_list() == [6, 5] and inv.shape.as_list() == [2, 12]
    assert st.name == "stft/rfft:0"
    assert out["dct"][1].name == "dct_1/Real:0" and out["win"][0].name == "hann_window/sub_2:0"
    with tf.Session() as sess:
        got = sess.run(out)
    for key, rows in EXPECTED.items():
        assert len(got[key]) == len(rows), key
        for i, (value, want) in enumerate(zip(got[key], rows)):
            np.testing.assert_allclose(np.asarray(value, np.float64), np.asarray(want),
                                       rtol=1e-5, atol=2e-6, err_msg=f"{key}[{i}]")


def test_round_trips_dynamic_lengths_and_fftshift():
    signal = tf.placeholder(tf.float32, [None])
    frames = S.frame(signal, 4, 2)
    padded = S.frame(signal, 4, 2, pad_end=True)
    assert frames.shape.as_list() == [None, 4]
    audio = np.random.RandomState(0).randn(64).astype(np.float32)
    spec = S.stft(audio, 16, 4)
    back = S.inverse_stft(spec, 16, 4, window_fn=S.inverse_stft_window_fn(4))
    x = np.arange(10.).reshape(2, 5)
    ortho = S.idct(S.dct(x, 2, norm="ortho"), 2, norm="ortho")
    with tf.Session() as sess:
        f, p = sess.run([frames, padded], {signal: np.arange(9.)})
        b, shifted, unshifted, o = sess.run([back, S.fftshift(x), S.ifftshift(x, axes=1),
                                             ortho])
    np.testing.assert_array_equal(f, [[0, 1, 2, 3], [2, 3, 4, 5], [4, 5, 6, 7]])
    np.testing.assert_array_equal(p[-1], [8, 0, 0, 0])          # ceil(9 / 2) = 5 frames
    assert p.shape == (5, 4)
    np.testing.assert_allclose(b[12:-12], audio[12:-12], atol=1e-5)  # full overlap: exact
    np.testing.assert_array_equal(shifted, np.fft.fftshift(x))
    np.testing.assert_array_equal(unshifted, np.fft.ifftshift(x, axes=1))
    np.testing.assert_allclose(o, x, atol=1e-12)
    assert tf.spectral.dct is S.dct and tf.spectral.idct is S.idct and S.rfft is tf.spectral.rfft


def test_errors_as_tf():
    y = tf.constant([[1., 2., 3.]])
    with pytest.raises(ValueError, match="Normalization is not supported for the Type-I DCT"):
        S.dct(y, 1, norm="ortho")
    with pytest.raises(ValueError, match="Types I, II and III"):
        S.dct(y, 4)
    with pytest.raises(NotImplementedError, match="axis must be -1"):
        S.dct(y, axis=0)
    with pytest.raises(ValueError, match="Unknown normalization"):
        S.idct(y, norm="unitary")
    with pytest.raises(ValueError, match="upper_edge_hertz must not be larger than the "
                                         "Nyquist"):
        S.linear_to_mel_weight_matrix(upper_edge_hertz=5000.)
    with pytest.raises(ValueError, match="lower_edge_hertz 300.0 >= upper_edge_hertz 200.0"):
        S.linear_to_mel_weight_matrix(lower_edge_hertz=300., upper_edge_hertz=200.)
    with pytest.raises(ValueError, match="frame_length must be a scalar known"):
        S.frame(y, tf.placeholder(tf.int32, []), 1)
