"""`tf.contrib.opt` -- optimizers of TF 1.15's contrib/opt: AdamW and MomentumW (decoupled
weight decay, weight_decay_optimizers.py), LazyAdam (lazy_adam_optimizer.py), AddSign and
PowerSign (sign_optimizers.py), MovingAverageOptimizer (moving_average_optimizer.py), and the
distributed ones: DropStaleGradientOptimizer (drop_stale_gradient_optimizer.py),
ElasticAverageOptimizer and ElasticAverageCustomGetter (elastic_average_optimizer.py),
ModelAverageOptimizer and ModelAverageCustomGetter (model_average_optimizer.py), AGNOptimizer
and AGNCustomGetter (agn_optimizer.py) -- whose conditional updates across worker and ps are
built as cross_device_cond.py explains.
Not implemented: ScipyOptimizerInterface (needs SciPy), the sign-decay schedules,
NadamOptimizer, GGT, Shampoo, AdaMax, LARS and the other research optimizers."""
from .agn_optimizer import AGNCustomGetter, AGNOptimizer
from .drop_stale_gradient_optimizer import DropStaleGradientOptimizer
from .elastic_average_optimizer import ElasticAverageCustomGetter, ElasticAverageOptimizer
from .lazy_adam_optimizer import LazyAdamOptimizer
from .model_average_optimizer import ModelAverageCustomGetter, ModelAverageOptimizer
from .moving_average_optimizer import MovingAverageOptimizer
from .sign_optimizers import AddSignOptimizer, PowerSignOptimizer
from .weight_decay_optimizers import (AdamWOptimizer, DecoupledWeightDecayExtension,
                                      MomentumWOptimizer, extend_with_decoupled_weight_decay)

__all__ = ["AGNCustomGetter", "AGNOptimizer", "AdamWOptimizer", "AddSignOptimizer",
           "DecoupledWeightDecayExtension", "DropStaleGradientOptimizer",
           "ElasticAverageCustomGetter", "ElasticAverageOptimizer", "LazyAdamOptimizer",
           "ModelAverageCustomGetter", "ModelAverageOptimizer", "MomentumWOptimizer",
           "MovingAverageOptimizer", "PowerSignOptimizer",
           "extend_with_decoupled_weight_decay"]
