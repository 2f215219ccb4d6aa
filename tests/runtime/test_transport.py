"""Authenticated connections and the threaded server (sandbox/runtime/transport.py; the secret
and the handshake: sandbox/runtime/cluster_secret.py), over real TCP sockets on 127.0.0.1:
round trips, a 300 MB tensor, the handshake refusing wrong secrets, silent peers and garbage,
fuzzed frames that never take the server down, and stop() leaving no thread and no open port
behind."""
import logging
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

import sandbox as tf
from sandbox.runtime import cluster_secret, transport, wire
from sandbox.runtime.cluster_secret import AuthenticationError
from sandbox.runtime.transport import NO_REPLY

SECRET = b"test-secret-of-the-cluster"
SHARED = settings(max_examples=40, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])


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


def assert_port_closed(address):
    with pytest.raises(ConnectionRefusedError):
        socket.create_connection(address, timeout=2).close()


def echo(conn, message):
    if isinstance(message, str) and message == "boom":
        raise RuntimeError("the handler failed")
    return message


@pytest.fixture
def server():
    """An echo server; at the end it must stop cleanly and free its port."""
    srv = transport.serve(transport.Listener(secret=SECRET, handshake_timeout=0.5), echo,
                          name="test-server")
    yield srv
    assert srv.stop(timeout=5)
    assert_port_closed(srv.address)


def client(address, secret=SECRET):
    return transport.connect(address, secret, timeout=5)


def raw_socket(address, timeout=5):
    s = socket.create_connection(address, timeout=timeout)
    s.settimeout(timeout)
    return s


def read_until_closed(sock):
    """Everything the server sends until it closes (timeout -> the test fails)."""
    data = b""
    try:
        while chunk := sock.recv(1 << 16):
            data += chunk
    except ConnectionResetError:
        pass
    return data


def wait_for(condition, timeout=3):
    """The server logs after it hangs up: give its thread a moment."""
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        time.sleep(0.01)
    return condition()


def assert_serving(address):
    with client(address) as c:
        assert c.send({"ping": np.arange(3)}) > 0
        assert c.recv(timeout=5)["ping"].tolist() == [0, 1, 2]


# -- messages ----------------------------------------------------------------------------------
VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False),
              st.text(max_size=5), st.binary(max_size=5),
              st.sampled_from([tf.float32, tf.int64_ref, tf.TensorShape([None, 2]),
                               tf.TensorShape(None), np.float32(2.5), np.int64(-1),
                               np.array([b"a", b"bc"], dtype=object)]),
              st.builds(lambda n, dt: (np.arange(n) % 3).astype(dt).reshape(n, 1)[::-1],
                        st.integers(0, 5), st.sampled_from(["f4", "i2", "u1", "f8", "?"]))),
    lambda kids: st.one_of(st.lists(kids, max_size=3), st.lists(kids, max_size=3).map(tuple),
                           st.dictionaries(st.text(max_size=4), kids, max_size=3)),
    max_leaves=8)


def same(x, y):
    if isinstance(x, np.ndarray):
        return type(y) is np.ndarray and x.dtype == y.dtype and x.shape == y.shape and \
            x.tolist() == y.tolist()
    if isinstance(x, (list, tuple)):
        return type(x) is type(y) and len(x) == len(y) and all(map(same, x, y))
    if isinstance(x, dict):
        return type(y) is dict and list(x) == list(y) and all(same(x[k], y[k]) for k in x)
    return type(x) is type(y) and x == y


def test_round_trips_through_a_served_connection(server):
    with client(server.address) as c:
        assert c.peer == server.address
        @SHARED
        @given(VALUES)
        def check(message):
            c.send(message)
            assert same(message, c.recv(timeout=5))
        check()


