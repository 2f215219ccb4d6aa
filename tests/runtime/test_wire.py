"""The wire format (sandbox/runtime/wire.py) and the frames that carry it on a socket
(sandbox/runtime/transport.py): round trips of every value type, zero-copy sending, and
malformed frames -- crafted and fuzzed -- that must raise FrameError, never crash, hang or
allocate what they declare. Real TCP sockets on 127.0.0.1 only."""
import contextlib
import json
import math
import os
import socket
import struct
import threading
import time
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import sandbox as tf
from sandbox.framework.tensor_shape import TensorShape
from sandbox.runtime import transport, wire
from sandbox.runtime.wire import FrameError

FAST = settings(max_examples=25, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


# -- helpers -----------------------------------------------------------------------------------
@pytest.fixture(autouse=True)
def _no_thread_left():
    before = set(threading.enumerate())
    yield
    deadline = time.monotonic() + 5
    while (extra := [t for t in threading.enumerate() if t not in before]) and \
            time.monotonic() < deadline:
        time.sleep(0.01)
    assert not extra, f"threads left behind: {extra}"


@contextlib.contextmanager
def tcp_pair(timeout=5.0):
    """Two connected TCP sockets on 127.0.0.1; every blocking call gives up after `timeout`,
    so a receiver that waits for bytes that never come fails the test instead of hanging."""
    with socket.create_server(("127.0.0.1", 0)) as server:
        a = socket.create_connection(server.getsockname())
        b, _ = server.accept()
    for s in (a, b):
        s.settimeout(timeout)
    try:
        yield a, b
    finally:
        a.close()
        b.close()


def receive_bytes(data, limits=wire.DEFAULT_LIMITS):
    """recv_message() on a socket whose peer wrote `data` and closed its side."""
    with tcp_pair() as (a, b):
        a.sendall(data)
        a.shutdown(socket.SHUT_WR)
        return transport.recv_message(b, limits)


def frame_bytes(obj):
    with tcp_pair() as (a, b):
        n = transport.send_message(a, obj)
        a.shutdown(socket.SHUT_WR)
        data = b""
        while chunk := b.recv(1 << 20):
            data += chunk
    assert len(data) == n == transport.message_nbytes(obj)
    return data


def raw_frame(header, buffers=(), *, magic=b"TFSB", version=1, flags=0, lengths=None,
              header_len=None, n_buffers=None):
    """A frame built by hand, with every field open to lies."""
    header = header if isinstance(header, bytes) else json.dumps(header).encode()
    lengths = [len(b) for b in buffers] if lengths is None else lengths
    prefix = struct.pack("<4sHHII", magic, version, flags,
                         len(header) if header_len is None else header_len,
                         len(lengths) if n_buffers is None else n_buffers)
    return prefix + struct.pack(f"<{len(lengths)}Q", *lengths) + header + b"".join(buffers)


def assert_same(x, y):
    """Equal values of the very same types (arrays: dtype, shape and bytes)."""
    assert type(x) is type(y), (x, y)
    if isinstance(x, np.ndarray):
        assert x.dtype == y.dtype and x.shape == y.shape
        if x.dtype.kind == "O":
            assert x.tolist() == y.tolist()
        else:
            assert np.ascontiguousarray(x).tobytes() == y.tobytes()
    elif isinstance(x, np.generic):
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes()
    elif isinstance(x, float):
        assert repr(x) == repr(y)                  # nan == nan, -0.0 != 0.0
    elif isinstance(x, (list, tuple)):
        assert len(x) == len(y)
        for a, b in zip(x, y):
            assert_same(a, b)
    elif isinstance(x, dict):
        assert list(x) == list(y)
        for k in x:
            assert_same(x[k], y[k])
    elif isinstance(x, TensorShape):
        assert x.as_tuple() == y.as_tuple()
    else:
        assert x == y


def round_trip(obj):
    """Through encode/decode in memory AND through a real socket; both must agree."""
    header, buffers = wire.encode(obj)
    assert_same(obj, wire.decode(header, [bytes(b) for b in buffers]))
    with tcp_pair() as (a, b):
        result = {}
        sender = threading.Thread(
            target=lambda: result.setdefault("n", transport.send_message(a, obj)))
        sender.start()
        received = transport.recv_message(b)
        sender.join()
    assert_same(obj, received)
    return received


# -- round trips -------------------------------------------------------------------------------
EXAMPLES = [
    None, True, False, 0, -7, 2**80, 1.5, float("nan"), float("-inf"), -0.0, "", "héllo ☃",
    "\ud800 lone surrogate", b"", b"\x00\xff bytes", [], {}, (), (1, "a"), [(1, 2), [3]],
    {"nested": {"list": [1, {"t": (None,)}]}},
    np.float32(1.5), np.float64(-2.0), np.int8(-3), np.uint16(7), np.int64(2**40),
    np.bool_(True), np.complex64(1 - 2j), np.float16(0.5), np.str_("ab"), np.bytes_(b"xy"),
    np.array(3.0), np.array(7, dtype=np.int32), np.array(True), np.zeros((0,), np.float32),
    np.zeros((3, 0, 2), np.int16), np.arange(12, dtype=np.float64).reshape(3, 4),
    np.array([1, 2], dtype=">i4"), np.array([1 + 1j], dtype=np.complex128),
    np.array([1.5, -3.0], tf.bfloat16.as_numpy_dtype), np.array([2**40], np.uint64),
    tf.bfloat16.as_numpy_dtype(0.25), np.uint32(7),
    np.array(["ab", "c"]), np.array([b"ab", b"c"]),
    np.array([b"a", b"bc", b""], dtype=object), np.array([[b"x"], [b"yz"]], dtype=object),
    np.array(b"scalar string", dtype=object), np.empty((0, 3), dtype=object),
    tf.float32, tf.float32_ref, tf.int64, tf.string, tf.bool, tf.uint8,
    TensorShape(None), TensorShape([]), TensorShape([None, 784]), TensorShape([2, 3]),
    {"__nd__": 1, "dtype": "<f4", "shape": [1]},      # a user dict that looks like a marker
    {"__tuple__": [1]}, {1: "int key", (2, "b"): "tuple key", None: 0, tf.float32: "dtype key"},
]


@pytest.mark.parametrize("value", EXAMPLES, ids=lambda v: type(v).__name__)
def test_round_trip_of_every_value_type(value):
    round_trip(value)
    round_trip({"value": value, "list": [value, (value,)]})


def test_non_contiguous_arrays_round_trip():
    base = np.arange(120, dtype=np.float32).reshape(4, 5, 6)
    for view in (base.T, base[:, ::2, 1:], base[::-1], np.asfortranarray(base), base[..., 3],
                 base[:0, ::2], np.broadcast_to(np.float64(1.0), (3, 4))):
        got = round_trip(view)
        np.testing.assert_array_equal(got, view)


def test_received_arrays_writable_from_socket_read_only_from_bytes():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    got = round_trip(a)
    assert got.flags.writeable and got.flags.c_contiguous
    got[0, 0] = 99                                  # does not touch the sender's array
    assert a[0, 0] == 0
    header, buffers = wire.encode(a)
    from_bytes = wire.decode(header, [bytes(b) for b in buffers])
    assert not from_bytes.flags.writeable
    np.testing.assert_array_equal(from_bytes, a)


@pytest.mark.parametrize("value, by_json", [
    ({"x": 1.5, "n": 2**63 - 1, "s": "héllo"}, False),
    ({"x": float("nan")}, True), ({"x": [float("-inf")]}, True), ({"n": 2**64}, True),
    ({"s": "\ud800 lone surrogate"}, True)])
def test_a_header_orjson_cannot_write_is_written_by_json_after_a_space(value, by_json):
    header, _ = wire.encode(value)
    if wire.orjson is None:
        pytest.skip("orjson is not installed: every header is written by json")
    assert header.startswith(b" ") == by_json
    round_trip(value)              # a big int stays an int, NaN stays NaN


@pytest.mark.parametrize("value", EXAMPLES[:40], ids=lambda v: type(v).__name__)
def test_round_trip_without_orjson(value, monkeypatch):
    with_orjson = wire.encode({"v": value})
    monkeypatch.setattr(wire, "orjson", None)  # Python's json both ways
    round_trip({"v": value})
    assert_same({"v": value}, wire.decode(with_orjson[0], [bytes(b) for b in with_orjson[1]]))


def test_arrays_are_received_into_their_own_memory_in_one_pass():
    """A frame of arrays only: each array is allocated where the header names it and the
    socket writes its bytes straight into it -- writable, aligned, no view of a bigger
    buffer. With a NumPy scalar the frame takes two passes and gives the same values."""
    arrays = {"a": np.arange(12, dtype=np.float32).reshape(3, 4), "b": np.array(True),
              "c": np.zeros((2, 0)), "d": np.array([1, 2], dtype=">i4")}
    got = round_trip(arrays)
    for name, value in got.items():
        assert value.flags.writeable and value.flags.owndata and value.flags.aligned, name
    mixed = dict(arrays, s=np.float32(2.5))
    assert_same(mixed, round_trip(mixed))


DTYPES = [np.dtype(t) for t in ("?", "i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f2",
                                 "f4", "f8", "c8", "c16", ">f8", ">i2", "<U3", "S4")]


def arrays_any():
    plain = st.sampled_from(DTYPES).flatmap(lambda dt: hnp.arrays(
        dt, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4)))
    # non-contiguous views: every other element along every axis, reversed
    strided = plain.map(lambda a: a[tuple(slice(None, None, -2) for _ in range(a.ndim))])
    strings = st.lists(st.binary(max_size=5), max_size=6).map(
        lambda items: np.array(items + [b"z"], dtype=object)[:-1])
    return st.one_of(plain, strided, strings, plain.map(lambda a: a.T))


