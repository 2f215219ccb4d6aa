"""CSV files in tf.data -- mirrors TF 1.15's `tf.data.experimental.CsvDataset` and
`make_csv_dataset` (python/data/experimental/ops/readers.py) and the CSV reader's kernel
(core/kernels/data/experimental/csv_dataset_op.cc).

    # one element per record: a tuple of scalars, one per column
    ds = tf.data.experimental.CsvDataset("train.csv", [tf.float32, tf.constant([0], tf.int32)],
                                         header=True)
    # batches of (features dict, label), column names and types read from the file
    ds = tf.data.experimental.make_csv_dataset("train-*.csv", batch_size=32,
                                               label_name="survived", num_epochs=1)

record_defaults gives each column's dtype (float32, float64, int32, int64 or string) and its
default: a dtype or an empty tensor makes the column required, a one-element tensor is used
for an empty field (or one equal to na_value). Records are RFC 4180: a field in double quotes
may hold the delimiter and line breaks, "" in it stands for one quote, and a record ends at
\\n, \\r or \\r\\n. Numbers may have spaces around them. A bad record -- a field that is not a
number, a required field missing, too few or too many fields -- is an InvalidArgumentError
with TF's message ("Expect 3 fields but have 2 in record"); as in TF the reader can go on with
the next record, which is what `ignore_errors()` does. Files are read on the iterator's task,
each one whole (buffer_size is accepted); compression_type is "", "ZLIB" or "GZIP".

make_csv_dataset is TF's composition: the files (shuffled unless shuffle=False), read with
parallel_interleave(cycle_length=num_parallel_reads), shuffle_and_repeat (or repeat), batch
(drop_remainder when num_epochs is None, so the batch size is static), then each batch made a
dict of columns named after the header (or column_names), the label column apart. Without
column_defaults, each column's type is inferred from the first num_rows_for_inference rows
(int32, int64, float32, float64 or string, the narrowest that fits every value), as TF does.
"""
import collections
import csv
import gzip
import io
import re

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.constant_op import constant
from ..ops.dataset_pipeline import (_arg, _file_bytes, _files, _string,
                                    register_dataset_kernel)
from ..platform import gfile
from .dataset_ops import DatasetV1
from .experimental_interleave import parallel_interleave
from .experimental_transformations import ignore_errors as _ignore_errors
from .experimental_transformations import shuffle_and_repeat
from .nest import Spec

__all__ = ["CsvDataset", "make_csv_dataset"]

_ACCEPTABLE_CSV_TYPES = (_dtypes.float32, _dtypes.float64, _dtypes.int32, _dtypes.int64,
                         _dtypes.string)
_DEFAULT_BUFFER_SIZE = 4 * 1024 * 1024


# -- the kernel: TF's CSVDataset, record by record ----------------------------------------

def _unquoted(data, pos, delim, quote):
    """An unquoted field from data[pos]: (field, error, next pos, end of record)."""
    start, n = pos, len(data)
    while pos < n and data[pos] != delim and data[pos] not in b"\r\n":
        pos += 1
    field = data[start:pos]
    problem = "Unquoted fields cannot have quotes inside" if quote and b'"' in field else None
    if pos >= n:
        return field, problem, n, True
    end = data[pos] != delim
    pos += 1
    if data[pos - 1] == 13 and data[pos:pos + 1] == b"\n":        # \r\n
        pos += 1
    return field, problem, pos, end


def _quoted(data, pos, delim):
    """A quoted field from just after its opening quote: (field, error, next pos, end of
    record). After a quote that is neither doubled nor the field's end, TF notes the error and
    reads on to the next quote that is."""
    n, field, problem = len(data), bytearray(), None
    while True:
        if pos >= n:
            return bytes(field), "Reached end of file without closing quoted field in " \
                                 "record", n, True
        c, pos = data[pos], pos + 1
        if c != 34:                                             # not '"'
            field.append(c)
            continue
        if pos >= n:
            return bytes(field), problem, n, True
        c, pos = data[pos], pos + 1
        if c == delim:
            return bytes(field), problem, pos, False
        if c in b"\r\n":
            if c == 13 and data[pos:pos + 1] == b"\n":
                pos += 1
            return bytes(field), problem, pos, True
        if c == 34:
            field.append(34)
        else:
            problem = problem or "Quote inside a string has to be escaped by another quote"


