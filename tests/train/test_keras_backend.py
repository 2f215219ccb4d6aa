"""keras.backend against TF 2.15.1's tf.compat.v1.keras.backend (graph mode, v2 behaviour off,
as TF 1.15): each case builds the same expression from small fixed inputs; the expected values
are TF 2.15.1's.

For the stateless groups the test compares a fingerprint of each result -- its shape, its sum
and a weighted sum (weights 1..7 repeating) -- printed by TF 2.15.1; the stateful group (K.rnn,
K.function with updates, K.gradients, moving averages, CTC) compares the values themselves.
"""
import numpy as np
import pytest

from sandbox.keras import backend as K
from tests.train.keras_fixture import fresh_keras  # noqa: F401 (the fixture)
X = np.array([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], np.float32)        # [2, 3]
Y = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -2.0]], np.float32)        # [3, 2]
IMG = np.arange(2 * 4 * 4 * 2, dtype=np.float32).reshape(2, 4, 4, 2) / 10.0 - 1.5
KER = (np.arange(3 * 3 * 2 * 3, dtype=np.float32).reshape(3, 3, 2, 3) % 5 - 2) / 4.0
SEQ = np.sin(np.arange(2 * 5 * 3, dtype=np.float32)).reshape(2, 5, 3)
VOL = np.cos(np.arange(1 * 4 * 4 * 4 * 2, dtype=np.float32)).reshape(1, 4, 4, 4, 2)


def elementwise(K):
    x, y = K.constant(X), K.constant(X[::-1].copy())
    return {"abs": K.abs(x), "sqrt": K.sqrt(x), "square": K.square(x), "exp": K.exp(x),
            "log": K.log(K.abs(x)), "round": K.round(x * 2), "sign": K.sign(x),
            "pow": K.pow(x, 3), "sin": K.sin(x), "cos": K.cos(x), "maximum": K.maximum(x, y),
            "minimum": K.minimum(x, y), "clip": K.clip(x, -1.0, 1.0),
            "clip_swapped": K.clip(x, 1.0, -1.0), "equal": K.cast(K.equal(x, y), "float32"),
            "greater": K.cast(K.greater(x, 0.4), "float32"),
            "less_equal": K.cast(K.less_equal(x, 0.5), "float32"),
            "relu": K.relu(x), "relu_alpha": K.relu(x, alpha=0.1),
            "relu_max": K.relu(x, max_value=1.0), "relu_thr": K.relu(x, threshold=0.4),
            "relu_all": K.relu(x, alpha=0.2, max_value=2.5, threshold=0.3),
            "elu": K.elu(x, 0.5), "softmax": K.softmax(x), "softmax0": K.softmax(x, axis=0),
            "softplus": K.softplus(x), "softsign": K.softsign(x), "sigmoid": K.sigmoid(x),
            "hard_sigmoid": K.hard_sigmoid(x), "tanh": K.tanh(x),
            "l2_normalize": K.l2_normalize(x, axis=1), "l2_normalize_all": K.l2_normalize(x)}


def reductions(K):
    x = K.constant(X)
    b = K.greater(x, 0.0)
    return {"sum": K.sum(x), "sum1": K.sum(x, axis=1, keepdims=True), "max0": K.max(x, 0),
            "min": K.min(x, axis=-1), "mean": K.mean(x, axis=0), "prod": K.prod(x, 1),
            "std": K.std(x, 1), "var": K.var(x), "var_keep": K.var(x, 0, keepdims=True),
            "mean_bool": K.mean(b, 1), "std_bool": K.std(b),
            "all": K.cast(K.all(b, 1), "float32"), "any": K.cast(K.any(b, 0), "float32"),
            "argmax": K.argmax(x), "argmin": K.argmin(x, 0), "cumsum": K.cumsum(x, 1),
            "cumprod": K.cumprod(x, 0), "logsumexp_like": K.log(K.sum(K.exp(x), 1))}


