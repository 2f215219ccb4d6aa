"""`tf.debugging` -- the names of TensorFlow 1.x's tf.debugging namespace: the assertions of
ops/check_ops.py, tf.Assert and tf.print (ops/logging_ops.py), check_numerics
(ops/array_ops.py).

set_log_device_placement / get_log_device_placement: in TF 1.15 they set a flag of the
process-wide eager context, whose ConfigProto is the one a tf.Session takes when it is created
*without* a config -- so `set_log_device_placement(True)` makes such Sessions print every op's
device (as ConfigProto(log_device_placement=True) does), while a Session given a ConfigProto
follows that ConfigProto. Here the flag is kept beside the default-session stack
(framework/default_session.py), where client/session.py reads it.
"""
from ..ops.check_ops import (add_check_numerics_ops, assert_equal, assert_greater, check_numerics,
                             assert_greater_equal, assert_integer, assert_less,
                             assert_less_equal, assert_near, assert_negative,
                             assert_non_negative, assert_non_positive, assert_none_equal,
                             assert_positive, assert_proper_iterable, assert_rank,
                             assert_rank_at_least, assert_rank_in, assert_same_float_dtype,
                             assert_scalar, assert_shapes, assert_type, is_non_decreasing,
                             is_numeric_tensor, is_strictly_increasing)
from ..ops.basic_math_ops import is_finite, is_inf, is_nan
from ..ops.check_ops import verify_tensor_all_finite as assert_all_finite
from ..ops.logging_ops import Assert
from ..framework.default_session import get_log_device_placement, set_log_device_placement

__all__ = ["Assert", "check_numerics", "add_check_numerics_ops", "assert_equal",
           "assert_greater", "assert_greater_equal", "assert_integer", "assert_less",
           "assert_less_equal", "assert_negative", "assert_non_negative", "assert_non_positive",
           "assert_none_equal", "assert_positive", "assert_rank", "assert_rank_at_least",
           "assert_scalar", "assert_type", "is_non_decreasing", "is_numeric_tensor",
           "is_strictly_increasing", "assert_all_finite", "is_finite", "is_inf", "is_nan",
           "assert_near", "assert_rank_in", "assert_same_float_dtype",
           "assert_proper_iterable", "assert_shapes", "set_log_device_placement",
           "get_log_device_placement"]