def scalars_any():
    return st.sampled_from(DTYPES[:14]).flatmap(hnp.from_dtype).map(lambda x: x.dtype.type(x))


LEAVES = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=8),
    st.binary(max_size=8), arrays_any(), scalars_any(),
    st.sampled_from([tf.float32, tf.float64_ref, tf.int32, tf.string, tf.bool]),
    st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(0, 9)), max_size=3))
    .map(TensorShape))
KEYS = st.one_of(st.text(max_size=6), st.sampled_from(["__nd__", "__items__", "__tuple__"]),
                 st.integers(), st.tuples(st.integers(), st.text(max_size=3)))
MESSAGES = st.recursive(
    LEAVES, lambda kids: st.one_of(st.lists(kids, max_size=4),
                                   st.lists(kids, max_size=4).map(tuple),
                                   st.dictionaries(KEYS, kids, max_size=4),
                                   st.dictionaries(st.text(max_size=6), kids, max_size=4)),
    max_leaves=12)


@FAST
@given(MESSAGES)
def test_round_trip_random_nested_messages(message):
    round_trip(message)


# -- what cannot be sent -----------------------------------------------------------------------
@pytest.mark.parametrize("value", [
    {1, 2}, object(), np.array(["text"], dtype=object), np.array([1, 2], dtype=object),
    np.zeros(2, dtype=[("a", "<f4")]), np.zeros(2, dtype="V4"), np.array(["2020"], "M8[D]"),
    np.longdouble(1.0), np.void(b"ab"), lambda: 1, bytearray, memoryview(b"x")],
    ids=lambda v: type(v).__name__)
