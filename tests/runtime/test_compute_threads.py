"""Compute threads per task (runtime/compute_threads.py): a server limits its process's BLAS
threads to its share of the cores, as ConfigProto.intra_op_parallelism_threads does in TF."""
import pytest
from threadpoolctl import threadpool_info

import sandbox as tf
from sandbox.runtime import compute_threads


def blas_threads():
    return [lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"]


@pytest.fixture
def no_thread_env(monkeypatch):
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.delenv(name, raising=False)


def test_local_tasks_counts_the_hosts_that_are_this_machine():
    hosts = ["localhost", "127.0.0.1", "::1", "10.1.2.3", "ps.example.com"]
    assert compute_threads.local_tasks(hosts) == 3


def test_share_is_the_cores_over_the_local_tasks(no_thread_env, monkeypatch):
    monkeypatch.setattr(compute_threads, "cores", lambda: 8)
    two_local = ["localhost", "localhost", "10.0.0.9"]
    assert compute_threads.share_for(two_local) == 4
    assert compute_threads.share_for(["localhost"] * 20) == 1
    assert compute_threads.share_for(two_local, requested=3) == 3


def test_a_number_in_the_environment_is_left_alone(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "2")
    assert compute_threads.share_for(["localhost", "localhost"]) is None
    assert compute_threads.share_for(["localhost"], requested=1) == 1   # asked explicitly


def test_the_least_share_holds_until_the_last_holder_releases():
    before = blas_threads()
    assert before, "NumPy's BLAS should be visible to threadpoolctl"
    a, b = object(), object()
    try:
        compute_threads.hold(a, 2)
        compute_threads.hold(b, 1)
        assert set(blas_threads()) == {1}
        compute_threads.release(b)
        assert set(blas_threads()) == {min(2, max(before))}
    finally:
        compute_threads.release(a)
        compute_threads.release(b)
    assert blas_threads() == before


def test_a_server_with_intra_op_threads_limits_its_process_while_it_runs():
    before = blas_threads()
    config = tf.ConfigProto(intra_op_parallelism_threads=1)
    server = tf.train.Server.create_local_server(config=config)
    try:
        assert set(blas_threads()) == {1}
        with tf.Session(server.target) as sess:          # and it still computes
            a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
            assert sess.run(tf.matmul(a, a)).tolist() == [[7.0, 10.0], [15.0, 22.0]]
    finally:
        server.stop()
    assert blas_threads() == before
