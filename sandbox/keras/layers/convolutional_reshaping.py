"""keras.layers' cropping, padding and upsampling layers -- mirrors the reshaping part of
TensorFlow 1.15's python/keras/layers/convolutional.py.

    Cropping1D/2D/3D(cropping)        removes entries at both ends of each spatial axis
    ZeroPadding1D/2D/3D(padding)      adds zeros at both ends of each spatial axis
    UpSampling1D/2D/3D(size)          repeats each entry `size` times along each spatial axis
                                      (UpSampling2D(interpolation='bilinear') interpolates)

The spatial axes are the steps (1D: [batch, steps, features]), rows and columns (2D), or
three axes (3D); data_format='channels_first' puts the channels before them (2D and 3D;
None means keras.backend.image_data_format()). No weights.

cropping / padding is an int (the same at both ends of every axis), one int per axis (the
same at both ends), or one (before, after) pair per axis; get_config keeps the pairs:
ZeroPadding2D(1) -> padding ((1, 1), (1, 1)). Cropping1D / ZeroPadding1D keep one pair.
"""
from ...framework.tensor_shape import TensorShape
from ...layers.base import InputSpec, normalize_data_format, normalize_tuple
from ...ops import array_ops, image_resize_ops, manip_ops, slicing_ops
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["Cropping1D", "Cropping2D", "Cropping3D", "ZeroPadding1D", "ZeroPadding2D",
           "ZeroPadding3D", "UpSampling1D", "UpSampling2D", "UpSampling3D"]

_ORDINALS = ("1st", "2nd", "3rd")

# TF's words for the forms `padding` / `cropping` may take, per rank
_FORMS = {
    2: "a tuple of 2 ints (symmetric_height_{w}, symmetric_width_{w}), or a tuple of 2 tuples "
       "of 2 ints ((top_{w}, bottom_{w}), (left_{w}, right_{w}))",
    3: "a tuple of 3 ints (symmetric_dim1_{w}, symmetric_dim2_{w}, symmetric_dim3_{w}), or a "
       "tuple of 3 tuples of 2 ints ((left_dim1_{w}, right_dim1_{w}), (left_dim2_{w}, "
       "right_dim2_{w}), (left_dim3_{w}, right_dim2_{w}))",
}


def _pairs(value, rank, name):
    """`value` as `rank` (before, after) pairs: 1 -> ((1, 1), (1, 1)) for rank 2;
    (1, 2) -> ((1, 1), (2, 2)); ((1, 2), (3, 4)) stays. Rank 1: 1 -> ((1, 1),)."""
    if rank == 1:
        return (normalize_tuple(value, 2, name),)
    if isinstance(value, int):
        return ((value, value),) * rank
    if hasattr(value, "__len__"):
        if len(value) != rank:
            count = "two" if rank == 2 else str(rank)
            raise ValueError(f"`{name}` should have {count} elements. Found: {value}")
        return tuple(normalize_tuple(entry, 2, f"{_ORDINALS[i]} entry of {name}")
                     for i, entry in enumerate(value))
    raise ValueError(f"`{name}` should be either an int, "
                     + _FORMS[rank].format(w=name[:4] if name == "cropping" else "pad")
                     + f". Found: {value}")


class _Spatial(Layer):
    """What these layers share: the data format and which axes are spatial."""
    _rank = 1

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = normalize_data_format(data_format or K.image_data_format())
        self.input_spec = InputSpec(ndim=self._rank + 2)

    @property
    def _axes(self):
        first = 2 if self.data_format == "channels_first" else 1
        return list(range(first, first + self._rank))

    def compute_output_shape(self, input_shape):
        shape = TensorShape(input_shape).as_list()
        for i, axis in enumerate(self._axes):
            if shape[axis] is not None:
                shape[axis] = self._new_size(i, shape[axis])     # defined by the subclasses
        return TensorShape(shape)

    def _with_shape(self, outputs, inputs):
        outputs.set_shape(self.compute_output_shape(inputs.get_shape()))
        return outputs


# -- cropping --------------------------------------------------------------------------------

class _Cropping(_Spatial):
    _config_keys = ("cropping", "data_format")

    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(data_format, **kwargs)
        self._per_axis = _pairs(cropping, self._rank, "cropping")
        self.cropping = self._per_axis

    def _new_size(self, axis_index, size):
        return size - sum(self._per_axis[axis_index])

    def call(self, inputs):
        index = [slice(None)] * (self._rank + 2)
        for axis, (before, after) in zip(self._axes, self._per_axis):
            index[axis] = slice(before, -after if after else None)
        return self._with_shape(inputs[tuple(index)], inputs)


