"""keras.layers' noise layers -- mirrors TensorFlow 1.15's python/keras/layers/noise.py.

    GaussianNoise(stddev)     x + N(0, stddev)                    (additive noise)
    GaussianDropout(rate)     x * N(1, sqrt(rate / (1 - rate)))   (multiplicative noise)
    AlphaDropout(rate)        drops entries to SELU's negative saturation value, then an
                              affine map keeps the mean and variance (for selu networks)

They are regularizers: noisy while training -- when `training=True`, or, not told, when
keras.backend.learning_phase() is (fit feeds it True) -- and the identity otherwise, so
evaluate and predict see the inputs unchanged. Each run draws new noise. As Keras's
random_normal / random_uniform do, an op without a seed gets one from numpy's generator.
"""
import numpy as np

from ...layers.base import select_on
from ...ops import array_ops, comparison_ops, math_ops, random_ops
from ...ops.control_flow_ops import identity
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["GaussianNoise", "GaussianDropout", "AlphaDropout"]


def _seed(seed):
    """Keras's backend draws the seed of a random op from numpy when it is given none."""
    return np.random.randint(10e6) if seed is None else seed


class _Noise(Layer):
    """What the noise layers share: masks pass through, and in_train_phase -- noisy() in
    training, the inputs (an identity op) at inference."""
    supports_masking = True

    def _in_train_phase(self, noisy, inputs, training):
        if training is None:
            training = K.learning_phase()
        return select_on(training, noisy, lambda: identity(inputs))

    @classmethod
    def from_config(cls, config):
        # TF 2.x writes 'seed' (None) for GaussianNoise / GaussianDropout, which TF 1.15's
        # layers do not take; read such files too
        config = dict(config)
        if "seed" not in cls._config_keys and config.get("seed", 0) is None:
            del config["seed"]
        return super().from_config(config)


class GaussianNoise(_Noise):
    """GaussianNoise(stddev): adds zero-centered Gaussian noise while training."""
    _config_keys = ("stddev",)

    def __init__(self, stddev, **kwargs):
        super().__init__(**kwargs)
        self.stddev = stddev

    def call(self, inputs, training=None):
        def noised():
            return inputs + random_ops.random_normal(array_ops.shape(inputs), mean=0.0,
                                                     stddev=self.stddev, dtype=K.floatx(),
                                                     seed=_seed(None))
        return self._in_train_phase(noised, inputs, training)


class GaussianDropout(_Noise):
    """GaussianDropout(rate): multiplies by 1-centered Gaussian noise of standard deviation
    sqrt(rate / (1 - rate)) while training (the identity unless 0 < rate < 1)."""
    _config_keys = ("rate",)

    def __init__(self, rate, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate

    def call(self, inputs, training=None):
        if not 0 < self.rate < 1:
            return identity(inputs)

        def noised():
            stddev = np.sqrt(self.rate / (1.0 - self.rate))
            return inputs * random_ops.random_normal(array_ops.shape(inputs), mean=1.0,
                                                     stddev=stddev, dtype=K.floatx(),
                                                     seed=_seed(None))
        return self._in_train_phase(noised, inputs, training)


class AlphaDropout(_Noise):
    """AlphaDropout(rate, noise_shape=None, seed=None): sets a fraction `rate` of the inputs
    to -alpha * scale (SELU's limit for x -> -inf), then a * x + b restores the mean and
    variance of a standard-normal input. get_config keeps only `rate`, as in TF 1.15."""
    _config_keys = ("rate",)

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed

    def call(self, inputs, training=None):
        if not 0.0 < self.rate < 1.0:
            return identity(inputs)
        noise_shape = self.noise_shape if self.noise_shape else array_ops.shape(inputs)

        def dropped_inputs(rate=self.rate):
            alpha = 1.6732632423543772848170429916717
            scale = 1.0507009873554804934193349852946
            alpha_p = -alpha * scale
            kept_idx = comparison_ops.greater_equal(
                random_ops.random_uniform(noise_shape, dtype=K.floatx(),
                                          seed=_seed(self.seed)), rate)
            kept_idx = math_ops.cast(kept_idx, K.floatx())
            # the affine map that keeps mean 0 and variance 1
            a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
            b = -a * alpha_p * rate
            x = inputs * kept_idx + alpha_p * (1 - kept_idx)
            return a * x + b
        return self._in_train_phase(dropped_inputs, inputs, training)
