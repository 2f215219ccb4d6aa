"""tf.distributions (sandbox/ops/distributions/): values against TF 2.15.1's
tf.compat.v1.distributions, samples (shapes, dtypes, seeds, moments), gradients, names."""
import numpy as np
import pytest

import sandbox as tf

D = tf.distributions
NAN, INF = float("nan"), float("inf")


def _build():
    """The same calls as the TF 2.15.1 script that printed EXPECTED."""
    out = {}
    n = D.Normal(loc=[0., 1.], scale=[1., 2.])
    x = [[-1., 0.5], [12., -9.]]
    out["normal"] = [n.log_prob(x), n.prob(x), n.cdf(x), n.log_cdf(x), n.survival_function(x),
                     n.log_survival_function(x), n.entropy(), n.mean(), n.stddev(),
                     n.variance(), n.mode()]
    n2 = D.Normal(loc=0.5, scale=1.5)
    out["kl_normal"] = [D.kl_divergence(n, n2), n.cross_entropy(n2)]
    b = D.Bernoulli(logits=[-1., 0.5, 2.])
    b2 = D.Bernoulli(probs=[0.3, 0.6, 0.9])
    out["bern"] = [b.log_prob([1, 0, 1]), b.prob([[0], [1]]), b.entropy(), b.mean(),
                   b.variance(), b.mode(), b2.logits, b2.log_prob([1, 1, 0]),
                   D.kl_divergence(b, b2)]
    c = D.Categorical(logits=[[1., 2., 0.5], [0., -1., 3.]])
    c2 = D.Categorical(probs=[[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    out["cat"] = [c.log_prob([2, 0]), c.log_prob([[0], [1]]), c.prob(1), c.entropy(), c.mode(),
                  c.probs, c2.logits, c2.log_prob([0, 1]), D.kl_divergence(c, c2)]
    u = D.Uniform(low=[0., -1.], high=[2., 3.])
    out["unif"] = [u.prob([1., 5.]), u.prob([[-0.5, 2.9]]), u.cdf([0.5, -2.]),
                   u.log_prob([1., 0.]), u.entropy(), u.mean(), u.variance(), u.stddev()]
    g = D.Gamma(concentration=[2., 0.5], rate=[1.5, 3.])
    g2 = D.Gamma(concentration=3., rate=1.)
    out["gamma"] = [g.log_prob([0.7, 2.]), g.cdf([0.7, 2.]), g.entropy(), g.mean(),
                    g.variance(), g.stddev(), g.mode(), D.kl_divergence(g, g2)]
    e = D.Exponential(rate=[0.5, 2.])
    out["expo"] = [e.log_prob([1., 0.3]), e.cdf([1., 0.3]), e.log_survival_function([1., 0.3]),
                   e.entropy(), e.mean(), e.variance()]
    be = D.Beta(concentration1=[2., 0.5], concentration0=[3., 0.5])
    be2 = D.Beta(1.5, 2.5)
    out["beta"] = [be.log_prob([0.3, 0.9]), be.cdf([0.3, 0.9]), be.entropy(), be.mean(),
                   be.variance(), be.mode(), D.kl_divergence(be, be2)]
    di = D.Dirichlet(concentration=[[1., 2., 3.], [0.5, 4., 1.5]])
    di2 = D.Dirichlet([2., 2., 2.])
    out["dir"] = [di.log_prob([[0.2, 0.3, 0.5], [0.1, 0.6, 0.3]]), di.entropy(), di.mean(),
                  di.variance(), di2.mode(), D.kl_divergence(di, di2)]
    la = D.Laplace(loc=[0., 1.], scale=[1., 0.5])
    out["laplace"] = [la.log_prob([0.5, -1.]), la.cdf([0.5, -1.]), la.log_cdf([0.5, -1.]),
                      la.log_survival_function([0.5, -1.]), la.entropy(), la.stddev()]
    st = D.StudentT(df=[0.5, 1.5, 5.], loc=[0., 1., -1.], scale=[1., 2., 0.5])
    out["student"] = [st.log_prob([0.5, -1., 2.]), st.cdf([0.5, -1., 2.]), st.entropy(),
                      st.mean(), st.variance(), st.mode()]
    mu = D.Multinomial(total_count=[4., 5.], probs=[[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    out["multi"] = [mu.log_prob([[1., 1., 2.], [0., 1., 4.]]), mu.mean(), mu.variance()]
    dm = D.DirichletMultinomial(total_count=5., concentration=[[1., 2., 3.], [0.5, 1., 2.]])
    out["dirmult"] = [dm.log_prob([[1., 2., 2.], [0., 1., 4.]]), dm.mean(), dm.variance()]
    return out


# TF 2.15.1's numbers for _build() (tf.compat.v1.distributions, graph mode), 7 digits.
EXPECTED = {
    'normal': [
        [[-1.418939, -1.643336], [-72.91894, -14.11209]],
        [[0.2419707, 0.1933341], [2.146386e-32, 7.4336e-07]],
        [[0.1586553, 0.4012937], [1.0, 2.866516e-07]],
        [[-1.841022, -0.9130618], [-1.776494e-33, -15.065]],
        [[0.8413447, 0.5987064], [1.776494e-33, 0.9999997]],
        [[-0.1727538, -0.512984], [-75.41068, -2.980233e-07]],
        [1.418939, 2.112086],
        [0.0, 1.0],
        [1.0, 2.0],
        [1.0, 4.0],
        [0.0, 1.0],
    ],
    'kl_normal': [
        [0.1832429, 0.1567624],
        [1.602181, 2.268848],
    ],
    'bern': [
        [-1.313262, -0.974077, -0.126928],
        [[0.7310586, 0.3775407, 0.1192029], [0.2689414, 0.6224594, 0.8807971]],
        [0.582203, 0.6628473, 0.3653338],
        [0.2689414, 0.6224594, 0.8807971],
        [0.1966119, 0.2350037, 0.1049936],
        [0, 1, 1],
        [-0.8472978, 0.4054652, 2.197224],
        [-1.203973, -0.5108256, -2.302585],
        [0.00234534, 0.001057889, 0.001942243],
    ],
    'cat': [
        [-1.964369, -3.065884],
        [[-1.464369, -3.065884], [-0.4643688, -4.065884]],
        [0.6285317, 0.01714782],
        [0.9059592, 0.2743131],
        [1, 2],
        [[0.2312239, 0.6285317, 0.1402444], [0.04661262, 0.01714783, 0.9362395]],
        [[-1.609438, -1.203973, -0.6931472], [-0.5108256, -1.203973, -2.302585]],
        [-1.609438, -1.203973],
        [0.3201263, 1.925915],
    ],
    'unif': [
        [0.5, 0.0],
        [[0.0, 0.25]],
        [0.25, 0.0],
        [-0.6931472, -1.386294],
        [0.6931472, 1.386294],
        [1.0, 1.0],
        [0.3333333, 1.333333],
        [0.5773503, 1.154701],
    ],
    'gamma': [
        [-0.5957447, -6.369633],
        [0.2826276, 0.999468],
        [1.171751, -1.008003],
        [1.333333, 0.1666667],
        [0.8888889, 0.05555556],
        [0.942809, 0.2357023],
        [0.6666667, NAN],
        [0.8200916, 7.992062],
    ],
    'expo': [
        [-1.193147, 0.09314716],
        [0.3934694, 0.4511884],
        [-0.5, -0.6],
        [1.693147, 0.3068528],
        [2.0, 0.5],
        [4.0, 0.25],
    ],
    'beta': [
        [0.5675839, 0.05924284],
        [0.3482999, 0.7951672],
        [-0.2349067, -0.241565],
        [0.4, 0.5],
        [0.04, 0.125],
        [0.3333333, NAN],
        [0.02371442, 1.386296],
    ],
    'dir': [
        [1.504077, 1.560979],
        [-1.244344, -2.19415],
        [[0.1666667, 0.3333333, 0.5], [0.08333334, 0.6666667, 0.25]],
        [[0.01984127, 0.03174603, 0.03571429], [0.0109127, 0.03174603, 0.02678572]],
        [0.3333333, 0.3333333, 0.3333333],
        [0.8068528, 3.195914],
    ],
    'laplace': [
        [-1.193147, -4.0],
        [0.6967347, 0.009157807],
        [-0.3613506, -4.693147],
        [-1.193147, -0.00920001],
        [1.693147, 1.0],
        [1.414214, 0.7071068],
    ],
    'student': [
        [-1.614632, -2.408329, -6.587874],
        [0.6213409, 0.2255677, 0.9990769],
        [3.666728, 2.842806, 0.9343545],
        [NAN, 1.0, -1.0],
        [NAN, INF, 0.4166667],
        [0.0, 1.0, -1.0],
    ],
    'multi': [
        [-1.714798, -1.585721],
        [[0.8, 1.2, 2.0], [0.5, 0.5, 4.0]],
        [[0.64, 0.84, 1.0], [0.45, 0.45, 0.8]],
    ],
    'dirmult': [
        [-2.639058, -1.951364],
        [[0.8333334, 1.666667, 2.5], [0.7142857, 1.428571, 2.857143]],
        [[1.09127, 1.746032, 1.964286], [1.156463, 1.927438, 2.312925]],
    ],
}


def test_values_match_tf():
    out = _build()
    with tf.Session() as sess:
        got = sess.run(out)
    for key, rows in EXPECTED.items():
        assert len(got[key]) == len(rows), key
        for i, (value, want) in enumerate(zip(got[key], rows)):
            np.testing.assert_allclose(np.asarray(value, np.float64), np.asarray(want, float),
                                       rtol=2e-6, atol=1e-6, err_msg=f"{key}[{i}]")


def test_names_shapes_and_types_as_tf():
    n = D.Normal(0., [1., 2.])
    assert n.name == "Normal/" and n.loc.name == "Normal/loc:0"
    assert n.log_prob(0.).name == "Normal/log_prob/sub:0"
    assert D.kl_divergence(n, n).name.startswith("KullbackLeibler/kl_normal_normal/")
    assert sorted(n.parameters) == ["allow_nan_stats", "loc", "name", "scale", "validate_args"]
    assert n.reparameterization_type is D.FULLY_REPARAMETERIZED
    assert repr(D.NOT_REPARAMETERIZED) == "<Reparameterization Type: NOT_REPARAMETERIZED>"
    # TF 2.15.1's sample shapes and dtypes for sample([4, 5]), and batch/event shapes.
    cases = [(D.Normal([0., 1.], 2.), (4, 5, 2), "float32", (2,), ()),
             (D.Bernoulli(probs=[0.3, 0.8]), (4, 5, 2), "int32", (2,), ()),
             (D.Categorical(logits=[[1., 2., 3.], [0., 0., 5.]]), (4, 5, 2), "int32", (2,), ()),
             (D.Categorical(logits=[[[1., 2.]]], dtype=tf.int64), (4, 5, 1, 1), "int64",
              (1, 1), ()),
             (D.Uniform([0., 1.], 3.), (4, 5, 2), "float32", (2,), ()),
             (D.Gamma([2., 3.], 1.), (4, 5, 2), "float32", (2,), ()),
             (D.Exponential([1., 2.]), (4, 5, 2), "float32", (2,), ()),
             (D.Beta([2., 3.], 4.), (4, 5, 2), "float32", (2,), ()),
             (D.Dirichlet([[1., 2., 3.], [2., 2., 2.]]), (4, 5, 2, 3), "float32", (2,), (3,)),
             (D.Laplace(0., [1., 2.]), (4, 5, 2), "float32", (2,), ()),
             (D.StudentT(5., 0., [1., 2.]), (4, 5, 2), "float32", (2,), ()),
             (D.Multinomial(3., probs=[[0.2, 0.8], [0.5, 0.5]]), (4, 5, 2, 2), "float32",
              (2,), (2,)),
             (D.DirichletMultinomial(4., [[1., 2.], [3., 4.]]), (4, 5, 2, 2), "float32",
              (2,), (2,))]
    samples = []
    for dist, shape, dtype, batch, event in cases:
        s = dist.sample([4, 5], seed=3)
        assert (tuple(s.shape.as_list()), s.dtype.name) == (shape, dtype), type(dist).__name__
        assert tuple(dist.batch_shape.as_list()) == batch
        assert tuple(dist.event_shape.as_list()) == event
        assert s.name == f"{dist.name}sample/" + s.name.split("/")[-1]
        samples.append(s)
    with tf.Session() as sess:
        values = sess.run(samples)
    assert all(v.shape == c[1] for v, c in zip(values, cases))
    multi = values[-2]
    np.testing.assert_array_equal(multi.sum(-1), np.full((4, 5, 2), 3.))   # counts sum to n
    np.testing.assert_array_equal(values[-1].sum(-1), np.full((4, 5, 2), 4.))


def test_seeded_samples_repeat_and_moments_hold():
    dists = [D.Normal([0., 3.], [1., 0.5]), D.Bernoulli(probs=[0.3, 0.8]),
             D.Categorical(probs=[0.2, 0.5, 0.3]), D.Uniform([0., -2.], [1., 2.]),
             D.Gamma(2., [1., 4.]), D.Beta(2., 5.), D.Laplace(1., 2.), D.Exponential(2.)]
    draws = [d.sample(20000, seed=7) for d in dists]
    with tf.Session() as sess:
        first = sess.run(draws)
    with tf.Session() as sess:
        again = sess.run(draws)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)           # op seed: the same draws per session
    normal, bern, cat, unif, gamma, beta, laplace, expo = first
    np.testing.assert_allclose(normal.mean(0), [0., 3.], atol=0.03)
    np.testing.assert_allclose(normal.std(0), [1., 0.5], rtol=0.03)
    np.testing.assert_allclose(bern.mean(0), [0.3, 0.8], atol=0.015)
    np.testing.assert_allclose(np.bincount(cat, minlength=3) / 20000., [0.2, 0.5, 0.3],
                               atol=0.015)
    assert unif[:, 0].min() >= 0. and unif[:, 0].max() < 1. and unif[:, 1].min() >= -2.
    np.testing.assert_allclose(unif.mean(0), [0.5, 0.], atol=0.03)
    np.testing.assert_allclose(gamma.mean(0), [2., 0.5], rtol=0.03)
    np.testing.assert_allclose(beta.mean(), 2. / 7., atol=0.01)
    np.testing.assert_allclose([laplace.mean(), laplace.var()], [1., 8.], rtol=0.06)
    np.testing.assert_allclose(expo.mean(), 0.5, rtol=0.03)


def test_gradients_flow_through_log_prob_and_reparameterized_samples():
    # REINFORCE: -mean(log pi(a) * R) for the logits of a Categorical policy.
    logits = tf.constant([[1., 2., 0.5], [0., -1., 3.]])
    actions, returns = tf.constant([2, 0]), tf.constant([1.5, -2.])
    pi = D.Categorical(logits=logits)
    loss = -tf.reduce_mean(pi.log_prob(actions) * returns)
    (g_logits,) = tf.gradients(loss, [logits])
    # The VAE trick: z = loc + scale * eps, so d mean(z) / d loc = 1, d / d scale = mean(eps).
    loc, scale = tf.constant([0.5, -1.]), tf.constant([2., 3.])
    z = D.Normal(loc, scale).sample(1000, seed=5)
    g_loc, g_scale = tf.gradients(tf.reduce_mean(z, 0), [loc, scale])
    kl = D.kl_divergence(D.Normal(loc, scale), D.Normal(0., 1.))
    g_kl = tf.gradients(tf.reduce_sum(kl), [loc, scale])
    with tf.Session() as sess:
        gl, z_v, gloc, gscale, gkl = sess.run([g_logits, z, g_loc, g_scale, g_kl])
    probs = np.exp([[1., 2., 0.5], [0., -1., 3.]])
    probs /= probs.sum(1, keepdims=True)
    want = -(np.eye(3)[[2, 0]] - probs) * np.array([[1.5], [-2.]]) / 2.
    np.testing.assert_allclose(gl, want, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(gloc, [1., 1.], rtol=1e-4)
    np.testing.assert_allclose(gscale, ((z_v - [0.5, -1.]) / [2., 3.]).mean(0), rtol=1e-4,
                               atol=1e-5)
    # d KL / d loc = loc, d KL / d scale = scale - 1 / scale (against N(0, 1)).
    np.testing.assert_allclose(gkl[0], [0.5, -1.], rtol=1e-6)
    np.testing.assert_allclose(gkl[1], [2. - 0.5, 3. - 1. / 3.], rtol=1e-6)


def test_errors_kl_registry_and_validate_args():
    with pytest.raises(ValueError, match="Must pass probs or logits, but not both"):
        D.Bernoulli(logits=[1.], probs=[0.5])
    with pytest.raises(NotImplementedError, match="No KL.*Normal.*Uniform"):
        D.kl_divergence(D.Normal(0., 1.), D.Uniform())
    with pytest.raises(TypeError, match="same dtype"):
        D.Normal(tf.constant(0., tf.float64), 1.)

    class MyNormal(D.Normal):
        pass

    with pytest.raises(ValueError, match="already been registered"):
        D.RegisterKL(D.Normal, D.Normal)(lambda a, b, name=None: None)

    @D.RegisterKL(MyNormal, D.Uniform)
    def _kl_mine(a, b, name=None):
        return a.loc * 0. + 42.

    mine = MyNormal(1., 2.)
    kl_parent = D.kl_divergence(mine, D.Normal(0., 1.))     # found along the MRO
    kl_own = D.kl_divergence(mine, D.Uniform())
    with pytest.raises(tf.errors.InvalidArgumentError, match="x > 0 did not hold"):
        D.Normal(0., [1., -1.], validate_args=True)             # known now: TF checks now
    scale = tf.placeholder(tf.float32, [2])
    checked = D.Normal(0., scale, validate_args=True)
    nan_kl = D.kl_divergence(D.Normal(0., 0.), D.Normal(0., 0.), allow_nan_stats=False)
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run([kl_parent, kl_own]),
                                   [0.5 + 0.5 * (4. - 1. - np.log(4.)), 42.], rtol=1e-6)
        with pytest.raises(tf.errors.InvalidArgumentError):
            sess.run(checked.log_prob(0.), {scale: [1., -1.]})
        with pytest.raises(tf.errors.InvalidArgumentError, match="returned NaN"):
            sess.run(nan_kl)
    alpha = tf.placeholder(tf.float32, [2])
    strict_mode = D.Gamma(alpha, 1., allow_nan_stats=False).mode()
    nan_mode = D.Gamma(alpha, 1.).mode()
    with tf.Session() as sess:
        np.testing.assert_allclose(sess.run(nan_mode, {alpha: [0.5, 3.]}), [np.nan, 2.])
        with pytest.raises(tf.errors.InvalidArgumentError, match="mode not defined"):
            sess.run(strict_mode, {alpha: [0.5, 3.]})
    with pytest.raises(NotImplementedError, match="mean is not implemented: Categorical"):
        D.Categorical(logits=[1., 2.]).mean()


def test_quantile_cdf_tails_and_param_shapes_as_tf():
    n = D.Normal([0., 1.], [1., 2.])
    c = D.Categorical(probs=[[0.2, 0.3, 0.5], [0.6, 0.3, 0.1]])
    n64 = D.Normal(np.float64(0.), np.float64(1.))
    out = [n.quantile([[0.001, 0.5], [0.9, 1e-30]]), n.quantile([0., 1.]),
           n64.quantile([1e-300, 0.3, 0.999999]), c.cdf([[0], [1], [2], [3]]),
           c.log_cdf([1, 2]), n64.log_cdf([-30., -3., 0., 9.]),
           D.Bernoulli(logits=[0.3]).cross_entropy(D.Bernoulli(probs=[0.4])),
           tf.gradients(tf.reduce_sum(n.quantile([0.2, 0.7])), n.scale)[0]]
    # TF 2.15.1's numbers.
    want = [[[-3.090233, 1.0], [1.281551, -21.92805]], [-INF, INF],
            [-37.0470962993612, -0.5244005127080408, 4.753424308817087],
            [[0.0, 0.0], [0.2, 0.6], [0.5, 0.9], [1.0, 1.0]], [-1.609438, -0.1053605],
            [-454.3212439565018, -6.607726221510351, -0.6931471805599453,
             -1.1285884059538295e-19],
            [0.743742], [-0.8416212, 0.5244005]]
    with tf.Session() as sess:
        got = sess.run(out)
    for i, (value, expected) in enumerate(zip(got, want)):
        np.testing.assert_allclose(value, expected, rtol=2e-6, err_msg=str(i))
    assert D.Normal.param_static_shapes([3, 2]) == {"loc": tf.TensorShape([3, 2]),
                                                     "scale": tf.TensorShape([3, 2])}
    assert D.Bernoulli.param_static_shapes([4]) == {"logits": tf.TensorShape([4])}
    with pytest.raises(NotImplementedError, match="_param_shapes not implemented"):
        D.Categorical.param_shapes([2])
