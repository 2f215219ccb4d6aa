"""`tf.contrib.crf` -- the linear-chain CRF of TF 1.15's contrib/crf (see crf.py)."""
from .crf import (CrfDecodeBackwardRnnCell, CrfDecodeForwardRnnCell, CrfForwardRnnCell,
                  crf_binary_score, crf_decode, crf_forward, crf_log_likelihood, crf_log_norm,
                  crf_sequence_score, crf_unary_score, viterbi_decode)

__all__ = ["crf_sequence_score", "crf_log_norm", "crf_log_likelihood", "crf_unary_score",
           "crf_binary_score", "crf_forward", "CrfForwardRnnCell", "viterbi_decode",
           "crf_decode", "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell"]
