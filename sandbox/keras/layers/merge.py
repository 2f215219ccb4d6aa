"""Keras merge layers -- mirrors TensorFlow 1.15's python/keras/layers/merge.py: Add,
Subtract, Multiply, Average, Maximum, Minimum, Concatenate and their functional forms.

    merged = keras.layers.concatenate([h1, h2])        # [batch, 4] + [batch, 4] -> [batch, 8]
    total = keras.layers.Add()([h1, h2])               # elementwise

A merge layer is called on a list of tensors and has no weights. The functional API's walk
(engine/network.py) follows each of its inputs. The elementwise layers need inputs of one shape
(TF also broadcasts some shapes; the sandbox asks for equal ones except the batch axis).
"""
from ...framework.graph import get_default_graph
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...ops import basic_math_ops, math_ops, slicing_ops
from ...ops import variable_scope as vs
from .. import backend as K
from ..engine.base_layer import Layer

__all__ = ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum", "Concatenate",
           "add", "subtract", "multiply", "average", "maximum", "minimum", "concatenate"]


class _Merge(Layer):
    """What the merge layers share: a call on a list of at least two tensors."""
    _min_inputs = 2

    def __call__(self, inputs, **kwargs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("A merge layer should be called on a list of inputs.")
        inputs = [convert_to_tensor(x) for x in inputs]
        if len(inputs) < self._min_inputs:
            raise ValueError("A merge layer should be called on a list of at least 2 inputs. "
                             f"Got {len(inputs)} inputs.")
        graph = get_default_graph()
        self._set_scope(None)
        with vs.variable_scope(self._scope, reuse=self.built, auxiliary_name_scope=False) \
                as scope:
            self._current_scope = scope
            with graph.name_scope(self._name_scope()):
                if not self.built:
                    self.build([x.get_shape() for x in inputs])
                    self.built = True
                outputs = self.call(inputs, **kwargs)
        self._inbound.append((inputs, outputs))
        K._state(graph)["history"][id(outputs)] = (outputs, self, inputs)
        return outputs

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
