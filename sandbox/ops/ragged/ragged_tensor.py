"""RaggedTensor -- mirrors TensorFlow 1.x's tf.RaggedTensor (python/ops/ragged/ragged_tensor.py):
a tensor whose rows have different lengths.

The sentences of a batch, the words of a sentence, the clicks of a user: a [batch, length]
matrix of them would need padding. A RaggedTensor keeps only what is there, as two ordinary
tensors -- the `values` of all rows one after the other, and the `row_splits` that say where
each row starts and ends:

    rt = tf.RaggedTensor.from_row_splits(values=[3, 1, 4, 1, 5, 9, 2],
                                         row_splits=[0, 4, 4, 6, 7])
       = [[3, 1, 4, 1], [], [5, 9], [2]]        row i is values[row_splits[i]:row_splits[i+1]]
    rt.shape        (4, ?)                      the ragged dimension is unknown (None)
    rt.row_lengths()          [4, 0, 2, 1]
    rt.value_rowids()         [0, 0, 0, 0, 2, 2, 3]   the row of each value

The same rows can be given by row_lengths, value_rowids (+ nrows), row_starts or row_limits;
the from_* factories turn each into row_splits (with `validate=True`, the default, they add
assert ops that fail the step with TF's InvalidArgumentError when the pieces do not fit).
`values` may itself be a RaggedTensor: [[[1], [2, 3]], []] has ragged_rank 2, one row_splits
per ragged dimension (`nested_row_splits`) and its innermost values in `flat_values`. Each
value may be a tensor too ([N, 3] flat_values give shape (?, ?, 3)).

Like SparseTensor it is not a new kind of tensor: graphs, runtimes and wires see only its
component tensors. Session.run gives a tf.ragged.RaggedTensorValue (NumPy arrays) for one,
and a tf.ragged.placeholder is fed with a RaggedTensorValue (client/session.py).

The conversions (to_tensor, from_tensor, to_sparse, from_sparse) are ragged_conversion_ops.py,
rt[...] is ragged_getitem.py, the operators (rt + 1, rt * rt ...) ragged_operators.py.
"""
from ...framework import dtypes
from ...framework.graph import name_scope
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tensor_util import constant_value, partial_scalar, positive_axis
from .. import check_ops, math_ops
from ..array_ops import ones, range as _range, reshape, shape as _shape, stack
from ..constant_op import constant
from ..indexing_ops import gather, unsorted_segment_sum
from ..reduction_ops import cumsum, reduce_max
from ..slicing_ops import concat
from . import ragged_util
from .ragged_tensor_value import RaggedTensorValue
from .segment_id_ops import row_splits_to_segment_ids

__all__ = ["RaggedTensor"]


