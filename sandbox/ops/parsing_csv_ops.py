"""tf.decode_csv -- mirrors TensorFlow 1.15's decode_csv (ops/parsing_ops.py) and its kernel
(core/kernels/decode_csv_op.cc).

Each string of `records` is one CSV line; the result is one tensor per column (of
`select_cols`, if given), each of the shape of `records` and of the dtype of its default. A
column's default is a tensor of 0 or 1 elements: one element is used for an empty field (or a
field equal to `na_value`), none makes the column required. The errors are TF's, with the
same messages (measured with TF 1.15): "Expect 2 fields but have 3 in record 0", "Field 1 is
required but missing in record 0!", "Field 0 in record 0 is not a valid int32: 1.5". Quoting
is RFC 4180 when use_quote_delim: a field in double quotes may hold the delimiter, and "" in it
stands for one quote.
"""
import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor

__all__ = ["decode_csv"]

_ALLOWED = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64, _dtypes.string)
_INT_RANGE = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}


def _split(record, delim, use_quote, r, node):
    """The fields of one record (bytes), as TF's DecodeCSVOp::ExtractFields splits them."""
    fields, i, n = [], 0, len(record)
    if n == 0:
        return fields
    while True:
        if use_quote and i < n and record[i:i + 1] == b'"':
            field, i = bytearray(), i + 1
            while True:
                if i >= n:
                    raise errors.InvalidArgumentError(node, None, f"Quoted field has to end "
                                                      f"with quote followed by delim or end "
                                                      f"(record {r})")
                c = record[i:i + 1]
                if c == b'"':
                    if record[i + 1:i + 2] == b'"':
                        field += b'"'
                        i += 2
                        continue
                    i += 1
                    if i < n and record[i:i + 1] != delim:
                        raise errors.InvalidArgumentError(
                            node, None, "Quote inside a string has to be escaped by another "
                            f"quote (record {r})")
                    break
                field += c
                i += 1
            fields.append(bytes(field))
        else:
            j = record.find(delim, i)
            j = n if j < 0 else j
            field = record[i:j]
            if use_quote and (b'"' in field or b"\r" in field or b"\n" in field):
                raise errors.InvalidArgumentError(node, None, "Unquoted fields cannot have "
                                                  f"quotes/CRLFs inside (record {r})")
            fields.append(field)
            i = j
        if i >= n:
            return fields
        i += 1                                             # past the delimiter
        if i == n:                                         # a trailing delimiter: empty field
            fields.append(b"")
            return fields


def _convert(field, dtype, f, r, node):
    if dtype == "string":
        return field
    text = field.decode("utf-8", "replace")
    try:
        if dtype.startswith("int"):
            value = int(text.strip())
            low, high = _INT_RANGE[dtype]
            if not low <= value <= high:
                raise ValueError
            return value
        return float(text)
    except ValueError:
        raise errors.InvalidArgumentError(node, None, f"Field {f} in record {r} is not a valid "
                                          f"{_dtypes.cpp_type_name(dtype)}: {text}") from None


class DecodeCSV(OpDef):
    """One output per column; a field empty (or na_value) takes its column's default."""
    uses_context = True
    differentiable = False
    multi_output = True

    def shape(op):
        return [op.inputs[0].get_shape() for _ in op.outputs]

    def kernel(ctx, step, records, *defaults, OUT_TYPE=(), field_delim=",",
               use_quote_delim=True, na_value="", select_cols=()):
        node = ctx.name
        if len(field_delim) != 1:
            raise errors.InvalidArgumentError(node, None, "field_delim should be only 1 char")
        delim = field_delim.encode()
        na = na_value.encode()
        types = [_dtypes.as_dtype(t).name for t in OUT_TYPE]
        records = np.asarray(records, dtype=object)
        flat = records.reshape(-1)
        columns = [[] for _ in defaults]
        wanted = list(select_cols) if select_cols else list(range(len(defaults)))
        for r, record in enumerate(flat):
            record = record.encode() if isinstance(record, str) else bytes(record)
            fields = _split(record, delim, use_quote_delim, r, node)
            if (not select_cols and len(fields) != len(defaults)) or \
                    (select_cols and len(fields) <= wanted[-1]):
                expected = len(defaults) if not select_cols else wanted[-1] + 1
                raise errors.InvalidArgumentError(node, None, f"Expect {expected} fields but "
                                                  f"have {len(fields)} in record {r}")
            for f, col in enumerate(wanted):
                field = fields[col]
                if field == b"" or field == na:
                    default = np.asarray(defaults[f]).reshape(-1)
                    if default.size == 0:
                        raise errors.InvalidArgumentError(
                            node, None, f"Field {f} is required but missing in record {r}!")
                    columns[f].append(default[0])
                else:
                    columns[f].append(_convert(field, types[f], f, r, node))
        out = []
        for column, dtype in zip(columns, OUT_TYPE):
            np_dtype = _dtypes.as_dtype(dtype).as_numpy_dtype
            arr = np.empty(len(column), dtype=object) if np_dtype is object else \
                np.array(column, dtype=np_dtype).reshape(-1)
            if np_dtype is object:
                arr[:] = column
            out.append(arr.reshape(records.shape))
        return tuple(out)


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
    """Converts CSV records to tensors, one per column (see the module docstring)."""
    if select_cols is not None and any(select_cols[i] >= select_cols[i + 1]
                                       for i in range(len(select_cols) - 1)):
        raise ValueError("select_cols is not strictly increasing.")
    if select_cols is not None and select_cols and select_cols[0] < 0:
        raise ValueError("select_cols contains negative values.")
    if select_cols is not None and len(select_cols) != len(record_defaults):
        raise ValueError("Length of select_cols and record_defaults do not match.")
    scope = name or "DecodeCSV"
    records = convert_to_tensor(records, dtype=_dtypes.string)
    defaults = []
    for i, d in enumerate(record_defaults):
        t = convert_to_tensor(d)
        if t.dtype.base_dtype not in _ALLOWED:
            raise TypeError(f"Value passed to parameter 'record_defaults' has DataType "
                            f"{t.dtype.base_dtype.name} not in list of allowed values: "
                            "float32, float64, int32, int64, string")
        shape = t.get_shape()
        if shape.ndims is not None and (shape.ndims > 1 or (
                shape.ndims == 1 and shape.as_list()[0] not in (None, 0, 1))):
            raise ValueError(f"Shape of a default must be a length-0 or length-1 vector, "
                             f"or a scalar (record_defaults[{i}] has shape {shape}) for "
                             f"decode_csv {scope!r}.")
        defaults.append(t)
    types = [t.dtype.base_dtype for t in defaults]
    outs = apply_op("DecodeCSV", [records] + defaults,
                    {"OUT_TYPE": types, "field_delim": field_delim,
                     "use_quote_delim": bool(use_quote_delim), "na_value": na_value,
                     "select_cols": list(select_cols or [])},
                    name=scope, output_dtypes=types)
    return outs if isinstance(outs, list) else [outs]

