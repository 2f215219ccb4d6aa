"""How many floating point operations an op does -- mirrors TensorFlow's
python/profiler/internal/flops_registry.py and the Conv2D, Conv3D, DepthwiseConv2dNative and
BiasAdd statistics of python/ops/nn_ops.py (TF's `ops.RegisterStatistics(type, "flops")`).

The count comes from the static shapes of the graph, with TF's formulas: a MatMul of
[m, k] x [k, n] does 2*k*m*n, an elementwise Add one per output element, a Conv2D 2 * (output
elements) * (filter height * width * in-channels). An op with no formula counts nothing; an op
with a formula but a shape not fully known raises ValueError, and the profiler reports how
many did ("N ops no flops stats due to incomplete shapes"), as TF does.
"""
import math

__all__ = ["float_ops"]

_FORMULAS = {}


def _register(*op_types):
    def add(fn):
        for op_type in op_types:
            _FORMULAS[op_type] = fn
        return fn
    return add


def float_ops(op):
    """The op's float operations, None when TF has no formula for its type; ValueError when
    a shape the formula needs is not fully known."""
    formula = _FORMULAS.get(op.type)
    return None if formula is None else int(formula(op))


def _dims(tensor):
    shape = tensor.shape
    if shape.ndims is None or not shape.is_fully_defined():
        raise ValueError(f"Shape {shape} of {tensor.name!r} is not fully defined")
    return shape.as_list()


def _count(tensor):
    return math.prod(_dims(tensor))


def _nhwc(op):
    fmt = op.get_attr("data_format")
    if (fmt.decode() if isinstance(fmt, bytes) else fmt) != "NHWC":
        raise ValueError("Only NHWC format is supported in flops computations")


def _unary(per_element):
    return lambda op: _count(op.inputs[0]) * per_element


def _binary(per_element):
    return lambda op: _count(op.outputs[0]) * per_element


for _type in ("Reciprocal", "Square", "Log", "Neg", "AssignSub", "AssignAdd"):
    _register(_type)(_unary(1))
_register("Rsqrt")(_unary(2))
_register("Softmax")(_unary(5))           # 2n shift, n exp, 2n normalise
_register("L2Loss")(lambda op: _count(op.inputs[0]) * 3 - 1)
for _type in ("Add", "AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "Pow",
              "GreaterEqual", "Greater", "LessEqual", "Less", "Equal", "NotEqual"):
    _register(_type)(_binary(1))
_register("RsqrtGrad")(_binary(4))
_register("SquaredDifference")(_binary(2))


def _reduction(reduce_flops, finalize_flops):
    return lambda op: (_count(op.inputs[0]) * reduce_flops
                       + _count(op.outputs[0]) * (finalize_flops - reduce_flops))


_register("Mean")(_reduction(1, 1))
for _type in ("Sum", "ArgMax", "ArgMin", "BiasAddGrad"):
    _register(_type)(_reduction(1, 0))


@_register("AvgPool", "MaxPool")
def _pool(op):
    _nhwc(op)
    return math.prod(op.get_attr("ksize")) * _count(op.outputs[0])


@_register("AvgPoolGrad")
def _avg_pool_grad(op):
    _nhwc(op)
    return math.prod(op.get_attr("ksize")) * _count(op.inputs[1]) * 2


@_register("MaxPoolGrad")
def _max_pool_grad(op):
    _nhwc(op)
    orig_out = _count(op.inputs[1])
    return math.prod(op.get_attr("ksize")) * orig_out + orig_out


@_register("Conv2DBackpropInput")
def _conv2d_backprop_input(op):
    _nhwc(op)
    out = _dims(op.outputs[0])
    strides = op.get_attr("strides")
    return (2 * math.prod(out) * _count(op.inputs[1])) / (out[-1] * strides[1] * strides[2])


@_register("Conv2DBackpropFilter")
def _conv2d_backprop_filter(op):
    _nhwc(op)
    image = _dims(op.inputs[0])
    strides = op.get_attr("strides")
    return (2 * math.prod(image) * _count(op.outputs[0])) / (image[-1] * strides[1] * strides[2])


@_register("AddN")
def _add_n(op):
    inputs = len(op.inputs) + len(op.control_inputs)     # TF counts the NodeDef's inputs
    return 0 if not inputs else _count(op.inputs[0]) * (inputs - 1)


@_register("MatMul")
def _mat_mul(op):
    a = _dims(op.inputs[0])
    k = a[0] if op.get_attr("transpose_a") else a[1]
    return k * _count(op.outputs[0]) * 2


@_register("BatchMatMul", "BatchMatMulV2", "BatchMatMulV3")
def _batch_mat_mul(op):
    # TF reads a `transpose_a` attr these ops do not have (they have adj_x), so it always
    # takes k from the last dimension of a; the sandbox counts as TF does.
    return _dims(op.inputs[0])[-1] * _count(op.outputs[0]) * 2


@_register("Conv2D")
def _conv2d(op):
    _dims(op.inputs[0])
    height, width, in_depth = _dims(op.inputs[1])[:3]
    return _count(op.outputs[0]) * in_depth * height * width * 2


@_register("Conv3D")
def _conv3d(op):
    _dims(op.inputs[0])
    time, height, width, in_depth = _dims(op.inputs[1])[:4]
    return _count(op.outputs[0]) * in_depth * time * height * width * 2


@_register("DepthwiseConv2dNative")
def _depthwise_conv2d(op):
    _dims(op.inputs[0])
    height, width = _dims(op.inputs[1])[:2]
    return _count(op.outputs[0]) * height * width * 2


@_register("BiasAdd")
def _bias_add(op):
    return _count(op.inputs[0])
