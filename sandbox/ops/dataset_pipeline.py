"""The iterators behind tf.data -- mirrors TensorFlow's dataset kernels
(core/kernels/data/*_dataset_op.cc: tensor_slice, tensor, range, generator, map, flat_map,
interleave, filter, batch, padded_batch, shuffle, repeat, take, skip, zip, concatenate,
prefetch, shard, unbatch; and the file readers of reader_dataset_ops.cc: TFRecord, text line and
fixed-length records).

A dataset, on the task that iterates it, is a *plan*: plain data (a tree of dicts, one per
transformation, named after TF's dataset op types) that travels inside the iterator's op.
`iterate(plan, inputs, env)` turns a plan into a Python iterator of elements; an element is a
flat tuple of NumPy arrays (the Python side of tf.data knows how to rebuild the nested
structure: tuples, dicts). Each transformation is a generator over its input's iterator, so
an element is computed only when get_next asks for it -- TF's pull model.

Shuffle draws TF's own numbers: a buffer of `buffer_size` elements, and for each output the
index `Philox() % n` with TF's Philox4x32-10 seeded from (seed, seed2) -- so
`Dataset.range(10).shuffle(5, seed=1)` gives the order TensorFlow 1.15 gives, and so do its
next epochs: with `reshuffle_each_iteration=True` each new pass over the shuffle takes two
fresh seeds from a generator seeded with (seed, seed2); `shuffle(...).repeat(n)` right after
it is what TF's optimizer (grappler's shuffle_and_repeat_fusion) turns it into, one buffer that
runs across the epochs. Measured against TF 1.15 in tests/ops/test_data.py.

`prefetch` buffers nothing: the sandbox's executor runs one op at a time, so there is no
background thread to fill a buffer ahead of the training step (TF's prefetch overlaps them).
"""
import os
import secrets

import numpy as np

from ..framework import errors
from ..platform import gfile, tf_record
from .dataset_function import FunctionRunner
from .philox import philox_blocks

__all__ = ["iterate", "PipelineEnv", "GENERATORS"]

_MAX_EPOCHS_IN_BUFFER = 3          # kMaxEpochsInBuffer
_BLOCKS_AT_ONCE = 64


class PipelineEnv:
    """What the kernels of one iterator share: the task's resources, the step that asks for
    the next element (a function in the pipeline may wait, e.g. on a queue) and the node."""

    def __init__(self, node, resources, device):
        self.node = node
        self.resources = resources
        self.device = device
        self.step = None
        self.seed_generators = {}          # id(shuffle plan) -> its seed generator

    def runner(self, function, what):
        return FunctionRunner(function, what, self.resources, self.device)


class PhiloxStream:
    """TF's SingleSampleAdapter<PhiloxRandom>: 32-bit words, four per Philox block, from the
    counter (0, 0, seed2) on under the key `seed`."""

    def __init__(self, seed, seed2):
        seed &= (1 << 64) - 1
        seed2 &= (1 << 64) - 1
        self.key = (seed & 0xFFFFFFFF, seed >> 32)
        self.counter = seed2 << 64
        self.words = []

    def __call__(self):
        if not self.words:               # 64 blocks at a time, used word by word
            blocks = philox_blocks(self.key, self.counter, _BLOCKS_AT_ONCE)
            self.words = blocks.reshape(-1).tolist()[::-1]
            self.counter = (self.counter + _BLOCKS_AT_ONCE) & ((1 << 128) - 1)
        return self.words.pop()


def iterate(plan, inputs, env):
    """A Python iterator over the elements (flat tuples of arrays) of `plan`."""
    return _KINDS[plan["op"]](plan, inputs, env)


def _arg(plan, inputs, key):
    return inputs[plan[key]]


def _tensor_slices(plan, inputs, env):
    components = [inputs[i] for i in plan["inputs"]]
    n = len(components[0]) if components and np.ndim(components[0]) else 0
    for c in components:
        if np.ndim(c) == 0 or len(c) != n:
            raise errors.InvalidArgumentError(
                env.node, None, "Dimension 0 of all components of Dataset.from_tensor_slices "
                f"must match: got shapes {[list(np.shape(c)) for c in components]}.")
    for i in range(n):
        yield tuple(c[i, ...] for c in components)