def arrays(K):
    x, y = K.constant(X), K.constant(Y)
    s = K.constant(SEQ)
    return {"dot": K.dot(x, y), "dot3": K.dot(s, K.constant(Y[:, :])),
            "batch_dot": K.batch_dot(x, x, axes=1),
            "batch_dot_default": K.batch_dot(s, K.permute_dimensions(s, (0, 2, 1))),
            "batch_dot_12": K.batch_dot(s, K.constant(SEQ[:, :, :2]), axes=(1, 1)),
            "batch_dot_2d3d": K.batch_dot(K.constant(SEQ[:, 0, :]), s, axes=(1, 2)),
            "batch_flatten": K.batch_flatten(s), "flatten": K.flatten(x),
            "concatenate": K.concatenate([x, x * 2], axis=-1),
            "concatenate0": K.concatenate([x, x], axis=0), "stack": K.stack([x, -x], axis=1),
            "expand_dims": K.expand_dims(x, 1), "squeeze": K.squeeze(K.expand_dims(x, 0), 0),
            "permute": K.permute_dimensions(s, (2, 0, 1)), "transpose": K.transpose(x),
            "reshape": K.reshape(x, (3, 2)), "tile": K.tile(x, (2, 1)), "tile_int": K.tile(x[0], 2),
            "repeat": K.repeat(x, 2), "repeat_elements": K.repeat_elements(s, 2, axis=1),
            "reverse": K.reverse(x, 1), "reverse01": K.reverse(x, (0, 1)),
            "arange": K.arange(5), "arange_f": K.arange(1, 7, 2, dtype="float32"),
            "arange_neg": K.arange(-3), "eye": K.eye(3),
            "one_hot": K.one_hot(K.constant([[0, 2], [1, 1]], "int32"), 3),
            "gather": K.gather(x, [1, 0, 1]), "ones_like": K.ones_like(x),
            "zeros_like": K.zeros_like(x), "shape": K.shape(s),
            "switch": K.switch(K.greater(x, 0.0), x, -x * 10),
            "switch_2d_cond": K.switch(K.greater(s[:, :, 0], 0.0), s, s * 0),
            "switch_scalar": K.switch(K.constant(True, dtype="bool"), x, -x),
            "switch_callable": K.switch(K.constant(0, dtype="int32"), lambda: x, lambda: x * 3),
            "map_fn": K.map_fn(lambda r: r * 2 + 1, x),
            "foldl": K.foldl(lambda a, r: a + r, x), "foldr": K.foldr(lambda a, r: a * 2 + r, x),
            "foldl_init": K.foldl(lambda a, r: a * r, x, initializer=K.ones_like(x[0])),
            "resize_volumes": K.resize_volumes(K.constant(VOL[:, :2, :2, :2]), 2, 1, 3,
                                               "channels_last")}