def test_unsendable_values_raise_type_error(value):
    with pytest.raises(TypeError, match="[Cc]annot send"):
        wire.encode({"x": [value]})


def test_self_reference_and_too_deep_raise_value_error():
    loop = []
    loop.append(loop)
    with pytest.raises(ValueError, match="nested deeper"):
        wire.encode(loop)
    deep = 0
    for _ in range(wire.MAX_DEPTH + 5):
        deep = [deep]
    with pytest.raises(ValueError, match="nested deeper"):
        wire.encode(deep)


def test_message_over_the_limits_is_refused_before_sending():
    small = wire.Limits(max_frame_bytes=1000, max_buffers=3, max_header_bytes=200)
    for too_big in (np.zeros(1000, np.uint8), [b"a"] * 4, "x" * 300):
        with tcp_pair() as (a, b):
            with pytest.raises(FrameError, match="to send"):
                transport.send_message(a, too_big, small)
            a.close()
            with pytest.raises(EOFError):            # not a byte went out
                transport.recv_message(b)


def test_large_array_is_sent_and_received_without_extra_copies():
    """64 MB go over a socket with ONE allocation of 64 MB in total: the receive buffer."""
    data = np.arange(16 * 2**20, dtype=np.uint32).view(np.float32)
    with tcp_pair() as (a, b):
        tracemalloc.start()
        try:
            sender = threading.Thread(target=transport.send_message, args=(a, {"w": data}))
            sender.start()
            got = transport.recv_message(b)["w"]
            sender.join()
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert np.array_equal(got.view(np.uint32), data.view(np.uint32))
    assert peak < 1.2 * data.nbytes, f"peak {peak / 2**20:.0f} MiB for a 64 MiB array"


