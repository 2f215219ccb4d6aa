"""Parsing tf.train.SequenceExample protos -- mirrors TensorFlow's python/ops/parsing_ops.py
(tf.io.parse_single_sequence_example, tf.io.parse_sequence_example) and the ParseSequenceExampleV2
kernel of core/util/example_proto_fast_parsing.cc, as TF 2.15's tf.compat.v1 runs them.

A SequenceExample (sandbox/platform/example_proto.py) holds a `context` -- Features of the
whole sequence -- and `feature_lists`: for each name, a FeatureList with one Feature per time
step.

    context, sequence = tf.parse_single_sequence_example(record,
        context_features={"label": tf.FixedLenFeature([], tf.int64)},
        sequence_features={"frames": tf.FixedLenSequenceFeature([2], tf.float32),
                           "tokens": tf.VarLenFeature(tf.int64)})
    # context["label"]: int64 []; sequence["frames"]: float32 [steps, 2];
    # sequence["tokens"]: a SparseTensor, indices [step, position], shape [steps, longest]

context_features takes FixedLenFeature (a missing one takes default_value, or fails the step)
and VarLenFeature (a SparseTensor, as parse_single_example gives). sequence_features takes
FixedLenSequenceFeature -- every step must hold exactly the values of its shape; a list missing
from the proto fails unless allow_missing=True (then it has no steps); default_value is not
allowed -- and VarLenFeature (indices [step, position]).

parse_sequence_example does the same for a vector of serialized SequenceExamples: the context
gets a leading batch dimension, the SparseTensors a leading batch column, each
FixedLenSequenceFeature is [batch, the most steps] + shape, padded with 0 (b"" for strings),
and a third dict gives the number of steps of each FixedLenSequenceFeature in each example.

Both make one op, ParseSequenceExampleV2, as TF 2.15 does (its outputs: the context's sparse
indices, values and shapes, its dense values, then the same for the feature lists and the
lengths; keys sorted within each group). The error messages are TF 2.15's.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.sparse_tensor import SparseTensor
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..platform.example_proto import DecodeError, parse_sequence_features
from . import array_ops
from .parsing_ops import FixedLenFeature, FixedLenSequenceFeature, VarLenFeature, _dims

__all__ = ["parse_single_sequence_example", "parse_sequence_example"]

_KIND = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}


def _empty(dtype, shape=(0,)):
    """Zeros (b"" for strings) of `shape`: what missing steps are padded with."""
    dtype = _dtypes.as_dtype(dtype)
    if dtype == _dtypes.string:
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, dtype=dtype.as_numpy_dtype)


def _array(values, dtype):
    dtype = _dtypes.as_dtype(dtype)
    if dtype == _dtypes.string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.asarray(values, dtype=dtype.as_numpy_dtype).reshape(-1)


def _shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check_kind(kind, dtype, where):
    if kind is not None and kind != _KIND[_dtypes.as_dtype(dtype).name]:
        raise errors.InvalidArgumentError(
            None, None, f"Name: <unknown>, {where}.  Data types don't match. Expected type: "
            f"{_dtypes.cpp_type_name(dtype)}")


def _decode(data):
    try:
        return parse_sequence_features(data)
    except (DecodeError, UnicodeDecodeError):
        raise errors.InvalidArgumentError(
            None, None, "Invalid protocol message input, example id: <unknown>") from None


def _context_dense(context, key, dtype, shape, default):
    kind, values = context.get(key, (None, []))
    _check_kind(kind, dtype, f"Context feature: {key}")
    count = int(np.prod(shape))
    if kind is None and default is not None:
        return np.asarray(default).astype(_empty(dtype).dtype).reshape(shape)
    if len(values) != count:
        raise errors.InvalidArgumentError(
            None, None, f"Inconsistent max number of elements for feature {key}: expected "
            f"{count}, but found {len(values)}")
    return _array(values, dtype).reshape(shape)


def _steps_dense(feature_lists, key, dtype, shape, assumed_empty):
    """[steps] + shape of one FixedLenSequenceFeature of one example."""
    if key not in feature_lists:
        if not assumed_empty:
            raise errors.InvalidArgumentError(
                None, None, f"Name: <unknown>, Feature list '{key}' is required but could not "
                "be found.  Did you mean to include it in "
                "feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?")
        return _empty(dtype, [0] + list(shape))
    count, rows = int(np.prod(shape)), []
    for step, (kind, values) in enumerate(feature_lists[key]):
        _check_kind(kind, dtype, f"Feature list: {key}, Index: {step}")
        if len(values) != count:
            raise errors.InvalidArgumentError(
                None, None, f"Name: <unknown>, Key: {key}, Index: {step}.  Number of values != "
                f"expected.  values size: {len(values)} but output shape: {_shape_text(shape)}")
        rows.append(_array(values, dtype).reshape(shape))
    return np.stack(rows) if rows else _empty(dtype, [0] + list(shape))


def _steps_sparse(feature_lists, key, dtype):
    """[values of each step] of one VarLenFeature of the feature lists of one example."""
    out = []
    for step, (kind, values) in enumerate(feature_lists.get(key, [])):
        _check_kind(kind, dtype, f"Feature list: {key}, Index: {step}")
        out.append(_array(values, dtype))
    return out


def _sparse(parts, dtype, batch, steps):
    """indices, values and dense shape of a SparseTensor whose entries are `parts`: for each
    example (one if not batch), a list of 1-D value arrays, one per step (steps=True: the
    feature lists), or one 1-D array (steps=False: the context)."""
    indices, values, shape = [], [], [0, 0, 0]
    for b, part in enumerate(parts):
        rows = part if isinstance(part, list) else [part]
        shape[1] = max(shape[1], len(rows))
        for t, row in enumerate(rows):
            shape[2] = max(shape[2], len(row))
            indices.extend([b, t, i] for i in range(len(row)))
            values.append(row)
    shape[0] = len(parts)
    indices = np.array(indices, np.int64).reshape(-1, 3)
    values = np.concatenate(values) if values else _array([], dtype)
    if not steps:                                             # the context: no step column
        indices, shape = indices[:, [0, 2]], [shape[0], shape[2]]
    if not batch:                                             # no example column
        indices, shape = indices[:, 1:], shape[1:]
    return indices, values, np.array(shape, np.int64)


class ParseSequenceExampleV2(OpDef):
    """The context and feature lists of serialized tf.train.SequenceExamples (a scalar or a
    vector): the context's sparse indices, values and shapes and its dense values, then the
    feature lists' sparse indices, values and shapes, their dense values and the number of
    steps of each dense one."""
    multi_output = True

    def shape(op):
        serialized = op.inputs[0].get_shape()
        batch = [] if serialized.ndims == 0 else [serialized.with_rank(1)[0].value]
        rank = len(batch)
        nc, nf = op.get_attr("Ncontext_sparse"), op.get_attr("Nfeature_list_sparse")
        return ([TensorShape([None, rank + 1])] * nc + [TensorShape([None])] * nc +
                [TensorShape([rank + 1])] * nc +
                [TensorShape(batch + _dims(s)) for s in op.get_attr("context_dense_shapes")] +
                [TensorShape([None, rank + 2])] * nf + [TensorShape([None])] * nf +
                [TensorShape([rank + 2])] * nf +
                [TensorShape(batch + [None] + _dims(s))
                 for s in op.get_attr("feature_list_dense_shapes")] +
                [TensorShape(batch)] * op.get_attr("Nfeature_list_dense"))

    def kernel(serialized, *context_dense_defaults, context_sparse_keys=(),
               context_sparse_types=(), context_dense_keys=(), Tcontext_dense=(),
               context_dense_shapes=(), feature_list_sparse_keys=(),
               feature_list_sparse_types=(), feature_list_dense_keys=(),
               feature_list_dense_types=(), feature_list_dense_shapes=(),
               feature_list_dense_missing_assumed_empty=(), Ncontext_sparse=0,
               Nfeature_list_sparse=0, Nfeature_list_dense=0):
        serialized = np.asarray(serialized, dtype=object)
        batch = serialized.ndim == 1
        context_dense_shapes = [_dims(s) for s in context_dense_shapes]
        feature_list_dense_shapes = [_dims(s) for s in feature_list_dense_shapes]
        examples = [_decode(data) for data in serialized.reshape(-1)]
        defaults = [None if d.ndim == 1 and d.shape[0] == 0 and int(np.prod(s)) != 0 else d
                    for d, s in zip(context_dense_defaults, context_dense_shapes)]
        sparse = [[], [], []]
        for key, dtype in zip(context_sparse_keys, context_sparse_types):
            parts = []
            for context, _ in examples:
                kind, values = context.get(key, (None, []))
                _check_kind(kind, dtype, f"Context feature: {key}")
                parts.append(_array(values, dtype))
            for out, got in zip(sparse, _sparse(parts, dtype, batch, steps=False)):
                out.append(got)
        dense = []
        for key, dtype, shape, default in zip(context_dense_keys, Tcontext_dense,
                                              context_dense_shapes, defaults):
            rows = [_context_dense(c, key, dtype, shape, default) for c, _ in examples]
            dense.append(rows[0] if not batch else np.stack(rows) if rows else
                         _empty(dtype, [0] + list(shape)))
        list_sparse = [[], [], []]
        for key, dtype in zip(feature_list_sparse_keys, feature_list_sparse_types):
            parts = [_steps_sparse(lists, key, dtype) for _, lists in examples]
            for out, got in zip(list_sparse, _sparse(parts, dtype, batch, steps=True)):
                out.append(got)
        list_dense, lengths = [], []
        for key, dtype, shape, empty in zip(feature_list_dense_keys, feature_list_dense_types,
                                            feature_list_dense_shapes,
                                            feature_list_dense_missing_assumed_empty):
            rows = [_steps_dense(lists, key, dtype, shape, empty) for _, lists in examples]
            steps = np.array([len(r) for r in rows], np.int64)
            if not batch:
                list_dense.append(rows[0])
                lengths.append(steps[0])
                continue
            padded = _empty(dtype, [len(rows), max(steps, default=0)] + list(shape))
            for b, r in enumerate(rows):
                padded[b, :len(r)] = r
            list_dense.append(padded)
            lengths.append(steps)
        return tuple(sum(sparse, []) + dense + sum(list_sparse, []) + list_dense + lengths)


def _features(features, allowed, what):
    """(sparse keys, sparse dtypes, dense keys, dense dtypes, dense shapes, defaults) of a
    feature dict, keys sorted -- TF's _ParseOpParams.from_features."""
    sparse_keys, sparse_types, keys, dtypes, shapes, defaults = [], [], [], [], [], []
    for key in sorted(features or {}):
        feature = features[key]
        if not isinstance(feature, allowed):
            raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")
        if not feature.dtype:
            raise ValueError(f"Missing type for feature {key}. Received feature={feature}.")
        dtype = _dtypes.as_dtype(feature.dtype).base_dtype
        if dtype.name not in _KIND:
            raise TypeError(f"Value passed to parameter '{what}' has DataType {dtype.name} not "
                            "in list of allowed values: float32, int64, string (feature "
                            f"{key!r}: parse as int64 and tf.cast it).")
        if isinstance(feature, VarLenFeature):
            sparse_keys.append(key)
            sparse_types.append(dtype)
            continue
        if feature.shape is None:
            raise ValueError(f"Missing shape for feature {key}. Received feature={feature}.")
        shape = TensorShape(feature.shape)
        if shape.ndims and shape[0].value is None and isinstance(feature, FixedLenFeature):
            raise ValueError(f"First dimension of shape for feature {key} unknown. Consider "
                             f"using FixedLenSequenceFeature. Received feature={feature}.")
        if not shape.is_fully_defined():
            raise ValueError(f"All dimensions of shape for feature {key} need to be known but "
                             f"received {feature.shape!s}.")
        if isinstance(feature, FixedLenSequenceFeature) and feature.default_value is not None:
            raise ValueError(f"Value feature_list.dense_defaults[{key}] must be None")
        keys.append(key)
        dtypes.append(dtype)
        shapes.append(shape.as_list())
        defaults.append(feature.allow_missing if isinstance(feature, FixedLenSequenceFeature)
                        else feature.default_value)
    return sparse_keys, sparse_types, keys, dtypes, shapes, defaults