def _record(data, pos, delim, quote):
    """The fields of the record at data[pos]: ([(field, error)], where the next one starts)."""
    fields = []
    while True:
        if pos >= len(data):             # after a delimiter at the end: one more, empty field
            fields.append((b"", None))
            return fields, pos
        if quote and data[pos] == 34:
            field, problem, pos, end = _quoted(data, pos + 1, delim)
        else:
            field, problem, pos, end = _unquoted(data, pos, delim, quote)
        fields.append((field, problem))
        if end:
            return fields, pos


# What TF's safe_strto32/64 and safe_strtof/d accept (measured): spaces around, no "+" on an
# integer; a float may be inf or nan (any case, signed) or hexadecimal.
_INT = re.compile(rb"\s*-?\d+\s*\Z")
_FLOAT = re.compile(rb"\s*[+-]?(\d+\.?\d*(e[+-]?\d+)?|\.\d+(e[+-]?\d+)?|inf|nan|0x[0-9a-f]+)"
                    rb"\s*\Z", re.IGNORECASE)
_RANGES = {"int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}
_TYPE_NAMES = {"int32": "int32", "int64": "int64", "float32": "float", "float64": "double"}


def _value(field, i, default, dtype, na):
    """Field `i` as a scalar of `dtype` (TF's FieldToOutput): (value, error)."""
    if field == b"" or field == na:
        if default.size != 1:
            return None, f"Field {i} is required but missing in record!"
        return np.asarray(default.reshape(-1)[0], dtype=dtype.as_numpy_dtype), None
    if dtype == _dtypes.string:
        return _string(field)[0], None
    text = field.decode("utf-8", "replace")
    if dtype.is_integer:
        low, high = _RANGES[dtype.name]
        if _INT.match(field) and low <= int(text) <= high:
            return np.asarray(int(text), dtype=dtype.as_numpy_dtype), None
    elif _FLOAT.match(field):
        number = float.fromhex(text.strip()) if "x" in text.lower() else float(text)
        with np.errstate(over="ignore"):
            return np.asarray(number, dtype=dtype.as_numpy_dtype), None
    return None, f"Field {i} in record is not a valid {_TYPE_NAMES[dtype.name]}: {text}"


def _element(fields, defaults, types, select, na):
    """The record's element (TF's ReadRecord): the selected fields converted; the first
    error of the record, if any (the record is read to its end all the same)."""
    out, error, k = [], None, 0
    for index, (field, problem) in enumerate(fields):
        include = not select or (k < len(select) and select[k] == index)
        k += include
        if problem or not include:
            error = error or problem
            continue
        if len(out) >= len(defaults):
            error = error or f"Expect {len(defaults)} fields but have more in record"
            continue
        value, problem = _value(field, len(out), defaults[len(out)], types[len(out)], na)
        out.append(value)
        error = error or problem
    if error is None and len(out) != len(defaults):
        error = f"Expect {len(defaults)} fields but have {len(out)} in record"
    return error, tuple(out)


def _check(plan, inputs, env, defaults, select, delim):
    def fail(message):
        raise errors.InvalidArgumentError(env.node, None, message)
    for i, d in enumerate(defaults):
        if d.ndim > 1:
            fail("Each record default should be at most rank 1")
        if d.size > 1:
            fail(f"There should only be 1 default per field but field {i} has {d.size}")
    if select and len(select) != len(defaults):
        fail("select_cols should match output size")
    if any(a >= b for a, b in zip(select, select[1:])):
        fail("select_cols should be strictly increasing indices")
    if select and select[0] < 0:
        fail("select_cols should be non-negative indices")
    if int(_arg(plan, inputs, "buffer_size")) <= 0:
        fail("buffer_size should be positive")
    if len(delim) != 1:
        fail("field_delim should be only 1 char")


def _bytes(value):
    value = np.asarray(value, dtype=object).item()
    return value if isinstance(value, bytes) else str(value).encode()


def _csv(plan, inputs, env, tolerant=False):
    """TF's CSVDataset: the records of the files, one after the other (a header line skipped
    in each if `header`). With `tolerant` a bad record is handed over as its error, in its
    place, and the reading goes on (for ignore_errors)."""
    names, compression, _ = _files(plan, inputs, env)
    defaults = [np.asarray(inputs[i]) for i in plan["record_defaults"]]
    select = [int(c) for c in np.asarray(_arg(plan, inputs, "select_cols")).reshape(-1)]
    delim, na = _bytes(_arg(plan, inputs, "field_delim")), _bytes(_arg(plan, inputs, "na_value"))
    header, quote = (bool(_arg(plan, inputs, k)) for k in ("header", "use_quote_delim"))
    _check(plan, inputs, env, defaults, select, delim)
    for name in names:
        data, pos = _file_bytes(name, compression, env), 0
        if header:
            fields, pos = _record(data, 0, delim[0], quote) if data else (None, 0)
            if fields is None or any(problem for _, problem in fields):
                raise errors.InvalidArgumentError(env.node, None, "Can't read header of file "
                                                  f"{name!r}")
        while pos < len(data):
            fields, pos = _record(data, pos, delim[0], quote)
            error, element = _element(fields, defaults, plan["output_types"], select, na)
            if error is None:
                yield element
            elif tolerant:
                yield errors.InvalidArgumentError(env.node, None, error)
            else:
                raise errors.InvalidArgumentError(env.node, None, f"{error} (file {name!r})")


register_dataset_kernel("CSVDataset", _csv,
                        tolerant=lambda plan, inputs, env: _csv(plan, inputs, env, True))


# -- the dataset ------------------------------------------------------------------------------

def _record_default(value, i):
    if not isinstance(value, Tensor) and value in _ACCEPTABLE_CSV_TYPES:
        return constant([], dtype=value)
    if isinstance(value, _dtypes.DType):
        raise TypeError(f"record_defaults[{i}] is {value!r}: a CSV column is one of "
                        "tf.float32, tf.float64, tf.int32, tf.int64 and tf.string.")
    t = convert_to_tensor(value, name="record_defaults")
    if t.dtype.base_dtype not in _ACCEPTABLE_CSV_TYPES:
        raise TypeError(f"Value passed to parameter 'record_defaults' has DataType "
                        f"{t.dtype.base_dtype.name} not in list of allowed values: float32, "
                        "float64, int32, int64, string")
    shape = t.get_shape()
    if shape.ndims is not None and (shape.ndims > 1 or (
            shape.ndims == 1 and shape.as_list()[0] not in (None, 0, 1))):
        raise ValueError(f"Shape of a default must be a length-0 or length-1 vector, or a "
                         f"scalar (record_defaults[{i}] has shape {shape}).")
    return t


class CsvDataset(DatasetV1):
    """The records of one or more CSV files, each a tuple of scalars (one per column of
    `record_defaults`, or of `select_cols`)."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None):
        string, int64, boolean = _dtypes.string, _dtypes.int64, _dtypes.bool
        self._defaults = [_record_default(v, i) for i, v in enumerate(record_defaults)]
        self._args = {
            "filenames": convert_to_tensor(filenames, dtype=string, name="filenames"),
            "compression_type": convert_to_tensor(
                "" if compression_type is None else compression_type, dtype=string,
                name="compression_type"),
            "buffer_size": convert_to_tensor(
                _DEFAULT_BUFFER_SIZE if buffer_size is None else buffer_size, dtype=int64,
                name="buffer_size"),
            "header": convert_to_tensor(header, dtype=boolean, name="header"),
            "field_delim": convert_to_tensor(field_delim, dtype=string, name="field_delim"),
            "use_quote_delim": convert_to_tensor(use_quote_delim, dtype=boolean,
                                                 name="use_quote_delim"),
            "na_value": convert_to_tensor(na_value, dtype=string, name="na_value"),
            "select_cols": convert_to_tensor([] if select_cols is None else select_cols,
                                             dtype=int64, name="select_cols")}
        super().__init__(tuple(Spec(d.dtype.base_dtype, TensorShape([]))
                               for d in self._defaults))

    def _plan(self, tensors):
        return {"op": "CSVDataset", **{k: tensors(t) for k, t in self._args.items()},
                "record_defaults": [tensors(t) for t in self._defaults],
                "output_types": [d.dtype.base_dtype for d in self._defaults]}


# -- make_csv_dataset -------------------------------------------------------------------------

def _file_names(file_pattern):
    patterns = file_pattern if isinstance(file_pattern, list) else [file_pattern]
    if isinstance(file_pattern, list) and not file_pattern:
        raise ValueError("Argument `file_pattern` should not be empty.")
    names = [n for p in patterns for n in gfile.Glob(p)]
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    return sorted(names)


def _open(name, compression_type):
    with gfile.GFile(name, "rb") as f:
        data = f.read()
    if compression_type == "GZIP":
        data = gzip.decompress(data)
    elif compression_type == "ZLIB":
        raise ValueError(f"`compression_type` {compression_type} is not supported for probing "
                         "columns.")
    elif compression_type not in (None, ""):
        raise ValueError(f"Unsupported compression_type {compression_type!r}: use '', 'ZLIB' "
                         "or 'GZIP'.")
    return io.StringIO(data.decode("utf-8"), newline="")


def _reader(name, field_delim, use_quote_delim, compression_type):
    return csv.reader(_open(name, compression_type), delimiter=field_delim,
                      quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)


def _infer_column_names(filenames, field_delim, use_quote_delim, compression_type):
    names = None
    for name in filenames:
        try:
            row = next(_reader(name, field_delim, use_quote_delim, compression_type))
        except StopIteration:
            raise ValueError(f"Failed when reading the header line of {name}. Is it an empty "
                             "file?") from None
        if names is not None and row != names:
            raise ValueError("All input CSV files should have the same column names in the "
                             f"header row. File {name} has different column names.")
        names = row
    return names


def _fits(text, dtype):
    try:
        if dtype.is_integer:
            low, high = _RANGES[dtype.name]
            return low <= int(text) <= high
        return bool(dtype.as_numpy_dtype(text) < np.inf)
    except (ValueError, OverflowError):
        return False


def _infer_type(text, na_value, previous):
    """The narrowest of int32, int64, float32, float64, string that holds `text` and every
    value seen before (TF's _infer_type, which parses with NumPy)."""
    if text in ("", na_value):
        return previous
    order = [_dtypes.int32, _dtypes.int64, _dtypes.float32, _dtypes.float64, _dtypes.string]
    for i, dtype in enumerate(order):
        if (previous is None or previous in order[:i + 1]) and \
                (dtype == _dtypes.string or _fits(text, dtype)):
            return dtype


def _rows(filenames, num_cols, field_delim, use_quote_delim, header, compression_type):
    """The rows of the files, in order, each checked for its number of fields."""
    for name in filenames:
        reader = _reader(name, field_delim, use_quote_delim, compression_type)
        if header:
            next(reader, None)
        for row_num, row in enumerate(reader, 2 if header else 1):
            if len(row) != num_cols:
                raise ValueError(f"Problem inferring types: CSV row {row_num} has {len(row)} "
                                 f"number of fields. Expected: {num_cols}.")
            yield row


def _infer_column_defaults(filenames, num_cols, field_delim, use_quote_delim, na_value,
                           header, num_rows_for_inference, select_columns, compression_type):
    select_columns = range(num_cols) if select_columns is None else select_columns
    inferred = [None] * len(select_columns)
    for i, row in enumerate(_rows(filenames, num_cols, field_delim, use_quote_delim, header,
                                  compression_type)):
        if num_rows_for_inference is not None and i >= num_rows_for_inference:
            break
        for j, col in enumerate(select_columns):
            inferred[j] = _infer_type(row[col], na_value, inferred[j])
    inferred = [t or _dtypes.string for t in inferred]
    return [constant([0 if t != _dtypes.string else ""], dtype=t) for t in inferred]


def _sorted_col_indices(select_columns, column_names):
    indices = {n: i for i, n in enumerate(column_names)}
    results = []
    for v in select_columns:
        if isinstance(v, int):
            if not 0 <= v < len(column_names):
                raise ValueError(f"Column index {v} specified in `select_columns` should be > 0 "
                                 f" and <= {len(column_names)}, which is the number of "
                                 "columns.")
            results.append(v)
        elif v not in indices:
            raise ValueError(f"Column {v} specified in `select_columns` must be of one of the "
                             f"columns: {indices.keys()}.")
        else:
            results.append(indices[v])
    if len(set(results)) != len(select_columns):
        raise ValueError("The `select_columns` argument contains duplicate columns: "
                         f"{_duplicates(results)}.")
    return sorted(set(results))


def _duplicates(values):
    values = sorted(values)
    return {a for a, b in zip(values[:-1], values[1:]) if a == b}


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=1, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False):
    """Batches of CSV rows from the files of `file_pattern`: each element is a dict of
    columns (column name -> a batch of values), or (that dict, label batch) with
    label_name. Repeats forever unless num_epochs is given, shuffled unless shuffle=False."""
    filenames = _file_names(file_pattern)
    dataset = DatasetV1.from_tensor_slices(filenames)
    if shuffle:
        dataset = dataset.shuffle(len(filenames), shuffle_seed)
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header` arguments. Neither is "
                             "provided.")
        column_names = _infer_column_names(filenames, field_delim, use_quote_delim,
                                           compression_type)
    if len(column_names) != len(set(column_names)):
        raise ValueError("Either `column_names` argument or CSV header row contains duplicate "
                         f"column names: {_duplicates(column_names)}.")
    if select_columns is not None:
        select_columns = _sorted_col_indices(select_columns, column_names)
    if column_defaults is not None:
        column_defaults = [constant([], dtype=x) if not isinstance(x, Tensor) and
                           x in _ACCEPTABLE_CSV_TYPES else x for x in column_defaults]
    else:
        column_defaults = _infer_column_defaults(
            filenames, len(column_names), field_delim, use_quote_delim, na_value, header,
            num_rows_for_inference, select_columns, compression_type)
    if select_columns is not None and len(column_defaults) != len(select_columns):
        raise ValueError("If specified, `column_defaults` and `select_columns` must have the "
                         f"same length: `column_defaults` has length {len(column_defaults)}, "
                         f"`select_columns` has length {len(select_columns)}.")
    if select_columns is not None and len(column_names) > len(select_columns):
        column_names = [column_names[i] for i in select_columns]
    if label_name is not None and label_name not in column_names:
        raise ValueError(f"`label_name` provided must be one of the columns: {column_names}. "
                         f"Received: {label_name}.")

    def filename_to_dataset(filename):
        ds = CsvDataset(filename, record_defaults=column_defaults, field_delim=field_delim,
                        use_quote_delim=use_quote_delim, na_value=na_value,
                        select_cols=select_columns, header=header,
                        compression_type=compression_type)
        return ds.apply(_ignore_errors()) if ignore_errors else ds

    def map_fn(*columns):
        features = collections.OrderedDict(zip(column_names, columns))
        if label_name is not None:
            label = features.pop(label_name)
            return features, label
        return features

    dataset = dataset.apply(parallel_interleave(filename_to_dataset,
                                                cycle_length=num_parallel_reads, sloppy=sloppy))
    if num_epochs != 1 and shuffle:
        dataset = dataset.apply(shuffle_and_repeat(shuffle_buffer_size, num_epochs,
                                                   shuffle_seed))
    elif shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, shuffle_seed)
    elif num_epochs != 1:
        dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size=batch_size, drop_remainder=num_epochs is None)
    dataset = dataset.map(map_fn)
    return dataset.prefetch(-1 if prefetch_buffer_size is None else prefetch_buffer_size)