def _tensors(plan, inputs, env):
    yield tuple(np.asarray(inputs[i]) for i in plan["inputs"])


def _range(plan, inputs, env):
    start, stop, step = (int(_arg(plan, inputs, k)) for k in ("start", "stop", "step"))
    if step == 0:
        raise errors.InvalidArgumentError(env.node, None, "step must be a non-zero integer.")
    for i in range(start, stop, step):
        yield (np.int64(i),)


def _function(plan, inputs, env, what):
    runner = env.runner(plan["fn"], what)
    captured = [inputs[i] for i in plan["captures"]]
    return lambda element: runner(element, captured, env.step)


def _map(plan, inputs, env):
    call = _function(plan, inputs, env, "the function of Dataset.map")
    dtypes = plan["output_types"]
    for element in iterate(plan["input"], inputs, env):
        yield tuple(np.asarray(v, dtype=d.as_numpy_dtype) for v, d in zip(call(element), dtypes))


def _flat_map(plan, inputs, env):
    """For each element, the function's outputs are the inputs of the dataset it returned
    (plan["dataset"]); its elements follow one another."""
    call = _function(plan, inputs, env, "the function of Dataset.flat_map")
    for element in iterate(plan["input"], inputs, env):
        yield from iterate(plan["dataset"], list(call(element)), env)


def _interleave(plan, inputs, env):
    """TF's InterleaveDatasetOp: `cycle_length` datasets open at once, `block_length`
    elements from each in turn; an exhausted one is replaced by the next element's dataset
    in its place of the cycle."""
    call = _function(plan, inputs, env, "the function of Dataset.interleave")
    cycle_length = int(_arg(plan, inputs, "cycle_length"))
    block_length = int(_arg(plan, inputs, "block_length"))
    if cycle_length == -1:                       # AUTOTUNE: the machine's cores, as in TF
        cycle_length = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") \
            else (os.cpu_count() or 1)
    if cycle_length <= 0 or block_length <= 0:
        raise errors.InvalidArgumentError(
            env.node, None, f"Dataset.interleave needs cycle_length > 0 and block_length > 0, "
            f"got {cycle_length} and {block_length}.")
    source = iterate(plan["input"], inputs, env)
    open_ = [None] * cycle_length
    index = block = 0
    end_of_input = False
    while not end_of_input or any(it is not None for it in open_):
        if open_[index] is not None:
            element = next(open_[index], None)
            if element is not None:
                yield element
                block += 1
                if block < block_length:
                    continue
            else:
                open_[index] = None
        elif not end_of_input:
            element = next(source, None)
            if element is None:
                end_of_input = True
            else:
                open_[index] = iterate(plan["dataset"], list(call(element)), env)
            continue
        index, block = (index + 1) % cycle_length, 0


def _filter(plan, inputs, env):
    call = _function(plan, inputs, env, "the predicate of Dataset.filter")
    for element in iterate(plan["input"], inputs, env):
        (keep,) = call(element)
        if np.ndim(keep) != 0:
            raise errors.InvalidArgumentError(env.node, None, "The predicate of Dataset.filter "
                                              "must return a scalar bool, got shape "
                                              f"{list(np.shape(keep))}.")
        if bool(keep):
            yield element


def _batch(plan, inputs, env):
    size = int(_arg(plan, inputs, "batch_size"))
    if size <= 0:
        raise errors.InvalidArgumentError(env.node, None, "Batch size must be greater than "
                                          f"zero, got {size}.")
    drop = bool(_arg(plan, inputs, "drop_remainder"))
    batch = []
    for element in iterate(plan["input"], inputs, env):
        batch.append(element)
        if len(batch) == size:
            yield _stack(batch, env)
            batch = []
    if batch and not drop:
        yield _stack(batch, env)


