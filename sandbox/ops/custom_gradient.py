"""Gradients written by hand, and Python as an op -- mirrors TensorFlow 1.x's
python/ops/custom_gradient.py (tf.custom_gradient, tf.recompute_grad,
tf.grad_pass_through), tf.py_function (python/ops/
script_ops.py), tf.init_scope (python/framework/ops.py) and tf.count_up_to
(python/ops/state_ops.py; its op lives in ops/dataset_counter_ops.py).

    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        def grad(dy):
            return dy * (1 - 1 / (1 + e))        # stable where the automatic one is not
        return tf.log(1 + e), grad

Calling the decorated function builds its ops as usual, then passes the results through one
`CustomGradient` op whose inputs are the results *and* the arguments. Its gradient, when
tf.gradients reaches it, calls `grad` with the gradients of the results and sends what grad
returns to the arguments -- and nothing through the ops inside the function. (TF does the
same with an IdentityN op and gradient_override_map.) The op itself only forwards the
results (a plain kernel, placed like any op); `grad` is called while the gradient graph is
built, in the process that builds it. The arguments must be tensors.

A function that reads variables (tf.get_variable inside it, say) must, as in TF, give `grad`
a keyword argument `variables` and return (argument gradients, variable gradients): the
variables are those whose values the function's ops read, and their reads become inputs of
the op too, so the variables' gradients reach the optimizer. Without that keyword the call
fails, as TF's does, rather than leave the variables silently untrained. (TF 1.15 accepts
only resource variables there and fails on the default ones; the sandbox takes its own.)

Two decorators are built on custom_gradient, as in TF:

    y = tf.recompute_grad(block)(x)     # block's activations are not kept for the gradient:
                                        # tf.gradients builds block's ops again (after dy
                                        # is known) and differentiates those -- memory for time
    y = tf.grad_pass_through(tf.round)(x)   # y = round(x), but dy/dx taken as 1: the
                                            # gradient passes through unchanged

recompute_grad calls the function again with the same arguments, in the variable scope of the
first call with reuse=True, so tf.get_variable hands it the same variables. Both work on
functions of tensors only (no keyword arguments), like custom_gradient in graph mode.

py_function is py_func here: the function gets NumPy arrays, not eager tensors, and the op
has no gradient.
"""
import functools
import inspect
import itertools

from ..framework.graph import GraphKeys, get_default_graph, name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from .dataset_counter_ops import count_up_to
from .script_ops import py_func

__all__ = ["custom_gradient", "recompute_grad", "grad_pass_through", "py_function",
           "init_scope", "count_up_to"]

_GRAD_FNS = {}                   # token -> the Python grad function, in this process only
_TOKENS = itertools.count()


class CustomGradient(OpDef):
    """Outputs its first `num_results` inputs; the others are the function's arguments,
    there so that the gradient can reach them."""
    multi_output = True

    def shape(op):
        return [t.get_shape() for t in op.inputs[:op.get_attr("num_results")]]

    def kernel(*inputs, num_results=1, token="", T=None):
        return tuple(inputs[:num_results])

    def gradient(op, *grads):
        token = op.get_attr("token")
        grad_fn = _GRAD_FNS.get(token)
        if grad_fn is None:
            raise LookupError(f"The gradient function of {op.name!r} (custom_gradient "
                              f"{token}) is not in this process: build the gradients in the "
                              "process that called the decorated function.")
        n = op.get_attr("num_results")
        args = op.inputs[n:]
        with name_scope(None, "custom_gradient_grad", list(grads)):
            got = grad_fn(*grads)
        got = list(got) if isinstance(got, (list, tuple)) else [got]
        if len(got) != len(args):
            raise ValueError(f"The custom gradient function of {op.name!r} returned "
                             f"{len(got)} gradients, but the function has {len(args)} "
                             "tensor arguments: return one gradient (or None) per argument.")
        got = [None if g is None else convert_to_tensor(g) for g in got]
        return [None] * n + got