# -- malformed frames --------------------------------------------------------------------------
GOOD = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "s": np.array([b"x", b"yz"],
        dtype=object), "t": (1, tf.float32_ref, TensorShape([None, 3])), "b": b"raw"}


def test_a_valid_raw_frame_decodes():
    assert_same(receive_bytes(frame_bytes(GOOD)), GOOD)
    frame = raw_frame({"__nd__": 0, "dtype": "<i2", "shape": [2]}, [b"\x01\x00\x02\x00"])
    assert receive_bytes(frame).tolist() == [1, 2]


def test_eof_before_a_frame_is_eof_error_and_in_a_frame_is_frame_error():
    with pytest.raises(EOFError):
        receive_bytes(b"")
    frame = frame_bytes(GOOD)
    for cut in sorted({1, 10, 15, 16, 17, 30, len(frame) // 2, len(frame) - 1}):
        with pytest.raises(FrameError, match="middle of a frame"):
            receive_bytes(frame[:cut])


ONE = [b"\x00" * 4]
BAD_FRAMES = {
    "magic": (raw_frame(1, magic=b"HTTP"), "does not start with"),
    "version": (raw_frame(1, version=2), "version"),
    "flags": (raw_frame(1, flags=1), "version"),
    "header too big": (raw_frame(1, header_len=2**32 - 1), "max_header_bytes"),
    "too many buffers": (raw_frame(1, n_buffers=2**32 - 1), "max_buffers"),
    "huge buffer": (raw_frame(1, lengths=[2**64 - 1]), "max_frame_bytes"),
    "frame too big": (raw_frame(1, lengths=[2**31] * 3), "max_frame_bytes"),
    "not json": (raw_frame(b"{not json"), "not valid JSON"),
    "not utf-8": (raw_frame(b'"\xff\xfe"'), "not valid JSON"),
    "too deep json": (raw_frame(b"[" * 100000 + b"]" * 100000), "JSON|nested"),
    "too deep": (raw_frame(b"[" * 200 + b"]" * 200), "nested deeper"),
    "huge int": (raw_frame(b"1" * 5000), "not valid JSON"),
    "object dtype": (raw_frame({"__nd__": 0, "dtype": "|O", "shape": [1]}, [b"\0" * 8]),
                     "not allowed"),
    "void dtype": (raw_frame({"__nd__": 0, "dtype": "|V4", "shape": [1]}, ONE), "not allowed"),
    "structured": (raw_frame({"__nd__": 0, "dtype": "[('a', '<f4')]", "shape": [1]}, ONE),
                   "not allowed"),
    "comma dtype": (raw_frame({"__nd__": 0, "dtype": "f4,i4", "shape": [1]}, ONE),
                    "not allowed"),
    "dtype not str": (raw_frame({"__nd__": 0, "dtype": 4, "shape": [1]}, ONE), "not allowed"),
    "long double": (raw_frame({"__nd__": 0, "dtype": "<f16", "shape": [1]}, [b"\0" * 16]),
                    "not allowed"),
    "negative dim": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [-1]}, ONE), "shape"),
    "bool dim": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [True]}, ONE), "shape"),
    "shape not list": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": 1}, ONE), "shape"),
    "too many dims": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [1] * 65}, ONE),
                      "shape"),
    "numpy cannot build": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [2**61, 2**61, 0]},
                                     [b""]),
                           "cannot build"),
    "length mismatch": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [2]}, ONE),
                        "has 4 bytes but its descriptor needs 8"),
    "no such buffer": (raw_frame({"__nd__": 1, "dtype": "<f4", "shape": [1]}, ONE),
                       "names buffer"),
    "index not int": (raw_frame({"__nd__": "0", "dtype": "<f4", "shape": [1]}, ONE),
                      "names buffer"),
    "buffer used twice": (raw_frame([{"__nd__": 0, "dtype": "<f4", "shape": [1]}] * 2, ONE),
                          "used twice"),
    "unused buffer": (raw_frame([1], ONE), "not used"),
    "extra key": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [1], "x": 1}, ONE),
                  "exactly the keys"),
    "two markers": (raw_frame({"__bytes__": 0, "__tuple__": []}, ONE), "several markers"),
    "scalar size": (raw_frame({"__scalar__": 0, "dtype": "<f8"}, ONE), "needs 8"),
    "strs count": (raw_frame({"__strs__": 0, "shape": [2], "lengths": [4]}, ONE),
                   "non-negative lengths"),
    "strs negative": (raw_frame({"__strs__": 0, "shape": [2], "lengths": [5, -1]}, ONE),
                      "non-negative lengths"),
    "strs total": (raw_frame({"__strs__": 0, "shape": [1], "lengths": [3]}, ONE), "needs 3"),
    "tuple not list": (raw_frame({"__tuple__": 1}), "must hold a list"),
    "items not pairs": (raw_frame({"__items__": [[1]]}), "pairs"),
    "unhashable key": (raw_frame({"__items__": [[[1], 2]]}), "not hashable"),
    "unknown dtype": (raw_frame({"__dtype__": "float33"}), "unknown tf.DType"),
    "alias dtype": (raw_frame({"__dtype__": "float"}), "unknown tf.DType"),
    "bad shape": (raw_frame({"__shape__": [-3]}), "bad TensorShape"),
    "lying 1 GiB buffer": (raw_frame({"__nd__": 0, "dtype": "<f4", "shape": [1]},
                                     lengths=[2**30]), "descriptor needs 4"),
}


