"""keras.backend's tensor functions -- mirrors the math and array parts of TensorFlow 1.15's
python/keras/backend.py (keras/backend.py re-exports them; the network parts are in
backend_nn.py).

Each is a thin, Keras-flavoured wrapper over a sandbox op: Keras names (`sum`, `mean`,
`concatenate`, `permute_dimensions`), `axis` and `keepdims` spelled the Keras way, and bool
tensors cast to floatx where a mean or a variance needs numbers:

    K.sum(x, axis=1, keepdims=True)          # tf.reduce_sum
    K.batch_dot(x, y, axes=(1, 2))           # a matmul per sample
    K.switch(K.greater(x, 0), x, -x)         # tf.where (tf.cond for a scalar condition)
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework.tensor import convert_to_tensor
from ..ops import (array_ops, basic_math_ops, clip_ops, comparison_ops, control_flow_ops,
                   functional_ops, indexing_ops, math_extra_ops, math_ops,
                   matmul_ops, reduction_ops, slicing_ops, state_ops)
from ..ops.cond_v2 import cond as _cond
from ..train.moving_averages import assign_moving_average
from .backend_core import floatx, variable

__all__ = ["abs", "all", "any", "arange", "argmax", "argmin", "batch_dot", "batch_flatten",
           "cast", "cast_to_floatx", "clip", "concatenate", "cos", "cumprod", "cumsum", "dot",
           "equal", "exp", "expand_dims", "eye", "flatten", "foldl", "foldr", "gather",
           "greater", "greater_equal", "less", "less_equal", "log", "map_fn", "max", "maximum",
           "mean", "min", "minimum", "moving_average_update", "not_equal", "one_hot",
           "ones_like", "permute_dimensions", "pow", "prod", "repeat", "repeat_elements",
           "reshape", "reverse", "round", "shape", "sign", "sin", "sqrt", "square", "squeeze",
           "stack", "std", "stop_gradient", "sum", "switch", "tile", "transpose", "update",
           "update_add", "update_sub", "var", "zeros_like", "identity", "print_tensor",
           "is_sparse", "to_dense"]

_py_any = any                             # the builtin (this module defines K.any)


def _floatx():
    return floatx()


def _numeric(x):
    """x, with bools cast to floatx (Keras averages bools as 0/1)."""
    x = convert_to_tensor(x)
    return math_ops.cast(x, _floatx()) if x.dtype.base_dtype == _dtypes.bool else x


# -- element-wise ----------------------------------------------------------------------------

def abs(x):                                            # noqa: A001 (Keras's names)
    return basic_math_ops.abs(x)


def sqrt(x):
    """sqrt(max(x, 0)): negative inputs give 0, not nan (as Keras)."""
    x = convert_to_tensor(x)
    zero = math_ops.cast(0.0, x.dtype.base_dtype)
    return basic_math_ops.sqrt(clip_ops.clip_by_value(x, zero, np.inf))


def square(x):
    return basic_math_ops.square(x)


def exp(x):
    return basic_math_ops.exp(x)


def log(x):
    return basic_math_ops.log(x)


def round(x):                                          # noqa: A001
    return math_ops.round(x)


def sign(x):
    return basic_math_ops.sign(x)


def pow(x, a):                                         # noqa: A001
    return math_ops.pow(x, a)


def sin(x):
    return basic_math_ops.sin(x)


def cos(x):
    return basic_math_ops.cos(x)


def maximum(x, y):
    return basic_math_ops.maximum(x, y)


def minimum(x, y):
    return basic_math_ops.minimum(x, y)


def clip(x, min_value, max_value):
    """clip_by_value; a max below the min is raised to the min, None means unbounded."""
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) \
            and max_value < min_value:
        max_value = min_value
    min_value = -np.inf if min_value is None else min_value
    max_value = np.inf if max_value is None else max_value
    return clip_ops.clip_by_value(x, min_value, max_value)


def equal(x, y):
    return comparison_ops.equal(x, y)


def not_equal(x, y):
    return comparison_ops.not_equal(x, y)


def greater(x, y):
    return comparison_ops.greater(x, y)


def greater_equal(x, y):
    return comparison_ops.greater_equal(x, y)


def less(x, y):
    return comparison_ops.less(x, y)


def less_equal(x, y):
    return comparison_ops.less_equal(x, y)


def cast(x, dtype):
    return math_ops.cast(x, dtype)


def cast_to_floatx(x):
    """A numpy array of floatx (Keras's cast_to_floatx works on numpy values)."""
    return np.asarray(x, dtype=_floatx())


def stop_gradient(variables):
    if isinstance(variables, (list, tuple)):
        return [control_flow_ops.stop_gradient(v) for v in variables]
    return control_flow_ops.stop_gradient(variables)


def identity(x, name=None):
    return control_flow_ops.identity(x, name=name)


def zeros_like(x, dtype=None, name=None):
    return array_ops.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    return array_ops.ones_like(x, dtype=dtype, name=name)


# -- reductions ------------------------------------------------------------------------------

def max(x, axis=None, keepdims=False):                 # noqa: A001
    return reduction_ops.reduce_max(x, axis, keepdims=keepdims)


def min(x, axis=None, keepdims=False):                 # noqa: A001
    return reduction_ops.reduce_min(x, axis, keepdims=keepdims)


def sum(x, axis=None, keepdims=False):                 # noqa: A001
    return reduction_ops.reduce_sum(x, axis, keepdims=keepdims)


def prod(x, axis=None, keepdims=False):
    return reduction_ops.reduce_prod(x, axis, keepdims=keepdims)


def mean(x, axis=None, keepdims=False):
    return reduction_ops.reduce_mean(_numeric(x), axis, keepdims=keepdims)


def var(x, axis=None, keepdims=False):
    return math_extra_ops.reduce_variance(_numeric(x), axis=axis, keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    return math_extra_ops.reduce_std(_numeric(x), axis=axis, keepdims=keepdims)


def all(x, axis=None, keepdims=False):                 # noqa: A001
    return reduction_ops.reduce_all(math_ops.cast(x, _dtypes.bool), axis, keepdims=keepdims)


def any(x, axis=None, keepdims=False):                 # noqa: A001
    return reduction_ops.reduce_any(math_ops.cast(x, _dtypes.bool), axis, keepdims=keepdims)


def argmax(x, axis=-1):
    return reduction_ops.argmax(x, axis)


def argmin(x, axis=-1):
    return reduction_ops.argmin(x, axis)


def cumsum(x, axis=0):
    return reduction_ops.cumsum(x, axis=axis)


def cumprod(x, axis=0):
    return math_extra_ops.cumprod(x, axis=axis)


# -- shapes and arrangement ------------------------------------------------------------------

def shape(x):
    """The dynamic shape (an int32 tensor); int_shape is the static one."""
    return array_ops.shape(x)


def reshape(x, shape):                                 # noqa: F811 (Keras's argument name)
    return array_ops.reshape(x, shape)


def permute_dimensions(x, pattern):
    return array_ops.transpose(x, perm=pattern)


def transpose(x):
    return array_ops.transpose(x)


def expand_dims(x, axis=-1):
    return array_ops.expand_dims(x, axis)


def squeeze(x, axis):
    return array_ops.squeeze(x, [axis])


def flatten(x):
    return array_ops.reshape(x, [-1])


def batch_flatten(x):
    """[batch, ...] -> [batch, product of the rest]."""
    return array_ops.reshape(x, array_ops.stack([-1, prod(shape(x)[1:])]))


def concatenate(tensors, axis=-1):
    """concat along `axis` (a negative axis counts from the end of the first tensor)."""
    if axis < 0:
        rank = tensors[0].get_shape().ndims
        axis = axis % rank if rank else 0
    return slicing_ops.concat([convert_to_tensor(t) for t in tensors], axis)


def stack(x, axis=0):
    return array_ops.stack(x, axis=axis)


def tile(x, n):
    return slicing_ops.tile(x, [n] if isinstance(n, int) else n)


def repeat(x, n):
    """[batch, dim] -> [batch, n, dim] (RepeatVector)."""
    if x.get_shape().ndims != 2:
        raise ValueError("repeat: x must be 2-D [batch, dim], got rank "
                         f"{x.get_shape().ndims}")
    return slicing_ops.tile(array_ops.expand_dims(x, 1), array_ops.stack([1, n, 1]))


def repeat_elements(x, rep, axis):
    """Each slice of x along `axis` repeated `rep` times (np.repeat); the axis must have a
    static length here."""
    length = x.get_shape().as_list()[axis]
    if length is None:
        raise ValueError("repeat_elements needs the length of the axis to be known; reshape "
                         "x to a static shape first.")
    splits = slicing_ops.split(x, length, axis=axis)
    return concatenate([s for s in splits for _ in range(rep)], axis)


def reverse(x, axes):
    return array_ops.reverse_v2(x, [axes] if isinstance(axes, int) else list(axes))


def arange(start, stop=None, step=1, dtype="int32"):
    """range(start, stop, step); arange(-3) is empty, as in numpy."""
    if stop is None and start < 0:
        start = 0
    result = array_ops.range(start, limit=stop, delta=step, name="arange")
    return result if dtype == "int32" else math_ops.cast(result, dtype)


def eye(size, dtype=None, name=None):
    """An identity-matrix variable (size = n or (rows, cols))."""
    rows, cols = (size, size) if isinstance(size, int) else size
    return variable(np.eye(rows, cols), dtype, name)


def one_hot(indices, num_classes):
    return indexing_ops.one_hot(indices, depth=num_classes, axis=-1)


def gather(reference, indices):
    return indexing_ops.gather(reference, indices)


# -- products --------------------------------------------------------------------------------

def dot(x, y):
    """x . y contracting x's last axis with y's second to last (numpy.dot for N-D)."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    if x.get_shape().ndims > 2 or y.get_shape().ndims > 2:
        x_shape = _mixed_shape(x)
        y_shape = _mixed_shape(y)
        perm = list(range(len(y_shape)))
        perm = [perm.pop(-2)] + perm
        xt = array_ops.reshape(x, [-1, x_shape[-1]])
        yt = array_ops.reshape(array_ops.transpose(y, perm=perm), [y_shape[-2], -1])
        return array_ops.reshape(matmul_ops.matmul(xt, yt),
                                 x_shape[:-1] + y_shape[:-2] + y_shape[-1:])
    return matmul_ops.matmul(x, y)


def _mixed_shape(x):
    """The static dimensions where known, the dynamic ones elsewhere."""
    dynamic = array_ops.unstack(array_ops.shape(x))
    return tuple(d if d is not None else s
                 for d, s in zip(x.get_shape().as_list(), dynamic))


def batch_dot(x, y, axes=None):
    """dot per sample: x[i] . y[i] summed over axes[0] of x and axes[1] of y (never 0)."""
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    x_shape, y_shape = tuple(x.get_shape().as_list()), tuple(y.get_shape().as_list())
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError("Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {x_shape} and {y_shape}.")
    if None not in (x_shape[0], y_shape[0]) and x_shape[0] != y_shape[0]:
        raise ValueError("Cannot do batch_dot on inputs with different batch sizes. "
                         f"Received inputs with shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1 if y_ndim == 2 else y_ndim - 2]
    if _py_any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError("Multiple target dimensions are not supported. Expected: None, int, "
                         f"(int, int), Provided: {axes}")
    a0, a1 = (axes[0] + x_ndim if axes[0] < 0 else axes[0],
              axes[1] + y_ndim if axes[1] < 0 else axes[1])
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not batched,"
                         " add a dummy batch dimension to your inputs using K.expand_dims(x, 0)")
    d1, d2 = x_shape[a0], y_shape[a1]
    if None not in (d1, d2) and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} "
                         f"with axes={[a0, a1]}. x.shape[{a0}] != y.shape[{a1}] ({d1} != {d2}).")
    if x_ndim == 2:                       # [b, n] -> [b, 1, n]
        x, a0, x_ndim = array_ops.expand_dims(x, 1), a0 + 1, 3
    if y_ndim == 2:                       # [b, n] -> [b, n, 1]
        y, y_ndim = array_ops.expand_dims(y, 2), 3
    if a0 != x_ndim - 1:                  # the summed axis last in x ...
        pattern = [i for i in range(x_ndim) if i != a0] + [a0]
        x = array_ops.transpose(x, pattern)
    if a1 != 1:                           # ... and second in y
        pattern = [0, a1] + [i for i in range(1, y_ndim) if i != a1]
        y = array_ops.transpose(y, pattern)
    x_mid = y_trail = None
    if x_ndim > 3:                        # squash to 3-D for one batched matmul
        xs = array_ops.shape(x)
        x_mid = xs[1:-1]
        x = array_ops.reshape(x, array_ops.stack([xs[0], -1, xs[-1]]))
    if y_ndim > 3:
        ys = array_ops.shape(y)
        y_trail = ys[2:]
        y = array_ops.reshape(y, array_ops.stack([ys[0], ys[1], -1]))
    result = matmul_ops.matmul(x, y)
    out_shape = array_ops.shape(result)
    if x_mid is not None:
        out_shape = slicing_ops.concat([out_shape[:1], x_mid, out_shape[-1:]], 0)
    if y_trail is not None:
        out_shape = slicing_ops.concat([out_shape[:-1], y_trail], 0)
    if x_mid is not None or y_trail is not None:
        result = array_ops.reshape(result, out_shape)
    if len(x_shape) == 2:
        result = array_ops.squeeze(result, [1])
    elif len(y_shape) == 2:
        result = array_ops.squeeze(result, [-1])
    return result


# -- control flow ----------------------------------------------------------------------------

def switch(condition, then_expression, else_expression):
    """then_expression where condition, else else_expression: tf.cond for a scalar condition
    (the expressions may be callables), tf.where element-wise otherwise."""
    condition = convert_to_tensor(condition)
    if condition.dtype.base_dtype != _dtypes.bool:
        condition = math_ops.cast(condition, _dtypes.bool)
    cond_ndim = condition.get_shape().ndims
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else lambda: then_expression
        else_fn = else_expression if callable(else_expression) else lambda: else_expression
        return _cond(condition, then_fn, else_fn)
    then_expression = then_expression() if callable(then_expression) else then_expression
    else_expression = else_expression() if callable(else_expression) else else_expression
    then_expression = convert_to_tensor(then_expression)
    expr_ndim = then_expression.get_shape().ndims
    if cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of "
                         f"`then_expression` and `else_expression`. ndim(condition)={cond_ndim}"
                         f", ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:                     # broadcast the condition over the trailing axes
        ones = np.ones([expr_ndim - cond_ndim], np.int32)
        cond_shape = slicing_ops.concat([array_ops.shape(condition), ones], axis=0)
        condition = array_ops.reshape(condition, cond_shape)
        expr_shape = array_ops.shape(then_expression)
        tiles = comparison_ops.where(comparison_ops.greater(expr_shape - cond_shape, 0),
                                     expr_shape, array_ops.ones_like(expr_shape))
        condition = slicing_ops.tile(condition, tiles)
    return comparison_ops.where(condition, then_expression, else_expression)


def map_fn(fn, elems, name=None, dtype=None):
    return functional_ops.map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn, elems, initializer=None, name=None):
    return functional_ops.foldl(fn, elems, initializer=initializer, name=name)


def foldr(fn, elems, initializer=None, name=None):
    return functional_ops.foldr(fn, elems, initializer=initializer, name=name)


# -- variables -------------------------------------------------------------------------------

def update(x, new_x):
    return state_ops.assign(x, new_x)


def update_add(x, increment):
    return state_ops.assign_add(x, increment)


def update_sub(x, decrement):
    return state_ops.assign_sub(x, decrement)


def moving_average_update(x, value, momentum):
    """x = momentum * x + (1 - momentum) * value, zero-debiased (TF 1.15's)."""
    return assign_moving_average(x, value, momentum, zero_debias=True)


# -- sparse and debugging --------------------------------------------------------------------

def is_sparse(tensor):
    from ..framework.sparse_tensor import SparseTensor
    return isinstance(tensor, SparseTensor)


def to_dense(tensor):
    if is_sparse(tensor):
        from ..ops.sparse_ops import sparse_tensor_to_dense
        return sparse_tensor_to_dense(tensor)
    return tensor


def print_tensor(x, message=""):
    """x, printing `message` and its value whenever it is computed (tf.Print)."""
    from ..ops.logging_ops import Print
    return Print(x, [x], message)