def nn(K):
    img, ker, seq = K.constant(IMG), K.constant(KER), K.constant(SEQ)
    img_cf = K.permute_dimensions(img, (0, 3, 1, 2))
    ker1 = K.constant(KER[:, 0, :2, :])                                          # [3, 2, 3]
    dk = K.constant(KER[:, :, :, :1])                                            # [3, 3, 2, 1]
    pk = K.constant(np.ones((1, 1, 2, 3), np.float32) * [0.5, -1.0, 2.0])
    vol = K.constant(VOL)
    k3 = K.constant(np.ones((2, 2, 2, 2, 2), np.float32) / 8.0)
    bias = K.constant([0.1, -0.2])
    return {"conv2d": K.conv2d(img, ker), "conv2d_same_s2": K.conv2d(img, ker, (2, 2), "same"),
            "conv2d_dil": K.conv2d(img, ker, padding="same", dilation_rate=(2, 2)),
            "conv2d_cf": K.conv2d(img_cf, ker, data_format="channels_first"),
            "conv1d": K.conv1d(seq[:, :, :2], ker1),
            "conv1d_causal": K.conv1d(seq[:, :, :2], ker1, padding="causal", dilation_rate=2),
            "conv1d_same_s2": K.conv1d(seq[:, :, :2], ker1, strides=2, padding="same"),
            "conv3d": K.conv3d(vol, k3), "conv3d_same": K.conv3d(vol, k3, (2, 2, 2), "same"),
            "conv2d_transpose": K.conv2d_transpose(img, K.constant(KER[:, :, :2, :2]),
                                                   (2, 9, 9, 2), (2, 2), "valid"),
            "conv2d_transpose_same": K.conv2d_transpose(img, K.constant(KER[:, :, :2, :2]),
                                                        (2, 8, 8, 2), (2, 2), "same"),
            "depthwise": K.depthwise_conv2d(img, dk), "depthwise_same": K.depthwise_conv2d(
                img, dk, padding="same"),
            "separable": K.separable_conv2d(img, dk, pk, padding="same"),
            "maxpool": K.pool2d(img, (2, 2), (2, 2)),
            "avgpool_same": K.pool2d(img, (3, 3), (2, 2), "same", pool_mode="avg"),
            "maxpool_cf": K.pool2d(img_cf, (2, 2), (1, 1), data_format="channels_first"),
            "pool3d": K.pool3d(vol, (2, 2, 2), (2, 2, 2)),
            "pool3d_avg": K.pool3d(vol, (3, 3, 3), (1, 1, 1), "same", pool_mode="avg"),
            "bias_add": K.bias_add(img, bias),
            "bias_add_cf": K.bias_add(img_cf, bias, data_format="channels_first"),
            "temporal_padding": K.temporal_padding(seq, (1, 2)),
            "spatial_2d_padding": K.spatial_2d_padding(img[:, :2, :2], ((1, 0), (0, 2))),
            "spatial_2d_padding_cf": K.spatial_2d_padding(img_cf[:, :, :2, :2],
                                                          data_format="channels_first"),
            "spatial_3d_padding": K.spatial_3d_padding(vol[:, :2, :2, :2]),
            "resize_nearest": K.resize_images(img[:, :2, :3], 2, 3, "channels_last"),
            "resize_bilinear": K.resize_images(img[:, :2, :3], 2, 2, "channels_last",
                                               interpolation="bilinear"),
            "resize_cf": K.resize_images(img_cf[:, :, :2, :2], 2, 1, "channels_first"),
            "batch_normalization": K.batch_normalization(
                img, K.constant([0.1, 0.2]), K.constant([1.5, 0.5]), K.constant([0.0, 1.0]),
                K.constant([2.0, 0.5]), epsilon=1e-3),
            "normalize_batch": K.normalize_batch_in_training(
                img, K.constant([2.0, 0.5]), K.constant([0.0, 1.0]), [0, 1, 2])[0],
            "cce": K.categorical_crossentropy(K.constant([[0., 1., 0.], [.5, .5, 0.]]),
                                              K.softmax(K.constant(X)) * 1.0),
            "cce_logits": K.categorical_crossentropy(K.constant([[0., 1., 0.], [.5, .5, 0.]]),
                                                     K.constant(X), from_logits=True),
            "cce_axis0": K.categorical_crossentropy(K.constant([[0., 1., 0.], [1., 0., 1.]]),
                                                    K.softmax(K.constant(X), 0) * 1.0, axis=0),
            "scce": K.sparse_categorical_crossentropy(K.constant([2, 0]),
                                                      K.softmax(K.constant(X)) * 1.0),
            "scce_logits_3d": K.sparse_categorical_crossentropy(
                K.constant([[0, 2, 1, 1, 0], [1, 1, 2, 0, 2]]), seq, from_logits=True),
            "bce": K.binary_crossentropy(K.constant([[0., 1., 1.], [1., 0., .5]]),
                                         K.sigmoid(K.constant(X)) * 1.0),
            "bce_logits": K.binary_crossentropy(K.constant([[0., 1., 1.], [1., 0., .5]]),
                                                K.constant(X), from_logits=True),
            "in_top_k": K.cast(K.in_top_k(K.constant(X), K.constant([2, 1], "int32"), 2),
                               "float32")}


def local(K):
    """Locally connected convolutions (a kernel per output position)."""
    seq, img = K.constant(SEQ), K.constant(IMG)
    k1 = K.constant(np.cos(np.arange(4 * 6 * 2, dtype=np.float32)).reshape(4, 6, 2))
    k2 = K.constant(np.sin(np.arange(4 * 8 * 3, dtype=np.float32)).reshape(4, 8, 3))
    img_cf = K.permute_dimensions(img, (0, 3, 1, 2))
    return {"local_conv1d": K.local_conv1d(seq, k1, (2,), (1,)),
            "local_conv2d": K.local_conv2d(img, k2, (2, 2), (2, 2), (2, 2)),
            "local_conv2d_cf": K.local_conv2d(img_cf, k2, (2, 2), (2, 2), (2, 2),
                                              data_format="channels_first")}