def _stack(batch, env):
    try:
        return tuple(np.stack(parts) for parts in zip(*batch))
    except ValueError:
        shapes = [[list(np.shape(c)) for c in element] for element in batch]
        raise errors.InvalidArgumentError(
            env.node, None, "Cannot batch tensors with different shapes in component(s): "
            f"{shapes}. Make every element the same shape first (or use padded_batch in "
            "TensorFlow).") from None


def _padded_batch(plan, inputs, env):
    size = int(_arg(plan, inputs, "batch_size"))
    if size <= 0:
        raise errors.InvalidArgumentError(env.node, None, "Batch size must be greater than "
                                          f"zero, got {size}.")
    drop = bool(_arg(plan, inputs, "drop_remainder"))
    shapes = [np.asarray(inputs[i]).tolist() for i in plan["padded_shapes"]]
    values = [inputs[i] for i in plan["padding_values"]]
    batch = []
    for element in iterate(plan["input"], inputs, env):
        batch.append(element)
        if len(batch) == size:
            yield _pad(batch, shapes, values, env)
            batch = []
    if batch and not drop:
        yield _pad(batch, shapes, values, env)


def _pad(batch, shapes, values, env):
    """Each component padded to its padded shape (-1: the longest in this batch)."""
    out = []
    for i, (wanted, value) in enumerate(zip(shapes, values)):
        parts = [np.asarray(element[i]) for element in batch]
        if any(p.ndim != len(wanted) for p in parts):
            raise errors.InvalidArgumentError(
                env.node, None, f"padded_batch: component {i} has rank "
                f"{parts[0].ndim} but its padded shape {wanted} has rank {len(wanted)}.")
        target = [max(p.shape[d] for p in parts) if n < 0 else n for d, n in enumerate(wanted)]
        for p in parts:
            if any(have > want for have, want in zip(p.shape, target)):
                raise errors.InvalidArgumentError(
                    env.node, None, f"Attempted to pad to a smaller size than the input "
                    f"element: component {i} has shape {list(p.shape)}, padded shape "
                    f"{target}.")
        padded = np.full([len(parts)] + target, value, dtype=parts[0].dtype)
        for j, p in enumerate(parts):
            padded[(j,) + tuple(slice(0, n) for n in p.shape)] = p if p.ndim else p[()]
        out.append(padded)
    return tuple(out)


# Python generators of Dataset.from_generator, by token: only the process that built the
# dataset has them (nothing that travels between tasks is code).
GENERATORS = {}


def _generator(plan, inputs, env):
    make = GENERATORS.get(plan["token"])
    if make is None:
        raise errors.FailedPreconditionError(
            env.node, None, "Dataset.from_generator runs a Python generator, which only the "
            "process that built the dataset has (TF's from_generator has the same limit): "
            f"this iterator runs on {env.resources.owner if env.resources else 'another task'}"
            ". Place its iterator in the client's process -- a local tf.Session -- or build "
            "the data with from_tensor_slices.")
    yield from make([inputs[i] for i in plan["args"]], env.node)


def _seeds(plan, inputs):
    seed, seed2 = int(_arg(plan, inputs, "seed")), int(_arg(plan, inputs, "seed2"))
    if seed == 0 and seed2 == 0:            # TF's convention: not seeded
        seed, seed2 = secrets.randbits(63), secrets.randbits(63)
    return seed, seed2


def _shuffle(plan, inputs, env, count=1):
    buffer_size = int(_arg(plan, inputs, "buffer_size"))
    if buffer_size <= 0:
        raise errors.InvalidArgumentError(env.node, None,
                                          "buffer_size must be greater than zero.")
    seed, seed2 = _seeds(plan, inputs)
    if plan["reshuffle_each_iteration"] and count == 1:
        # A seed generator per iterator: each new pass over this shuffle draws two seeds.
        gen = env.seed_generators.setdefault(id(plan), PhiloxStream(seed, seed2))
        seed, seed2 = gen(), gen()
    return _shuffle_buffer(plan, inputs, env, buffer_size, PhiloxStream(seed, seed2), count)