class RaggedTensor:
    """A tensor with rows of different lengths: `values` cut into rows by `row_splits`.
    Build one with a from_* factory, tf.ragged.constant or tf.ragged.placeholder."""

    def __init__(self, values, row_splits, cached_row_lengths=None, cached_value_rowids=None,
                 cached_nrows=None, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        if not isinstance(row_splits, Tensor):
            raise TypeError(f"Row-partitioning argument must be a Tensor, got {row_splits!r}")
        if not isinstance(values, (RaggedTensor, Tensor)):
            raise TypeError(f"values must be a Tensor or RaggedTensor, got {values!r}")
        if row_splits.dtype.base_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError("Row-partitioning argument must be int32 or int64")
        row_splits.get_shape().assert_has_rank(1)
        with_rank_at_least(values.shape, 1)
        if isinstance(values, RaggedTensor) and \
                values.row_splits.dtype.base_dtype != row_splits.dtype.base_dtype:
            raise ValueError("values and row_splits have mismatched row_splits dtypes.")
        self._values = values
        self._row_splits = row_splits
        self._cached_row_lengths = cached_row_lengths
        self._cached_value_rowids = cached_value_rowids
        self._cached_nrows = cached_nrows
        # What the graph knows of every row's length (from_tensor's rows: all the same), as TF
        # 2's uniform_row_length gives it to the static shape; None for ragged rows.
        self._uniform_row_length = uniform_row_length

    # -- factories ----------------------------------------------------------------------
    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """The RaggedTensor whose row r holds the values with value_rowids == r (value_rowids
        sorted, one per value; `nrows` defaults to value_rowids[-1] + 1).

            from_value_rowids([3, 1, 4, 1], [0, 0, 2, 3], nrows=5) -> [[3, 1], [], [4], [1], []]
        """
        _check_validate(validate)
        with name_scope(name, "RaggedFromValueRowIds", [values, value_rowids, nrows]):
            with name_scope(None, "RowPartitionFromValueRowIds", [value_rowids, nrows]):
                value_rowids = ragged_util.convert_row_partition(value_rowids, "value_rowids",
                                                                 _dtype_hint(values))
                dtype = value_rowids.dtype.base_dtype
                if nrows is None:
                    const_rowids = constant_value(value_rowids)
                    if const_rowids is None:
                        nrows = concat([value_rowids[-1:], constant([-1], dtype)], axis=0)[0] + 1
                        const_nrows = None
                    else:
                        const_nrows = int(const_rowids[-1]) + 1 if const_rowids.size > 0 else 0
                        nrows = convert_to_tensor(const_nrows, dtype, name="nrows")
                else:
                    nrows = convert_to_tensor(nrows, dtype, name="nrows")
                    const_nrows = _static_int(nrows)
                    if const_nrows is not None:
                        if const_nrows < 0:
                            raise ValueError(f"Expected nrows >= 0; got {const_nrows}")
                        const_rowids = constant_value(value_rowids)
                        if const_rowids is not None and const_rowids.size > 0 and \
                                not const_nrows >= const_rowids[-1] + 1:
                            raise ValueError(f"Expected nrows >= value_rowids[-1] + 1; got "
                                             f"nrows={const_nrows}, value_rowids[-1]="
                                             f"{int(const_rowids[-1])}")
                value_rowids.get_shape().assert_has_rank(1)
                nrows.get_shape().assert_has_rank(0)
                if validate:
                    msg = "Arguments to from_value_rowids do not form a valid RowPartition"
                    value_rowids = ragged_util.with_dependencies([
                        check_ops.assert_non_negative(value_rowids[:1], message=msg),
                        _assert_monotonic_increasing(value_rowids, msg),
                        check_ops.assert_less(value_rowids[-1:], nrows, message=msg)],
                        value_rowids)
                # (TF counts the rows with bincount; a segment sum of ones counts the same.)
                row_lengths = unsorted_segment_sum(
                    ones(_shape(value_rowids, out_type=dtype), dtype), value_rowids, nrows)
                row_splits = concat([ragged_util.zeros_1(dtype), cumsum(row_lengths)], axis=0)
                if const_nrows is not None:
                    row_lengths.set_shape([const_nrows])
                    row_splits.set_shape([const_nrows + 1])
            values = _convert_values(values, row_splits)
            row_splits = _validated_nvals(values, row_splits, validate)
            return cls(values, row_splits, cached_row_lengths=row_lengths,
                       cached_value_rowids=value_rowids, cached_nrows=nrows, internal=True)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """The RaggedTensor whose row i is values[row_splits[i]:row_splits[i + 1]]
        (row_splits: sorted, starting at 0, ending at len(values)).

            from_row_splits([3, 1, 4, 1, 5], [0, 2, 2, 5]) -> [[3, 1], [], [4, 1, 5]]
        """
        _check_validate(validate)
        if isinstance(row_splits, (list, tuple)) and not row_splits:
            raise ValueError("row_splits tensor may not be empty.")
        with name_scope(name, "RaggedFromRowSplits", [values, row_splits]):
            with name_scope(None, "RowPartitionFromRowSplits", [row_splits]):
                row_splits = ragged_util.convert_row_partition(row_splits, "row_splits",
                                                               _dtype_hint(values))
                row_splits.get_shape().assert_has_rank(1)
                if validate:
                    msg = "Arguments to from_row_splits do not form a valid RaggedTensor:"
                    row_splits = ragged_util.with_dependencies([
                        _assert_zero(row_splits[0], msg + "zero"),
                        _assert_monotonic_increasing(row_splits, msg + "monotonic")], row_splits)
            values = _convert_values(values, row_splits)
            row_splits = _validated_nvals(values, row_splits, validate)
            return cls(values, row_splits, internal=True)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """The RaggedTensor whose rows take row_lengths[i] values each, in order.

            from_row_lengths([3, 1, 4, 1, 5], [2, 0, 3]) -> [[3, 1], [], [4, 1, 5]]
        """
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowLengths", [values, row_lengths]):
            with name_scope(None, "RowPartitionFromRowLengths", [row_lengths]):
                row_lengths = ragged_util.convert_row_partition(row_lengths, "row_lengths",
                                                                _dtype_hint(values))
                row_lengths.get_shape().assert_has_rank(1)
                if validate:
                    msg = "Arguments to from_row_lengths do not form a valid RowPartition"
                    row_lengths = ragged_util.with_dependencies(
                        [check_ops.assert_non_negative(row_lengths, message=msg)], row_lengths)
                row_splits = ragged_util.lengths_to_splits(row_lengths)
            values = _convert_values(values, row_splits)
            row_splits = _validated_nvals(values, row_splits, validate)
            return cls(values, row_splits, cached_row_lengths=row_lengths, internal=True)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """from_row_splits(values, concat([row_starts, [len(values)]])): row i starts at
        row_starts[i] and ends where the next one starts."""
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowStarts", [values, row_starts]):
            hint = _dtype_hint(values)
            values = _convert_values(values, None)
            with name_scope(None, "RowPartitionFromRowStarts", [row_starts]):
                row_starts = ragged_util.convert_row_partition(row_starts, "row_starts", hint)
                row_starts.get_shape().assert_has_rank(1)
                _check_splits_dtype(values, row_starts)
                nvals = _nrows(values, row_starts.dtype.base_dtype)
                if validate:
                    msg = "Arguments to from_row_starts do not form a valid RaggedTensor"
                    row_starts = ragged_util.with_dependencies([
                        _assert_zero(row_starts[:1], msg),
                        _assert_monotonic_increasing(row_starts, msg),
                        check_ops.assert_less_equal(row_starts[-1:], nvals, message=msg)],
                        row_starts)
            row_splits = concat([row_starts, reshape(nvals, [1])], axis=0)
            return cls(values, row_splits, internal=True)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """from_row_splits(values, concat([[0], row_limits])): row i ends at row_limits[i]."""
        _check_validate(validate)
        with name_scope(name, "RaggedFromRowLimits", [values, row_limits]):
            with name_scope(None, "RowPartitionFromRowLimits", [row_limits]):
                row_limits = ragged_util.convert_row_partition(row_limits, "row_limits",
                                                               _dtype_hint(values))
                row_limits.get_shape().assert_has_rank(1)
                if validate:
                    msg = "Arguments to from_row_limits do not form a valid RaggedTensor"
                    row_limits = ragged_util.with_dependencies([
                        check_ops.assert_non_negative(row_limits[:1], message=msg),
                        _assert_monotonic_increasing(row_limits, msg)], row_limits)
                row_splits = concat([ragged_util.zeros_1(row_limits.dtype.base_dtype), row_limits],
                                    axis=0)
            values = _convert_values(values, row_splits)
            row_splits = _validated_nvals(values, row_splits, validate)
            return cls(values, row_splits, internal=True)

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        """A RaggedTensor of ragged_rank len(nested_value_rowids), innermost first applied."""
        _check_validate(validate)
        if isinstance(nested_value_rowids, Tensor):
            raise TypeError("Argument `nested_value_rowids` must be a list of Tensors.")
        if nested_nrows is None:
            nested_nrows = [None] * len(nested_value_rowids)
        else:
            if isinstance(nested_nrows, Tensor):
                raise TypeError("Argument `nested_nrows` must be a list of Tensors.")
            if len(nested_nrows) != len(nested_value_rowids):
                raise ValueError("Argument `nested_nrows` must have the same length as "
                                 "argument `nested_value_rowids`.")
        with name_scope(name, "RaggedFromNestedValueRowIds", [flat_values]):
            result = flat_values
            for rowids, nrows in reversed(list(zip(nested_value_rowids, nested_nrows))):
                result = cls.from_value_rowids(result, rowids, nrows, validate=validate)
            return result

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """A RaggedTensor of ragged_rank len(nested_row_splits): the last splits cut
        flat_values, each earlier one cuts the result.

            from_nested_row_splits([1, 2, 3, 4], [[0, 2, 3], [0, 1, 1, 4]])
                -> [[[1], []], [[2, 3, 4]]]
        """
        _check_validate(validate)
        if isinstance(nested_row_splits, Tensor):
            raise TypeError("Argument `nested_row_splits` must be a list of Tensors.")
        with name_scope(name, "RaggedFromNestedRowSplits", [flat_values]):
            result = flat_values
            for splits in reversed(nested_row_splits):
                result = cls.from_row_splits(result, splits, validate=validate)
            return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate=True):
        """A RaggedTensor of ragged_rank len(nested_row_lengths), the innermost lengths
        applied first: from_nested_row_lengths([1, 2, 3, 4], [[2, 1], [1, 0, 3]])
        -> [[[1], []], [[2, 3, 4]]]."""
        _check_validate(validate)
        if isinstance(nested_row_lengths, Tensor):
            raise TypeError("Argument `nested_row_lengths` must be a list of Tensors.")
        with name_scope(name, "RaggedFromNestedRowLengths", [flat_values]):
            result = flat_values
            for lengths in reversed(nested_row_lengths):
                result = cls.from_row_lengths(result, lengths, validate=validate)
            return result

    @classmethod
    def _from_uniform_row_length(cls, values, row_length, nrows, dtype=None):
        """`nrows` rows of `row_length` values each (TF 2's from_uniform_row_length, without
        its checks): the rows from_tensor and tf.newaxis make."""
        dtype = _dtype_hint(values) if dtype is None else dtype
        static_length = row_length if isinstance(row_length, int) else \
            constant_value(row_length)
        row_length = convert_to_tensor(row_length, dtype, name="uniform_row_length")
        nrows = convert_to_tensor(nrows, dtype, name="nrows")
        row_splits = _range(nrows + 1, dtype=dtype) * row_length
        const_nrows = constant_value(nrows)
        if const_nrows is not None:
            row_splits.set_shape([int(const_nrows) + 1])
        values = _convert_values(values, row_splits)
        return cls(values, row_splits, cached_nrows=nrows, internal=True,
                   uniform_row_length=None if static_length is None else int(static_length))

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64):
        """A dense tensor as a RaggedTensor: every row whole, or cut to `lengths`, or with the
        trailing `padding` values dropped. See ragged_conversion_ops.from_tensor."""
        from .ragged_conversion_ops import from_tensor
        return from_tensor(cls, tensor, lengths, padding, ragged_rank, name, row_splits_dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """A 2-D SparseTensor whose rows hold no gaps ([0, 0], [0, 1], [2, 0] ...) as a
        RaggedTensor of its values (an assert fails the step for any other)."""
        from .ragged_conversion_ops import from_sparse
        return from_sparse(cls, st_input, name, row_splits_dtype)

    # -- properties ---------------------------------------------------------------------
    @property
    def dtype(self):
        """The DType of the values."""
        return self._values.dtype

    @property
    def shape(self):
        """The static shape: (nrows, None, ...value shape); a ragged dimension is None."""
        splits_dim = self._row_splits.get_shape()[0].value
        nrows = None if splits_dim is None else splits_dim - 1
        return TensorShape([nrows, self._uniform_row_length]).concatenate(
            self._values.shape[1:])

    def get_shape(self):
        """The static shape (see `shape`)."""
        return self.shape

    @property
    def ragged_rank(self):
        """The number of ragged dimensions (1 when `values` is a Tensor)."""
        if isinstance(self._values, RaggedTensor):
            return self._values.ragged_rank + 1
        return 1

    @property
    def values(self):
        """The concatenated rows: a Tensor [nvals, ...] or a RaggedTensor."""
        return self._values

    @property
    def row_splits(self):
        """The int64 (or int32) [nrows + 1] Tensor of where each row starts and ends."""
        return self._row_splits

    @property
    def flat_values(self):
        """The innermost values Tensor (the values of the values ...)."""
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        """The row_splits of every ragged dimension, outermost first (a tuple)."""
        splits, values = [self._row_splits], self._values
        while isinstance(values, RaggedTensor):
            splits.append(values.row_splits)
            values = values.values
        return tuple(splits)

    @property
    def graph(self):
        """The Graph of the component tensors."""
        return self._row_splits.graph

    @property
    def _type_spec(self):
        from .ragged_tensor_spec import RaggedTensorSpec
        return RaggedTensorSpec.from_value(self)

    # -- the rows -----------------------------------------------------------------------
    def value_rowids(self, name=None):
        """The row of each value: [0, 0, 2] for [[a, b], [], [c]]."""
        if self._cached_value_rowids is not None:
            return self._cached_value_rowids
        with name_scope(name, "RaggedValueRowIds", [self]):
            return row_splits_to_segment_ids(self._row_splits)

    def nested_value_rowids(self, name=None):
        """value_rowids of every ragged dimension, outermost first (a tuple)."""
        with name_scope(name, "RaggedNestedValueRowIds", [self]):
            out, rt = [], self
            while isinstance(rt, RaggedTensor):
                out.append(rt.value_rowids())
                rt = rt.values
            return tuple(out)

    def nrows(self, out_type=None, name=None):
        """The number of rows, a scalar of the row_splits dtype (or `out_type`)."""
        with name_scope(name, "RaggedNRows", [self]):
            dtype = self._row_splits.dtype.base_dtype
            if self._cached_nrows is not None:
                nrows = self._cached_nrows
            else:
                nsplits = self._row_splits.get_shape()[0].value
                nrows = _shape(self._row_splits, out_type=dtype)[0] - 1 if nsplits is None \
                    else constant(nsplits - 1, dtype=dtype)
            if out_type is not None and dtypes.as_dtype(out_type) != dtype:
                nrows = math_ops.cast(nrows, dtypes.as_dtype(out_type))
            return nrows

    def row_starts(self, name=None):
        """Where each row starts in `values`: row_splits[:-1]."""
        with name_scope(name, "RaggedRowStarts", [self]):
            return self._row_splits[:-1]

    def row_limits(self, name=None):
        """Where each row ends in `values`: row_splits[1:]."""
        with name_scope(name, "RaggedRowLimits", [self]):
            return self._row_splits[1:]

    def row_lengths(self, axis=1, name=None):
        """The length of each row (axis=1, a Tensor [nrows]); axis=0 gives nrows(), a deeper
        axis a RaggedTensor of the lengths of the rows of that dimension."""
        if axis == 1 and self._cached_row_lengths is not None:
            return self._cached_row_lengths
        with name_scope(name, "RaggedRowLengths", [self]):
            axis = positive_axis(axis, self.shape.ndims, "axis") if self.shape.ndims \
                is not None else axis
            if axis == 0:
                return self.nrows()
            if axis == 1:
                splits = self._row_splits
                return splits[1:] - splits[:-1]
            if isinstance(self._values, RaggedTensor):
                return self.with_values(self._values.row_lengths(axis - 1))
            dtype = self._row_splits.dtype.base_dtype
            shape = _shape(self._values, out_type=dtype)
            return self.with_values(ones(shape[:axis - 1], dtype) * shape[axis - 1])

    def nested_row_lengths(self, name=None):
        """row_lengths of every ragged dimension, outermost first (a tuple)."""
        with name_scope(name, "RaggedNestedRowLengths", [self]):
            out, rt = [], self
            while isinstance(rt, RaggedTensor):
                out.append(rt.row_lengths())
                rt = rt.values
            return tuple(out)

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The shape of the smallest dense tensor that holds every row: [nrows, longest row,
        ...] (an int vector of the row_splits dtype or `out_type`; one entry with `axis`)."""
        dtype = self._row_splits.dtype.base_dtype
        out_type = dtype if out_type is None else dtypes.as_dtype(out_type)
        with name_scope(name, "RaggedBoundingBox", [self, axis]):
            if isinstance(axis, int) and axis == 0:
                return _shape(self._row_splits, out_type=out_type)[0] - 1
            if isinstance(axis, int) and axis == 1:
                result = _longest(self.row_lengths())
                return result if out_type == dtype else math_ops.cast(result, out_type)
            splits_shape = _shape(self._row_splits, out_type=out_type)
            ragged = [splits_shape[0] - 1] + [
                _cast(_longest(splits[1:] - splits[:-1]), out_type)
                for splits in self.nested_row_splits]
            bbox = concat([stack(ragged), _shape(self.flat_values, out_type=out_type)[1:]],
                          axis=0)
            if axis is None:
                return bbox
            return gather(bbox, axis)

    # -- new ragged tensors from this one -----------------------------------------------
    def with_values(self, new_values):
        """This RaggedTensor's rows around `new_values` (as many rows as `values`)."""
        new_values = convert_to_tensor_or_ragged_tensor(new_values, name="values")
        with_rank_at_least(new_values.shape, 1)
        self._values.shape[:1].assert_is_compatible_with(new_values.shape[:1])
        if isinstance(new_values, RaggedTensor) and \
                new_values.row_splits.dtype.base_dtype != self._row_splits.dtype.base_dtype:
            raise ValueError("self and new_values have mismatched row_splits dtypes; use "
                             "RaggedTensor.with_row_splits_dtype() to convert them to "
                             "compatible dtypes.")
        return RaggedTensor(new_values, self._row_splits, self._cached_row_lengths,
                            self._cached_value_rowids, self._cached_nrows, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        """This RaggedTensor's nested rows around new flat_values."""
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        """This RaggedTensor with every row_splits cast to `dtype` (tf.int32 or tf.int64)."""
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits` dtype must be int32 or int64. Received "
                             f"{dtype}.")
        if self._row_splits.dtype.base_dtype == dtype:
            return self
        values = self._values.with_row_splits_dtype(dtype) \
            if isinstance(self._values, RaggedTensor) else self._values

        def cast(t):
            return None if t is None else math_ops.cast(t, dtype)
        return RaggedTensor(values, cast(self._row_splits), cast(self._cached_row_lengths),
                            cast(self._cached_value_rowids), cast(self._cached_nrows),
                            internal=True, uniform_row_length=self._uniform_row_length)

    # -- conversions --------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """The dense tensor of the rows padded with `default_value` (zero, or b"") to the
        bounding shape, or cut/padded to `shape`."""
        from .ragged_conversion_ops import ragged_to_tensor
        return ragged_to_tensor(self, default_value, name, shape)

    def to_sparse(self, name=None):
        """The SparseTensor of the values, dense_shape the bounding shape."""
        from .ragged_conversion_ops import ragged_to_sparse
        return ragged_to_sparse(self, name)

    def __getitem__(self, key):
        """rt[i] (a row), rt[a:b] (rows), rt[:, a:b] (a slice of every row), rt[..., k] (the
        uniform inner dimensions): see ragged_getitem.py."""
        from .ragged_getitem import ragged_tensor_getitem
        return ragged_tensor_getitem(self, key)

    def to_list(self):
        raise ValueError("RaggedTensor.to_list() is only supported in eager mode; in graph "
                         "mode, run it: sess.run(rt).to_list().")

    def consumers(self):
        return [op for t in self.nested_row_splits + (self.flat_values,)
                for op in t.consumers()]

    # -- python protocol ----------------------------------------------------------------
    def __repr__(self):
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    __str__ = __repr__

    def __bool__(self):
        raise TypeError("Using a tf.RaggedTensor as a Python `bool` is not allowed. Use "
                        "`if rt is not None:` to test that it exists.")

    def __len__(self):
        raise TypeError("len is not well defined for a symbolic RaggedTensor: use "
                        "rt.nrows() for its number of rows.")

    def __iter__(self):
        nrows = self.shape[0].value
        if nrows is None:
            raise TypeError("A RaggedTensor whose number of rows is not known while building "
                            "the graph is not iterable: index its rows with rt[i].")
        return (self[i] for i in range(nrows))


# -- helpers --------------------------------------------------------------------------------

def is_ragged(value):
    """Whether `value` is a RaggedTensor or a RaggedTensorValue."""
    return isinstance(value, (RaggedTensor, RaggedTensorValue))


def convert_to_tensor_or_ragged_tensor(value, dtype=None, preferred_dtype=None, name=None):
    """A RaggedTensor as it is (checked against `dtype`), a RaggedTensorValue as a constant
    RaggedTensor, anything else through convert_to_tensor."""
    if dtype is not None:
        dtype = dtypes.as_dtype(dtype)
    if isinstance(value, RaggedTensor):
        if dtype is not None and not dtype.is_compatible_with(value.dtype):
            raise ValueError(f"Tensor conversion requested dtype {dtype.name} for "
                             f"RaggedTensor with dtype {value.dtype.name}: {value}.")
        return value
    if isinstance(value, RaggedTensorValue):
        with name_scope(name, "ConvertToTensorOrRaggedTensor", []):
            flat_values = convert_to_tensor(value.flat_values, dtype=dtype,
                                            preferred_dtype=preferred_dtype,
                                            name="flat_values")
            return RaggedTensor.from_nested_row_splits(flat_values, value.nested_row_splits,
                                                       validate=False)
    return convert_to_tensor(value, dtype=dtype, preferred_dtype=preferred_dtype, name=name)


def with_rank_at_least(shape, rank):
    """`shape`, checked to have at least `rank` dimensions (ValueError as TF's)."""
    if shape.ndims is not None and shape.ndims < rank:
        raise ValueError(f"Shape {shape} must have rank at least {rank}")
    return shape


def _static_int(t):
    """A scalar int the graph fixes (through Cast, and tf.shape(x)[i] of a known dim), else
    None."""
    while t.op.type == "Cast":
        t = t.op.inputs[0]
    value = constant_value(t)
    if value is None:
        value = partial_scalar(t)
    return None if value is None else int(value)


def match_row_splits_dtypes(*tensors, return_dtype=False):
    """The ragged ones of `tensors` must share one row-splits dtype (else ValueError, as TF
    without auto-casting); returns the tensors (and that dtype, int64 when none is ragged)."""
    found = {t.row_splits.dtype.base_dtype for t in tensors if isinstance(t, RaggedTensor)}
    if len(found) > 1:
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible "
                         "dtypes.")
    dtype = found.pop() if found else dtypes.int64
    return (dtype, tensors) if return_dtype else tensors


def _check_validate(validate):
    if not isinstance(validate, bool):
        raise TypeError(f"Argument `validate` must have type bool. Received {validate}.")


def _dtype_hint(values):
    """The row-partition dtype a Python partition gets: that of ragged `values`, else int64."""
    return values.row_splits.dtype.base_dtype if isinstance(values, RaggedTensor) \
        else dtypes.int64


def _convert_values(values, partition):
    """`values` as a Tensor or RaggedTensor (whose splits dtype must be `partition`'s)."""
    if isinstance(values, RaggedTensorValue):
        values = convert_to_tensor_or_ragged_tensor(values, name="values")
    if isinstance(values, RaggedTensor):
        if partition is not None:
            _check_splits_dtype(values, partition)
        return values
    values = convert_to_tensor(values, name="values")
    with_rank_at_least(values.get_shape(), 1)
    return values


def _check_splits_dtype(values, partition):
    if isinstance(values, RaggedTensor) and \
            values.row_splits.dtype.base_dtype != partition.dtype.base_dtype:
        raise ValueError(f"Argument `row_partition` of RaggedTensor with name: partition "
                         f"must have same dtype as Argument `values`. "
                         f"({partition.dtype!r} vs. {values.row_splits.dtype!r}).")


def _nrows(values, dtype):
    """The number of rows of `values` (a Tensor or RaggedTensor) as a `dtype` scalar."""
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=dtype)
    return _shape(values, out_type=dtype)[0]


def _validated_nvals(values, row_splits, validate):
    """row_splits, waiting (with validate) for the check that they end at len(values)."""
    if not validate:
        return row_splits
    msg = "Arguments to _from_row_partition do not form a valid RaggedTensor"
    nvals = _nrows(values, row_splits.dtype.base_dtype)
    return ragged_util.with_dependencies(
        [check_ops.assert_equal(row_splits[-1], nvals, message=msg)], row_splits)


def _assert_monotonic_increasing(tensor, message):
    return check_ops.assert_non_negative(tensor[1:] - tensor[:-1], message=message)


def _assert_zero(tensor, message):
    return check_ops.assert_equal(tensor, constant(0, dtype=tensor.dtype.base_dtype),
                                  message=message)


def _longest(lengths):
    """max(lengths), 0 when there are none (TF: maximum(reduce_max(lengths), 0))."""
    return reduce_max(concat([lengths, constant([0], lengths.dtype.base_dtype)], axis=0))


def _cast(t, dtype):
    return t if t.dtype.base_dtype == dtype else math_ops.cast(t, dtype)