def stateful(K, init_new=lambda: None):
    """Values of K.rnn, K.function with updates, K.gradients, moving averages and CTC.
    init_new: what TF needed to initialize the moving average's new variables (the sandbox's
    K.get_session() initializes them)."""
    out = {}
    seq = K.constant(SEQ)
    w = K.constant(Y[:, :2] * 0.5)                                          # [3, 2]

    def step(x, states):
        h = K.tanh(K.dot(x, w) + states[0] * 0.5)
        return h, [h]

    init = [K.zeros_like(seq[:, 0, :2])]
    mask = K.cast(K.constant([[1, 1, 0, 1, 0], [1, 0, 1, 1, 1]]), "bool")
    for name, kw in (("plain", {}), ("back", {"go_backwards": True}),
                     ("mask", {"mask": mask}),
                     ("mask_zero", {"mask": mask, "zero_output_for_mask": True})):
        last, outs, states = K.rnn(step, seq, init, **kw)
        out["rnn_" + name] = [last, outs, states[0]]

    v = K.variable(np.array([1.0, 2.0], np.float32), name="v")
    x_in = K.placeholder(shape=(None, 2))
    y_out = K.sum(x_in * v, axis=1)
    f = K.function([x_in], [y_out], updates=[K.update_add(v, [1.0, -1.0])])
    out["function"] = [f([np.array([[1.0, 1.0], [2.0, 0.5]], np.float32)])[0],
                       f([np.array([[1.0, 1.0]], np.float32)])[0], K.get_value(v)]
    phase = K.function([x_in, K.learning_phase()],
                       [K.in_train_phase(x_in * 2, x_in * 3), K.in_test_phase(x_in, -x_in)])
    out["phase"] = phase([np.ones((1, 2), np.float32), 1]) + \
        phase([np.ones((1, 2), np.float32), 0])
    g = K.gradients(K.sum(K.square(v) * 3.0), [v])
    out["gradients"] = K.get_value(g[0])

    m = K.variable(np.array([0.0, 0.0], np.float32))
    upd = K.moving_average_update(m, K.constant([1.0, 3.0]), 0.9)
    sess = K.get_session()
    init_new()
    sess.run(upd)
    sess.run(upd)
    out["moving_average"] = K.get_value(m)
    u = K.variable(np.array([1.0, 5.0], np.float32))
    sess.run(K.update(u, [2.0, 3.0]))
    sess.run(K.update_sub(u, [0.5, 0.5]))
    out["update"] = K.get_value(u)

    probs = np.abs(np.sin(np.arange(2 * 6 * 4).reshape(2, 6, 4))) + 0.1
    probs = (probs / probs.sum(-1, keepdims=True)).astype(np.float32)
    y_true = K.constant([[1, 2, 0], [2, 2, 1]], "int32")
    cost = K.ctc_batch_cost(y_true, K.constant(probs), K.constant([[6], [5]], "int32"),
                            K.constant([[2], [3]], "int32"))
    dec, logp = K.ctc_decode(K.constant(probs), K.constant([6, 5], "int32"))
    beam, blogp = K.ctc_decode(K.constant(probs), K.constant([6, 5], "int32"), greedy=False,
                               beam_width=4, top_paths=2)
    out["ctc"] = sess.run([cost, dec[0], logp])
    out["ctc_beam"] = sess.run([beam[0], beam[1], blogp])
    sparse = K.ctc_label_dense_to_sparse(y_true, K.constant([2, 3], "int32"))
    out["dense_to_sparse"] = sess.run([sparse.indices, sparse.values, sparse.dense_shape])
    out["random_shapes"] = [sess.run(t).shape for t in (
        K.random_normal((2, 3), seed=1), K.random_uniform((4,), seed=1),
        K.random_binomial((3, 2), 0.5, seed=1), K.truncated_normal((2, 2), seed=1))]
    out["random_binomial_extremes"] = sess.run([K.random_binomial((2, 2), 0.0),
                                                K.random_binomial((2, 2), 1.0)])
    out["dropout_zero_or_scaled"] = sorted(set(np.round(sess.run(
        K.dropout(K.ones_like(K.constant(X)), 0.5, seed=3)), 3).ravel().tolist()) - {0.0})
    return out


def _fingerprint(value):
    a = np.asarray(value, np.float64).ravel()
    weights = np.arange(a.size) % 7 + 1
    return tuple(np.asarray(value).shape), float(a.sum()), float((a * weights).sum())