@pytest.mark.parametrize("name", list(BAD_FRAMES))
def test_malformed_frame_raises_frame_error_before_allocating(name):
    frame, message = BAD_FRAMES[name]
    tracemalloc.start()
    try:
        with pytest.raises(FrameError, match=message):
            receive_bytes(frame)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20 + 4 * len(frame), f"{peak} bytes allocated"


# The decoder reads the [name, array] pairs of a step's tensor messages in a fast path of its
# own: every bad array descriptor must be refused there exactly as anywhere else.
BAD_ARRAYS = {
    "object dtype": ({"__nd__": 0, "dtype": "|O", "shape": [1]}, [b"\0" * 8], "not allowed"),
    "dtype not str": ({"__nd__": 0, "dtype": 4, "shape": [1]}, ONE, "not allowed"),
    "negative dim": ({"__nd__": 0, "dtype": "<f4", "shape": [-1]}, ONE, "shape"),
    "bool dim": ({"__nd__": 0, "dtype": "<f4", "shape": [True]}, ONE, "shape"),
    "shape not list": ({"__nd__": 0, "dtype": "<f4", "shape": 1}, ONE, "shape"),
    "length mismatch": ({"__nd__": 0, "dtype": "<f4", "shape": [2]}, ONE, "needs 8"),
    "no such buffer": ({"__nd__": 1, "dtype": "<f4", "shape": [1]}, ONE, "names buffer"),
    "index not int": ({"__nd__": "0", "dtype": "<f4", "shape": [1]}, ONE, "names buffer"),
    "extra key": ({"__nd__": 0, "dtype": "<f4", "shape": [1], "x": 1}, ONE, "exactly the keys"),
    "missing key": ({"__nd__": 0, "dtype": "<f4", "x": [1]}, ONE, "exactly the keys"),
}


@pytest.mark.parametrize("name", list(BAD_ARRAYS))
@pytest.mark.parametrize("where", ["alone", "in a pair", "in a message's items"])
def test_bad_array_descriptor_is_refused_wherever_it_is(name, where):
    descriptor, buffers, message = BAD_ARRAYS[name]
    header = {"alone": descriptor, "in a pair": [["w1/read:0", descriptor]],
              "in a message's items": {"method": "Tensors", "step_id": 7,
                                       "items": [["key;b1:0", descriptor]]}}[where]
    with pytest.raises(FrameError, match=message):
        receive_bytes(raw_frame(header, buffers))
    with pytest.raises(FrameError, match=message):
        wire.decode(json.dumps(header).encode(), buffers)