class Cropping1D(_Cropping):
    """Cropping1D(cropping=(1, 1)): [batch, steps, features] -> [batch, steps - sum(cropping),
    features]."""
    _config_keys = ("cropping",)

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping, "channels_last", **kwargs)
        self.cropping = self._per_axis[0]


class Cropping2D(_Cropping):
    """Cropping2D(cropping=((0, 0), (0, 0)), data_format=None): ((top, bottom), (left,
    right)) rows and columns removed."""
    _rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


class Cropping3D(_Cropping):
    """Cropping3D(cropping=((1, 1), (1, 1), (1, 1)), data_format=None)."""
    _rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format, **kwargs)


# -- zero padding ----------------------------------------------------------------------------

class _ZeroPadding(_Spatial):
    _config_keys = ("padding", "data_format")

    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(data_format, **kwargs)
        self._per_axis = _pairs(padding, self._rank, "padding")
        self.padding = self._per_axis

    def _new_size(self, axis_index, size):
        return size + sum(self._per_axis[axis_index])

    def call(self, inputs):
        paddings = [[0, 0]] * (self._rank + 2)
        for axis, pair in zip(self._axes, self._per_axis):
            paddings[axis] = list(pair)
        return self._with_shape(slicing_ops.pad(inputs, paddings), inputs)


class ZeroPadding1D(_ZeroPadding):
    """ZeroPadding1D(padding=1): `padding` zeros before and after the steps (or a pair
    (before, after))."""
    _config_keys = ("padding",)

    def __init__(self, padding=1, **kwargs):
        super().__init__(padding, "channels_last", **kwargs)
        self.padding = self._per_axis[0]


class ZeroPadding2D(_ZeroPadding):
    """ZeroPadding2D(padding=(1, 1), data_format=None): zero rows and columns around an
    image: ((top, bottom), (left, right))."""
    _rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """ZeroPadding3D(padding=(1, 1, 1), data_format=None)."""
    _rank = 3

    def __init__(self, padding=(1, 1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format, **kwargs)


# -- upsampling ------------------------------------------------------------------------------

class _UpSampling(_Spatial):
    _config_keys = ("size", "data_format")

    def __init__(self, size, data_format=None, **kwargs):
        super().__init__(data_format, **kwargs)
        self._per_axis = normalize_tuple(size, self._rank, "size")
        self.size = self._per_axis

    def _new_size(self, axis_index, size):
        return size * self._per_axis[axis_index]

    def call(self, inputs):
        """Each entry repeated size[i] times along spatial axis i (keras.backend's
        repeat_elements / resize_volumes)."""
        outputs = inputs
        for axis, times in zip(self._axes, self._per_axis):
            outputs = manip_ops.repeat(outputs, times, axis=axis)
        return self._with_shape(outputs, inputs)


class UpSampling1D(_UpSampling):
    """UpSampling1D(size=2): [batch, steps, features] -> [batch, size * steps, features]."""
    _config_keys = ("size",)

    def __init__(self, size=2, **kwargs):
        super().__init__(int(size), "channels_last", **kwargs)
        self.size = int(size)


class UpSampling2D(_UpSampling):
    """UpSampling2D(size=(2, 2), data_format=None, interpolation='nearest'): rows and columns
    size[0] and size[1] times as many. TF 1.15 resizes with tf.image.resize_nearest_neighbor
    or resize_bilinear (align_corners=False, no half-pixel centers): nearest repeats each
    pixel; bilinear reads output pixel i at input position i / size."""
    _rank = 2
    _config_keys = ("size", "data_format", "interpolation")

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size, data_format, **kwargs)
        if interpolation not in {"nearest", "bilinear"}:
            raise ValueError('`interpolation` argument should be one of `"nearest"` or '
                             '`"bilinear"`.')
        self.interpolation = interpolation

    def call(self, inputs):
        rows, cols = self._axes
        new_shape = array_ops.shape(inputs)[rows:cols + 1] * list(self.size)
        x = inputs
        if self.data_format == "channels_first":
            x = array_ops.transpose(x, [0, 2, 3, 1])
        resize = (image_resize_ops.resize_nearest_neighbor if self.interpolation == "nearest"
                  else image_resize_ops.resize_bilinear)
        x = resize(x, new_shape)
        if self.data_format == "channels_first":
            x = array_ops.transpose(x, [0, 3, 1, 2])
        return self._with_shape(x, inputs)


class UpSampling3D(_UpSampling):
    """UpSampling3D(size=(2, 2, 2), data_format=None): each entry of the three spatial axes
    repeated size[i] times."""
    _rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format, **kwargs)
