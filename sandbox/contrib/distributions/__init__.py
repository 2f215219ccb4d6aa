"""`tf.contrib.distributions` -- TF 1.15's contrib/distributions: everything of
tf.distributions (sandbox/api/distributions.py) plus the contrib-only Logistic (logistic.py)
and MultivariateNormalDiag (mvn_diag.py).

Not implemented: bijectors and TransformedDistribution, the other MultivariateNormal*
(TriL, FullCovariance, DiagPlusLowRank -- they need LinearOperator), mixtures (Mixture,
MixtureSameFamily), Poisson, Geometric, NegativeBinomial, Binomial, the relaxed / OneHot
categoricals, Wishart, VonMises, Independent, Autoregressive and the other contrib names.
"""
from ...api.distributions import *  # noqa: F401,F403
from ...api.distributions import __all__ as _core_names
from .logistic import Logistic
from .mvn_diag import MultivariateNormalDiag

__all__ = sorted(_core_names + ["Logistic", "MultivariateNormalDiag"])
