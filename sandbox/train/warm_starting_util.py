"""Warm-starting a model from another model's checkpoint -- mirrors TF 1.15's
python/training/warm_starting_util.py (tf.train.warm_start, tf.train.VocabInfo) and the
remapping of python/training/checkpoint_ops.py (_load_and_remap_matrix_initializer).

    tf.train.warm_start("/tmp/old_model",                   # a directory or a checkpoint prefix
                        vars_to_warm_start=".*",             # the trainable variables
                        var_name_to_vocab_info={"emb": tf.train.VocabInfo(
                            new_vocab="new_words.txt", new_vocab_size=1000, num_oov_buckets=1,
                            old_vocab="old_words.txt")},
                        var_name_to_prev_var_name={"dense/kernel": "old_dense/kernel"})
    sess.run(tf.global_variables_initializer())              # the values come from the file

Like init_from_checkpoint (checkpoint_utils.py), which it calls for the variables without a
vocabulary, warm_start runs nothing: it replaces the initializers of the graph's variables.

A variable whose rows (axis=0) or columns (axis=1) stand for the words of a vocabulary --
an embedding, the weights of a categorical column, an output layer over classes -- cannot be
copied as it is when the vocabulary changed: row i of the new variable is the word
new_vocab[i], which was row old_vocab.index(word) of the old one, or not there at all. Its
initializer gathers the old rows in the new order; a new word's row, and every OOV bucket's
row, takes `backup_initializer` (zeros by default). A partitioned variable is remapped shard by
shard, each shard taking its own rows.

One difference: TF reads the two vocabulary files when the initializer runs
(GenerateVocabRemapping ops); the sandbox reads them when warm_start is called, and the
initializer is a RestoreV2 of the old tensor followed by a Gather.
"""
import collections
import logging
import os

import numpy as np

from ..framework.graph import GraphKeys, get_collection
from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, indexing_ops, io_ops, slicing_ops, state_ops
from ..ops.init_ops import zeros_initializer
from . import checkpoint_management
from .checkpoint_utils import _is_partitioned, _is_variable, _not_found, init_from_checkpoint

__all__ = ["VocabInfo", "warm_start"]

_log = logging.getLogger("sandbox")


class VocabInfo(collections.namedtuple("VocabInfo", [
        "new_vocab", "new_vocab_size", "num_oov_buckets", "old_vocab", "old_vocab_size",
        "backup_initializer", "axis"])):
    """How a variable's rows (axis=0) or columns (axis=1) follow a vocabulary: the new
    vocabulary file and how many of its words are used, the number of OOV buckets after
    them, the old vocabulary file (and how many of its words the checkpoint used: -1 for
    all), and the initializer of the rows no old row matches (None: zeros)."""

    def __new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab,
                old_vocab_size=-1, backup_initializer=None, axis=0):
        if axis != 0 and axis != 1:
            raise ValueError("The only supported values for the axis argument are 0 and 1.  "
                             f"Provided axis: {axis}")
        return super().__new__(cls, new_vocab, new_vocab_size, num_oov_buckets, old_vocab,
                               old_vocab_size, backup_initializer, axis)


# -- which variables ----------------------------------------------------------------------

def _infer_var_name(variables):
    """The name of a variable, of a partitioned variable, or of the shards of one."""
    names = set()
    for v in variables:
        if _is_partitioned(v):
            names.add(v.name)
            continue
        info = v._get_save_slice_info()
        names.add(info.full_name if info is not None else v.op.name)
    if len(names) > 1:
        raise TypeError(f"`var` = {variables} passed as arg violates the constraints: they are "
                        f"several variables ({sorted(names)}), not the shards of one.")
    return names.pop()


def _get_grouped_variables(vars_to_warm_start):
    """{variable name: [the variable] or [its shards]} for what vars_to_warm_start names."""
    if isinstance(vars_to_warm_start, str) or vars_to_warm_start is None:
        _log.info("Warm-starting variables only in TRAINABLE_VARIABLES.")
        list_of_vars = get_collection(GraphKeys.TRAINABLE_VARIABLES, scope=vars_to_warm_start)
    elif isinstance(vars_to_warm_start, list):
        if all(isinstance(v, str) for v in vars_to_warm_start):
            list_of_vars = []
            for scope in vars_to_warm_start:
                list_of_vars += get_collection(GraphKeys.GLOBAL_VARIABLES, scope=scope)
        elif all(_is_variable(v) for v in vars_to_warm_start):
            list_of_vars = vars_to_warm_start
        else:
            raise ValueError("If `vars_to_warm_start` is a list, it must be all `Variable` or "
                             f"all `str`.  Given types are {[type(v) for v in vars_to_warm_start]}")
    else:
        raise ValueError("`vars_to_warm_start must be a `list` or `str`.  Given type is "
                         f"{type(vars_to_warm_start)}")
    grouped = {}
    for v in list_of_vars:
        grouped.setdefault(_infer_var_name([v]), []).append(v)
    return grouped


