"""Step channels (runtime/step_channels.py) on real sockets: the connection of a RunGraph call
carries the step's tensors both ways, read by whichever thread waits."""
import gc
import os
import threading

import numpy as np
import pytest

from bench.common import free_port
from sandbox.framework import errors
from sandbox.runtime import step_channels, transport
from sandbox.runtime.step_channels import CHANNEL_MAX_BYTES, Channel, StepPump

SECRET = b"s" * 32


@pytest.fixture
def connected_pair():
    listener = transport.Listener(("127.0.0.1", 0), SECRET)
    accepted = []
    t = threading.Thread(target=lambda: accepted.append(listener.accept()))
    t.start()
    client = transport.connect(listener.address, SECRET)
    t.join(10)
    yield client, accepted[0]
    client.close()
    accepted[0].close()
    listener.close()


@pytest.fixture
def ps_and_worker():
    """A ps and a worker server, both in this process (as in seed 000)."""
    import sandbox as tf
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    worker = tf.train.Server(cluster, job_name="worker", task_index=0)
    yield ps, worker
    worker.stop()
    ps.stop()


def _tensors(step_id, key, value):
    return {"method": "Tensors", "step_id": step_id, "one_way": True, "items": [[key, value]]}


def test_two_sides_writing_to_each_other_at_once_never_block_each_other(connected_pair):
    """Both sides write 64 MB before they read -- far more than the socket buffers hold --
    as messages of the size a channel takes. A side that finds its socket full reads the
    whole messages waiting for it, so neither waits forever for the other."""
    a_conn, b_conn = connected_pair
    size = min(CHANNEL_MAX_BYTES, a_conn.receive_buffer_bytes() // 8) // 8   # float32s
    count = 64 * 2**20 // (4 * size)
    results, errors_seen = {}, []

    def side(name, conn, peer, fill):
        got = []
        pump = StepPump(7, [Channel(peer, conn)], deliver=lambda src, m: got.append(m),
                        on_failure=lambda task, e: errors_seen.append(e))
        try:
            for i in range(count):
                value = np.full(size, fill + i, np.float32)
                assert pump.takes(peer, value.nbytes + 100)
                pump.send(peer, _tensors(7, f"{name}->{peer} {i}", value))
            while len(got) < count and not errors_seen:
                assert pump.try_claim()
                try:
                    pump.pump(0.5)
                finally:
                    pump.release()
            results[name] = [m["items"][0] for m in got]
        finally:
            pump.close()

    threads = [threading.Thread(target=side, args=("a", a_conn, "b", 1000.0), daemon=True),
               threading.Thread(target=side, args=("b", b_conn, "a", 2000.0), daemon=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    stuck = [t for t in threads if t.is_alive()]
    if stuck:                                   # unblock them before failing
        a_conn.close()
        b_conn.close()
    assert not stuck, "the two sides blocked each other"
    assert not errors_seen
    for name, peer, fill in (("a", "b", 2000.0), ("b", "a", 1000.0)):
        items = results[name]
        assert [key for key, _ in items] == [f"{peer}->{name} {i}" for i in range(count)]
        assert all(v.shape == (size,) and v[-1] == fill + i for i, (_, v) in enumerate(items))


def test_a_message_bigger_than_a_channel_takes_is_refused(connected_pair):
    a_conn, _ = connected_pair
    pump = StepPump(8, [Channel("ps", a_conn)], deliver=lambda src, m: None)
    try:
        assert pump.takes("ps", 1000)
        assert not pump.takes("ps", CHANNEL_MAX_BYTES + 1)
        assert not pump.takes("worker", 1000)            # no channel to that task
    finally:
        pump.close()


def test_reply_and_tensors_are_told_apart_and_a_closed_channel_fails(connected_pair):
    a_conn, b_conn = connected_pair
    delivered, replies, failures = [], [], []
    pump = StepPump(9, [Channel("ps", a_conn)], deliver=lambda src, m: delivered.append(src),
                    on_reply=lambda task, r: replies.append((task, r)),
                    on_failure=lambda task, e: failures.append((task, e)))
    try:
        b_conn.send(_tensors(9, "k", np.ones(3, np.float32)))
        b_conn.send({"ok": [{}, []]})
        assert pump.try_claim()
        while not replies:
            pump.pump(1.0)
        assert delivered == ["ps"] and replies == [("ps", {"ok": [{}, []]})]
        assert pump.all_replied()
        pump.release()
    finally:
        pump.close()
    pump = StepPump(10, [Channel("ps", a_conn)], deliver=delivered.append,
                    on_reply=lambda task, r: replies.append(r),
                    on_failure=lambda task, e: failures.append((task, e)))
    try:
        b_conn.close()                          # the task at the other end died
        pump.try_claim()
        while not failures:
            pump.pump(1.0)
        task, error = failures[0]
        assert task == "ps" and isinstance(error, errors.UnavailableError)
        assert "step 10" in error.message and pump.all_replied()
    finally:
        pump.release()
        pump.close()


def test_wake_interrupts_a_waiting_reader(connected_pair):
    a_conn, _ = connected_pair
    pump = StepPump(11, [Channel("ps", a_conn)], deliver=lambda src, m: None)
    try:
        threading.Timer(0.2, pump.wake).start()
        pump.try_claim()
        done = threading.Event()
        t = threading.Thread(target=lambda: (pump.pump(30), done.set()), daemon=True)
        t.start()
        assert done.wait(10), "wake() did not interrupt pump()"
    finally:
        pump.release()
        pump.close()


def _open_sockets():
    """The sockets this process holds open, as 'socket:[inode]' (inodes are never reused
    while a socket is open, unlike descriptor numbers)."""
    links = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            links.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return {link for link in links if link.startswith("socket:[")}


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads Linux's /proc")
def test_a_threads_waker_is_closed_when_the_thread_ends(connected_pair):
    """Each thread that waits in steps has one waker (a socket pair), closed when the thread
    ends: after 6 steps at once in 6 threads, none of their 6 wakers is still open (a pool of
    wakers would keep all 6 pairs: a soak run would see its sockets grow)."""
    conn, _ = connected_pair
    all_in = threading.Barrier(6)
    wakers = []

    def step(i):
        pump = StepPump(100 + i, [Channel("peer", conn)], deliver=lambda src, m: None)
        try:
            wakers.append(os.readlink(f"/proc/self/fd/{pump._waker.r.fileno()}"))
            all_in.wait(10)                 # six pumps alive at once
        finally:
            pump.close()

    threads = [threading.Thread(target=step, args=(i,)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    gc.collect()
    assert len(set(wakers)) == 6            # one waker per thread
    assert not set(wakers) & _open_sockets()


def test_a_steps_tensors_ride_on_its_rungraph_calls(monkeypatch, ps_and_worker):
    """The seam: on the fast path, the parameters the ps sends the master's task and the
    gradients it gets back travel on the RunGraph call's connection (no separate push), each
    task's sends as one message; on the plain route each tensor is pushed on its own."""
    import sandbox as tf
    from sandbox.runtime.peers import Peers
    pushed = []
    real_push = Peers.push
    monkeypatch.setattr(Peers, "push", lambda self, task, message: (
        pushed.append((self.owner, task, len(message["items"]))),
        real_push(self, task, message))[1])
    _, worker = ps_and_worker
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            a, b = tf.Variable(3.0, name="a"), tf.Variable(4.0, name="b")
        with tf.device("/job:worker/task:0"):
            total = a * b + 1.0
        with tf.device("/job:ps/task:0"):
            update = tf.assign_add(a, total)
    with tf.Session(worker.target, graph=g) as sess:
        sess.run([a.initializer, b.initializer])
        pushed.clear()
        sess.run(update)
    if step_channels.enabled():
        assert pushed == []         # a and b went to the worker and total came back, all on
    else:                           # the channel of the step's RunGraph call
        assert sorted(pushed) == [("/job:ps/replica:0/task:0", "/job:worker/replica:0/task:0",
                                   1)] * 2 + [("/job:worker/replica:0/task:0",
                                               "/job:ps/replica:0/task:0", 1)]