def _params(context_features, sequence_features):
    """The features of both dicts, checked before any op is made (as TF does)."""
    context = _features(context_features, (VarLenFeature, FixedLenFeature), "Tcontext_dense")
    sequence = _features(sequence_features, (VarLenFeature, FixedLenSequenceFeature),
                         "feature_list_dense_types")
    if not (context[0] or context[2] or sequence[0] or sequence[2]):
        raise ValueError("Must provide at least one feature key.")
    return context, sequence


def _parse(serialized, params):
    """The three dicts of ParseSequenceExampleV2's outputs, in the current name scope."""
    (c_sparse, c_sparse_types, c_keys, c_types, c_shapes, c_defaults), \
        (f_sparse, f_sparse_types, f_keys, f_types, f_shapes, f_missing) = params
    with name_scope(None, "ParseSequenceExample", [serialized]):
        default_tensors = []
        for key, dtype, shape, default in zip(c_keys, c_types, c_shapes, c_defaults):
            if default is None:
                t = convert_to_tensor(_empty(dtype), dtype=dtype, name=f"key_{key}")
            else:
                t = array_ops.reshape(convert_to_tensor(default, dtype=dtype), shape,
                                      name=f"key_{key}")
            default_tensors.append(t)
        nc, nf = len(c_sparse), len(f_sparse)
        outputs = apply_op(
            "ParseSequenceExampleV2", [serialized] + default_tensors,
            {"context_sparse_keys": c_sparse, "context_sparse_types": list(c_sparse_types),
             "context_dense_keys": c_keys, "Tcontext_dense": list(c_types),
             "context_dense_shapes": c_shapes,
             "feature_list_sparse_keys": f_sparse,
             "feature_list_sparse_types": list(f_sparse_types),
             "feature_list_dense_keys": f_keys,
             "feature_list_dense_types": list(f_types),
             "feature_list_dense_shapes": f_shapes,
             "feature_list_dense_missing_assumed_empty": [bool(m) for m in f_missing],
             "Ncontext_sparse": nc, "Nfeature_list_sparse": nf, "Nfeature_list_dense": len(f_keys)},
            name="ParseSequenceExampleV2",
            output_dtypes=[_dtypes.int64] * nc + c_sparse_types + [_dtypes.int64] * nc +
            c_types + [_dtypes.int64] * nf + f_sparse_types + [_dtypes.int64] * nf + f_types +
            [_dtypes.int64] * len(f_keys))
    outputs = list(outputs.op.outputs if isinstance(outputs, Tensor) else outputs)
    context = {key: SparseTensor(outputs[k], outputs[nc + k], outputs[2 * nc + k])
               for k, key in enumerate(c_sparse)}
    at = 3 * nc
    context.update(zip(c_keys, outputs[at:at + len(c_keys)]))
    at += len(c_keys)
    sequence = {key: SparseTensor(outputs[at + k], outputs[at + nf + k],
                                  outputs[at + 2 * nf + k]) for k, key in enumerate(f_sparse)}
    at += 3 * nf
    sequence.update(zip(f_keys, outputs[at:at + len(f_keys)]))
    lengths = dict(zip(f_keys, outputs[at + len(f_keys):]))
    return context, sequence, lengths


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """The context and feature lists of one serialized tf.train.SequenceExample (a scalar
    string): (a dict of the context_features -- tensors of their shape, or SparseTensors --,
    a dict of the sequence_features -- [steps] + shape tensors, or [steps, longest]
    SparseTensors)."""
    if not (context_features or sequence_features):
        raise ValueError("Both context_features and sequence_features are None, but at least "
                         "one should have values.")
    params = _params(context_features, sequence_features)
    with name_scope(name, "ParseSingleSequenceExample", [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        if serialized.get_shape().ndims not in (None, 0):
            raise ValueError("Input serialized must be a scalar")
        context, sequence, _ = _parse(serialized, params)
        return context, sequence


def parse_sequence_example(serialized, context_features=None, sequence_features=None,
                           example_names=None, name=None):
    """The context and feature lists of a vector of serialized tf.train.SequenceExamples:
    (context dict, [batch] + ...; sequence dict, [batch, the most steps] + shape padded with
    0 or b"", or [batch, steps, longest] SparseTensors; a dict of the number of steps of each
    FixedLenSequenceFeature, int64 [batch])."""
    if not (context_features or sequence_features):
        raise ValueError("Both `context_features` and `sequence_features` argument are None, "
                         "but at least one should have values.")
    params = _params(context_features, sequence_features)
    with name_scope(name, "ParseSequenceExample", [serialized]):
        serialized = convert_to_tensor(serialized, dtype=_dtypes.string, name="serialized")
        if serialized.get_shape().ndims not in (None, 0, 1):   # a scalar works too, as in TF
            raise ValueError(f"Shape must be at most rank 1 but is rank "
                             f"{serialized.get_shape().ndims}")
        return _parse(serialized, params)
