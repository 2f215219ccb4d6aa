"""`tf.random` -- the names of TensorFlow 1.x's tf.random namespace (TF's generated
api/_v1/random/__init__.py): the TF-2 names of the random ops of sandbox/ops/random_ops.py.

    tf.random.set_random_seed(1)
    w = tf.Variable(tf.random.truncated_normal([784, 10], stddev=0.1))

`normal`, `uniform`, `shuffle` are tf.random_normal, tf.random_uniform, tf.random_shuffle;
`categorical` is tf.multinomial with TF 2's argument name `dtype` for the output type.

`gamma` and `poisson` are tf.random_gamma and tf.random_poisson (NumPy's numbers, not TF's).
The candidate samplers (`log_uniform_candidate_sampler` ...) are sandbox/ops/
candidate_sampling_ops.py's, as in tf.nn. The stateless_* ops are sandbox/ops/
stateless_random_ops.py's (TF's numbers for the same seed).
"""
from ..ops.random_ops import (  # noqa: F401
    get_seed, multinomial, random_normal as normal, random_shuffle as shuffle,
    random_uniform as uniform, set_random_seed, truncated_normal,
)

from ..ops.stateless_random_ops import (  # noqa: F401
    stateless_categorical, stateless_multinomial, stateless_random_normal as stateless_normal,
    stateless_random_uniform as stateless_uniform, stateless_truncated_normal,
)
from ..ops.random_extra_ops import random_gamma as gamma, random_poisson as poisson  # noqa: F401
from ..ops.candidate_sampling_ops import (  # noqa: F401
    all_candidate_sampler, fixed_unigram_candidate_sampler, learned_unigram_candidate_sampler,
    log_uniform_candidate_sampler, uniform_candidate_sampler,
)

__all__ = ["all_candidate_sampler", "fixed_unigram_candidate_sampler",
           "learned_unigram_candidate_sampler", "log_uniform_candidate_sampler",
           "uniform_candidate_sampler",
           "categorical", "gamma", "poisson", "get_seed", "multinomial", "normal", "set_random_seed", "shuffle",
           "stateless_categorical", "stateless_multinomial", "stateless_normal",
           "stateless_truncated_normal", "stateless_uniform", "truncated_normal", "uniform"]


def categorical(logits, num_samples, dtype=None, seed=None, name=None):
    """Draws num_samples class indices per row of logits ([batch, classes] of unnormalized
    log-probabilities): a [batch, num_samples] int64 tensor (or `dtype`)."""
    return multinomial(logits, num_samples, seed=seed, name=name or "categorical",
                       output_dtype=dtype)
