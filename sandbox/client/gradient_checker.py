"""`tf.test.compute_gradient`, `tf.test.compute_gradient_error` -- mirror TensorFlow 1.15's
python/ops/gradient_checker.py.

They check an op's gradient function against finite differences, in the default session:

    with self.cached_session():
        x = tf.placeholder(tf.float64, [2, 3])
        y = tf.tanh(x)
        err = tf.test.compute_gradient_error(x, [2, 3], y, [2, 3])
        self.assertLess(err, 1e-4)

Both Jacobians treat x and y as flat vectors and have x_size rows and y_size columns
(entry [i, j] = d y_j / d x_i):

  * theoretical: tf.gradients(y, x, grad_ys=dy) run once for every column, with dy one-hot
    (dy is a constant fed for each run, the same trick as TF's);
  * numerical: (y(x + delta e_i) - y(x - delta e_i)) / (2 delta) for every row.

compute_gradient returns (theoretical, numerical) -- a list of such pairs when x is a list;
compute_gradient_error the largest absolute difference between them. x gets random values in
[0, 1) unless x_init_value is given; init_targets (e.g. [tf.global_variables_initializer()])
are run first. Only real dtypes are checked: the Jacobians of complex x or y (TF treats them as
pairs of real numbers) are not computed here.
"""
import numpy as np

from ..framework import dtypes
from ..framework.default_session import get_default_session
from ..framework.indexed_slices import IndexedSlices
from ..framework.tensor import Tensor
from ..ops.control_flow_ops import identity
from ..ops.constant_op import constant
from ..ops.gradients import gradients

__all__ = ["compute_gradient", "compute_gradient_error"]


def _product(t):
    if isinstance(t, int):
        return t
    y = 1
    for x in t:
        y *= x
    return y


def _extra_feeds(extra_feed_dict, new_feeds):
    if not extra_feed_dict:
        return new_feeds
    r = {}
    r.update(extra_feed_dict)
    r.update(new_feeds)
    return r


def _session():
    sess = get_default_session()
    if sess is None:
        raise ValueError("compute_gradient runs in the default session, and there is none: "
                         "call it inside `with self.cached_session():` (in a tf.test.TestCase) "
                         "or `with tf.Session() as sess:`.")
    return sess


def _compute_theoretical_jacobian(x, x_shape, x_data, dy, dy_shape, dx, extra_feed_dict):
    """d y / d x from the graph's gradient ops: x_size rows, dy_size columns, one column per
    run, each with a one-hot dy."""
    x_size = _product(x_shape)
    x_val_size = _product(x_shape[1:])       # for sparse gradients (IndexedSlices rows)
    dy_size = _product(dy_shape)
    jacobian = np.zeros((x_size, dy_size), dtype=x.dtype.base_dtype.as_numpy_dtype)
    dy_data = np.zeros(dy_shape, dtype=dy.dtype.base_dtype.as_numpy_dtype)
    dy_data_flat = dy_data.ravel()
    sess = _session()
    for col in range(dy_size):
        dy_data_flat[col] = 1
        feeds = _extra_feeds(extra_feed_dict, {x: x_data, dy: dy_data})
        if isinstance(dx, IndexedSlices):
            backprop_indices, backprop_values = sess.run([dx.indices, dx.values], feeds)
            for i, v in zip(backprop_indices, backprop_values):
                r_begin = i * x_val_size
                r_end = r_begin + x_val_size
                jacobian[r_begin:r_end, col] += np.asarray(v).flat
        else:
            assert isinstance(dx, Tensor), "dx = " + str(dx)
            backprop = sess.run(dx, feeds)
            jacobian[:, col] = np.asarray(backprop).ravel()
        dy_data_flat[col] = 0

    # If the output is empty, run the gradients at least once and make sure they are zeros.
    if not dy_size:
        backprop = np.asarray(sess.run(dx, _extra_feeds(extra_feed_dict,
                                                        {x: x_data, dy: dy_data})))
        if backprop.shape != x_data.shape:
            raise ValueError("Empty gradient has wrong shape: expected %s, got %s" % (
                x_data.shape, backprop.shape))
        if np.any(backprop):
            raise ValueError("Empty tensor with nonzero gradients")
    return jacobian


def _compute_numeric_jacobian(x, x_shape, x_data, y, y_shape, delta, extra_feed_dict):
    """d y / d x by central differences: x_size rows (one pair of runs each), y_size
    columns."""
    x_size = _product(x_shape)
    y_size = _product(y_shape)
    x_dtype = x.dtype.base_dtype.as_numpy_dtype
    y_dtype = y.dtype.base_dtype.as_numpy_dtype
    x_data = np.asarray(x_data, dtype=x_dtype)
    scale = np.asarray(2 * delta, dtype=y_dtype)[()]
    jacobian = np.zeros((x_size, y_size), dtype=x_dtype)
    sess = _session()
    for row in range(x_size):
        x_pos = x_data.copy()
        x_neg = x_data.copy()
        x_pos.ravel()[row] += delta
        y_pos = np.asarray(sess.run(y, _extra_feeds(extra_feed_dict, {x: x_pos})))
        x_neg.ravel()[row] -= delta
        y_neg = np.asarray(sess.run(y, _extra_feeds(extra_feed_dict, {x: x_neg})))
        diff = (y_pos - y_neg) / scale
        jacobian[row, :] = diff.ravel()
    return jacobian


