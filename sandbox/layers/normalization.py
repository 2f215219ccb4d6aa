"""BatchNormalization -- mirrors TensorFlow 1.15's python/layers/normalization.py (the tf.layers
form of python/keras/layers/normalization.py, BatchNormalizationBase).

    h = tf.layers.batch_normalization(h, training=is_training)
    update_ops = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    with tf.control_dependencies(update_ops):
        train_op = optimizer.minimize(loss)

Each feature (the last axis by default) is normalized with a mean and a variance, then scaled
by gamma and shifted by beta (trainable, 'batch_normalization/gamma' and '/beta'):

  * training=True: the batch's own mean and (biased) variance. The layer also makes update
    ops, moving_mean -= (moving_mean - batch_mean) * (1 - momentum) and the same for
    moving_variance, and puts them in tf.GraphKeys.UPDATE_OPS. Nothing runs them unless the
    program does (the control dependency above): forget it and the moving statistics stay at
    their initial 0 and 1.
  * training=False (the default): moving_mean and moving_variance (non-trainable variables).

TF 1.15 computes a 4-D input with axis 1 or 3 with its fused kernel (FusedBatchNormV3), whose
batch variance -- used for the moving variance, not for the output -- carries Bessel's
correction n / (n - 1), n = the entries per feature; other inputs use tf.nn.moments (no
correction). The sandbox computes both with moments and applies the correction where TF's
fused kernel would, so the moving variances match TF's (measured with TF 1.15).
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops import array_ops, init_ops, math_ops, nn_impl, state_ops
from .base import InputSpec, Layer, select_on, training_value

__all__ = ["BatchNormalization", "batch_normalization"]


class BatchNormalization(Layer):
    """Batch normalization layer (Ioffe and Szegedy, 2015)."""
    _fused_ranks = (4,)           # the input ranks TF computes with its fused kernel
    _beta_first_ranks = ()        # ... and those whose beta is made before gamma

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer=init_ops.zeros_initializer(),
                 gamma_initializer=init_ops.ones_initializer(),
                 moving_mean_initializer=init_ops.zeros_initializer(),
                 moving_variance_initializer=init_ops.ones_initializer(),
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, renorm=False, renorm_clipping=None,
                 renorm_momentum=0.99, fused=None, trainable=True, virtual_batch_size=None,
                 adjustment=None, name=None, **kwargs):
        super().__init__(name=name, trainable=trainable, **kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(f"axis must be int or list, type given: {type(axis)}")
        for option, value in (("renorm", renorm), ("virtual_batch_size", virtual_batch_size),
                              ("adjustment", adjustment)):
            if value:
                raise NotImplementedError(f"BatchNormalization {self.name}: {option}= is not "
                                          "supported by the sandbox; leave it at its default.")
        self.momentum = momentum
        self.epsilon = epsilon
        self.center = center
        self.scale = scale
        self.beta_initializer = beta_initializer
        self.gamma_initializer = gamma_initializer
        self.moving_mean_initializer = moving_mean_initializer
        self.moving_variance_initializer = moving_variance_initializer
        self.beta_regularizer = beta_regularizer
        self.gamma_regularizer = gamma_regularizer
        self.beta_constraint = beta_constraint
        self.gamma_constraint = gamma_constraint
        self.renorm = renorm
        self.virtual_batch_size = virtual_batch_size
        self.adjustment = adjustment
        axes = [self.axis] if isinstance(self.axis, int) else self.axis
        can_fuse = len(axes) == 1 and axes[0] in (-3, -1, 1, 3)
        if fused and not can_fuse:
            raise ValueError("Passing fused=True is only supported when axis is 1 or 3")
        self.fused = True if fused is None else fused
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        input_shape = TensorShape(input_shape)
        if not input_shape.ndims:
            raise ValueError(f"Input has undefined rank: {input_shape}")
        ndims = input_shape.ndims
        self.axis = [self.axis] if isinstance(self.axis, int) else list(self.axis)
        self.axis = [x + ndims if x < 0 else x for x in self.axis]
        for x in self.axis:
            if x < 0 or x >= ndims:
                raise ValueError(f"Invalid axis: {x}")
        if len(self.axis) != len(set(self.axis)):
            raise ValueError(f"Duplicate axis: {self.axis}")
        # TF 1.15 (v1 layers): the fused kernel for 4-D input with a channel axis of 1 or 3.
        self.fused = bool(self.fused) and ndims in self._fused_ranks and \
            len(self.axis) == 1 and self.axis[0] in (1, ndims - 1)
        axis_to_dim = {x: input_shape[x].value for x in self.axis}
        for x, dim in axis_to_dim.items():
            if dim is None:
                raise ValueError(f"Input has undefined `axis` dimension. Input shape: "
                                 f"{input_shape}")
        self.input_spec = InputSpec(ndim=ndims, axes=axis_to_dim)
        if len(axis_to_dim) == 1:
            param_shape = [list(axis_to_dim.values())[0]]
        else:
            param_shape = [axis_to_dim.get(i, 1) for i in range(ndims)]
        param_dtype = self.dtype if self.dtype in (_dtypes.float32, _dtypes.float64) \
            else _dtypes.float32
        params = ["gamma", "beta"] if ndims not in self._beta_first_ranks else ["beta", "gamma"]
        for param in params:
            if param == "gamma" and self.scale:
                self.gamma = self.add_weight("gamma", shape=param_shape, dtype=param_dtype,
                                             initializer=self.gamma_initializer,
                                             regularizer=self.gamma_regularizer,
                                             constraint=self.gamma_constraint, trainable=True)
            if param == "beta" and self.center:
                self.beta = self.add_weight("beta", shape=param_shape, dtype=param_dtype,
                                            initializer=self.beta_initializer,
                                            regularizer=self.beta_regularizer,
                                            constraint=self.beta_constraint, trainable=True)
        self.moving_mean = self.add_weight("moving_mean", shape=param_shape, dtype=param_dtype,
                                           initializer=self.moving_mean_initializer,
                                           trainable=False)
        self.moving_variance = self.add_weight("moving_variance", shape=param_shape,
                                               dtype=param_dtype,
                                               initializer=self.moving_variance_initializer,
                                               trainable=False)
        self.built = True

    def _assign_moving_average(self, variable, value):
        """variable -= (variable - value) * (1 - momentum), named AssignMovingAvg."""
        g = get_default_graph()
        with g.name_scope("AssignMovingAvg") as scope, g.colocate_with(variable.op):
            decay = convert_to_tensor(1.0 - self.momentum, name="decay")
            if decay.dtype.base_dtype != variable.dtype.base_dtype:
                decay = math_ops.cast(decay, variable.dtype.base_dtype)
            delta = math_ops.multiply(
                math_ops.subtract(variable, math_ops.cast(value, variable.dtype.base_dtype)),
                decay)
            return state_ops.assign_sub(variable, delta, name=scope)

    def _bessel(self, inputs, variance):
        """variance * n / (n - 1), n = entries of `inputs` per feature (TF's fused kernel)."""
        shape = inputs.get_shape()
        per_feature = shape.num_elements() // variance.get_shape().num_elements() \
            if shape.is_fully_defined() else None
        if per_feature is not None:
            return variance * (per_feature / max(per_feature - 1.0, 1.0))
        n = math_ops.cast(math_ops.truediv(array_ops.size(inputs), array_ops.size(variance)),
                          variance.dtype.base_dtype)
        return variance * (n / (n - 1.0))

    def call(self, inputs, training=False):
        input_shape = inputs.get_shape()
        ndims = input_shape.ndims
        reduction_axes = [i for i in range(ndims) if i not in self.axis]
        broadcast_shape = [1] * ndims
        broadcast_shape[self.axis[0]] = input_shape[self.axis[0]].value

        def broadcast(v):
            if v is not None and v.get_shape().ndims != ndims and \
                    reduction_axes != list(range(ndims - 1)):
                return array_ops.reshape(v, broadcast_shape)
            return v

        value = training_value(training)
        if value is False:
            mean, variance = self.moving_mean, self.moving_variance
        else:
            keep_dims = len(self.axis) > 1
            batch_mean, batch_variance = nn_impl.moments(
                math_ops.cast(inputs, self.moving_mean.dtype.base_dtype), reduction_axes,
                keep_dims=keep_dims)
            moving_mean = convert_to_tensor(self.moving_mean)
            moving_variance = convert_to_tensor(self.moving_variance)
            mean = select_on(training, lambda: batch_mean, lambda: moving_mean)
            variance = select_on(training, lambda: batch_variance, lambda: moving_variance)
            new_variance = variance
            if self.fused:
                new_variance = select_on(
                    training, lambda: self._bessel(inputs, batch_variance),
                    lambda: moving_variance)
            self.add_update(self._assign_moving_average(self.moving_mean, mean))
            self.add_update(self._assign_moving_average(self.moving_variance, new_variance))
        dtype = inputs.dtype.base_dtype
        mean = math_ops.cast(mean, dtype)
        variance = math_ops.cast(variance, dtype)
        offset = None if self.beta is None else math_ops.cast(self.beta, dtype)
        scale = None if self.gamma is None else math_ops.cast(self.gamma, dtype)
        outputs = nn_impl.batch_normalization(inputs, broadcast(mean), broadcast(variance),
                                              broadcast(offset), broadcast(scale),
                                              self.epsilon)
        outputs.set_shape(input_shape)
        return outputs

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape)