# -- remapping by vocabulary --------------------------------------------------------------

def _read_vocab(path, size=-1):
    """The words of a vocabulary file, one a line; only the first `size` if size > 0."""
    with open(os.fspath(path), encoding="utf-8") as f:
        words = f.read().splitlines()
    if size is not None and size > 0:
        if size > len(words):
            raise ValueError(f"Vocabulary file {path} has {len(words)} words, fewer than the "
                             f"{size} asked for: give a size of at most {len(words)}, or -1 "
                             f"for all of them.")
        words = words[:size]
    return words


def _remapping(new_words, old_words, count, offset=0):
    """For the new positions offset .. offset+count-1: the old position of their word, or -1
    (a word the old vocabulary lacks, or an OOV bucket past the new vocabulary)."""
    old_index = {}
    for i, word in enumerate(old_words):
        old_index.setdefault(word, i)
    return [old_index.get(new_words[p], -1) if p < len(new_words) else -1
            for p in range(offset, offset + count)]


def _remapped_value(old, old_size, remapping, backup, axis):
    """The old tensor's rows (or columns) in the new order: each -1 of `remapping` takes the
    same row (column) of `backup` instead."""
    index = [old_position if old_position >= 0 else old_size + i
             for i, old_position in enumerate(remapping)]
    both = slicing_ops.concat([old, backup], axis)
    return indexing_ops.gather(both, np.asarray(index, np.int64), axis=axis)


def _set_initializer(v, value):
    """v's initializer becomes an Assign of `value`, colocated with v, outside any
    control-dependency scope (as checkpoint_utils._set_checkpoint_initializer)."""
    g = v.graph
    ref = v._ref()
    with g.as_default(), g.control_dependencies(None), g.colocate_with(ref.op):
        value = convert_to_tensor(value)
        v._initializer_op = state_ops.assign(ref, value).op
    v._initial_value = value


def _warm_start_var_with_vocab(variables, ckpt, prev_tensor_name, vocab_info):
    """Initializes `variables` (one, or the shards of one along axis 0) from the checkpoint's
    `prev_tensor_name`, its rows or columns remapped from the old vocabulary to the new."""
    info = vocab_info
    if not (info.new_vocab and info.new_vocab_size and ckpt and info.old_vocab):
        raise ValueError("Invalid args: Must provide all of [current_vocab_path, "
                         "current_vocab_size, prev_ckpt, prev_vocab_path}.")
    with checkpoint_management.load_checkpoint(ckpt) as reader:
        shapes = reader.get_variable_to_shape_map()
        ckpt_file = os.path.abspath(reader.prefix)
    if prev_tensor_name not in shapes:
        raise _not_found(prev_tensor_name, ckpt, shapes,
                         f"variable {_infer_var_name(variables)}, with a vocabulary")
    old_shape = list(shapes[prev_tensor_name])
    new_words = _read_vocab(info.new_vocab, info.new_vocab_size)
    old_words = _read_vocab(info.old_vocab, info.old_vocab_size if info.axis == 0 else -1)
    initializer = info.backup_initializer or zeros_initializer()
    for v in variables:
        shape = v.get_shape().as_list()
        if len(shape) != 2 or len(old_shape) != 2:
            raise ValueError(f"Warm-starting {v.op.name} with a vocabulary needs 2-D tensors "
                             f"(rows or columns per word), but the variable has shape {shape} "
                             f"and {prev_tensor_name} in the checkpoint {old_shape}.")
        slice_info = v._get_save_slice_info()
        offset = slice_info.var_offset[0] if slice_info is not None else 0
        dtype = v.dtype.base_dtype
        with v.graph.as_default(), v.graph.control_dependencies(None), \
                v.graph.colocate_with(v._ref().op):
            old = io_ops.restore_v2(ckpt_file, [prev_tensor_name], [""], [dtype])[0]
            old.set_shape(old_shape)
            backup = initializer(shape, dtype=dtype)
            if info.axis == 0:
                expected = info.new_vocab_size + info.num_oov_buckets
                if offset + shape[0] > expected:
                    raise ValueError(f"{v.op.name} has rows {offset}..{offset + shape[0] - 1}, "
                                     f"more than new_vocab_size ({info.new_vocab_size}) + "
                                     f"num_oov_buckets ({info.num_oov_buckets}) = {expected}.")
                remapping = _remapping(new_words, old_words, shape[0], offset)
                value = _remapped_value(old, old_shape[0], remapping, backup, 0)
            else:
                if shape[1] != info.new_vocab_size + info.num_oov_buckets:
                    raise ValueError(
                        f"Expected 2nd dim of shape to be new_col_vocab_size "
                        f"({info.new_vocab_size}) + num_col_oov_buckets "
                        f"({info.num_oov_buckets}) = "
                        f"{info.new_vocab_size + info.num_oov_buckets}, but received shape: "
                        f"{shape} (variable {v.op.name}).")
                rows = indexing_ops.gather(old, np.arange(offset, offset + shape[0]))
                remapping = _remapping(new_words, old_words, shape[1])
                value = _remapped_value(rows, old_shape[1], remapping, backup, 1)
            value = array_ops.reshape(value, shape)
        _set_initializer(v, value)