def _compute_dx_and_dy(x, y, y_shape):
    """The gradient of y with respect to x, and the constant dy fed as its grad_ys."""
    # dy is fed in every run; the Identity keeps the fed tensor apart from what is fetched
    # (for y = x + ..., dx would otherwise be dy itself).
    with x.graph.as_default():
        dy_orig = constant(1.0, shape=y_shape, dtype=y.dtype.base_dtype)
        dy = identity(dy_orig)
    grads = gradients(y, x, dy)
    assert len(grads) == 1
    if grads[0] is None:
        raise ValueError(f"tf.gradients returned None: {y.name!r} does not depend on "
                         f"{x.name!r} through ops with gradients, so there is no Jacobian to "
                         "check.")
    return grads[0], dy_orig


_ALLOWED_TYPES = (dtypes.float16, dtypes.float32, dtypes.float64)


def _compute_gradient(x, x_shape, dx, y, y_shape, dy, x_init_value=None, delta=1e-3,
                      extra_feed_dict=None):
    """The theoretical and the numerical Jacobian of y with respect to one x."""
    t = dtypes.as_dtype(x.dtype)
    assert t.base_dtype in _ALLOWED_TYPES, "Don't support type %s for x" % t.name
    t2 = dtypes.as_dtype(y.dtype)
    assert t2.base_dtype in _ALLOWED_TYPES, "Don't support type %s for y" % t2.name

    if x_init_value is not None:
        i_shape = list(x_init_value.shape)
        assert list(x_shape) == i_shape, "x_shape = %s, init_data shape = %s" % (
            x_shape, i_shape)
        x_data = x_init_value
    else:
        x_data = np.random.random_sample(x_shape).astype(t.base_dtype.as_numpy_dtype)

    jacob_t = _compute_theoretical_jacobian(x, x_shape, x_data, dy, y_shape, dx,
                                            extra_feed_dict=extra_feed_dict)
    jacob_n = _compute_numeric_jacobian(x, x_shape, x_data, y, y_shape, delta,
                                        extra_feed_dict=extra_feed_dict)
    return jacob_t, jacob_n


def _compute_gradient_list(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3,
                           init_targets=None, extra_feed_dict=None):
    """compute_gradient for a list of xs: a list of (theoretical, numerical) pairs."""
    assert isinstance(x, list)
    dx, dy = zip(*[_compute_dx_and_dy(xi, y, y_shape) for xi in x])
    if init_targets is not None:
        assert isinstance(init_targets, (list, tuple))
        for init in init_targets:
            init.run()
    if x_init_value is None:
        x_init_value = [None] * len(x)
    return [_compute_gradient(xi, x_shapei, dxi, y, y_shape, dyi, x_init_valuei, delta,
                              extra_feed_dict=extra_feed_dict)
            for xi, x_shapei, dxi, dyi, x_init_valuei in zip(x, x_shape, dx, dy,
                                                             x_init_value)]


def compute_gradient(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3, init_targets=None,
                     extra_feed_dict=None):
    """The theoretical and the numerical Jacobian of y with respect to x, in the default
    session: two 2-D arrays of x_size rows and y_size columns ([i, j] = d y_j / d x_i). If x
    is a list (x_shape then a list of shapes, x_init_value a list of arrays), a list of such
    pairs.

    x_init_value: where the Jacobians are taken (default: random values in [0, 1)).
    delta: the perturbation of the central differences.
    init_targets: ops run once first (e.g. variable initializers).
    extra_feed_dict: feeds for the other placeholders y depends on.
    """
    if extra_feed_dict is None:
        extra_feed_dict = {}
    if isinstance(x, list):
        return _compute_gradient_list(x, x_shape, y, y_shape, x_init_value, delta,
                                      init_targets, extra_feed_dict=extra_feed_dict)
    if init_targets is not None:
        assert isinstance(init_targets, (list, tuple))
        for init in init_targets:
            init.run()
    dx, dy = _compute_dx_and_dy(x, y, y_shape)
    return _compute_gradient(x, x_shape, dx, y, y_shape, dy, x_init_value, delta,
                             extra_feed_dict=extra_feed_dict)


def _compute_error(grad):
    if isinstance(grad, tuple):
        grad = [grad]
    error = 0
    for j_t, j_n in grad:
        if j_t.size or j_n.size:  # Handle zero size tensors correctly
            error = np.maximum(error, np.fabs(j_t - j_n).max())
    return error


def compute_gradient_error(x, x_shape, y, y_shape, x_init_value=None, delta=1e-3,
                           init_targets=None, extra_feed_dict=None):
    """The largest absolute difference between the theoretical and the numerical Jacobian of
    y with respect to x (every x, when x is a list). Same arguments as compute_gradient."""
    grad = compute_gradient(x, x_shape, y, y_shape, x_init_value, delta, init_targets,
                            extra_feed_dict=extra_feed_dict)
    return _compute_error(grad)