# TF 2.15.1's fingerprints: (shape, sum, weighted sum)
EXPECTED = {
    'elementwise': {
        'abs': ((2, 3), 8.0, 27.25),
        'sqrt': ((2, 3), 4.3534, 14.3779),
        'square': ((2, 3), 16.125, 56.4375),
        'exp': ((2, 3), 31.1029, 113.8587),
        'log': ((2, 3), -0.1699, -2.0658),
        'round': ((2, 3), 6.0, 19.0),
        'sign': ((2, 3), 2.0, 5.0),
        'pow': ((2, 3), 31.3437, 122.9218),
        'sin': ((2, 3), 0.0981, -1.076),
        'cos': ((2, 3), 1.2428, 5.0453),
        'maximum': ((2, 3), 10.5, 34.75),
        'minimum': ((2, 3), -3.5, -14.75),
        'clip': ((2, 3), 1.0, 2.25),
        'clip_swapped': ((2, 3), 6.0, 21.0),
        'equal': ((2, 3), 0.0, 0.0),
        'greater': ((2, 3), 3.0, 8.0),
        'less_equal': ((2, 3), 4.0, 14.0),
        'relu': ((2, 3), 5.75, 19.75),
        'relu_alpha': ((2, 3), 5.525, 19.0),
        'relu_max': ((2, 3), 2.75, 8.75),
        'relu_thr': ((2, 3), 5.5, 18.5),
        'relu_all': ((2, 3), 4.42, 14.47),
        'elu': ((2, 3), 5.0978, 17.3902),
        'softmax': ((2, 3), 2.0, 6.7219),
        'softmax0': ((2, 3), 3.0, 11.5085),
        'softplus': ((2, 3), 7.5638, 26.403),
        'softsign': ((2, 3), 0.9214, 2.5619),
        'sigmoid': ((2, 3), 3.5213, 12.1758),
        'hard_sigmoid': ((2, 3), 3.6, 12.55),
        'tanh': ((2, 3), 1.1258, 2.9378),
        'l2_normalize': ((2, 3), 1.1981, 4.1932),
        'l2_normalize_all': ((2, 3), 0.8716, 3.0507),
    },
    'reductions': {
        'sum': ((), 3.5, 3.5),
        'sum1': ((2, 1), 3.5, 6.0),
        'max0': ((3,), 5.25, 9.5),
        'min': ((2,), -2.25, -3.0),
        'mean': ((3,), 1.75, 2.375),
        'prod': ((2,), -2.0625, -2.625),
        'std': ((2,), 3.0192, 4.6048),
        'var': ((), 2.3472, 2.3472),
        'var_keep': ((1, 3), 4.2187, 8.7656),
        'mean_bool': ((2,), 1.3333, 2.0),
        'std_bool': ((), 0.4714, 0.4714),
        'all': ((2,), 0.0, 0.0),
        'any': ((3,), 3.0, 6.0),
        'argmax': ((2,), 2.0, 2.0),
        'argmin': ((3,), 1.0, 3.0),
        'cumsum': ((2, 3), 9.25, 44.75),
        'cumprod': ((2, 3), 0.625, -1.375),
        'logsumexp_like': ((2,), 5.3096, 8.3935),
    },
    'arrays': {
        'dot': ((2, 2), 9.25, 33.125),
        'dot3': ((2, 5, 2), 1.0654, -7.6431),
        'batch_dot': ((2, 1), 16.125, 25.75),
        'batch_dot_default': ((2, 5, 5), 2.5685, 11.0694),
        'batch_dot_12': ((2, 3, 2), 3.5642, 29.5062),
        'batch_dot_2d3d': ((2, 5), 2.6449, 4.7321),
        'batch_flatten': ((2, 15), 1.2681, -4.7736),
        'flatten': ((6,), 3.5, 12.25),
        'concatenate': ((2, 6), 10.5, 48.75),
        'concatenate0': ((4, 3), 7.0, 24.5),
        'stack': ((2, 2, 3), 0.0, 10.5),
        'expand_dims': ((2, 1, 3), 3.5, 12.25),
        'squeeze': ((2, 3), 3.5, 12.25),
        'permute': ((3, 2, 5), 1.2681, 2.4169),
        'transpose': ((3, 2), 3.5, 8.5),
        'reshape': ((3, 2), 3.5, 12.25),
        'tile': ((4, 3), 7.0, 24.5),
        'tile_int': ((6,), 2.0, 10.0),
        'repeat': ((2, 2, 3), 7.0, 36.0),
        'repeat_elements': ((2, 10, 3), 2.5363, 9.1539),
        'reverse': ((2, 3), 3.5, 16.75),
        'reverse01': ((2, 3), 3.5, 12.25),
        'arange': ((5,), 10.0, 40.0),
        'arange_f': ((3,), 9.0, 22.0),
        'arange_neg': ((0,), 0.0, 0.0),
        'eye': ((3, 3), 3.0, 8.0),
        'one_hot': ((2, 2, 3), 4.0, 12.0),
        'gather': ((3, 3), 6.0, 27.5),
        'ones_like': ((2, 3), 6.0, 21.0),
        'zeros_like': ((2, 3), 0.0, 0.0),
        'shape': ((3,), 10.0, 21.0),
        'switch': ((2, 3), 28.25, 94.75),
        'switch_2d_cond': ((2, 5, 3), -2.7603, -14.4028),
        'switch_scalar': ((2, 3), 3.5, 12.25),
        'switch_callable': ((2, 3), 10.5, 36.75),
        'map_fn': ((2, 3), 13.0, 45.5),
        'foldl': ((3,), 3.5, 4.75),
        'foldr': ((3,), 6.0, 6.0),
        'foldl_init': ((3,), -0.375, -3.75),
        'resize_volumes': ((1, 4, 2, 6, 2), -25.1255, -100.0906),
    },
    'nn': {
        'conv2d': ((2, 2, 2, 3), -1.8, -3.575),
        'conv2d_same_s2': ((2, 2, 2, 3), 0.15, -8.675),
        'conv2d_dil': ((2, 4, 4, 3), 12.6, 39.275),
        'conv2d_cf': ((2, 3, 2, 2), -1.8, -2.375),
        'conv1d': ((2, 3, 3), -0.6018, 10.2599),
        'conv1d_causal': ((2, 5, 3), -0.3523, 1.7695),
        'conv1d_same_s2': ((2, 3, 3), 1.2343, 9.0117),
        'conv3d': ((1, 3, 3, 3, 2), 0.2957, 7.7447),
        'conv3d_same': ((1, 2, 2, 2, 2), 0.3766, 7.651),
        'conv2d_transpose': ((2, 9, 9, 2), -12.0, -20.975),
        'conv2d_transpose_same': ((2, 8, 8, 2), -3.8, -20.975),
        'depthwise': ((2, 2, 2, 2), -6.0, -21.8),
        'depthwise_same': ((2, 4, 4, 2), -9.5, -26.7),
        'separable': ((2, 4, 4, 3), -14.25, -48.825),
        'maxpool': ((2, 2, 2, 2), 34.4, 136.3),
        'avgpool_same': ((2, 2, 2, 2), 30.4, 119.6),
        'maxpool_cf': ((2, 2, 3, 3), 77.4, 318.4),
        'pool3d': ((1, 2, 2, 2, 2), 14.4955, 53.7391),
        'pool3d_avg': ((1, 4, 4, 4, 2), -0.2103, -4.0964),
        'bias_add': ((2, 4, 4, 2), 102.4, 421.0),
        'bias_add_cf': ((2, 2, 4, 4), 102.4, 420.2),
        'temporal_padding': ((2, 8, 3), 1.2681, 28.4957),
        'spatial_2d_padding': ((2, 3, 4, 2), 10.4, 48.3),
        'spatial_2d_padding_cf': ((2, 2, 4, 4), 10.4, 36.1),
        'spatial_3d_padding': ((1, 4, 4, 4, 2), -4.1876, -22.4414),
        'resize_nearest': ((2, 4, 9, 2), 108.0, 435.2),
        'resize_bilinear': ((2, 4, 6, 2), 72.0, 289.35),
        'resize_cf': ((2, 2, 4, 2), 20.8, 83.6),
        'batch_normalization': ((2, 4, 4, 2), 144.2648, 594.336),
        'normalize_batch': ((2, 4, 4, 2), 32.0, 140.0253),
        'cce': ((2,), 5.1846, 6.6435),
        'cce_logits': ((2,), 5.1846, 6.6435),
        'cce_axis0': ((3,), 4.8011, 12.3352),
        'scce': ((2,), 0.3096, 0.3935),
        'scce_logits_3d': ((2, 5), 17.1059, 54.6161),
        'bce': ((2, 3), 4.4388, 13.653),
        'bce_logits': ((2, 3), 4.4388, 13.653),
        'in_top_k': ((2,), 2.0, 3.0),
    },
    'local': {
        'local_conv1d': ((2, 4, 2), -0.1352, 1.766),
        'local_conv2d': ((2, 2, 2, 3), -1.8156, 10.3699),
        'local_conv2d_cf': ((2, 3, 2, 2), 0.4623, 6.3836),
    },
}