def _shuffle_buffer(plan, inputs, env, size, random, count):
    """TF's ShuffleDatasetBase::Iterator::GetNextInternal, element for element."""
    buffer = [None] * size
    slices = [[0, 0]]                         # [start, end) of each epoch in the buffer
    num_elements, epoch, first_call = 0, 0, True
    source = iterate(plan["input"], inputs, env)
    while True:
        while source is not None and num_elements < size:
            element = None
            while count == -1 or epoch < count:
                element = next(source, None)
                if element is not None:
                    first_call = False
                    break
                if first_call and count == -1:
                    return                    # an empty input repeated forever: nothing
                epoch += 1
                end = slices[-1][1]
                slices.append([end, end])
                source = iterate(plan["input"], inputs, env)
            if element is not None:
                buffer[slices[-1][1] % size] = element
                num_elements += 1
                slices[-1][1] += 1
            else:
                source = None
            if len(slices) > _MAX_EPOCHS_IN_BUFFER:
                break
        if num_elements == 0:
            return
        while slices[0][0] == slices[0][1]:
            slices.pop(0)
        first = slices[0]
        index = (first[0] + random() % (first[1] - first[0])) % size
        element = buffer[index]
        buffer[index] = buffer[first[0] % size]
        buffer[first[0] % size] = None
        first[0] += 1
        num_elements -= 1
        yield element


def _repeat(plan, inputs, env):
    count = int(_arg(plan, inputs, "count"))
    source = plan["input"]
    if source["op"] == "ShuffleDataset" and source["reshuffle_each_iteration"]:
        yield from _shuffle(source, inputs, env, count=count)     # shuffle_and_repeat_fusion
        return
    epoch = 0
    while count < 0 or epoch < count:
        produced = False
        for element in iterate(source, inputs, env):
            produced = True
            yield element
        if not produced:                       # an empty dataset repeated: stop, as TF does
            return
        epoch += 1


def _take(plan, inputs, env):
    count = int(_arg(plan, inputs, "count"))
    for i, element in enumerate(iterate(plan["input"], inputs, env)):
        if 0 <= count <= i:
            return
        yield element


def _skip(plan, inputs, env):
    count = int(_arg(plan, inputs, "count"))
    for i, element in enumerate(iterate(plan["input"], inputs, env)):
        if count < 0 or i < count:
            continue
        yield element


def _zip(plan, inputs, env):
    sources = [iterate(p, inputs, env) for p in plan["inputs"]]
    for elements in zip(*sources):
        yield tuple(c for element in elements for c in element)


def _shard(plan, inputs, env):
    """TF's ShardDatasetOp: elements index, index + num_shards, index + 2 * num_shards ..."""
    num_shards, index = (int(_arg(plan, inputs, k)) for k in ("num_shards", "index"))
    if num_shards <= 0:
        raise errors.InvalidArgumentError(env.node, None, "Number of shards must be greater "
                                          f"than zero (currently num_shards = {num_shards}).")
    if not 0 <= index < num_shards:
        raise errors.InvalidArgumentError(env.node, None, f"Index must be between 0 and "
                                          f"{num_shards - 1} (currently index = {index}).")
    for i, element in enumerate(iterate(plan["input"], inputs, env)):
        if i % num_shards == index:
            yield element


def _unbatch(plan, inputs, env):
    """TF's UnbatchDatasetOp: each element's rows, one by one."""
    for element in iterate(plan["input"], inputs, env):
        sizes = [np.shape(c)[0] for c in element]
        for k, size in enumerate(sizes[1:], 1):
            if size != sizes[0]:
                raise errors.InvalidArgumentError(
                    env.node, None, "Input element must have the same batch size in each "
                    f"component. Component 0 had size {sizes[0]} but component {k} had size, "
                    f"{size}.")
        for i in range(sizes[0] if sizes else 0):
            yield tuple(np.asarray(c)[i] for c in element)


def _concatenate(plan, inputs, env):
    yield from iterate(plan["input"], inputs, env)
    yield from iterate(plan["other"], inputs, env)


