"""BasicDecoder -- mirrors TF 1.15's contrib/seq2seq/python/ops/basic_decoder.py.

One step of a BasicDecoder is one call of its cell, then the optional output layer (usually a
Dense projection to the vocabulary), then the helper (helper.py) picks the sample ids and the
next inputs:

    cell_outputs, cell_state = cell(inputs, state)
    logits = output_layer(cell_outputs)                  # if any
    sample_ids = helper.sample(time, logits, cell_state)
    finished, next_inputs, next_state = helper.next_inputs(time, logits, cell_state, sample_ids)
    -> BasicDecoderOutput(rnn_output=logits, sample_id=sample_ids)

dynamic_decode (decoder.py) runs the steps.
"""
import collections

from ...api.nest import map_structure
from ...framework.graph import name_scope
from ...framework.tensor_shape import TensorShape
from ...layers.base import Layer
from ...ops.func_graph import flatten
from .decoder import Decoder
from .helper import Helper

__all__ = ["BasicDecoderOutput", "BasicDecoder"]


class BasicDecoderOutput(collections.namedtuple("BasicDecoderOutput",
                                                ("rnn_output", "sample_id"))):
    """One step's (or, stacked, all steps') outputs of a BasicDecoder."""
    __slots__ = ()


def check_like_rnncell(cell):
    """TypeError unless `cell` quacks like an RNNCell (TF's rnn_cell_impl.assert_like_rnncell)."""
    if not (hasattr(cell, "output_size") and hasattr(cell, "state_size") and callable(cell)):
        raise TypeError(f"The argument 'cell' ({cell!r}) is not an RNNCell: it needs the "
                        "properties 'output_size' and 'state_size' and must be callable.")


def check_output_layer(output_layer):
    if output_layer is not None and not isinstance(output_layer, Layer):
        raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")


def rnn_output_size(cell, output_layer):
    """The size of one step's output: the cell's, or the output layer's for an input
    [None, cell.output_size], without the batch."""
    size = cell.output_size
    if output_layer is None:
        return size
    return map_structure(
        lambda s: output_layer.compute_output_shape(TensorShape([None]).concatenate(s))[1:],
        size)


class BasicDecoder(Decoder):
    """A decoder of one cell, driven by a Helper, starting at initial_state."""

    def __init__(self, cell, helper, initial_state, output_layer=None):
        check_like_rnncell(cell)
        if not isinstance(helper, Helper):
            raise TypeError(f"helper must be a Helper, received: {type(helper)}")
        check_output_layer(output_layer)
        self._cell = cell
        self._helper = helper
        self._initial_state = initial_state
        self._output_layer = output_layer

    @property
    def batch_size(self):
        return self._helper.batch_size

    def _rnn_output_size(self):
        return rnn_output_size(self._cell, self._output_layer)

    @property
    def output_size(self):
        return BasicDecoderOutput(rnn_output=self._rnn_output_size(),
                                  sample_id=self._helper.sample_ids_shape)

    @property
    def output_dtype(self):
        dtype = flatten(self._initial_state)[0].dtype.base_dtype
        return BasicDecoderOutput(map_structure(lambda _: dtype, self._rnn_output_size()),
                                  self._helper.sample_ids_dtype)

    def initialize(self, name=None):
        """(finished, first inputs, initial_state)."""
        return self._helper.initialize() + (self._initial_state,)

    def step(self, time, inputs, state, name=None):
        """(BasicDecoderOutput, next_state, next_inputs, finished)."""
        with name_scope(name, "BasicDecoderStep", (time, inputs)):
            cell_outputs, cell_state = self._cell(inputs, state)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            sample_ids = self._helper.sample(time=time, outputs=cell_outputs, state=cell_state)
            (finished, next_inputs, next_state) = self._helper.next_inputs(
                time=time, outputs=cell_outputs, state=cell_state, sample_ids=sample_ids)
        outputs = BasicDecoderOutput(cell_outputs, sample_ids)
        return (outputs, next_state, next_inputs, finished)
