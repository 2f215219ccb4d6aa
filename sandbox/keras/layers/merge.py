"""Keras merge layers -- mirrors TensorFlow 1.15's python/keras/layers/merge.py: Add,
Subtract, Multiply, Average, Maximum, Minimum, Concatenate, Dot and their functional forms.

    merged = keras.layers.concatenate([h1, h2])        # [batch, 4] + [batch, 4] -> [batch, 8]
    total = keras.layers.Add()([h1, h2])               # elementwise

A merge layer is called on a list of tensors and has no weights. The functional API's walk
(engine/network.py) follows each of its inputs. The elementwise layers need inputs of one shape
(TF also broadcasts some shapes; the sandbox asks for equal ones except the batch axis).

    keras.layers.dot([a, b], axes=1, normalize=True)    # [batch, 3] . [batch, 3] -> [batch, 1]

Dot is K.batch_dot: for each example, the sum over axis axes[0] of the first input times axis
axes[1] of the second (normalize=True: the cosine, both l2-normalized along those axes first);
the other axes remain, the first input's then the second's.

`ListInputLayer` is the call on a list of tensors that the merge layers share with the
attention layers (dense_attention.py): the inputs' masks (`_keras_mask`) come to call() as a
list, `mask=[mask_0, mask_1, ...]`, when call takes `mask`.
"""
from ...framework.graph import get_default_graph
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops import array_ops, basic_math_ops, math_ops, matmul_ops, nn_impl, slicing_ops
from ...ops import variable_scope as vs
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "Dot",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate", "dot"]


class ListInputLayer(Layer):
    """A layer called on a list of tensors: build(list of shapes), call(list, mask=list);
    or on a dict of them (DenseFeatures' features): build({key: shape}), call(dict)."""

    def _check_inputs(self, inputs):
        """Raises TF's error when the list does not suit the layer."""

    def __call__(self, inputs, **kwargs):
        if isinstance(inputs, (list, tuple)):
            inputs = [convert_to_tensor(x) for x in inputs]
        self._check_inputs(inputs)
        masks = [getattr(x, "_keras_mask", None) for x in inputs] \
            if isinstance(inputs, list) else []
        if any(m is not None for m in masks) and self._call_takes_mask() \
                and "mask" not in kwargs:
            kwargs["mask"] = masks
        graph = get_default_graph()
        self._set_scope(None)
        with vs.variable_scope(self._scope, reuse=self.built, auxiliary_name_scope=False) \
                as scope:
            self._current_scope = scope
            with graph.name_scope(self._name_scope()):
                if not self.built:
                    self.build({k: x.get_shape() for k, x in inputs.items()}
                               if isinstance(inputs, dict) else
                               [x.get_shape() for x in inputs])
                    self.built = True
                outputs = self.call(inputs, **kwargs)
                out_mask = self.compute_mask(inputs, kwargs.get("mask"))
                if out_mask is not None:
                    outputs._keras_mask = out_mask
        self._inbound.append((inputs, outputs))
        K._state(graph)["history"][id(outputs)] = (
            outputs, self, list(inputs.values()) if isinstance(inputs, dict) else inputs)
        return outputs

    def compute_mask(self, inputs, mask=None):
        return None


class _Merge(ListInputLayer):
    """What the merge layers share: a call on a list of at least two tensors."""
    _min_inputs = 2

    def _check_inputs(self, inputs):
        if not isinstance(inputs, list):
            raise ValueError("A merge layer should be called on a list of inputs.")
        if len(inputs) < self._min_inputs:
            raise ValueError("A merge layer should be called on a list of at least 2 inputs. "
                             f"Got {len(inputs)} inputs.")

    def build(self, input_shape):
        shapes = [TensorShape(s) for s in input_shape]
        self._check_shapes(shapes)
        self.built = True

    def _check_shapes(self, shapes):
        first = shapes[0]
        for shape in shapes[1:]:
            if shape.ndims != first.ndims or not TensorShape(first[1:]).is_compatible_with(
                    shape[1:]):
                raise ValueError("Operands could not be broadcast together with shapes "
                                 f"{tuple(first.as_list())} {tuple(shape.as_list())}")

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape[0])

    def _reduce(self, fn, inputs):
        out = inputs[0]
        for x in inputs[1:]:
            out = fn(out, x)
        return out


class Add(_Merge):
    """Add()([x1, x2, ...]): the elementwise sum."""

    def call(self, inputs):
        return self._reduce(math_ops.add, inputs)


class Subtract(_Merge):
    """Subtract()([x1, x2]): x1 - x2."""

    def build(self, input_shape):
        if len(input_shape) != 2:
            raise ValueError("A `Subtract` layer should be called on exactly 2 inputs")
        super().build(input_shape)

    def call(self, inputs):
        return math_ops.subtract(inputs[0], inputs[1])


class Multiply(_Merge):
    """Multiply()([x1, x2, ...]): the elementwise product."""

    def call(self, inputs):
        return self._reduce(math_ops.multiply, inputs)


