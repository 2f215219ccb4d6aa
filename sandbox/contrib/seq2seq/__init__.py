"""tf.contrib.seq2seq -- mirrors TF 1.15's contrib/seq2seq/__init__.py: the decoders of the
TF 1.x neural machine translation tutorial.

    helper = tf.contrib.seq2seq.TrainingHelper(decoder_inputs, target_lengths)
    decoder = tf.contrib.seq2seq.BasicDecoder(cell, helper, initial_state, output_layer)
    outputs, state, lengths = tf.contrib.seq2seq.dynamic_decode(decoder)
    loss = tf.contrib.seq2seq.sequence_loss(outputs.rnn_output, targets, weights)

loss.py           sequence_loss
helper.py         Helper, TrainingHelper, ScheduledEmbeddingTrainingHelper,
                  GreedyEmbeddingHelper, SampleEmbeddingHelper, InferenceHelper, CustomHelper
decoder.py        Decoder, dynamic_decode (a tf.while_loop writing TensorArrays)
basic_decoder.py  BasicDecoder, BasicDecoderOutput
attention_wrapper.py  BahdanauAttention, LuongAttention, AttentionWrapper,
                  AttentionWrapperState, hardmax, the monotonic mechanisms,
                  monotonic_attention, safe_cumprod
beam_search_decoder.py  BeamSearchDecoder, BeamSearchDecoderOutput, BeamSearchDecoderState,
                  FinalBeamSearchDecoderOutput, tile_batch, gather_tree_from_array
beam_search_ops.py      gather_tree
"""
from .attention_wrapper import (AttentionMechanism, AttentionWrapper, AttentionWrapperState,
                                BahdanauAttention, BahdanauMonotonicAttention, LuongAttention,
                                LuongMonotonicAttention, hardmax, monotonic_attention,
                                safe_cumprod)
from .basic_decoder import BasicDecoder, BasicDecoderOutput
from .beam_search_decoder import (BeamSearchDecoder, BeamSearchDecoderOutput,
                                  BeamSearchDecoderState, FinalBeamSearchDecoderOutput,
                                  gather_tree_from_array, tile_batch)
from .beam_search_ops import gather_tree
from .decoder import Decoder, dynamic_decode
from .helper import (CustomHelper, GreedyEmbeddingHelper, Helper, InferenceHelper,
                     SampleEmbeddingHelper, ScheduledEmbeddingTrainingHelper, TrainingHelper)
from .loss import sequence_loss

__all__ = ["sequence_loss",
           "Helper", "CustomHelper", "TrainingHelper", "ScheduledEmbeddingTrainingHelper",
           "GreedyEmbeddingHelper", "SampleEmbeddingHelper", "InferenceHelper",
           "Decoder", "dynamic_decode", "BasicDecoder", "BasicDecoderOutput",
           "AttentionMechanism", "BahdanauAttention", "LuongAttention", "AttentionWrapper",
           "AttentionWrapperState", "BahdanauMonotonicAttention", "LuongMonotonicAttention",
           "hardmax", "safe_cumprod", "monotonic_attention",
           "tile_batch", "BeamSearchDecoder", "BeamSearchDecoderOutput", "BeamSearchDecoderState",
           "FinalBeamSearchDecoderOutput", "gather_tree", "gather_tree_from_array"]