def test_a_buffer_named_twice_by_pairs_is_refused():
    pair = ["a", {"__nd__": 0, "dtype": "<f4", "shape": [1]}]
    with pytest.raises(FrameError, match="used twice"):
        receive_bytes(raw_frame([pair, pair], ONE))


def test_name_and_array_pairs_round_trip():
    base = np.arange(24, dtype=np.float32).reshape(4, 6)
    items = [["w1", base], ["w1^T", base.T], ["b", np.float32(2.5)], ["flag", np.bool_(True)],
             ["scalar0d", np.array(3, np.int64)], ["text", b"ab"], ["nested", [base, "x"]],
             ["strings", np.array([b"a", b"bc"], dtype=object)], ["empty", base[:0]],
             [1, 2.5], [], ["alone"]]
    round_trip({"method": "Tensors", "step_id": 2**62, "items": items})
    round_trip([["w1", base]])


def test_pairs_nested_to_the_depth_limit_are_checked():
    deep = ["w", {"__nd__": 0, "dtype": "<f4", "shape": [1]}]
    for _ in range(wire.MAX_DEPTH):
        deep = [deep]
    with pytest.raises(FrameError, match="nested deeper"):
        receive_bytes(raw_frame(deep, ONE))


def test_lying_frame_is_refused_without_waiting_for_its_bytes():
    """The receiver judges the frame on its header: it never waits for the declared gigabyte
    (the sending side keeps the connection open; tcp_pair's timeout would fail the test)."""
    for name in ("header too big", "huge buffer", "lying 1 GiB buffer", "too many buffers"):
        with tcp_pair(timeout=3) as (a, b):
            a.sendall(BAD_FRAMES[name][0])
            with pytest.raises(FrameError):
                transport.recv_message(b)


def test_limits_can_be_lowered():
    frame = frame_bytes(np.zeros(100, np.float64))
    with pytest.raises(FrameError, match="max_frame_bytes=500"):
        receive_bytes(frame, wire.Limits(max_frame_bytes=500))
    with pytest.raises(FrameError, match="max_buffers=0"):
        receive_bytes(frame, wire.Limits(max_buffers=0))
    with pytest.raises(FrameError, match="max_header_bytes=10"):
        receive_bytes(frame, wire.Limits(max_header_bytes=10))
    assert receive_bytes(frame, wire.Limits(max_frame_bytes=len(frame))).shape == (100,)


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"), reason="needs Linux's /proc")
def test_consistent_but_truncated_huge_frame_touches_little_memory():
    """A frame that promises 3 GiB and sends 10 bytes: the buffer is reserved, not touched."""
    frame = raw_frame({"__nd__": 0, "dtype": "|u1", "shape": [3 * 2**30]},
                      lengths=[3 * 2**30]) + b"0123456789"
    with open("/proc/self/statm") as f:
        before = int(f.read().split()[1])
    with pytest.raises(FrameError, match="middle of a frame"):
        receive_bytes(frame)
    with open("/proc/self/statm") as f:
        after = int(f.read().split()[1])
    assert (after - before) * 4096 < 256 * 2**20


# -- fuzzing: anything goes, nothing breaks ----------------------------------------------------
def check_garbage(data):
    """Any bytes at all: a value that can be sent again, or EOFError/FrameError -- nothing else,
    and never a hang (tcp_pair's timeouts turn a hang into a failure)."""
    try:
        value = receive_bytes(data)
    except (EOFError, FrameError):
        return
    wire.encode(value)


VALID = frame_bytes(GOOD)


@settings(max_examples=150, deadline=None)
@given(st.one_of(st.binary(max_size=200),
                 st.binary(max_size=200).map(lambda b: b"TFSB\x01\x00\x00\x00" + b)))
def test_fuzz_random_bytes(data):
    check_garbage(data)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(0, len(VALID) * 8 - 1), min_size=1, max_size=4))
