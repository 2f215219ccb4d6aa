"""`tf.distributions` -- the names of TensorFlow 1.x's tf.distributions namespace (TF's
generated api/_v1/distributions/__init__.py; the code is python/ops/distributions/), gathered
from the package sandbox/ops/distributions/ (one file per distribution):

    pi = tf.distributions.Categorical(logits=logits)      # a policy over actions
    action = pi.sample(seed=1)
    loss = -tf.reduce_mean(pi.log_prob(actions) * returns)

    q = tf.distributions.Normal(loc=mu, scale=sigma)       # a VAE's posterior
    z = q.sample()                                          # differentiable in mu, sigma
    kl = tf.distributions.kl_divergence(q, tf.distributions.Normal(0., 1.))

Gamma, Beta, Dirichlet, StudentT and DirichletMultinomial sample through random_gamma, which
draws NumPy's numbers and has no gradient in the sandbox (TF differentiates it implicitly).
"""
from ..ops.distributions import (  # noqa: F401
    FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Bernoulli, Beta, Categorical, Dirichlet,
    DirichletMultinomial, Distribution, Exponential, Gamma, Laplace, Multinomial, Normal,
    RegisterKL, ReparameterizationType, StudentT, Uniform, kl_divergence,
)

__all__ = ["Bernoulli", "Beta", "Categorical", "Dirichlet", "DirichletMultinomial",
           "Distribution", "Exponential", "FULLY_REPARAMETERIZED", "Gamma", "Laplace",
           "Multinomial", "NOT_REPARAMETERIZED", "Normal", "RegisterKL",
           "ReparameterizationType", "StudentT", "Uniform", "kl_divergence"]
