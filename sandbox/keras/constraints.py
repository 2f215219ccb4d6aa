"""keras.constraints -- mirrors TensorFlow 1.15's python/keras/constraints.py.

A constraint maps a weight to the nearest weight that obeys a rule (a bounded norm, no
negative entries ...). A layer given one (kernel_constraint=, bias_constraint=,
embeddings_constraint= ...) hands it to its variable, and the optimizer re-imposes it after
every update -- `var.assign(constraint(var))`, run once the step's update has run (sandbox/
train/optimizer.py, _apply_update, as TF's optimizers do):

    keras.layers.Dense(64, kernel_constraint=keras.constraints.max_norm(2.))
    # after each training step every column of the kernel has an L2 norm of at most 2

Norms are taken over `axis` (default 0: for a Dense kernel of shape (input_dim, units), the
weights coming into one unit). Layers also take the names ('max_norm', 'non_neg', ...) and
the {'class_name', 'config'} dicts that serialize writes.
"""
import numpy as np

from ..ops import array_ops, basic_math_ops, clip_ops, comparison_ops, indexing_ops, math_ops
from ..ops import reduction_ops
from . import backend as K
from .serialization import deserialize_keras_object, serialize_keras_object

__all__ = ["Constraint", "MaxNorm", "NonNeg", "UnitNorm", "MinMaxNorm", "RadialConstraint",
           "max_norm", "non_neg", "unit_norm", "min_max_norm", "radial_constraint", "get",
           "serialize", "deserialize"]


class Constraint:
    """Base class: a callable from a weight tensor to the constrained tensor (the identity
    here)."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}


def _norms(w, axis):
    """The L2 norms of w along `axis`, kept as axes of size 1 (so they broadcast against w)."""
    return basic_math_ops.sqrt(reduction_ops.reduce_sum(basic_math_ops.square(w), axis=axis,
                                                        keepdims=True))


def _clip(x, min_value, max_value):
    """K.clip: x clamped into [min_value, max_value] (max_value below min_value counts as
    min_value)."""
    return clip_ops.clip_by_value(x, min_value, max(max_value, min_value))


class MaxNorm(Constraint):
    """MaxNorm(max_value=2, axis=0): weights whose norm along `axis` exceeds max_value are
    scaled down to it; the others stay (up to the 1e-7 of K.epsilon())."""

    def __init__(self, max_value=2, axis=0):
        self.max_value = max_value
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = _clip(norms, 0, self.max_value)
        return w * (desired / (K.epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class NonNeg(Constraint):
    """NonNeg(): negative weights become 0."""

    def __call__(self, w):
        return w * math_ops.cast(comparison_ops.greater_equal(w, 0.), K.floatx())


class UnitNorm(Constraint):
    """UnitNorm(axis=0): weights divided by their norm along `axis`."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return w / (K.epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


class MinMaxNorm(Constraint):
    """MinMaxNorm(min_value=0.0, max_value=1.0, rate=1.0, axis=0): norms along `axis` moved
    into [min_value, max_value] -- all the way for rate=1.0, a fraction `rate` of the way
    otherwise."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value = min_value
        self.max_value = max_value
        self.rate = rate
        self.axis = axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = (self.rate * _clip(norms, self.min_value, self.max_value) +
                   (1 - self.rate) * norms)
        return w * (desired / (K.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class RadialConstraint(Constraint):
    """RadialConstraint(): makes each (height, width) slice of a Conv2D kernel radially
    symmetric -- every square ring of it takes one value.

    TF builds the new kernel from the centre outwards with a while_loop (a ring at a time,
    padding with a diagonal entry); which entry each ring copies depends only on the kernel's
    size, so the sandbox computes that map in numpy and gathers. TF's choice, kept: the
    innermost ring copies entry (s-1, s-1), ring j the diagonal entry (s+j-1, s+j-1), with
    s = size // 2 and rings numbered from 0 at an odd kernel's centre, from 1 at an even
    kernel's middle 2x2.
    """

    def __call__(self, w):
        shape = K.int_shape(w)
        if shape is None or len(shape) != 4:
            raise ValueError(f"The weight tensor must be of rank 4, but is of shape: {shape}")
        height, width, channels, kernels = shape
        if height is None or height != width:
            raise ValueError(f"RadialConstraint needs a square kernel of known size, got a "
                             f"kernel of shape {shape}")
        source = self._ring_sources(height)
        flat = array_ops.reshape(w, [height * width, channels, kernels])
        picked = indexing_ops.gather(flat, source.reshape(-1))
        return array_ops.reshape(picked, [height, width, channels, kernels])

    @staticmethod
    def _ring_sources(size):
        """For each (row, column) of a size x size kernel, the flat index of the entry whose
        value it takes."""
        s = size // 2
        offsets = np.arange(size)
        if size % 2:                                     # rings 0 (the centre) .. s
            dist = np.abs(offsets - s)
            innermost = 0
        else:                                            # rings 1 (the middle 2x2) .. s
            dist = np.where(offsets >= s, offsets - s + 1, s - offsets)
            innermost = 1
        ring = np.maximum(dist[:, None], dist[None, :])
        diagonal = np.where(ring == innermost, s - 1, s + ring - 1)
        return (diagonal * size + diagonal).astype(np.int32)


# Aliases (the names layers take as strings too), and Keras 1's legacy names.
max_norm = MaxNorm
non_neg = NonNeg
unit_norm = UnitNorm
min_max_norm = MinMaxNorm
radial_constraint = RadialConstraint
maxnorm = max_norm
nonneg = non_neg
unitnorm = unit_norm

_OBJECTS = {name: value for name, value in globals().items()
            if isinstance(value, type) and issubclass(value, Constraint)}


def serialize(constraint):
    """{'class_name': 'MaxNorm', 'config': {'max_value': 2, 'axis': 0}} (None for None)."""
    return serialize_keras_object(constraint)


def deserialize(config, custom_objects=None):
    return deserialize_keras_object(config, module_objects=_OBJECTS,
                                    custom_objects=custom_objects,
                                    printable_module_name="constraint")


def get(identifier):
    """None, a constraint (any callable), its name ('max_norm'), or {'class_name', 'config'}."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": str(identifier), "config": {}})
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")