def _prefetch(plan, inputs, env):
    yield from iterate(plan["input"], inputs, env)


# -- the file readers: every element is one scalar string ---------------------------------

def _string(value):
    out = np.empty((), dtype=object)
    out[()] = value
    return (out,)


def _files(plan, inputs, env):
    """(file names, compression type, buffer size) of a reader's plan."""
    names = np.asarray(_arg(plan, inputs, "filenames"), dtype=object).reshape(-1)
    names = [n.decode() if isinstance(n, bytes) else str(n) for n in names]
    compression = _arg(plan, inputs, "compression_type")
    compression = np.asarray(compression, dtype=object).item()
    compression = compression.decode() if isinstance(compression, bytes) else str(compression)
    if compression not in ("", "ZLIB", "GZIP"):
        raise errors.InvalidArgumentError(env.node, None, f"Unsupported compression_type "
                                          f"{compression!r}: use '', 'ZLIB' or 'GZIP'.")
    buffer_size = int(_arg(plan, inputs, "buffer_size"))
    return names, compression, (buffer_size if buffer_size > 0 else None)


def _located(error, env):
    """A reader's error (its message names the file) as raised by this iterator's node."""
    return type(error)(env.node, None, error.message)


def _tf_records(plan, inputs, env):
    names, compression, buffer_size = _files(plan, inputs, env)
    readers = (tf_record.read_records(n, compression, buffer_size) for n in names)
    cycle = max(int(_arg(plan, inputs, "num_parallel_reads")), 1)
    try:
        if cycle == 1:
            for reader in readers:
                for record in reader:
                    yield _string(record)
            return
        # parallel_interleave(cycle_length=k, block_length=1, sloppy=False): one record from
        # each open file in turn; a file that ends gives its slot to the next file
        slots = [r for _, r in zip(range(cycle), readers)]
        while slots:
            for i, reader in enumerate(list(slots)):
                for record in reader:
                    yield _string(record)
                    break
                else:
                    replacement = next(readers, None)
                    slots[slots.index(reader)] = replacement
                    if replacement is not None:          # TF reads the new file's first
                        for record in replacement:       # record in the same turn
                            yield _string(record)
                            break
            slots = [r for r in slots if r is not None]
    except errors.OpError as e:
        raise _located(e, env) from None


def _file_bytes(name, compression, env):
    try:
        with gfile.GFile(name, "rb") as f:
            data = f.read()
    except errors.OpError as e:
        raise _located(e, env) from None
    if compression:
        import zlib
        try:
            data = zlib.decompress(data, tf_record._WBITS[compression])
        except zlib.error as e:
            raise errors.DataLossError(env.node, None, f"{name}: inflate() failed ({e}): was "
                                       f"it written with compression {compression!r}?") from None
    return data


def _text_lines(plan, inputs, env):
    names, compression, _ = _files(plan, inputs, env)
    for name in names:
        lines = _file_bytes(name, compression, env).split(b"\n")
        if lines[-1] == b"":       # after a final newline (or of an empty file): no line
            lines.pop()
        for line in lines:
            yield _string(line[:-1] if line.endswith(b"\r") else line)


def _fixed_length_records(plan, inputs, env):
    names, compression, _ = _files(plan, inputs, env)
    size, header, footer = (int(_arg(plan, inputs, k)) for k in
                            ("record_bytes", "header_bytes", "footer_bytes"))
    if size <= 0:
        raise errors.InvalidArgumentError(env.node, None, f"record_bytes must be positive, "
                                          f"got {size}.")
    for name in names:
        data = _file_bytes(name, compression, env)
        body = data[header:max(len(data) - footer, header)]
        if len(body) % size:
            raise errors.InvalidArgumentError(
                env.node, None, f"Excluding the header ({header} bytes) and footer ({footer} "
                f"bytes), input file \"{name}\" has body length {len(body)} bytes, which is "
                f"not an exact multiple of the record length ({size} bytes).")
        for start in range(0, len(body), size):
            yield _string(body[start:start + size])


