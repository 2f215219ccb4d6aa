"""Launching tasks: the command line, TF_CONFIG, LocalCluster lifetime (stop, parent death,
ports released), a stoppable join(), and a server that survives bad requests."""
import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import sandbox as tf
from bench.common import free_port
from sandbox.cluster import LocalCluster
from sandbox.runtime import cluster_secret
from tests.waiting import wait_until

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECRET = "0123456789abcdef0123456789abcdef0123456789abcdef"


def port_is_free(port):
    """Nobody listens there any more: a new server could bind it (as servers do, with
    SO_REUSEADDR; closed connections may linger in TIME_WAIT)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _env(**extra):
    env = dict(os.environ, PYTHONPATH=REPO, SANDBOX_CLUSTER_SECRET=SECRET)
    env.update(extra)
    return env


def _start_task(args, env):
    proc = subprocess.Popen([sys.executable, "-m", "sandbox", "task", *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    line = proc.stdout.readline()
    assert "Started" in line, line + proc.stdout.read()
    return proc, line


def test_command_line_task_serves_and_stops(monkeypatch):
    port = free_port()
    cluster = json.dumps({"ps": [f"localhost:{port}"]})
    proc, line = _start_task(["--cluster", cluster, "--job_name", "ps", "--task_index", "0"],
                             _env())
    try:
        assert f"/job:ps/replica:0/task:0 at localhost:{port}" in line
        monkeypatch.setenv("SANDBOX_CLUSTER_SECRET", SECRET)
        with tf.Session(f"grpc://localhost:{port}") as sess:
            assert sess.run(tf.constant(2.0) * 21.0) == 42.0
    finally:
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=10)
    assert proc.returncode == 0 and "Stopped" in out
    assert wait_until(lambda: port_is_free(port))


def test_command_line_reads_tf_config(monkeypatch, tmp_path):
    ports = [free_port(), free_port()]
    tf_config = {"cluster": {"chief": [f"localhost:{ports[0]}"],
                             "ps": [f"localhost:{ports[1]}"]},
                 "task": {"type": "ps", "index": 0}}
    proc, line = _start_task([], _env(TF_CONFIG=json.dumps(tf_config)))
    try:
        assert f"/job:ps/replica:0/task:0 at localhost:{ports[1]}" in line
    finally:
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=10)
    # a cluster file and a secret file work too
    spec_file = tmp_path / "cluster.json"
    spec_file.write_text(json.dumps({"worker": [f"localhost:{ports[0]}"]}))
    secret_file = tmp_path / "secret"
    secret_file.write_text(SECRET)
    proc, line = _start_task(["--cluster", str(spec_file), "--job_name", "worker",
                              "--task_index", "0", "--secret-file", str(secret_file)],
                             _env(SANDBOX_CLUSTER_SECRET=""))
    proc.send_signal(signal.SIGTERM)
    proc.communicate(timeout=10)
    assert proc.returncode == 0


def test_command_line_bad_input_says_what_is_wrong():
    out = subprocess.run([sys.executable, "-m", "sandbox", "task", "--cluster", "{not json",
                          "--job_name", "ps", "--task_index", "0"], env=_env(),
                         capture_output=True, text=True, timeout=30)
    assert out.returncode != 0 and "--cluster must be JSON" in out.stderr
    out = subprocess.run([sys.executable, "-m", "sandbox", "task", "--cluster",
                          '{"ps": ["localhost"]}', "--job_name", "ps", "--task_index", "0"],
                         env=_env(), capture_output=True, text=True, timeout=30)
    assert out.returncode != 0 and \
        'Could not parse port for local server from "localhost"' in (out.stderr + out.stdout)


def test_local_cluster_close_stops_processes_and_frees_ports():
    cluster = LocalCluster({"ps": 1, "worker": 2})
    pids = list(cluster.pids.values())
    ports = [int(t.rsplit(":", 1)[1]) for ts in cluster.targets.values() for t in ts]
    assert all(alive(p) for p in pids)
    cluster.close()
    assert wait_until(lambda: not any(alive(p) for p in pids))
    assert all(port_is_free(p) for p in ports)


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_tasks_exit_when_their_launcher_dies(method):
    script = textwrap.dedent("""
        import sys, time
        from sandbox.cluster import LocalCluster
        c = LocalCluster({"ps": 1, "worker": 1})
        print(" ".join(str(p) for p in c.pids.values()), flush=True)
        time.sleep(60)
    """)
    launcher = subprocess.Popen([sys.executable, "-c", script],
                                env=_env(SANDBOX_START_METHOD=method),
                                stdout=subprocess.PIPE, text=True)
    try:
        pids = [int(p) for p in launcher.stdout.readline().split()]
        assert len(pids) == 2 and all(alive(p) for p in pids)
        launcher.kill()                                    # no cleanup code runs
        launcher.wait(10)
        assert wait_until(lambda: not any(alive(p) for p in pids), timeout=10), \
            "task processes outlived their launcher"
    finally:
        if launcher.poll() is None:
            launcher.kill()


def test_join_returns_when_the_server_is_told_to_stop():
    server = tf.train.Server.create_local_server()
    done = []
    t = threading.Thread(target=lambda: done.append(server.join()))
    t.start()
    time.sleep(0.3)
    assert not done
    from sandbox.runtime.peers import Peers
    from sandbox.runtime.remote_session import parse_target
    address = parse_target(server.target)
    peers = Peers({"t": address}, cluster_secret.secret_for(address))
    peers.call("t", "Stop")                               # e.g. from LocalCluster / a lesson
    peers.close()
    t.join(10)
    assert done == [True]
    assert wait_until(lambda: port_is_free(address[1]))


def test_server_answers_bad_requests_with_errors_and_keeps_serving():
    server = tf.train.Server.create_local_server()
    try:
        from sandbox.runtime.peers import Peers
        from sandbox.runtime.remote_session import parse_target
        address = parse_target(server.target)
        peers = Peers({"t": address}, cluster_secret.secret_for(address))
        with pytest.raises(tf.errors.InvalidArgumentError, match="Bad RunGraph request"):
            peers.call("t", "RunGraph")                    # fields missing
        with pytest.raises(tf.errors.UnimplementedError, match="does not know the method"):
            peers.call("t", "FormatDisk")
        with pytest.raises(tf.errors.AbortedError, match="not registered"):
            peers.call("t", "RunGraph", handle="nope", step_id=1, feeds={})
        assert peers.call("t", "Ping")["task"] == "/job:local/replica:0/task:0"   # TF 1.15
        peers.close()
        with tf.Session(server.target) as sess:
            assert sess.run(tf.constant(1)) == 1
    finally:
        server.stop()


def test_session_reset_clears_variables_on_every_task():
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(1.0, name="reset_me")
        with tf.Session(c.target("worker", 0)) as sess:
            sess.run(v.initializer)
            assert sess.run(v) == 1.0
        tf.Session.reset(c.target("worker", 0))
        with tf.Session(c.target("worker", 0)) as sess:
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(v)
