"""`tf.initializers` -- the names of TensorFlow 1.15's tf.initializers namespace (TF's generated
api/_v1/initializers/__init__.py): the initializer classes of ops/init_ops.py and
ops/random_extra_ops.py, and the functions that build init ops for groups of variables.

    w = tf.get_variable("w", [256, 256], initializer=tf.initializers.orthogonal(gain=1.0))
    init = tf.initializers.global_variables()          # = tf.global_variables_initializer()
"""
from ..ops.init_ops import (  # noqa: F401
    Constant as constant, GlorotNormal as glorot_normal, GlorotUniform as glorot_uniform,
    Identity as identity, Ones as ones, RandomNormal as random_normal,
    RandomUniform as random_uniform, TruncatedNormal as truncated_normal,
    VarianceScaling as variance_scaling, Zeros as zeros, he_normal, he_uniform, lecun_normal,
    lecun_uniform,
)
from ..ops.lookup_ops import tables_initializer  # noqa: F401
from ..ops.random_extra_ops import (  # noqa: F401
    Orthogonal as orthogonal, UniformUnitScaling as uniform_unit_scaling,
)
from ..ops.variables import (  # noqa: F401
    global_variables_initializer as global_variables,
    local_variables_initializer as local_variables, variables_initializer as variables,
)

__all__ = ["constant", "global_variables", "glorot_normal", "glorot_uniform", "he_normal",
           "he_uniform", "identity", "lecun_normal", "lecun_uniform", "local_variables", "ones",
           "orthogonal", "random_normal", "random_uniform", "tables_initializer",
           "truncated_normal", "uniform_unit_scaling", "variables", "variance_scaling", "zeros"]
