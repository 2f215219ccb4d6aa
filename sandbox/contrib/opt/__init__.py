"""`tf.contrib.opt` -- optimizers of TF 1.15's contrib/opt: AdamW and MomentumW (decoupled
weight decay, weight_decay_optimizers.py), LazyAdam (lazy_adam_optimizer.py), AddSign and
PowerSign (sign_optimizers.py) and MovingAverageOptimizer (moving_average_optimizer.py).
Not implemented: ScipyOptimizerInterface (needs SciPy), the sign-decay schedules,
ElasticAverage/ModelAverage, NadamOptimizer, GGT, Shampoo, AdaMax, LARS and the other
research optimizers."""
from .lazy_adam_optimizer import LazyAdamOptimizer
from .moving_average_optimizer import MovingAverageOptimizer
from .sign_optimizers import AddSignOptimizer, PowerSignOptimizer
from .weight_decay_optimizers import (AdamWOptimizer, DecoupledWeightDecayExtension,
                                      MomentumWOptimizer, extend_with_decoupled_weight_decay)

__all__ = ["AdamWOptimizer", "AddSignOptimizer", "DecoupledWeightDecayExtension",
           "LazyAdamOptimizer", "MomentumWOptimizer", "MovingAverageOptimizer",
           "PowerSignOptimizer", "extend_with_decoupled_weight_decay"]