def test_300_mb_tensor_round_trip(server):
    n = 75_000_000                                 # 300 MB of float32, every word distinct
    big = np.arange(n, dtype=np.uint32).view(np.float32)
    start = time.monotonic()
    with client(server.address) as c:
        sent = c.send({"w": big, "step": 7})
        reply = c.recv(timeout=30)
    elapsed = time.monotonic() - start
    got = reply["w"]
    assert sent > big.nbytes and reply["step"] == 7
    assert got.dtype == np.float32 and got.shape == (n,)
    words = got.view(np.uint32)
    for part in (slice(0, 1000), slice(n // 2, n // 2 + 1000), slice(n - 1000, n)):
        np.testing.assert_array_equal(words[part], np.arange(n, dtype=np.uint32)[part])
    assert int(words[::997].sum(dtype=np.uint64)) == int(np.arange(0, n, 997).sum())
    assert elapsed < 10, f"300 MB round trip took {elapsed:.1f} s"


def test_concurrent_sends_on_one_connection_keep_frames_whole():
    counts = []

    def handler(conn, message):
        if message == "count?":
            return len(counts)
        counts.append(message["i"])
        assert message["x"].shape == (1000,)
        return NO_REPLY

    srv = transport.serve(transport.Listener(secret=SECRET), handler)
    try:
        with client(srv.address) as c:
            def sender(k):
                for i in range(50):
                    c.send({"i": k * 100 + i, "x": np.full(1000, k, np.float32)})
            threads = [threading.Thread(target=sender, args=(k,)) for k in range(4)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            c.send("count?")
            assert c.recv(timeout=5) == 200
        assert sorted(counts) == sorted(k * 100 + i for k in range(4) for i in range(50))
    finally:
        assert srv.stop()
    assert_port_closed(srv.address)


def test_recv_timeout_leaves_the_connection_usable(server):
    with client(server.address) as c:
        start = time.monotonic()
        with pytest.raises(TimeoutError, match="within 0.2 s"):
            c.recv(timeout=0.2)
        assert 0.15 < time.monotonic() - start < 2
        c.send("still here")
        assert c.recv(timeout=5) == "still here"
    assert c.closed
    with pytest.raises(OSError, match="closed"):
        c.send(1)


def test_handler_error_closes_only_that_connection(server, caplog):
    with client(server.address) as good, client(server.address) as bad:
        bad.send("boom")
        with pytest.raises(EOFError):
            bad.recv(timeout=5)
        assert bad.closed
        good.send("fine")
        assert good.recv(timeout=5) == "fine"
    assert wait_for(lambda: "the handler failed" in caplog.text)


def test_unsendable_reply_closes_that_connection(caplog):
    srv = transport.serve(transport.Listener(secret=SECRET), lambda conn, m: {1, 2})
    try:
        with client(srv.address) as c:
            c.send("x")
            with pytest.raises(EOFError):
                c.recv(timeout=5)
        assert wait_for(lambda: "Cannot send a value of type set" in caplog.text)
    finally:
        assert srv.stop()


def test_sending_an_unsendable_value_raises_and_keeps_the_connection(server):
    with client(server.address) as c:
        with pytest.raises(TypeError, match="Cannot send"):
            c.send({"f": print})
        assert not c.closed
        c.send("ok")
        assert c.recv(timeout=5) == "ok"


# -- authentication ----------------------------------------------------------------------------
def test_wrong_secret_is_refused_and_the_server_keeps_serving(server, caplog):
    caplog.set_level(logging.WARNING, logger="sandbox.runtime.transport")
    with client(server.address) as already_connected:
        for _ in range(3):
            with pytest.raises(AuthenticationError) as info:
                client(server.address, secret=b"another secret")
            assert "cluster secret did not match" in str(info.value)
            assert "SANDBOX_CLUSTER_SECRET" in str(info.value)
        already_connected.send("after the intruders")
        assert already_connected.recv(timeout=5) == "after the intruders"
    assert_serving(server.address)
    assert wait_for(lambda: caplog.text.count(
        "failed the handshake: the cluster secret did not match") == 3)


def test_both_sides_raise_on_a_secret_mismatch():
    with transport.Listener(secret=SECRET) as listener:
        errors = []

        def connect_badly():
            try:
                client(listener.address, secret=b"wrong")
            except AuthenticationError as e:
                errors.append(e)

        t = threading.Thread(target=connect_badly)
        t.start()
        with pytest.raises(AuthenticationError, match="cluster secret did not match"):
            listener.accept()
        t.join()
        assert len(errors) == 1 and isinstance(errors[0], ConnectionError)

        # and the right secret is accepted by the very same listener
        t = threading.Thread(target=lambda: errors.append(client(listener.address)))
        t.start()
        conn = listener.accept()
        t.join()
        errors[1].send({"hello": (1, 2)})
        assert conn.recv(timeout=5) == {"hello": (1, 2)}
        conn.close()
        errors[1].close()


def test_client_checks_the_server_too():
    """A fake server that welcomes anyone but cannot answer the client's challenge."""
    with socket.create_server(("127.0.0.1", 0)) as fake:
        seen = []

        def impostor():
            sock, _ = fake.accept()
            with sock:
                sock.sendall(b"CHAL" + os.urandom(32))
                sock.recv(36)
                sock.sendall(b"WELC")
                sock.recv(36)                          # the client's challenge
                sock.sendall(b"ANSW" + os.urandom(32))  # a guess
                seen.append(sock.recv(4))

        t = threading.Thread(target=impostor)
        t.start()
        with pytest.raises(AuthenticationError, match="cluster secret did not match"):
            client(fake.getsockname())
        t.join()
        assert seen == [b"FAIL"]


def test_silent_peer_cannot_hold_the_server(server, caplog):
    caplog.set_level(logging.WARNING, logger="sandbox.runtime.transport")
    silent = raw_socket(server.address)
    assert silent.recv(36, socket.MSG_WAITALL)[:4] == b"CHAL"    # challenged; we say nothing
    start = time.monotonic()
    assert_serving(server.address)                     # others are served meanwhile
    assert time.monotonic() - start < 0.4
    assert read_until_closed(silent) == b""            # dropped after handshake_timeout=0.5 s
    assert time.monotonic() - start < 3
    silent.close()
    assert wait_for(lambda: "did not complete the handshake within 0.5 s" in caplog.text)


def test_client_without_handshake_at_all_is_refused(server):
    """A client that sends a payload frame straight away never has it read."""
    s = raw_socket(server.address)
    s.sendall(b"TFSB" + os.urandom(200))
    read_until_closed(s)
    s.close()
    assert_serving(server.address)


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(garbage=st.binary(min_size=1, max_size=300))
def test_garbage_handshake_is_refused(server, garbage):
    s = raw_socket(server.address)
    try:
        s.sendall(garbage)
        s.shutdown(socket.SHUT_WR)
        read_until_closed(s)
    except (BrokenPipeError, ConnectionResetError):
        pass
    finally:
        s.close()
    assert_serving(server.address)


def test_connect_to_nothing_names_the_address():
    with socket.create_server(("127.0.0.1", 0)) as s:
        address = s.getsockname()
    with pytest.raises(ConnectionRefusedError, match=f"127.0.0.1:{address[1]}"):
        transport.connect(address, SECRET, timeout=2)


def test_connecting_to_a_non_sandbox_server_fails_cleanly():
    with socket.create_server(("127.0.0.1", 0)) as fake:
        def http_server():
            sock, _ = fake.accept()
            with sock:
                sock.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n" + b"x" * 20)
                time.sleep(0.2)
        t = threading.Thread(target=http_server)
        t.start()
        with pytest.raises(AuthenticationError, match="did not start the sandbox handshake"):
            client(fake.getsockname())
        t.join()


# -- fuzzed frames after a good handshake ------------------------------------------------------
def frame_of(message):
    header, buffers = wire.encode(message)
    lengths = [b.nbytes for b in buffers]
    return struct.pack(f"<4sHHII{len(lengths)}Q", b"TFSB", 1, 0, len(header), len(lengths),
                       *lengths) + header + b"".join(buffers)


VALID = frame_of({"x": np.arange(4, dtype=np.float32), "t": (b"ab", None), "d": tf.float32_ref})


def send_raw_after_handshake(address, data, close_write=True):
    """An authenticated client that then sends raw bytes; returns what the server answered."""
    c = client(address)
    sock = c._sock
    sock.settimeout(5)
    try:
        try:
            sock.sendall(data)
            if close_write:
                sock.shutdown(socket.SHUT_WR)
        except (BrokenPipeError, ConnectionResetError, OSError) as e:
            if isinstance(e, TimeoutError):
                raise
            return b""                             # the server hung up first: fine
        return read_until_closed(sock)
    finally:
        c.close()


def mutate(frame, flips, cut):
    data = bytearray(frame)
    for bit in flips:
        data[bit // 8 % len(data)] ^= 1 << bit % 8
    return bytes(data[:cut])


FUZZ = st.one_of(
    st.binary(max_size=300),
    st.binary(max_size=300).map(lambda b: b"TFSB\x01\x00\x00\x00" + b),
    st.builds(lambda flips, cut: mutate(VALID, flips, cut),
              st.lists(st.integers(0, 10**6), min_size=1, max_size=3), st.integers(1, 400)),
    st.builds(lambda hl, nb, lengths: struct.pack("<4sHHII", b"TFSB", 1, 0, hl, nb) +
              struct.pack(f"<{len(lengths)}Q", *lengths) + b'{"__nd__":0}',
              st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1),
              st.lists(st.integers(0, 2**64 - 1), max_size=3)))


def test_fuzzed_frames_never_take_the_server_down(server, caplog):
    caplog.set_level(logging.DEBUG, logger="sandbox.runtime.transport")
    with client(server.address) as bystander:
        @settings(max_examples=60, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture,
                                         HealthCheck.too_slow])
        @given(FUZZ)
        def check(data):
            start = time.monotonic()
            send_raw_after_handshake(server.address, data)
            assert time.monotonic() - start < 5
        check()
        bystander.send("still served")
        assert bystander.recv(timeout=5) == "still served"
    assert_serving(server.address)
    assert "error while serving" not in caplog.text      # only clean refusals, no crashes
    assert "malformed frame" in caplog.text


LIE = b'{"__nd__":0,"dtype":"<f4","shape":[1]}'                           # ... for 4 bytes


def test_huge_declared_sizes_are_refused_at_once_without_allocating(server):
    """The connection stays open on our side: the server must judge the header and hang up
    without waiting for (or allocating) the gigabytes it declares."""
    lies = [
        struct.pack("<4sHHII", b"TFSB", 1, 0, 2**32 - 1, 0),                 # header 4 GiB
        struct.pack("<4sHHII", b"TFSB", 1, 0, 2, 2**32 - 1),                 # 4 G buffers
        struct.pack("<4sHHIIQ", b"TFSB", 1, 0, 1, 1, 2**63) + b"1",          # 8 EiB buffer
        struct.pack("<4sHHIIQ", b"TFSB", 1, 0, len(LIE), 1, 2**31) + LIE,   # 2 GiB buffer
    ]
    tracemalloc.start()
    try:
        for lie in lies:
            start = time.monotonic()
            assert send_raw_after_handshake(server.address, lie, close_write=False) == b""
            assert time.monotonic() - start < 3
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 32 * 2**20, f"{peak / 2**20:.0f} MiB allocated"
    assert_serving(server.address)


def test_server_limits_apply_to_its_connections():
    listener = transport.Listener(secret=SECRET, limits=wire.Limits(max_frame_bytes=10_000))
    srv = transport.serve(listener, echo)
    try:
        with client(srv.address) as c:
            c.send(np.zeros(100))
            assert c.recv(timeout=5).shape == (100,)
            c.send(np.zeros(10_000))
            with pytest.raises(EOFError):
                c.recv(timeout=5)
    finally:
        assert srv.stop()


# -- stop(), addresses, secrets ----------------------------------------------------------------
def test_stop_closes_listener_connections_and_threads_promptly():
    srv = transport.serve(transport.Listener(secret=SECRET), echo, name="stopping")
    idle = client(srv.address)
    busy = client(srv.address)
    busy.send("hello")
    assert busy.recv(timeout=5) == "hello"
    silent = raw_socket(srv.address)                 # stuck in the handshake (10 s limit)
    assert silent.recv(36, socket.MSG_WAITALL)[:4] == b"CHAL"
    time.sleep(0.05)
    assert sum(t.name.startswith("stopping") for t in threading.enumerate()) == 4
    start = time.monotonic()
    assert srv.stop(timeout=5)
    assert time.monotonic() - start < 1
    assert not [t for t in threading.enumerate() if t.name.startswith("stopping")]
    with pytest.raises(EOFError):
        idle.recv(timeout=5)
    assert read_until_closed(silent) == b""
    assert_port_closed(srv.address)
    assert srv.stop()                                 # twice is fine
    for s in (idle, busy, silent):
        s.close()


def test_listener_on_localhost_is_loopback_and_busy_port_names_address():
    with transport.Listener(("localhost", 0), SECRET) as listener:
        host, port = listener.address
        assert host == "127.0.0.1"
        with pytest.raises(OSError, match=f"cannot listen on 127.0.0.1:{port}") as info:
            transport.Listener(("127.0.0.1", port), SECRET)
        assert info.value.errno is not None
    assert_port_closed((host, port))
    transport.Listener(("127.0.0.1", port), SECRET).close()   # free again


def test_secrets(tmp_path, monkeypatch):
    a, b = cluster_secret.make_secret(), cluster_secret.make_secret()
    assert len(a) == 32 and a != b and bytes.fromhex(a.hex()) == a
    assert cluster_secret.parse_secret(a.hex()) == a
    assert cluster_secret.parse_secret("  my password \n") == b"my password"
    assert cluster_secret.parse_secret("abcd") == b"abcd"        # short hex is text
    with pytest.raises(ValueError, match="empty"):
        cluster_secret.parse_secret("  ")
    (tmp_path / "secret").write_text(a.hex() + "\n")
    assert cluster_secret.secret_from_file(tmp_path / "secret") == a

    monkeypatch.delenv(cluster_secret.SECRET_ENV, raising=False)
    assert cluster_secret.secret_from_env() is None
    with pytest.raises(ValueError, match="SANDBOX_CLUSTER_SECRET"):
        transport.Listener(secret=None)
    monkeypatch.setenv(cluster_secret.SECRET_ENV, a.hex())
    assert cluster_secret.secret_from_env() == a
    with transport.Listener() as listener:               # secret from the environment
        t = threading.Thread(target=lambda: transport.connect(listener.address, a).close())
        t.start()
        listener.accept().close()
        t.join()
        t = threading.Thread(target=lambda: pytest.raises(
            AuthenticationError, transport.connect, listener.address, "text secret"))
        t.start()
        with pytest.raises(AuthenticationError):
            listener.accept()
        t.join()


def test_a_handler_may_stop_its_own_server():
    box = {}

    def handler(conn, message):
        box["stopped"] = box["server"].stop(timeout=2)
        return "bye"

    box["server"] = srv = transport.serve(transport.Listener(secret=SECRET), handler)
    with client(srv.address) as c:
        c.send("stop, please")
        with pytest.raises(EOFError):                 # the reply could not go out any more
            c.recv(timeout=5)
    assert wait_for(lambda: "stopped" in box) and box["stopped"]
    assert_port_closed(srv.address)
