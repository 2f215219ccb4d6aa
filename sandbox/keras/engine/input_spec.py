"""keras.layers.InputSpec -- mirrors TensorFlow 1.15's python/keras/engine/input_spec.py.

    layer.input_spec = keras.layers.InputSpec(ndim=3, axes={-1: 16})

What a layer accepts: the dtype, the rank (`ndim`, or a range `min_ndim` .. `max_ndim`), the
whole `shape` (None for any size) or the size of some `axes`. A layer that sets
`self.input_spec` has its inputs checked at each call, before build, with TF's ValueError
("Input 0 of layer lstm is incompatible with the layer: expected ndim=3, found ndim=2 ...").

The class is tf.layers' (sandbox/layers/base.py, whose Layer does the checking: rank and
axes) with Keras's stricter arguments: the dtype kept by its name, the axes' keys as ints,
and an axis beyond the rank is an error at once.
"""
from ...framework import dtypes
from ...layers import base as _tf_base

__all__ = ["InputSpec"]


class InputSpec(_tf_base.InputSpec):
    """InputSpec(dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None, axes=None)."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None):
        try:
            axes = {int(k): v for k, v in (axes or {}).items()}
        except (ValueError, TypeError):
            raise TypeError("The keys in axes must be integers.") from None
        super().__init__(dtype=None if dtype is None else dtypes.as_dtype(dtype).name,
                         shape=None if shape is None else tuple(shape), ndim=ndim,
                         max_ndim=max_ndim, min_ndim=min_ndim, axes=axes)
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            max_axis = max(self.axes)
            if max_axis > max_dim:
                raise ValueError(f"Axis {max_axis} is greater than the maximum allowed value: "
                                 f"{max_dim}")
