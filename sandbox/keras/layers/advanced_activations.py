"""keras.layers' activation layers -- mirrors TensorFlow 1.15's
python/keras/layers/advanced_activations.py.

    LeakyReLU(alpha=0.3)          x if x > 0 else alpha * x
    PReLU(alpha_initializer='zeros', shared_axes=None)
                                  the same with a learned `alpha` (weight 'p_re_lu/alpha:0'),
                                  one per entry of an example, or shared along `shared_axes`
    ELU(alpha=1.0)                x if x > 0 else alpha * (exp(x) - 1)
    ThresholdedReLU(theta=1.0)    x if x > theta else 0
    Softmax(axis=-1)              exp(x) / sum(exp(x)) along `axis`
    ReLU(max_value=None, negative_slope=0, threshold=0)
                                  max_value for x >= max_value, x for threshold <= x < max_value,
                                  negative_slope * (x - threshold) otherwise

None has weights but PReLU. The numbers (alpha, theta, ...) are kept as float32, as Keras's
cast_to_floatx keeps them: get_config says 0.30000001192092896 for alpha=0.3.
"""
import numpy as np

from ...layers.base import InputSpec
from ...ops import clip_ops, comparison_ops, math_ops, nn_ops
from .. import backend as K
from .. import initializers, regularizers
from ..engine.base_layer import Layer

__all__ = ["LeakyReLU", "PReLU", "ELU", "ThresholdedReLU", "Softmax", "ReLU"]


def _floatx(value):
    """`value` rounded to keras.backend.floatx(), as a Python float (K.cast_to_floatx)."""
    return float(np.asarray(value, dtype=K.floatx()))


def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """keras.backend.relu of TF 1.15: x above `threshold` (clipped at `max_value`), and
    alpha * (x - threshold) below it."""
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=alpha)
        negative_part = nn_ops.relu(-x + threshold) if threshold != 0 else nn_ops.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * math_ops.cast(comparison_ops.greater(x, threshold), K.floatx())
    elif max_value == 6:
        x = nn_ops.relu6(x)                 # the fused op does the clipping
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        x = clip_ops.clip_by_value(x, 0.0, max_value)
    if alpha != 0.0:
        x -= alpha * negative_part
    return x


class _Activation(Layer):
    """What the activation layers share: the output has the input's shape (and mask)."""
    supports_masking = True


class LeakyReLU(_Activation):
    """LeakyReLU(alpha=0.3): x if x > 0 else alpha * x."""
    _config_keys = ("alpha",)

    def __init__(self, alpha=0.3, **kwargs):
        super().__init__(**kwargs)
        self.alpha = _floatx(alpha)

    def call(self, inputs):
        return relu(inputs, alpha=self.alpha)

class PReLU(_Activation):
    """PReLU(alpha_initializer='zeros', alpha_regularizer=None, alpha_constraint=None,
    shared_axes=None): relu(x) - alpha * relu(-x) with a learned `alpha` of the shape of an
    example; shared_axes=[1, 2] (after a Conv2D) keeps one alpha per channel."""
    _config_keys = ("alpha_initializer", "alpha_regularizer", "alpha_constraint",
                    "shared_axes")

    def __init__(self, alpha_initializer="zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = alpha_constraint
        if shared_axes is None:
            self.shared_axes = None
        elif not isinstance(shared_axes, (list, tuple)):
            self.shared_axes = [shared_axes]
        else:
            self.shared_axes = list(shared_axes)

    def build(self, input_shape):
        input_shape = input_shape.as_list()
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            param_shape[axis - 1] = 1
        self.alpha = self.add_weight(shape=param_shape, name="alpha",
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        # the axes that are not shared must keep the size alpha was made for
        axes = {i: input_shape[i] for i in range(1, len(input_shape))
                if self.shared_axes and i not in self.shared_axes}
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)
        self.built = True

    def call(self, inputs):
        return nn_ops.relu(inputs) - self.alpha * nn_ops.relu(-inputs)


class ELU(_Activation):
    """ELU(alpha=1.0): x if x > 0 else alpha * (exp(x) - 1)."""
    _config_keys = ("alpha",)

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = _floatx(alpha)

    def call(self, inputs):
        res = nn_ops.elu(inputs)
        if self.alpha == 1:
            return res
        return comparison_ops.where(comparison_ops.greater(inputs, 0.0), res, self.alpha * res)

class ThresholdedReLU(_Activation):
    """ThresholdedReLU(theta=1.0): x if x > theta else 0."""
    _config_keys = ("theta",)

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        self.theta = _floatx(theta)

    def call(self, inputs):
        return inputs * math_ops.cast(comparison_ops.greater(inputs, self.theta), K.floatx())

class Softmax(_Activation):
    """Softmax(axis=-1): exp(x) / sum(exp(x)) along `axis`."""
    _config_keys = ("axis",)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs):
        return nn_ops.softmax(inputs, axis=self.axis)


class ReLU(Layer):
    """ReLU(max_value=None, negative_slope=0, threshold=0): with the defaults max(x, 0)."""
    # TF 1.15 sets `self.support_masking` (sic), so its ReLU does not pass a mask on
    supports_masking = False
    _config_keys = ("max_value", "negative_slope", "threshold")

    def __init__(self, max_value=None, negative_slope=0, threshold=0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and max_value < 0.0:
            raise ValueError("max_value of Relu layer cannot be negative value: "
                             + str(max_value))
        if negative_slope < 0.0:
            raise ValueError("negative_slope of Relu layer cannot be negative value: "
                             + str(negative_slope))
        self.max_value = None if max_value is None else _floatx(max_value)
        self.negative_slope = _floatx(negative_slope)
        self.threshold = _floatx(threshold)

    def call(self, inputs):
        return relu(inputs, alpha=self.negative_slope, max_value=self.max_value,
                    threshold=self.threshold)
