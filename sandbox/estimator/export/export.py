"""What a served model is fed -- mirrors tensorflow_estimator/python/estimator/export/
export.py (tf.estimator.export.ServingInputReceiver, TensorServingInputReceiver,
build_parsing_serving_input_receiver_fn, build_raw_serving_input_receiver_fn).

Estimator.export_saved_model(export_dir_base, serving_input_receiver_fn) calls the
serving_input_receiver_fn in the new PREDICT graph. It returns a ServingInputReceiver:

    features          what the model_fn gets as `features` (a dict; a single Tensor is wrapped
                      as {'feature': t}; TensorServingInputReceiver passes it as it is)
    receiver_tensors  the placeholders a client feeds: the inputs of every signature (a single
                      Tensor is wrapped as {'input': t})
    receiver_tensors_alternatives   optional {name: tensors}: further signature inputs, e.g.
                      the parsed features downstream of the parse op (signatures 'name:key')

Two builders make the common ones:

    build_parsing_serving_input_receiver_fn(feature_spec)
        a string placeholder 'input_example_tensor' {'examples'} of serialized tf.Examples,
        parsed with tf.parse_example(feature_spec) into the features
    build_raw_serving_input_receiver_fn({'x': tensor_like_a_batch, ...})
        one placeholder per feature, named and shaped as the given tensor (any batch size):
        features and receiver_tensors are the same dict
"""
import collections

from ...framework import dtypes
from ...framework.sparse_tensor import SparseTensor
from ...framework.tensor import Tensor
from ...framework.tensor_shape import TensorShape
from ...ops.constant_op import placeholder
from ...ops.parsing_ops import parse_example

__all__ = ["ServingInputReceiver", "TensorServingInputReceiver",
           "build_parsing_serving_input_receiver_fn", "build_raw_serving_input_receiver_fn",
           "SINGLE_FEATURE_DEFAULT_NAME", "SINGLE_RECEIVER_DEFAULT_NAME"]

SINGLE_FEATURE_DEFAULT_NAME = "feature"
SINGLE_RECEIVER_DEFAULT_NAME = "input"
SINGLE_LABEL_DEFAULT_NAME = "label"

_SINGLE_TENSOR_DEFAULT_NAMES = {
    "feature": SINGLE_FEATURE_DEFAULT_NAME,
    "label": SINGLE_LABEL_DEFAULT_NAME,
    "receiver_tensor": SINGLE_RECEIVER_DEFAULT_NAME,
    "receiver_tensors_alternative": SINGLE_RECEIVER_DEFAULT_NAME,
}


def wrap_and_check_input_tensors(tensors, field_name, allow_int_keys=False):
    """`tensors` as a dict of str (or int, if allowed) to Tensor / SparseTensor; a single
    tensor is wrapped under the field's default name."""
    if tensors is None:
        raise ValueError(f"{field_name}s must be defined.")
    if not isinstance(tensors, dict):
        tensors = {_SINGLE_TENSOR_DEFAULT_NAMES[field_name]: tensors}
    for name, tensor in tensors.items():
        _check_tensor_key(name, error_label=field_name, allow_ints=allow_int_keys)
        _check_tensor(tensor, name, error_label=field_name)
    return tensors


def _check_tensor(tensor, name, error_label="feature"):
    if not isinstance(tensor, (Tensor, SparseTensor)):
        fmt_name = f" {name}" if name else ""
        raise ValueError(f"{error_label}{fmt_name} must be a Tensor, SparseTensor, or "
                         "RaggedTensor.")


def _check_tensor_key(name, error_label="feature", allow_ints=False):
    if not isinstance(name, str):
        if not allow_ints:
            raise ValueError(f"{error_label} keys must be strings: {name}.")
        if not isinstance(name, int):
            raise ValueError(f"{error_label} keys must be strings or ints: {name}.")


class ServingInputReceiver(collections.namedtuple(
        "ServingInputReceiver",
        ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """What a serving_input_receiver_fn returns; see the module docstring."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        features = wrap_and_check_input_tensors(features, "feature", allow_int_keys=True)
        receiver_tensors = wrap_and_check_input_tensors(receiver_tensors, "receiver_tensor")
        if receiver_tensors_alternatives is not None:
            if not isinstance(receiver_tensors_alternatives, dict):
                raise ValueError("receiver_tensors_alternatives must be a dict: "
                                 f"{receiver_tensors_alternatives}.")
            for alternative_name, alternative in list(receiver_tensors_alternatives.items()):
                receiver_tensors_alternatives[alternative_name] = wrap_and_check_input_tensors(
                    alternative, "receiver_tensors_alternative")
        return super().__new__(cls, features=features, receiver_tensors=receiver_tensors,
                               receiver_tensors_alternatives=receiver_tensors_alternatives)


class TensorServingInputReceiver(collections.namedtuple(
        "TensorServingInputReceiver",
        ["features", "receiver_tensors", "receiver_tensors_alternatives"])):
    """A ServingInputReceiver whose `features` is a single Tensor or SparseTensor, handed to
    the model_fn as it is (not wrapped in a dict)."""

    def __new__(cls, features, receiver_tensors, receiver_tensors_alternatives=None):
        if features is None:
            raise ValueError("features must be defined.")
        _check_tensor(features, None)
        receiver = ServingInputReceiver(
            features=features, receiver_tensors=receiver_tensors,
            receiver_tensors_alternatives=receiver_tensors_alternatives)
        return super().__new__(
            cls, features=receiver.features[SINGLE_FEATURE_DEFAULT_NAME],
            receiver_tensors=receiver.receiver_tensors,
            receiver_tensors_alternatives=receiver.receiver_tensors_alternatives)


def build_parsing_serving_input_receiver_fn(feature_spec, default_batch_size=None):
    """A serving_input_receiver_fn fed serialized tf.Examples (a string placeholder,
    receiver key 'examples'), parsed with `feature_spec` ({key: FixedLenFeature /
    VarLenFeature}, e.g. tf.feature_column.make_parse_example_spec(columns))."""

    def serving_input_receiver_fn():
        serialized_tf_example = placeholder(dtype=dtypes.string, shape=[default_batch_size],
                                            name="input_example_tensor")
        receiver_tensors = {"examples": serialized_tf_example}
        features = parse_example(serialized_tf_example, feature_spec)
        return ServingInputReceiver(features, receiver_tensors)

    return serving_input_receiver_fn


def _placeholder_from_tensor(t, default_batch_size=None):
    """A placeholder of t's dtype and shape (any batch size), named as t's op."""
    shape = TensorShape([default_batch_size]).concatenate(t.get_shape()[1:])
    return placeholder(dtype=t.dtype, shape=shape, name=t.op.name)


def _placeholders_from_receiver_tensors_dict(input_vals, default_batch_size=None):
    return {name: _placeholder_from_tensor(t, default_batch_size)
            for name, t in input_vals.items()}


def build_raw_serving_input_receiver_fn(features, default_batch_size=None):
    """A serving_input_receiver_fn fed the features themselves: one placeholder per entry of
    `features` ({key: Tensor}), of its dtype and shape but any batch size."""

    def serving_input_receiver_fn():
        receiver_tensors = _placeholders_from_receiver_tensors_dict(features,
                                                                    default_batch_size)
        return ServingInputReceiver(receiver_tensors, receiver_tensors)

    return serving_input_receiver_fn