def custom_gradient(f):
    """Decorator: f(*tensors) returns (result, grad_fn) with grad_fn(*result_grads) ->
    the gradients of the arguments (one per argument). The decorated function returns the
    result, whose gradient tf.gradients takes from grad_fn."""

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        if kwargs:
            raise ValueError("The custom_gradient decorator currently supports keywords "
                             "arguments only when eager execution is enabled.")
        args = [convert_to_tensor(a) for a in args]
        graph = get_default_graph()
        before = len(graph.get_operations())
        result, grad_fn = f(*args)
        single = not isinstance(result, (list, tuple))
        results = [convert_to_tensor(r) for r in ([result] if single else result)]
        variables, reads = _variables_read(graph, graph.get_operations()[before:], args)
        if variables:
            if "variables" not in inspect.signature(grad_fn).parameters:
                raise TypeError(f"If using @custom_gradient with a function that uses "
                                f"variables, then grad_fn must accept a keyword argument "
                                f"'variables'. ({f.__name__} reads "
                                f"{', '.join(v.op.name for v in variables)}.)")
            grad_fn = _with_variables(grad_fn, variables, len(args))
        token = f"custom_gradient_{next(_TOKENS)}"
        _GRAD_FNS[token] = grad_fn
        inputs = results + args + reads
        out = apply_op("CustomGradient", inputs,
                       {"num_results": len(results), "token": token,
                        "T": [t.dtype.base_dtype for t in inputs]},
                       name="IdentityN", output_dtypes=[r.dtype.base_dtype for r in results])
        out = [out] if len(results) == 1 and not isinstance(out, list) else list(out)
        return out[0] if single else out

    return decorated


def recompute_grad(f):
    """Decorator: f, whose intermediate results are computed again when the gradient is
    built, instead of being kept from the forward pass (TF's tf.recompute_grad)."""

    @functools.wraps(f)
    def inner(*args):
        from .variable_scope import get_variable_scope, variable_scope
        scope = get_variable_scope()

        @custom_gradient
        def recompute(*args):
            result = f(*args)

            def grad(*dresult, variables=None):
                from .gradients import gradients
                # The recomputation waits for the incoming gradients, so that it happens
                # during the backward pass, not with the forward one.
                with get_default_graph().control_dependencies(dresult), \
                        variable_scope(scope, reuse=True):
                    recomputed = f(*args)
                recomputed = list(recomputed) if isinstance(recomputed, (list, tuple)) \
                    else [recomputed]
                xs = list(args) + list(variables or [])
                grads = gradients(recomputed, xs, grad_ys=list(dresult))
                if variables is None:
                    return grads
                return grads[:len(args)], grads[len(args):]
            return result, grad

        return recompute(*args)

    return inner


def grad_pass_through(f):
    """Decorator: f's results, with the gradient of its i-th result passed unchanged to its
    i-th argument, as if f were the identity (TF's tf.grad_pass_through) -- for a
    non-differentiable f (round, an assign) in a straight-through estimator."""

    @custom_gradient
    def _grad_pass_through_op(*args):
        def grad(*dys, variables=None):
            if variables is not None:
                return list(dys), [None] * len(variables)
            return list(dys)
        return f(*args), grad

    return functools.wraps(f)(_grad_pass_through_op)


def _variables_read(graph, new_ops, args):
    """The variables whose `read` tensors the ops made by the function consume (variables it
    created too) -- not those passed as arguments -- and those tensors, in order of first
    use."""
    by_read = {}
    for key in (GraphKeys.GLOBAL_VARIABLES, GraphKeys.LOCAL_VARIABLES):
        for v in graph.get_collection(key):
            by_read.setdefault(v.value(), v)
    variables, reads = [], []
    for op in new_ops:
        for t in op.inputs:
            v = by_read.get(t)
            if v is not None and t not in reads and not any(t is a for a in args):
                variables.append(v)
                reads.append(t)
    return variables, reads


def _with_variables(grad_fn, variables, n_args):
    """grad_fn(*dys, variables=...) -> (arg grads, var grads), as one flat list."""
    def flat(*dys):
        arg_grads, var_grads = grad_fn(*dys, variables=variables)
        arg_grads = list(arg_grads) if isinstance(arg_grads, (list, tuple)) else [arg_grads]
        var_grads = list(var_grads)
        if len(var_grads) != len(variables):
            raise ValueError(f"The custom gradient function returned {len(var_grads)} "
                             f"variable gradients for {len(variables)} variables.")
        return arg_grads + var_grads
    return flat


def py_function(func, inp, Tout, name=None):
    """Wraps func as an op: func receives the inputs' NumPy values (TF 1.15 gives it eager
    tensors; call .numpy() on none of them here) and returns values of dtypes Tout."""
    return py_func(func, inp, Tout, stateful=True, name=name)


class init_scope:  # noqa: N801 -- TF's name
    """A context whose ops wait for no control dependencies -- where initializers belong.
    (TF also leaves a function graph being built; the sandbox builds cond and while bodies
    as its own function graphs, which capture what is made meanwhile, so it stays.)"""

    def __init__(self):
        self._context = None

    def __enter__(self):
        self._context = get_default_graph().control_dependencies(None)
        self._context.__enter__()
        return None

    def __exit__(self, *exc):
        context, self._context = self._context, None
        return context.__exit__(*exc)

