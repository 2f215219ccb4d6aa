"""Variable helpers of tf.contrib.framework -- mirrors TensorFlow 1.15's
contrib/framework/python/ops/variables.py.

Finding variables by scope and name (every `scope` is a regular expression matched at the
start of the name, as tf.get_collection does):

    get_variables('conv1')                  # GLOBAL_VARIABLES under 'conv1'
    get_model_variables(), get_trainable_variables(), get_local_variables()
    get_variables_by_name('weights')        # every '.../weights:0' (and a top-level 'weights')
    get_variables_by_suffix('biases')       # every name ending in 'biases:...'
    get_unique_variable('conv1/weights')    # exactly that one, else ValueError
    get_variables_to_restore(exclude=['logits'])     # for fine-tuning from a checkpoint
    filter_variables(var_list, include_patterns, exclude_patterns)   # by regular expressions

Making variables: variable() is tf.get_variable with a `device` (and arg_scope support);
model_variable() also puts the variable in tf.GraphKeys.MODEL_VARIABLES, which is how
tf.contrib.layers tells a model's weights from optimizer slots and counters. local_variable()
makes an untrained variable in LOCAL_VARIABLES.

Restoring: assign_from_checkpoint_fn(path, var_list) returns a function(session) restoring
var_list from the checkpoint at `path` with a tf.train.Saver (ignore_missing_vars=True skips,
with a warning, the variables the checkpoint lacks).
"""
import functools
import re

from ...framework import dtypes as _dtypes
from ...framework.graph import GraphKeys, add_to_collection, device as _device, get_collection
from ...framework.tensor_bundle import NewCheckpointReader
from ...ops import variable_scope as vs
from ...ops.variables import Variable
from ...platform import tf_logging as logging
from ...train.saver import Saver
from .arg_scope import add_arg_scope

__all__ = ["get_variables", "get_model_variables", "get_local_variables",
           "get_trainable_variables", "get_variables_to_restore", "get_variables_by_name",
           "get_variables_by_suffix", "get_unique_variable", "variable", "model_variable",
           "local_variable", "global_variable", "filter_variables", "assign_from_checkpoint_fn",
           "add_model_variable", "get_variable_full_name"]


def get_variables(scope=None, suffix=None, collection=GraphKeys.GLOBAL_VARIABLES):
    """The variables of `collection` whose names start with `scope` (a string or a
    VariableScope) and, with `suffix`, end in `suffix:` followed by the output index."""
    if isinstance(scope, vs.VariableScope):
        scope = scope.name
    if suffix is not None:
        if ":" not in suffix:
            suffix += ":"
        scope = (scope or "") + ".*" + suffix
    return get_collection(collection, scope)


def get_model_variables(scope=None, suffix=None):
    """The variables of tf.GraphKeys.MODEL_VARIABLES (see get_variables)."""
    return get_variables(scope, suffix, GraphKeys.MODEL_VARIABLES)


def get_local_variables(scope=None, suffix=None):
    """The variables of tf.GraphKeys.LOCAL_VARIABLES (see get_variables)."""
    return get_variables(scope, suffix, GraphKeys.LOCAL_VARIABLES)


def get_trainable_variables(scope=None, suffix=None):
    """The variables of tf.GraphKeys.TRAINABLE_VARIABLES (see get_variables)."""
    return get_variables(scope, suffix, GraphKeys.TRAINABLE_VARIABLES)


def get_variables_to_restore(include=None, exclude=None):
    """The global variables under the scopes of `include` (default: all of them) but under
    none of the scopes of `exclude`."""
    if include is None:
        vars_to_include = get_variables()
    else:
        if not isinstance(include, (list, tuple)):
            raise TypeError("include is provided but is not a list or a tuple.")
        vars_to_include = [v for scope in include for v in get_variables(scope)]
    excluded = set()
    if exclude is not None:
        if not isinstance(exclude, (list, tuple)):
            raise TypeError("exclude is provided but is not a list or a tuple.")
        excluded = {id(v) for scope in exclude for v in get_variables(scope)}
    return [v for v in vars_to_include if id(v) not in excluded]


def get_variables_by_suffix(suffix, scope=None):
    """The global variables whose names end in `suffix`."""
    return get_variables(scope=scope, suffix=suffix)


def get_variables_by_name(given_name, scope=None):
    """The global variables whose last name part is `given_name` ('.../weights')."""
    suffix = "/" + given_name + ":|^" + given_name + ":"
    return get_variables(scope=scope, suffix=suffix)