def test_fuzz_bit_flips_of_a_valid_frame(bits):
    data = bytearray(VALID)
    for bit in bits:
        data[bit // 8] ^= 1 << bit % 8
    check_garbage(bytes(data))


@settings(max_examples=100, deadline=None)
@given(st.integers(0, len(VALID) - 1), st.binary(min_size=1, max_size=8),
       st.integers(0, len(VALID)))
def test_fuzz_overwritten_and_truncated_frames(at, junk, cut):
    data = bytearray(VALID)
    data[at:at + len(junk)] = junk
    check_garbage(bytes(data[:max(cut, at + len(junk))]))
    check_garbage(VALID[:cut])


@settings(max_examples=50, deadline=None)
@given(st.integers(0, 1 << 20), st.integers(0, 70000), st.lists(st.integers(0, 2**64 - 1),
                                                                max_size=3))
def test_fuzz_lying_length_fields(header_len, n_buffers, lengths):
    check_garbage(raw_frame(b'{"__nd__":0,"dtype":"<f4","shape":[1]}', [b"abcd"],
                            header_len=header_len, n_buffers=n_buffers, lengths=lengths))


JSON_TREES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(), st.text(max_size=4),
              st.sampled_from(["<f4", "|b1", "|O", "<U2", "float32", "[1]"])),
    lambda kids: st.one_of(
        st.lists(kids, max_size=3),
        st.dictionaries(st.sampled_from(["__nd__", "__scalar__", "__bytes__", "__strs__",
                                         "__tuple__", "__items__", "__dtype__", "__shape__",
                                         "dtype", "shape", "lengths", "x"]), kids, max_size=4)),
    max_leaves=10)


@settings(max_examples=200, deadline=None)
@given(JSON_TREES, st.lists(st.binary(max_size=9), max_size=3))
def test_fuzz_decode_of_random_descriptors(tree, buffers):
    """Random JSON made of the markers' own words: decode() returns a sendable value or raises
    FrameError."""
    try:
        value = wire.decode(json.dumps(tree).encode(), buffers)
    except FrameError:
        return
    wire.encode(value)


def test_fuzzers_cover_successes_too():
    """The fuzz checks would be empty if nothing ever decoded: a flip in a data byte does."""
    data = bytearray(VALID)
    data[-1] ^= 1                                  # last byte of b"raw"
    assert receive_bytes(bytes(data))["b"] == b"ra" + bytes([ord("w") ^ 1])
    assert math.isfinite(receive_bytes(frame_bytes(1.5)))


# -- reading frame after frame with read-ahead (FrameReader, as connections do) -----------

def test_frame_reader_reads_back_to_back_frames_of_every_size():
    """Small frames come in one recv (with part of the next); big buffers go straight into
    their arrays; nothing is lost or mixed up between frames."""
    rng = np.random.default_rng(0)
    sizes = [0, 1, 10, 100, 5000, 16000, 70000, 300000, 3, 65536 // 4, 2]
    messages = [{"i": i, "a": rng.standard_normal(n).astype(np.float32), "t": ("x",) * (i % 3)}
                for i, n in enumerate(sizes * 3)]
    a, b = socket.socketpair()
    with a, b:
        sender = threading.Thread(target=lambda: [transport.send_message(a, m) for m in messages])
        sender.start()
        reader = transport.FrameReader(b, readahead=65536)
        got = [reader.read() for _ in messages]
        sender.join()
        assert reader.buffered == 0
    for want, have in zip(messages, got):
        assert have["i"] == want["i"] and have["t"] == want["t"]
        np.testing.assert_array_equal(have["a"], want["a"])


def test_frame_ready_only_for_a_whole_frame():
    a, b = socket.socketpair()
    with a, b:
        reader = transport.FrameReader(b)
        assert not reader.frame_ready()                    # nothing yet
        header, buffers = wire.encode({"x": np.arange(10000, dtype=np.float32)})
        frame = struct.pack("<4sHHII", b"TFSB", 1, 0, len(header), len(buffers)) + \
            struct.pack(f"<{len(buffers)}Q", *[v.nbytes for v in buffers]) + header + \
            b"".join(bytes(v) for v in buffers)
        a.sendall(frame[:-10])
        time.sleep(0.05)
        assert not reader.frame_ready()                    # all but 10 bytes
        a.sendall(frame[-10:])
        time.sleep(0.05)
        assert reader.frame_ready()
        assert reader.read()["x"][-1] == 9999
        a.close()
        time.sleep(0.05)
        assert reader.frame_ready()                        # the end of the stream
        with pytest.raises(EOFError):
            reader.read()