# -- warm_start ----------------------------------------------------------------------------

def warm_start(ckpt_to_initialize_from, vars_to_warm_start=".*", var_name_to_vocab_info=None,
               var_name_to_prev_var_name=None):
    """Makes the initializers of the current graph's variables read the checkpoint
    `ckpt_to_initialize_from` (a directory or a checkpoint prefix) -- TF's
    tf.train.warm_start.

    vars_to_warm_start: a regular expression over the TRAINABLE_VARIABLES (default: all of
    them), a list of such expressions over the GLOBAL_VARIABLES (optimizer slots, batch-norm
    statistics ...), a list of Variables, or None (only those of var_name_to_vocab_info).
    var_name_to_vocab_info: {variable name: VocabInfo} for the variables whose rows follow
    a vocabulary that changed. var_name_to_prev_var_name: {variable name: its name in the
    checkpoint} when it was renamed. A name of either dict that names no warm-started variable
    is a ValueError (a misspelling, most likely)."""
    _log.info("Warm-starting from: %s", ckpt_to_initialize_from)
    grouped_variables = _get_grouped_variables(vars_to_warm_start)
    var_name_to_vocab_info = var_name_to_vocab_info or {}
    var_name_to_prev_var_name = var_name_to_prev_var_name or {}
    warmstarted_count = 0
    prev_var_name_used, vocab_info_used = set(), set()
    vocabless_vars = {}
    for var_name, variable in grouped_variables.items():
        prev_var_name = var_name_to_prev_var_name.get(var_name)
        if prev_var_name:
            prev_var_name_used.add(var_name)
        variable = list(variable[0]._get_variable_list()) if len(variable) == 1 and \
            _is_partitioned(variable[0]) else variable
        vocab_info = var_name_to_vocab_info.get(var_name)
        if vocab_info:
            vocab_info_used.add(var_name)
            warmstarted_count += 1
            _warm_start_var_with_vocab(variable, os.fspath(ckpt_to_initialize_from),
                                       prev_var_name or var_name, vocab_info)
        elif vars_to_warm_start:
            warmstarted_count += 1
            prev_tensor_name = prev_var_name or var_name
            if prev_tensor_name in vocabless_vars:
                # init_from_checkpoint maps each checkpoint tensor to one variable: a tensor
                # wanted by a second variable takes a second call (as TF does).
                init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
                vocabless_vars.clear()
            vocabless_vars[prev_tensor_name] = variable[0] if len(variable) == 1 else variable
    if vocabless_vars:
        init_from_checkpoint(ckpt_to_initialize_from, vocabless_vars)
    _log.info("Warm-started %d variables.", warmstarted_count)
    prev_var_name_not_used = set(var_name_to_prev_var_name) - prev_var_name_used
    vocab_info_not_used = set(var_name_to_vocab_info) - vocab_info_used
    if prev_var_name_not_used:
        raise ValueError(f"You provided the following variables in var_name_to_prev_var_name "
                         f"that were not used: {prev_var_name_not_used}.  Perhaps you "
                         f"misspelled them?  Here is the list of viable variable names: "
                         f"{list(grouped_variables)}")
    if vocab_info_not_used:
        raise ValueError(f"You provided the following variables in var_name_to_vocab_info that "
                         f"were not used: {vocab_info_not_used}.  Perhaps you misspelled them?  "
                         f"Here is the list of viable variable names: "
                         f"{list(grouped_variables)}")