def get_unique_variable(var_op_name):
    """The one variable whose op is called `var_op_name` ('conv1/weights')."""
    candidates = get_variables(scope=var_op_name)
    if not candidates:
        raise ValueError(f"Couldn't find variable {var_op_name}")
    for candidate in candidates:
        if candidate.op.name == var_op_name:
            return candidate
    raise ValueError(f"Variable {var_op_name} does not uniquely identify a variable")


def filter_variables(var_list, include_patterns=None, exclude_patterns=None, reg_search=True):
    """The variables of var_list whose names match one of include_patterns (default: all)
    and none of exclude_patterns; re.search, or re.match with reg_search=False."""
    matches = re.search if reg_search else re.match
    included = [v for v in var_list if include_patterns is None
                or any(matches(p, v.name) for p in include_patterns)]
    if exclude_patterns is None:
        return included
    return [v for v in included if not any(matches(p, v.name) for p in exclude_patterns)]


@add_arg_scope
def variable(name, shape=None, dtype=None, initializer=None, regularizer=None, trainable=True,
             collections=None, caching_device=None, device=None, partitioner=None,
             custom_getter=None, use_resource=None, synchronization=None, aggregation=None):
    """tf.get_variable placed on `device`, in `collections` (default GLOBAL_VARIABLES)."""
    collections = list(collections if collections is not None
                       else [GraphKeys.GLOBAL_VARIABLES])
    collections = list(dict.fromkeys(collections))           # without repeats, in order
    getter = vs.get_variable
    if custom_getter is not None:
        getter = functools.partial(custom_getter, reuse=vs.get_variable_scope().reuse)
    with _device(device or ""):
        return getter(name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=trainable, collections=collections,
                      caching_device=caching_device, partitioner=partitioner,
                      use_resource=use_resource, synchronization=synchronization,
                      aggregation=aggregation)


@add_arg_scope
def model_variable(name, shape=None, dtype=_dtypes.float32, initializer=None, regularizer=None,
                   trainable=True, collections=None, caching_device=None, device=None,
                   partitioner=None, custom_getter=None, use_resource=None,
                   synchronization=None, aggregation=None):
    """variable() that is also in tf.GraphKeys.MODEL_VARIABLES."""
    collections = list(collections or [])
    collections += [GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=dtype, initializer=initializer,
                    regularizer=regularizer, trainable=trainable, collections=collections,
                    caching_device=caching_device, device=device, partitioner=partitioner,
                    custom_getter=custom_getter, use_resource=use_resource,
                    synchronization=synchronization, aggregation=aggregation)


def add_model_variable(var):
    """Adds `var` to tf.GraphKeys.MODEL_VARIABLES (once)."""
    if not any(var is v for v in get_collection(GraphKeys.MODEL_VARIABLES)):
        add_to_collection(GraphKeys.MODEL_VARIABLES, var)


def get_variable_full_name(var):
    """The name `var` is saved under: its op's name, or for a shard of a partitioned
    variable, the whole variable's name."""
    if var._save_slice_info:
        return var._save_slice_info.full_name
    return var.op.name


def local_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """An untrained variable in LOCAL_VARIABLES (initialized by local_variables_initializer)."""
    return Variable(initial_value, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                    validate_shape=validate_shape, name=name, use_resource=use_resource)


def global_variable(initial_value, validate_shape=True, name=None, use_resource=None):
    """An untrained variable in GLOBAL_VARIABLES."""
    return Variable(initial_value, trainable=False, collections=[GraphKeys.GLOBAL_VARIABLES],
                    validate_shape=validate_shape, name=name, use_resource=use_resource)


def assign_from_checkpoint_fn(model_path, var_list, ignore_missing_vars=False,
                              reshape_variables=False):
    """A function(session) restoring `var_list` (a list, or a dict {checkpoint name:
    variable}) from the checkpoint `model_path`; None if nothing is left to restore."""
    if not var_list:
        raise ValueError("var_list cannot be empty")
    if ignore_missing_vars:
        reader = NewCheckpointReader(model_path)
        var_dict = var_list if isinstance(var_list, dict) else {v.op.name: v for v in var_list}
        available = {}
        for name, var in var_dict.items():
            if reader.has_tensor(name):
                available[name] = var
            else:
                logging.warning("Variable %s missing in checkpoint %s", name, model_path)
        var_list = available
    if not var_list:
        logging.warning("No Variables to restore")
        return None
    saver = Saver(var_list, reshape=reshape_variables)

    def callback(session):
        saver.restore(session, model_path)
    return callback