class Average(_Merge):
    """Average()([x1, x2, ...]): the elementwise mean."""

    def call(self, inputs):
        return self._reduce(math_ops.add, inputs) / float(len(inputs))


class Maximum(_Merge):
    """Maximum()([x1, x2, ...]): the elementwise maximum."""

    def call(self, inputs):
        return self._reduce(basic_math_ops.maximum, inputs)


class Minimum(_Merge):
    """Minimum()([x1, x2, ...]): the elementwise minimum."""

    def call(self, inputs):
        return self._reduce(basic_math_ops.minimum, inputs)


class Concatenate(_Merge):
    """Concatenate(axis=-1)([x1, x2, ...]): the inputs joined along `axis`."""
    _config_keys = ("axis",)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _check_shapes(self, shapes):
        ranks = set(s.ndims for s in shapes)
        rank = shapes[0].ndims
        axis = self.axis % rank if rank else self.axis
        others = [[d for i, d in enumerate(s.as_list()) if i != axis] for s in shapes]
        if len(ranks) > 1 or any(not TensorShape(o[1:]).is_compatible_with(others[0][1:])
                                 for o in others):
            raise ValueError("A `Concatenate` layer requires inputs with matching shapes "
                             "except for the concat axis. Got inputs shapes: "
                             f"{[tuple(s.as_list()) for s in shapes]}")

    def call(self, inputs):
        return slicing_ops.concat(inputs, self.axis)

    def compute_output_shape(self, input_shape):
        shapes = [TensorShape(s).as_list() for s in input_shape]
        out = list(shapes[0])
        axis = self.axis % len(out)
        sizes = [s[axis] for s in shapes]
        out[axis] = None if None in sizes else sum(sizes)
        return TensorShape(out)


class Dot(_Merge):
    """Dot(axes, normalize=False)([x1, x2]): per example, the dot product of x1 and x2 along
    axes (an int for both, or a pair); normalize=True gives the cosine proximity."""
    _config_keys = ("axes", "normalize")

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)) or len(axes) != 2 or \
                    not all(isinstance(a, int) for a in axes):
                raise ValueError("Invalid format for `axes` - must be an int or a list/tuple "
                                 f"of 2 ints. Received: {axes}")
        self.axes = axes
        self.normalize = normalize

    def _axes(self, shapes):
        """The two axes as non-negative numbers."""
        axes = [self.axes] * 2 if isinstance(self.axes, int) else list(self.axes)
        return [a % s.ndims if a < 0 else a for a, s in zip(axes, shapes)]

    def _check_shapes(self, shapes):
        if len(shapes) != 2:
            raise ValueError("A `Dot` layer should be called on a list of 2 inputs.")
        a, b = self._axes(shapes)
        if shapes[0][a].value != shapes[1][b].value:
            raise ValueError(f"Incompatible input shapes: axis values {shapes[0][a].value} (at "
                             f"axis {a}) != {shapes[1][b].value} (at axis {b}). Full input "
                             f"shapes: {tuple(shapes[0].as_list())}, "
                             f"{tuple(shapes[1].as_list())}")

    def compute_output_shape(self, input_shape):
        shapes = [TensorShape(s).as_list() for s in input_shape]
        a, b = self._axes([TensorShape(s) for s in input_shape])
        rest = shapes[0][1:a] + shapes[0][a + 1:] + shapes[1][1:b] + shapes[1][b + 1:]
        return TensorShape(shapes[0][:1] + (rest or [1]))

    def call(self, inputs):
        x, y = inputs
        a, b = self._axes([x.get_shape(), y.get_shape()])
        if self.normalize:
            x, y = nn_impl.l2_normalize(x, axis=a), nn_impl.l2_normalize(y, axis=b)
        return batch_dot(x, y, (a, b), self.compute_output_shape([x.get_shape(),
                                                                  y.get_shape()]))


def batch_dot(x, y, axes, output_shape):
    """K.batch_dot: x [batch, ..., d (axis axes[0]), ...] and y [batch, ..., d (axes[1]), ...]
    as the matrices [batch, M, d] and [batch, d, P] (the other axes flattened), multiplied,
    reshaped to output_shape."""
    a, b = axes
    rx, ry = x.get_shape().ndims, y.get_shape().ndims
    x = array_ops.transpose(x, [0] + [i for i in range(1, rx) if i != a] + [a])
    y = array_ops.transpose(y, [0, b] + [i for i in range(1, ry) if i != b])
    d = x.get_shape()[-1].value
    out = matmul_ops.matmul(array_ops.reshape(x, [-1, int(x.get_shape()[1:-1].num_elements()),
                                                  d]),
                            array_ops.reshape(y, [-1, d, int(y.get_shape()[2:]
                                                             .num_elements())]))
    out = array_ops.reshape(out, [-1] + output_shape.as_list()[1:])
    out.set_shape(output_shape)
    return out


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)


def dot(inputs, axes, normalize=False, **kwargs):
    return Dot(axes=axes, normalize=normalize, **kwargs)(inputs)