def batch_normalization(inputs, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                        beta_initializer=init_ops.zeros_initializer(),
                        gamma_initializer=init_ops.ones_initializer(),
                        moving_mean_initializer=init_ops.zeros_initializer(),
                        moving_variance_initializer=init_ops.ones_initializer(),
                        beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                        gamma_constraint=None, training=False, trainable=True, name=None,
                        reuse=None, renorm=False, renorm_clipping=None, renorm_momentum=0.99,
                        fused=None, virtual_batch_size=None, adjustment=None):
    """The functional form of BatchNormalization. Its update ops go to
    tf.GraphKeys.UPDATE_OPS: run them with the train op (see the module docstring)."""
    layer = BatchNormalization(
        axis=axis, momentum=momentum, epsilon=epsilon, center=center, scale=scale,
        beta_initializer=beta_initializer, gamma_initializer=gamma_initializer,
        moving_mean_initializer=moving_mean_initializer,
        moving_variance_initializer=moving_variance_initializer,
        beta_regularizer=beta_regularizer, gamma_regularizer=gamma_regularizer,
        beta_constraint=beta_constraint, gamma_constraint=gamma_constraint, renorm=renorm,
        renorm_clipping=renorm_clipping, renorm_momentum=renorm_momentum, fused=fused,
        trainable=trainable, virtual_batch_size=virtual_batch_size, adjustment=adjustment,
        name=name, _reuse=reuse, _scope=name)
    return layer.apply(inputs, training=training)