# TF 2.15.1's values
EXPECTED_STATEFUL = {
    'rnn_plain': [[[-0.1566, -0.784], [0.11739, 0.85113]],
                  [[[-0.19104, -0.60369], [0.11323, 0.54342], [-0.16279, -0.68199],
                    [0.14564, 0.73297], [-0.1566, -0.784]],
                   [[0.22484, 0.91207], [-0.10934, -0.82441], [0.15526, 0.85338],
                    [-0.11779, -0.85502], [0.11739, 0.85113]]],
                  [[-0.1566, -0.784], [0.11739, 0.85113]]],
    'rnn_back': [[[-0.129, -0.4089], [0.15584, 0.80851]],
                 [[[-0.22671, -0.89004], [0.11422, 0.68106], [-0.1623, -0.64343],
                   [0.12738, 0.52927], [-0.129, -0.4089]],
                  [[0.17501, 0.93386], [-0.10805, -0.84382], [0.15589, 0.85072],
                   [-0.14326, -0.83399], [0.15584, 0.80851]]],
                 [[-0.129, -0.4089], [0.15584, 0.80851]]],
    'rnn_mask': [[[0.27724, 0.91342], [0.15577, 0.85343]],
                 [[[-0.19104, -0.60369], [0.11323, 0.54342], [0.11323, 0.54342],
                   [0.27724, 0.91342], [0.27724, 0.91342]],
                  [[0.22484, 0.91207], [0.22484, 0.91207], [0.31277, 0.97251],
                   [-0.03957, -0.83816], [0.15577, 0.85343]]],
                 [[0.27724, 0.91342], [0.15577, 0.85343]]],
    'rnn_mask_zero': [[[0.0, 0.0], [0.15577, 0.85343]],
                      [[[-0.19104, -0.60369], [0.11323, 0.54342], [0.0, 0.0],
                        [0.27724, 0.91342], [0.0, 0.0]],
                       [[0.22484, 0.91207], [0.0, 0.0], [0.31277, 0.97251],
                        [-0.03957, -0.83816], [0.15577, 0.85343]]],
                      [[0.27724, 0.91342], [0.15577, 0.85343]]],
    'function': [[3.0, 3.0], [3.0], [3.0, 0.0]],
    'phase': [[[2.0, 2.0]], [[-1.0, -1.0]], [[3.0, 3.0]], [[1.0, 1.0]]],
    'gradients': [18.0, 0.0],
    'moving_average': [1.0, 3.0],
    'update': [1.5, 2.5],
    'ctc': [[[4.1705], [6.2586]],
            [[2.0, 1.0, 2.0, 1.0, 0.0, -1.0], [2.0, 1.0, 0.0, 2.0, -1.0, -1.0]],
            [[5.96598], [5.19003]]],
    'ctc_beam': [[[1.0, 0.0, 1.0, -1.0, -1.0, -1.0], [2.0, 1.0, 0.0, -1.0, -1.0, -1.0]],
                 [[2.0, 0.0, 1.0, -1.0, -1.0, -1.0], [2.0, 1.0, -1.0, -1.0, -1.0, -1.0]],
                 [[-4.03586, -4.23587], [-3.10534, -3.39918]]],
    'dense_to_sparse': [[[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0], [1.0, 2.0]],
                        [1.0, 2.0, 2.0, 2.0, 1.0], [2.0, 3.0]],
    'random_shapes': [[2.0, 3.0], [4.0], [3.0, 2.0], [2.0, 2.0]],
    'random_binomial_extremes': [[[0.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [1.0, 1.0]]],
    'dropout_zero_or_scaled': [2.0],
}


pytestmark = pytest.mark.usefixtures("fresh_keras")   # (conftest.py)


@pytest.mark.parametrize("group", sorted(EXPECTED))
def test_backend_functions_match_tf(group):
    tensors = globals()[group](K)
    values = K.get_session().run(tensors)
    wrong = {}
    for name, (shape, total, weighted) in EXPECTED[group].items():
        got_shape, got_total, got_weighted = _fingerprint(values[name])
        if got_shape != shape or not np.allclose([got_total, got_weighted], [total, weighted],
                                                 atol=2e-3, rtol=1e-4):
            wrong[name] = ((got_shape, got_total, got_weighted), (shape, total, weighted))
    assert not wrong, wrong


def _values(value, sess):
    if isinstance(value, (list, tuple)):
        return [_values(v, sess) for v in value]
    if hasattr(value, "op"):
        value = sess.run(value)
    return np.round(np.asarray(value, np.float64), 5).tolist()


def test_stateful_backend_functions_match_tf():
    got = stateful(K)
    sess = K.get_session()
    for name, want in EXPECTED_STATEFUL.items():
        value = _values(got[name], sess)
        flat_got = np.concatenate([np.ravel(v) for v in _leaves(value)])
        flat_want = np.concatenate([np.ravel(v) for v in _leaves(want)])
        assert flat_got.shape == flat_want.shape, name
        np.testing.assert_allclose(flat_got, flat_want, atol=2e-4, err_msg=name)


def _leaves(nested):
    """The innermost arrays of nested lists of arrays of different shapes."""
    try:
        return [np.asarray(nested, np.float64)]
    except ValueError:
        return [leaf for item in nested for leaf in _leaves(item)]


def test_every_tf_1_15_backend_name_is_there():
    names = """abs all any arange argmax argmin backend batch_dot batch_flatten batch_get_value
        batch_normalization batch_set_value bias_add binary_crossentropy cast cast_to_floatx
        categorical_crossentropy clear_session clip concatenate constant conv1d conv2d
        conv2d_transpose conv3d cos count_params ctc_batch_cost ctc_decode
        ctc_label_dense_to_sparse cumprod cumsum depthwise_conv2d dot dropout dtype elu
        epsilon equal eval exp expand_dims eye flatten floatx foldl foldr function gather
        get_session get_uid get_value gradients greater greater_equal hard_sigmoid
        image_data_format in_test_phase in_top_k in_train_phase int_shape is_keras_tensor
        is_sparse l2_normalize learning_phase learning_phase_scope less less_equal log
        manual_variable_initialization map_fn max maximum mean min minimum
        moving_average_update name_scope ndim normalize_batch_in_training not_equal one_hot
        ones ones_like permute_dimensions placeholder pool2d pool3d pow print_tensor prod
        random_binomial random_normal random_normal_variable random_uniform
        random_uniform_variable relu repeat repeat_elements reset_uids reshape resize_images
        resize_volumes reverse rnn round separable_conv2d set_epsilon set_floatx
        set_image_data_format set_learning_phase set_session set_value shape sigmoid sign sin
        softmax softplus softsign sparse_categorical_crossentropy spatial_2d_padding
        spatial_3d_padding sqrt square squeeze stack std stop_gradient sum switch tanh
        temporal_padding tile to_dense transpose truncated_normal update update_add
        update_sub var variable zeros zeros_like""".split()
    assert [n for n in names if not hasattr(K, n)] == []
    assert K.backend() == "tensorflow"


def test_errors_and_phase_scope():
    x = K.constant(np.ones((2, 3), np.float32))
    with pytest.raises(ValueError, match="rank < 2"):
        K.batch_dot(K.constant([1.0, 2.0]), x)
    with pytest.raises(ValueError, match="axis 0"):
        K.batch_dot(x, x, axes=0)
    with pytest.raises(ValueError, match="Invalid pooling mode"):
        K.pool2d(K.constant(np.ones((1, 2, 2, 1), np.float32)), (2, 2), pool_mode="sum")
    with pytest.raises(ValueError, match="Unknown data_format"):
        K.conv2d(x, x, data_format="nhwc")
    with K.learning_phase_scope(1):
        assert K.in_train_phase(1.0, 2.0) == 1.0
    assert K.get_session().run(K.in_train_phase(x, x * 2))[0, 0] == 2.0
    uniform = K.random_uniform_variable((2, 2), -1.0, 1.0, seed=3)
    normal = K.random_normal_variable((3,), 0.0, 1.0, seed=3)
    values = K.batch_get_value([uniform, normal])
    assert values[0].shape == (2, 2) and np.all(np.abs(values[0]) <= 1.0)
    assert values[1].shape == (3,)