_KINDS = {"TensorSliceDataset": _tensor_slices, "TensorDataset": _tensors,
          "RangeDataset": _range, "MapDataset": _map, "FilterDataset": _filter,
          "FlatMapDataset": _flat_map, "InterleaveDataset": _interleave,
          "BatchDatasetV2": _batch, "PaddedBatchDatasetV2": _padded_batch,
          "GeneratorDataset": _generator, "ShuffleDataset": _shuffle, "RepeatDataset": _repeat,
          "TakeDataset": _take, "SkipDataset": _skip, "ZipDataset": _zip,
          "ConcatenateDataset": _concatenate, "PrefetchDataset": _prefetch,
          "ShardDataset": _shard, "UnbatchDataset": _unbatch,
          "TFRecordDataset": _tf_records, "TextLineDataset": _text_lines,
          "FixedLengthRecordDatasetV2": _fixed_length_records}


# -- tf.data.experimental's transformations (sandbox/data/experimental*.py) -----------------
# TF's kernels in core/kernels/data/experimental/: random, directed_interleave, scan,
# group_by_window, group_by_reducer, take_while, unique, ignore_errors, shuffle_and_repeat.

def _typed(values, dtypes):
    return [np.asarray(v, dtype=d.as_numpy_dtype) for v, d in zip(values, dtypes)]


def _random(plan, inputs, env):
    """TF's RandomDataset: endless int64 scalars, each a 32-bit word of Philox seeded with
    (seed, seed2) -- TF's numbers for the same seeds."""
    random = PhiloxStream(*_seeds(plan, inputs))
    while True:
        yield (np.int64(random()),)


def _shuffle_and_repeat(plan, inputs, env):
    """TF 1.15's ShuffleAndRepeatDataset: one buffer across `count` epochs (-1: forever),
    drawn with Philox seeded with (seed, seed2) themselves."""
    size = int(_arg(plan, inputs, "buffer_size"))
    if size <= 0:
        raise errors.InvalidArgumentError(env.node, None,
                                          "buffer_size must be greater than zero.")
    return _shuffle_buffer(plan, inputs, env, size, PhiloxStream(*_seeds(plan, inputs)),
                           int(_arg(plan, inputs, "count")))


def _directed_interleave(plan, inputs, env):
    """TF's DirectedInterleaveDataset: each element of the selector (an int64 scalar) says
    which input gives the next element. An exhausted input is passed over; the dataset ends
    with the selector, or when every input is exhausted."""
    sources = [iterate(p, inputs, env) for p in plan["inputs"]]
    active = len(sources)
    for (index,) in iterate(plan["selector"], inputs, env):
        index = int(index)
        if not 0 <= index < len(sources):
            raise errors.InvalidArgumentError(env.node, None, f"Selector index out of range: "
                                              f"{index} >= {len(sources)}")
        element = None if sources[index] is None else next(sources[index], None)
        if element is not None:
            yield element
        elif sources[index] is not None:
            sources[index], active = None, active - 1
            if active == 0:
                return


def _scan(plan, inputs, env):
    """TF's ScanDataset: (state, output) = scan_func(state, element) for each element, the
    state starting at initial_state on every pass."""
    call = _function(plan, inputs, env, "the scan_func of tf.data.experimental.scan")
    state = [np.asarray(inputs[i]) for i in plan["initial_state"]]
    for element in iterate(plan["input"], inputs, env):
        values = call(tuple(state) + tuple(element))
        state = _typed(values[:len(state)], plan["state_types"])
        yield tuple(_typed(values[len(state):], plan["output_types"]))


def _take_while(plan, inputs, env):
    """TF's TakeWhileDataset: the elements up to the first for which `predicate` is False."""
    call = _function(plan, inputs, env, "the predicate of tf.data.experimental.take_while")
    for element in iterate(plan["input"], inputs, env):
        if not bool(call(element)[0]):
            return
        yield element


