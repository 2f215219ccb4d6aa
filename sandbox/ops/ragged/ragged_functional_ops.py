"""tf.ragged.map_flat_values -- mirrors TensorFlow 1.x's python/ops/ragged/
ragged_functional_ops.py: an op applied to the flat values of ragged tensors, the rows kept.

    rt = tf.ragged.constant([[1, 2], [3]])
    tf.ragged.map_flat_values(tf.ones_like, rt)             [[1, 1], [1]]
    tf.ragged.map_flat_values(tf.multiply, rt, 3)           [[3, 6], [9]]
    tf.ragged.map_flat_values(tf.add, rt, rt2)              rt2 must have rt's row splits

Every RaggedTensor among the arguments (also inside lists, tuples and dicts) is replaced by
its flat_values; they must all share one ragged_rank and row splits (checked when the graph
runs: "Inputs must have identical ragged splits"), and the op must return one value per flat
value. With no RaggedTensor among the arguments it is just op(*args, **kwargs).
"""
from ...framework.graph import control_dependencies
from . import ragged_util
from .ragged_tensor import RaggedTensor, convert_to_tensor_or_ragged_tensor, is_ragged

__all__ = ["map_flat_values"]


def map_flat_values(op, *args, **kwargs):
    """op(*args, **kwargs) with each RaggedTensor replaced by its flat_values, the result
    given the rows of those RaggedTensors."""
    nested_splits_lists = []
    flat_values_nrows = []
    inner_args = _replace_ragged_with_flat_values(args, nested_splits_lists, flat_values_nrows)
    inner_kwargs = _replace_ragged_with_flat_values(kwargs, nested_splits_lists,
                                                    flat_values_nrows)
    if not nested_splits_lists:
        return op(*args, **kwargs)
    if len(set(flat_values_nrows)) > 1:
        raise ValueError(f"Input RaggedTensors' flat_values must all have the same "
                         f"outer-dimension size.  Got sizes: {set(flat_values_nrows)}")
    if len({splits[0].dtype.base_dtype for splits in nested_splits_lists}) > 1:
        raise ValueError("Input RaggedTensors have mismatched row partition dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to "
                         "compatible dtypes.")
    with control_dependencies(ragged_util.assert_splits_match(nested_splits_lists)):
        op_output = op(*inner_args, **inner_kwargs)
        if flat_values_nrows:
            nrows = flat_values_nrows[0]
            if not op_output.shape[:1].is_compatible_with([nrows]):
                raise ValueError(
                    "tf.ragged.map_flat_values requires that the output of `op` have the "
                    "same outer-dimension size as flat_values of any ragged inputs. (output "
                    f"shape: {op_output.shape}; expected outer dimension size: {nrows})")
        return RaggedTensor.from_nested_row_splits(op_output, nested_splits_lists[0],
                                                   validate=False)


def _replace_ragged_with_flat_values(value, nested_splits_lists, flat_values_nrows):
    """`value` with every RaggedTensor replaced by its flat_values (their splits recorded)."""
    if is_ragged(value):
        value = convert_to_tensor_or_ragged_tensor(value)
        nested_splits_lists.append(value.nested_row_splits)
        nrows = value.flat_values.get_shape()[0].value \
            if value.flat_values.get_shape().ndims else None
        if nrows is not None:
            flat_values_nrows.append(nrows)
        return value.flat_values

    def recurse(v):
        return _replace_ragged_with_flat_values(v, nested_splits_lists, flat_values_nrows)
    if isinstance(value, list):
        return [recurse(v) for v in value]
    if isinstance(value, tuple):
        return tuple(recurse(v) for v in value)
    if isinstance(value, dict):
        return {k: recurse(v) for k, v in value.items()}
    return value
