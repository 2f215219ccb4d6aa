"""keras.initializers -- mirrors TensorFlow 1.15's python/keras/initializers.py.

The classes are tf's (ops/init_ops.py), with Keras's defaults where they differ
(RandomUniform in [-0.05, 0.05], RandomNormal and TruncatedNormal with stddev 0.05).
`get('glorot_uniform')` turns the names that layers accept into initializers;
serialize / deserialize are what a saved model's config holds:
{'class_name': 'GlorotUniform', 'config': {'seed': None, 'dtype': 'float32'}} (TF 1.15's
v1 initializers keep their dtype in the config).
"""
from ..ops import init_ops
from ..ops.random_extra_ops import Orthogonal
from .serialization import deserialize_keras_object

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
           "TruncatedNormal", "VarianceScaling", "GlorotUniform", "GlorotNormal",
           "he_normal", "he_uniform", "lecun_normal", "lecun_uniform", "Orthogonal", "Identity",
           "identity", "get", "serialize", "deserialize"]

Initializer = init_ops.Initializer
Zeros = init_ops.Zeros
Ones = init_ops.Ones
Constant = init_ops.Constant
VarianceScaling = init_ops.VarianceScaling
Identity = init_ops.Identity
GlorotUniform = init_ops.GlorotUniform
GlorotNormal = init_ops.GlorotNormal
he_normal = init_ops.he_normal
he_uniform = init_ops.he_uniform
lecun_normal = init_ops.lecun_normal
lecun_uniform = init_ops.lecun_uniform


class RandomUniform(init_ops.RandomUniform):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None, dtype=None):
        super().__init__(minval=minval, maxval=maxval, seed=seed,
                         **({} if dtype is None else {"dtype": dtype}))


class RandomNormal(init_ops.RandomNormal):
    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=None):
        super().__init__(mean=mean, stddev=stddev, seed=seed,
                         **({} if dtype is None else {"dtype": dtype}))


class TruncatedNormal(init_ops.TruncatedNormal):
    def __init__(self, mean=0.0, stddev=0.05, seed=None, dtype=None):
        super().__init__(mean=mean, stddev=stddev, seed=seed,
                         **({} if dtype is None else {"dtype": dtype}))


zeros = Zeros
ones = Ones
constant = Constant
uniform = random_uniform = RandomUniform
normal = random_normal = RandomNormal
truncated_normal = TruncatedNormal
glorot_uniform = GlorotUniform
glorot_normal = GlorotNormal
orthogonal = Orthogonal
identity = Identity

_BY_NAME = {
    "zeros": Zeros, "zero": Zeros, "ones": Ones, "one": Ones, "constant": Constant,
    "random_uniform": RandomUniform, "uniform": RandomUniform,
    "random_normal": RandomNormal, "normal": RandomNormal,
    "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
    "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
    "he_normal": he_normal, "he_uniform": he_uniform,
    "lecun_normal": lecun_normal, "lecun_uniform": lecun_uniform,
    "orthogonal": Orthogonal, "identity": Identity,
}


_CLASSES = {cls.__name__: cls for cls in (Zeros, Ones, Constant, RandomUniform, RandomNormal,
                                         TruncatedNormal, VarianceScaling, GlorotUniform,
                                         GlorotNormal, Orthogonal, Identity)}


def deserialize(config, custom_objects=None):
    """The initializer of {'class_name': 'GlorotUniform', 'config': {...}} (or of a name)."""
    if isinstance(config, str):
        return get(config)
    return deserialize_keras_object(config, module_objects=_CLASSES,
                                    custom_objects=custom_objects,
                                    printable_module_name="initializer")


def get(identifier):
    """None, an initializer, the name of one ('glorot_uniform', 'zeros' ...) or its
    serialized dict."""
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if identifier is None or callable(identifier) and not isinstance(identifier, type):
        return identifier
    if isinstance(identifier, type):
        return identifier()
    if isinstance(identifier, str):
        key = identifier if identifier in _BY_NAME else identifier.lower()
        if key in _BY_NAME:
            return _BY_NAME[key]()
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def serialize(initializer):
    if initializer is None:
        return None
    return {"class_name": type(initializer).__name__,
            "config": getattr(initializer, "get_config", dict)()}