def _unique(plan, inputs, env):
    """TF's UniqueDataset: each distinct element once, where it first appears."""
    seen = set()
    for element in iterate(plan["input"], inputs, env):
        value = np.asarray(element[0])
        key = (value.shape, tuple(value.reshape(-1).tolist()))
        if key not in seen:
            seen.add(key)
            yield element


def _group_by_window(plan, inputs, env):
    """TF's GroupByWindowDataset: elements gather in groups by key_func's int64 key; a group
    that reaches window_size_func(key) elements is handed to reduce_func (with its key), whose
    dataset's elements come next. At the end of the input the groups left are handed over in
    increasing key order (TF keeps them in a std::map)."""
    key_of = _function(plan["key_func"], inputs, env, "the key_func of group_by_window")
    size_of = _function(plan["window_size_func"], inputs, env,
                        "the window_size_func of group_by_window")
    reduce = _function(plan["reduce_func"], inputs, env, "the reduce_func of group_by_window")
    groups, sizes = {}, {}

    def flush(key):
        window = _bind_window(plan["reduce_func"]["dataset"], plan["window"], groups.pop(key))
        return iterate(window, list(reduce((np.int64(key),))), env)

    for element in iterate(plan["input"], inputs, env):
        key = int(key_of(element)[0])
        if key not in sizes:
            sizes[key] = int(size_of((np.int64(key),))[0])
            if sizes[key] <= 0:
                raise errors.InvalidArgumentError(env.node, None, "Window size must be greater "
                                                  f"than zero, but got {sizes[key]}.")
        groups.setdefault(key, []).append(element)
        if len(groups[key]) == sizes[key]:
            yield from flush(key)
    for key in sorted(groups):
        yield from flush(key)


def _bind_window(plan, token, elements):
    """`plan` with its WindowArgument `token` holding `elements`: the group that TF passes to
    reduce_func as a dataset (a WindowDataset) becomes part of the plan of reduce_func's."""
    if isinstance(plan, dict):
        if plan.get("op") == "WindowArgument" and plan.get("token") == token:
            return dict(plan, elements=elements)
        return {k: v if k == "fn" else _bind_window(v, token, elements)
                for k, v in plan.items()}
    if isinstance(plan, list):
        return [_bind_window(v, token, elements) for v in plan]
    return plan


def _window_argument(plan, inputs, env):
    if "elements" not in plan:
        raise errors.InvalidArgumentError(
            env.node, None, "The window dataset that group_by_window passes to reduce_func "
            "can only be used by the dataset reduce_func returns.")
    yield from plan["elements"]


def _group_by_reducer(plan, inputs, env):
    """TF's GroupByReducerDataset: a state per key (init_func(key)), folded with
    reduce_func(state, element); at the end of the input, finalize_func(state) per key, in
    increasing key order."""
    key_of = _function(plan["key_func"], inputs, env, "the key_func of group_by_reducer")
    init = _function(plan["init_func"], inputs, env, "the init_func of group_by_reducer")
    fold = _function(plan["reduce_func"], inputs, env, "the reduce_func of group_by_reducer")
    finalize = _function(plan["finalize_func"], inputs, env,
                         "the finalize_func of group_by_reducer")
    states = {}
    for element in iterate(plan["input"], inputs, env):
        key = int(key_of(element)[0])
        if key not in states:
            states[key] = _typed(init((np.int64(key),)), plan["state_types"])
        states[key] = _typed(fold(tuple(states[key]) + tuple(element)), plan["state_types"])
    for key in sorted(states):
        yield tuple(_typed(finalize(tuple(states[key])), plan["output_types"]))


# ignore_errors: TF's kernels can be asked for the next element after one failed; a Python
# generator that raised cannot go on. So IgnoreErrorsDataset asks its input for its elements
# *tolerantly*: the kernels below hand over a failure as the error itself (an OpError in the
# place of an element) and go on, as TF's do. Any other kernel stops at its first error.

def _ignore_errors(plan, inputs, env):
    """TF's IgnoreErrorsDataset: the input's elements, those that failed left out."""
    for element in _tolerant(plan["input"], inputs, env):
        if not isinstance(element, errors.OpError):
            yield element


