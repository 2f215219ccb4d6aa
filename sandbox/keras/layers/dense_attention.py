"""keras.layers' attention layers -- mirrors TensorFlow 1.15's
python/keras/layers/dense_attention.py: Attention (Luong's dot-product attention) and
AdditiveAttention (Bahdanau's).

    query = keras.Input(shape=(None, 16)); value = keras.Input(shape=(None, 16))
    context = keras.layers.Attention()([query, value])       # [batch, Tq, 16]

Called on [query, value] or [query, value, key] (key defaults to value), each
[batch, T, dim]. For each query step the layer scores every key step,

    Attention          scores = query @ key^T              (* scale, use_scale=True)
    AdditiveAttention  scores = sum(scale * tanh(query_i + key_j), axis=-1)

turns the scores into weights with a softmax over the key steps and returns the weighted
sum of the value steps: [batch, Tq, dim]. Masks (Embedding(mask_zero=True) on the inputs, or
mask=[query_mask, value_mask]): a masked value step gets the score -1e9 (no weight), and the
output of a masked query step is zeros; the output carries the query's mask. causal=True lets
query step i see only the key steps j <= i (for decoders).

Weights: Attention(use_scale=True) has a scalar 'attention/scale' (starting at 1),
AdditiveAttention(use_scale=True, the default) 'additive_attention/scale' [dim]
(glorot_uniform).
"""
from ...framework import dtypes
from ...framework.tensor_shape import TensorShape
from ...ops import (array_ops, basic_math_ops, comparison_ops, diag_ops, math_ops, matmul_ops,
                    nn_ops, reduction_ops)
from .merge import ListInputLayer

__all__ = ["Attention", "AdditiveAttention"]


def _lower_triangular_mask(tq, tv):
    """[1, Tq, Tv] bools: True where the key step j <= the query step i."""
    ones = array_ops.ones([1, tq, tv], dtype=dtypes.float32)
    return comparison_ops.greater(diag_ops.matrix_band_part(ones, -1, 0), 0.5)


class _BaseDenseAttention(ListInputLayer):
    """What both attention layers share: the inputs, the masks, softmax and the sum."""
    _config_keys = ("causal",)
    supports_masking = True

    def __init__(self, causal=False, **kwargs):
        super().__init__(**kwargs)
        self.causal = causal

    def _check_inputs(self, inputs):
        class_name = type(self).__name__
        if not isinstance(inputs, list):
            raise ValueError(f"{class_name} layer must be called on a list of inputs, namely "
                             "[query, value] or [query, value, key].")
        if len(inputs) < 2 or len(inputs) > 3:
            raise ValueError(f"{class_name} layer accepts inputs list of length 2 or 3, namely "
                             f"[query, value] or [query, value, key]. Given length: "
                             f"{len(inputs)}")

    def _check_mask(self, mask):
        if mask is not None and (not isinstance(mask, list) or len(mask) not in (2, 3)):
            raise ValueError(f"{type(self).__name__} layer mask must be a list of length 2, "
                             f"namely [query_mask, value_mask]. Given: {mask}")

    def compute_output_shape(self, input_shape):
        return TensorShape(input_shape[0])

    def compute_mask(self, inputs, mask=None):
        if mask is None or mask[0] is None:
            return None
        return mask[0]

    def _apply_scores(self, scores, value, scores_mask=None):
        """softmax over the key steps (masked steps -1e9 first), @ value."""
        if scores_mask is not None:
            padding = math_ops.cast(comparison_ops.logical_not(scores_mask), scores.dtype)
            scores -= 1.e9 * padding
        weights = nn_ops.softmax(scores)
        return matmul_ops.matmul(weights, value)

    def call(self, inputs, mask=None):
        self._check_mask(mask)
        q, v = inputs[0], inputs[1]
        k = inputs[2] if len(inputs) > 2 else v
        q_mask = mask[0] if mask else None
        v_mask = mask[1] if mask else None
        scores = self._calculate_scores(query=q, key=k)
        scores_mask = None
        if v_mask is not None:
            scores_mask = array_ops.expand_dims(v_mask, axis=-2)       # [batch, 1, Tv]
        if self.causal:
            tq, tv = q.get_shape()[1].value, k.get_shape()[1].value
            if tq is None or tv is None:
                raise ValueError(f"Layer {self.name}: causal=True needs the number of query "
                                 "and key steps known when the model is built.")
            causal_mask = _lower_triangular_mask(tq, tv)
            scores_mask = causal_mask if scores_mask is None else \
                comparison_ops.logical_and(scores_mask, causal_mask)
        result = self._apply_scores(scores, v, scores_mask)
        if q_mask is not None:
            result *= math_ops.cast(array_ops.expand_dims(q_mask, axis=-1), result.dtype)
        result.set_shape(self.compute_output_shape([q.get_shape()]))
        return result


class Attention(_BaseDenseAttention):
    """Attention(use_scale=False, causal=False): dot-product attention."""
    _config_keys = ("use_scale",) + _BaseDenseAttention._config_keys

    def __init__(self, use_scale=False, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight("scale", shape=(), initializer="ones",
                                         dtype=self.dtype, trainable=True)
        self.built = True

    def _calculate_scores(self, query, key):
        scores = matmul_ops.matmul(query, key, transpose_b=True)
        return scores * self.scale if self.scale is not None else scores


class AdditiveAttention(_BaseDenseAttention):
    """AdditiveAttention(use_scale=True, causal=False): additive (Bahdanau) attention."""
    _config_keys = ("use_scale",) + _BaseDenseAttention._config_keys

    def __init__(self, use_scale=True, **kwargs):
        super().__init__(**kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        dim = TensorShape(input_shape[1])[-1].value
        self.scale = None
        if self.use_scale:
            self.scale = self.add_weight("scale", shape=[dim], initializer="glorot_uniform",
                                         dtype=self.dtype, trainable=True)
        self.built = True

    def _calculate_scores(self, query, key):
        q = array_ops.expand_dims(query, axis=-2)          # [batch, Tq, 1, dim]
        k = array_ops.expand_dims(key, axis=-3)            # [batch, 1, Tv, dim]
        tanh = basic_math_ops.tanh(q + k)
        return reduction_ops.reduce_sum(tanh * self.scale if self.scale is not None else tanh,
                                        axis=-1)
