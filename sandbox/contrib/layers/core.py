"""bias_add, softmax, one_hot_encoding, embed_sequence, repeat and stack of tf.contrib.layers
-- mirrors TensorFlow 1.15's contrib/layers/python/layers/layers.py and encoders.py.

    y = tf.contrib.layers.bias_add(x)                     # x + 'BiasAdd/biases'
    p = tf.contrib.layers.softmax(logits)                 # softmax over the last axis, any rank
    y = tf.contrib.layers.one_hot_encoding(labels, 10)    # float one-hot, scope 'OneHotEncoding'
    e = tf.contrib.layers.embed_sequence(ids, vocab_size=100, embed_dim=8)
                                                          # 'EmbedSequence/embeddings'
    net = slim.repeat(net, 2, slim.conv2d, 64, [3, 3], scope='conv1')
                                  # conv1/conv1_1, conv1/conv1_2: the same layer twice
    net = slim.stack(net, slim.fully_connected, [32, 64], scope='fc')
                                  # fc/fc_1 (32 units), fc/fc_2 (64): one layer per argument

repeat and stack open the scope `scope` (default 'Repeat', 'Stack') and name the layers
inside it after `scope` or, without one, after the layer function ('fully_connected_1' ...).
"""
from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...ops import array_ops, indexing_ops, init_ops, math_ops, nn_impl, nn_ops, slicing_ops
from ...ops import variable_scope as vs
from ..framework.arg_scope import add_arg_scope
from ..framework.variables import model_variable
from .layers import _variable_collections, collect_named_outputs

__all__ = ["bias_add", "softmax", "one_hot_encoding", "embed_sequence", "repeat", "stack"]


@add_arg_scope
def bias_add(inputs, activation_fn=None, initializer=init_ops.zeros_initializer(),
             regularizer=None, reuse=None, variables_collections=None,
             outputs_collections=None, trainable=True, data_format="NHWC", scope=None):
    """activation_fn(inputs + biases), biases one per channel ('BiasAdd/biases')."""
    with vs.variable_scope(scope, "BiasAdd", [inputs], reuse=reuse) as sc:
        inputs = convert_to_tensor(inputs)
        shape = inputs.get_shape()
        if shape.ndims is None:
            raise ValueError("Dims of shape must be known but is None")
        if shape.ndims != 4 and data_format == "NCHW":
            raise ValueError("Data format NCHW only supports 4D Tensor")
        num_features = shape.as_list()[1 if data_format == "NCHW" else -1]
        if num_features is None:
            raise ValueError("`C` dimension must be known but is None")
        biases = model_variable("biases", shape=[num_features], dtype=inputs.dtype.base_dtype,
                                initializer=initializer, regularizer=regularizer,
                                collections=_variable_collections(variables_collections,
                                                                  "biases"),
                                trainable=trainable)
        outputs = nn_ops.bias_add(inputs, biases, data_format=data_format)
        if activation_fn is not None:
            outputs = activation_fn(outputs)
        return collect_named_outputs(outputs_collections, sc.name, outputs)


@add_arg_scope
def softmax(logits, scope=None):
    """The softmax over the last axis of `logits` of rank 2 or more (scope 'softmax')."""
    with vs.variable_scope(scope, "softmax", [logits]):
        logits = convert_to_tensor(logits)
        shape = logits.get_shape()
        if shape.ndims is None or shape.ndims < 2 or shape.as_list()[-1] is None:
            raise ValueError(f"softmax: logits need rank >= 2 and a known last dimension, "
                             f"got shape {shape}.")
        logits_2d = array_ops.reshape(logits, [-1, shape.as_list()[-1]])
        predictions = nn_ops.softmax(logits_2d)
        predictions = array_ops.reshape(predictions, array_ops.shape(logits))
        predictions.set_shape(shape)
        return predictions


@add_arg_scope
def one_hot_encoding(labels, num_classes, on_value=1.0, off_value=0.0,
                     outputs_collections=None, scope=None):
    """tf.one_hot(labels, num_classes) as floats (int32 labels are cast to int64 first)."""
    with name_scope(scope, "OneHotEncoding", [labels, num_classes]) as sc:
        labels = convert_to_tensor(labels)
        if labels.dtype == _dtypes.int32:
            labels = math_ops.to_int64(labels)
        outputs = indexing_ops.one_hot(labels, num_classes, on_value=on_value,
                                       off_value=off_value)
        return collect_named_outputs(outputs_collections, sc, outputs)


def embed_sequence(ids, vocab_size=None, embed_dim=None, unique=False, initializer=None,
                   regularizer=None, trainable=True, scope=None, reuse=None):
    """The rows of a [vocab_size, embed_dim] 'EmbedSequence/embeddings' model variable picked
    by `ids` ([batch, doc_length] -> [batch, doc_length, embed_dim])."""
    if not (reuse or (vocab_size and embed_dim)):
        raise ValueError("Must specify vocab size and embedding dimension when not reusing. "
                         f"Got vocab_size={vocab_size} and embed_dim={embed_dim}")
    with vs.variable_scope(scope, "EmbedSequence", [ids], reuse=reuse):
        shape = [vocab_size, embed_dim]
        if reuse and vocab_size is None or embed_dim is None:
            shape = None
        embeddings = model_variable("embeddings", shape=shape, initializer=initializer,
                                    regularizer=regularizer, trainable=trainable)
        if not unique:
            return nn_impl.embedding_lookup(embeddings, ids)
        with name_scope(None, "EmbeddingLookupUnique", [embeddings, ids]):
            ids = convert_to_tensor(ids)
            flat_ids = array_ops.reshape(ids, [-1])
            unique_ids, idx = indexing_ops.unique(flat_ids)
            rows = indexing_ops.gather(nn_impl.embedding_lookup(embeddings, unique_ids), idx)
            return array_ops.reshape(rows, slicing_ops.concat(
                [array_ops.shape(ids), [embed_dim or array_ops.shape(embeddings)[1]]], 0))


def _layer_name(layer, fallback):
    """The name repeat/stack give the layers they make: the layer function's name."""
    if hasattr(layer, "__name__"):
        return layer.__name__
    if hasattr(layer, "func") and hasattr(layer.func, "__name__"):   # a functools.partial
        return layer.func.__name__
    return fallback


def repeat(inputs, repetitions, layer, *args, **kwargs):
    """layer(layer(...layer(inputs, *args, **kwargs)...)), `repetitions` times, the i-th in
    scope '<scope>_<i>'."""
    scope = kwargs.pop("scope", None)
    with vs.variable_scope(scope, "Repeat", [inputs]):
        outputs = convert_to_tensor(inputs)
        scope = scope or _layer_name(layer, "repeat")
        for i in range(repetitions):
            kwargs["scope"] = f"{scope}_{i + 1}"
            outputs = layer(outputs, *args, **kwargs)
        return outputs


def stack(inputs, layer, stack_args, **kwargs):
    """layer applied once per entry of stack_args (its positional arguments), each on the
    output of the one before, the i-th in scope '<scope>_<i>'."""
    scope = kwargs.pop("scope", None)
    if not isinstance(stack_args, (list, tuple)):
        raise ValueError("stack_args need to be a list or tuple")
    with vs.variable_scope(scope, "Stack", [inputs]):
        outputs = convert_to_tensor(inputs)
        scope = scope or _layer_name(layer, "stack")
        for i, layer_args in enumerate(stack_args):
            kwargs["scope"] = f"{scope}_{i + 1}"
            if not isinstance(layer_args, (list, tuple)):
                layer_args = [layer_args]
            outputs = layer(outputs, *layer_args, **kwargs)
        return outputs