def _tolerant(plan, inputs, env):
    make = _TOLERANT.get(plan["op"])
    return make(plan, inputs, env) if make else _intolerant(plan, inputs, env)


def _intolerant(plan, inputs, env):
    try:
        yield from iterate(plan, inputs, env)
    except errors.OpError as e:
        raise type(e)(e.node_def, None, f"{e.message} (tf.data.experimental.ignore_errors "
                      f"cannot skip this error: it came through a {plan['op']}, which the "
                      f"sandbox cannot resume after a failure -- only {', '.join(_TOLERANT)} "
                      "can. Apply ignore_errors() closer to what fails.)") from None


def _tolerant_map(plan, inputs, env):
    call = _function(plan, inputs, env, "the function of Dataset.map")
    for element in _tolerant(plan["input"], inputs, env):
        if not isinstance(element, errors.OpError):
            try:
                element = tuple(_typed(call(element), plan["output_types"]))
            except errors.OpError as e:
                element = e
        yield element


def _tolerant_filter(plan, inputs, env):
    call = _function(plan, inputs, env, "the predicate of Dataset.filter")
    for element in _tolerant(plan["input"], inputs, env):
        try:
            if isinstance(element, errors.OpError) or bool(call(element)[0]):
                yield element
        except errors.OpError as e:
            yield e


def _tolerant_batch(plan, inputs, env):
    """A failure spoils its batch. TF 1.15 fuses a map and the batch after it (its default
    map_and_batch_fusion): the spoilt batch still takes batch_size elements. A batch of
    anything else ends at the failure, and the next batch starts after it."""
    size = int(_arg(plan, inputs, "batch_size"))
    drop = bool(_arg(plan, inputs, "drop_remainder"))
    fused = plan["input"]["op"] == "MapDataset"
    batch, failure, taken = [], None, 0
    for element in _tolerant(plan["input"], inputs, env):
        failed = isinstance(element, errors.OpError)
        if failed and not fused:
            batch, taken = [], 0
            yield element
            continue
        taken += 1
        failure = failure or (element if failed else None)
        if not failed:
            batch.append(element)
        if taken == size:
            yield failure or _tolerant_stack(batch, env)
            batch, failure, taken = [], None, 0
    if failure or (batch and not drop):
        yield failure or _tolerant_stack(batch, env)


def _tolerant_stack(batch, env):
    try:
        return _stack(batch, env)
    except errors.OpError as e:
        return e


def _tolerant_take(plan, inputs, env):
    """A failure does not count (TF's TakeDataset counts the elements it gives)."""
    count, taken = int(_arg(plan, inputs, "count")), 0
    for element in _tolerant(plan["input"], inputs, env) if count else ():
        yield element
        if not isinstance(element, errors.OpError):
            taken += 1
            if taken == count:
                return


def register_dataset_kernel(op, kernel, tolerant=None):
    """Adds the kernel of a dataset op defined outside this module (the CSV reader of
    data/csv_dataset.py); `tolerant` is its kernel for ignore_errors, if it can go on after a
    failure."""
    _KINDS[op] = kernel
    if tolerant is not None:
        _TOLERANT[op] = tolerant


_KINDS.update({"RandomDataset": _random, "ShuffleAndRepeatDataset": _shuffle_and_repeat,
               "DirectedInterleaveDataset": _directed_interleave, "ScanDataset": _scan,
               "TakeWhileDataset": _take_while, "UniqueDataset": _unique,
               "GroupByWindowDataset": _group_by_window, "WindowArgument": _window_argument,
               "GroupByReducerDataset": _group_by_reducer,
               "IgnoreErrorsDataset": _ignore_errors})
_TOLERANT = {"MapDataset": _tolerant_map, "FilterDataset": _tolerant_filter,
             "BatchDatasetV2": _tolerant_batch, "TakeDataset": _tolerant_take,
             "PrefetchDataset": lambda plan, inputs, env: _tolerant(plan["input"], inputs, env)}
