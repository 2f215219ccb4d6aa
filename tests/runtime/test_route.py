"""The route a student reads: which files one steady-state `sess.run(train_op)` of the seed job
crosses on the plain route (SANDBOX_FAST_PATHS=0), from Session.run to the ps and back --
the client, the worker's master and worker service and the ps all in this process, every
call profiled. The graph's own kernels (ops/math_ops.py...) and the framework's value types
(Tensor, dtypes) are the program's, not the route's, and are left aside.

    client/session.py          Session.run                        (TF: client/session.py)
    runtime/remote_session.py  RunStep to the master, called in    (TF: grpc_session.cc,
                               this very process                        local_master.cc)
    runtime/task_server.py     the server's one dispatcher, and    (TF: grpc_server_lib.cc,
                               its trace of what travelled              its tracing)
    runtime/master.py          the step's RunGraph calls           (TF: master_session.cc)
    runtime/worker.py          RunGraph: the task's pieces         (TF: worker.cc, graph_mgr.cc)
    runtime/executor.py        the piece, op by op                 (TF: executor.cc)
    runtime/rendezvous.py      _Send and _Recv, and where they     (TF: sendrecv_ops.cc,
                               meet                                     rendezvous.h)
    runtime/peers.py           connections to the other tasks      (TF: grpc_channel.cc)
    runtime/transport.py       one connection, frames on a socket  (TF: gRPC itself)
    runtime/wire.py            a message as a header + buffers     (TF: protocol buffers)

Ten files: the bar issue 26 set for the plain route.

On the default route, runtime/step_channels.py (the fast path) takes the place of the
threads that wait for RunGraph replies and of the pushes.
"""
import collections
import sys
import threading

import numpy as np
import pytest

import sandbox as tf
from bench.common import free_port
from bench.seed_job import build_seed_job

ROOT = str(__import__("pathlib").Path(tf.__file__).parent) + "/"
ROUTE = {"client/session.py", "runtime/remote_session.py", "runtime/task_server.py",
         "runtime/master.py", "runtime/worker.py", "runtime/executor.py",
         "runtime/rendezvous.py", "runtime/peers.py", "runtime/transport.py", "runtime/wire.py"}


def _files_of_one_step(monkeypatch, fast):
    monkeypatch.setenv("SANDBOX_FAST_PATHS", "1" if fast else "0")
    cluster = tf.train.ClusterSpec({"ps": [f"localhost:{free_port()}"],
                                    "worker": [f"localhost:{free_port()}"]})
    ps = tf.train.Server(cluster, job_name="ps", task_index=0)
    worker = tf.train.Server(cluster, job_name="worker", task_index=0)
    calls = collections.Counter()

    def profile(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.startswith(ROOT):
            calls[frame.f_code.co_filename[len(ROOT):]] += 1

    try:
        g = tf.Graph()
        with g.as_default():
            x, y_, loss, train_op, init = build_seed_job(tf)
        feed = {x: np.zeros((100, 784), np.float32), y_: np.zeros((100, 10), np.float32)}
        with tf.Session(worker.target, graph=g) as sess:
            sess.run(init)
            for _ in range(10):                       # steady state: planned, registered
                sess.run([train_op, loss], feed)
            threading.setprofile(profile)
            sys.setprofile(profile)
            try:
                sess.run([train_op, loss], feed)
            finally:
                sys.setprofile(None)
                threading.setprofile(None)
    finally:
        worker.stop()
        ps.stop()
    return {f for f in calls if f.startswith(("client/", "runtime/"))}


def test_the_plain_route_crosses_the_files_a_student_reads(monkeypatch):
    files = _files_of_one_step(monkeypatch, fast=False)
    assert files == ROUTE
    assert len(files) <= 10


def test_the_fast_path_is_one_more_file_on_the_same_route(monkeypatch):
    assert _files_of_one_step(monkeypatch, fast=True) == ROUTE | {"runtime/step_channels.py"}
