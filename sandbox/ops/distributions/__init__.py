"""tf.distributions -- mirrors TF 1.15's python/ops/distributions/ (one file per
distribution, the base class in distribution.py, the KL registry in kullback_leibler.py).

Importing this package registers the KL pairs each distribution file defines: Normal,
Bernoulli, Categorical, Beta, Gamma (so Exponential) and Dirichlet with themselves.
"""
from .distribution import (  # noqa: F401
    FULLY_REPARAMETERIZED, NOT_REPARAMETERIZED, Distribution, ReparameterizationType,
)
from .kullback_leibler import RegisterKL, cross_entropy, kl_divergence  # noqa: F401
from .normal import Normal  # noqa: F401
from .bernoulli import Bernoulli  # noqa: F401
from .categorical import Categorical  # noqa: F401
from .uniform import Uniform  # noqa: F401
from .beta import Beta  # noqa: F401
from .gamma import Gamma  # noqa: F401
from .exponential import Exponential  # noqa: F401
from .dirichlet import Dirichlet  # noqa: F401
from .multinomial import Multinomial  # noqa: F401
from .dirichlet_multinomial import DirichletMultinomial  # noqa: F401
from .laplace import Laplace  # noqa: F401
from .student_t import StudentT  # noqa: F401
