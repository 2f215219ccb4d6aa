"""`tf.contrib.framework` -- mirrors the commonly used part of TensorFlow 1.15's
contrib/framework (python/ops/arg_scope.py, python/ops/variables.py).

    arg_scope.py   arg_scope, add_arg_scope, has_arg_scope, arg_scoped_arguments,
                   current_arg_scope: default keyword arguments for decorated functions
    variables.py   get_variables*, get_unique_variable, get_variables_to_restore,
                   filter_variables, variable, model_variable, local_variable,
                   assign_from_checkpoint_fn

The global step and checkpoint readers are tf.train's, re-exported as contrib did:
get_or_create_global_step, get_global_step, create_global_step, assert_global_step,
init_from_checkpoint, list_variables, load_variable, load_checkpoint; `nest` is tf.nest.
"""
from .arg_scope import (arg_scope, add_arg_scope, current_arg_scope, has_arg_scope,
                        arg_scoped_arguments, arg_scope_func_key)
from .variables import (get_variables, get_model_variables, get_local_variables,
                        get_trainable_variables, get_variables_to_restore,
                        get_variables_by_name, get_variables_by_suffix, get_unique_variable,
                        variable, model_variable, local_variable, global_variable,
                        filter_variables, assign_from_checkpoint_fn, add_model_variable,
                        get_variable_full_name)
from ...train.training_util import (get_or_create_global_step, get_global_step,
                                    create_global_step, assert_global_step)
from ...train.checkpoint_utils import init_from_checkpoint
from ...train.checkpoint_management import list_variables, load_variable, load_checkpoint
from ...api import nest

__all__ = ["arg_scope", "add_arg_scope", "current_arg_scope", "has_arg_scope",
           "arg_scoped_arguments", "arg_scope_func_key", "get_variables", "get_model_variables",
           "get_local_variables", "get_trainable_variables", "get_variables_to_restore",
           "get_variables_by_name", "get_variables_by_suffix", "get_unique_variable",
           "variable", "model_variable", "local_variable", "global_variable",
           "filter_variables", "assign_from_checkpoint_fn", "get_or_create_global_step",
           "get_global_step", "create_global_step", "assert_global_step",
           "init_from_checkpoint", "list_variables", "load_variable", "load_checkpoint", "nest",
           "add_model_variable", "get_variable_full_name"]
