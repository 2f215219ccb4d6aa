"""keras.layers.Embedding -- mirrors TensorFlow 1.15's python/keras/layers/embeddings.py.

    keras.layers.Embedding(10000, 16, input_length=256)   # ids [batch, 256] -> [batch, 256, 16]

A table 'embedding/embeddings' of input_dim rows of output_dim numbers (RandomUniform in
[-0.05, 0.05], Keras's 'uniform'); the layer looks up one row per id (tf.nn.embedding_lookup),
casting the ids to int32 first: the model's input placeholder is float32 as in TF
('embedding_input', shape (None, input_length)). Without input_length the steps axis is None
(fine for pooling, not for Flatten or the sandbox's RNN layers, which unroll over a known
number of steps).

mask_zero=True makes id 0 padding: the output carries the mask ids != 0, which
GlobalAveragePooling1D and the RNN layers obey (and input_dim must then count the 0).
"""
from ...framework import dtypes as _dtypes
from ...framework.tensor_shape import TensorShape
from ...ops import comparison_ops, math_ops, nn_impl
from .. import backend as K
from .. import initializers, regularizers
from ..engine.base_layer import Layer

__all__ = ["Embedding"]


class Embedding(Layer):
    """Embedding(input_dim, output_dim, embeddings_initializer='uniform', mask_zero=False,
    input_length=None): positive integer ids -> dense vectors."""
    _config_keys = ("input_dim", "output_dim", "embeddings_initializer",
                    "embeddings_regularizer", "activity_regularizer", "embeddings_constraint",
                    "mask_zero", "input_length")

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, activity_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, input_length=None, **kwargs):
        if "input_shape" not in kwargs and "batch_input_shape" not in kwargs:
            kwargs["input_shape"] = (input_length,) if input_length else (None,)
        kwargs.setdefault("dtype", K.floatx())
        super().__init__(activity_regularizer=regularizers.get(activity_regularizer),
                         **kwargs)
        self.input_dim = int(input_dim)
        self.output_dim = int(output_dim)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = embeddings_constraint
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self.input_length = input_length

    def build(self, input_shape):
        self.embeddings = self.add_weight(
            "embeddings", shape=(self.input_dim, self.output_dim),
            initializer=self.embeddings_initializer, regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint)
        self.built = True

    def compute_mask(self, inputs, mask=None):
        if not self.mask_zero:
            return None
        return comparison_ops.not_equal(inputs, 0)

    def compute_output_shape(self, input_shape):
        input_shape = TensorShape(input_shape)
        return TensorShape(input_shape.as_list() + [self.output_dim])

    def call(self, inputs):
        if inputs.dtype.base_dtype != _dtypes.int32:
            inputs = math_ops.cast(inputs, _dtypes.int32)
        outputs = nn_impl.embedding_lookup(self.embeddings, inputs)
        outputs.set_shape(self.compute_output_shape(inputs.get_shape()))
        return outputs
