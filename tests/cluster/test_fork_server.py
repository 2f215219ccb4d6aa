"""The fork server (sandbox/cluster/fork_server.py): LocalCluster's tasks are forked from one
preloaded process, and are still separate processes that serve, get their share of the BLAS
threads, restart, and end with their launcher -- and the old spawn route still works."""
import os
import signal
import subprocess
import sys
import textwrap

import pytest

import sandbox as tf
from conftest import REPO, live_processes
from sandbox.cluster import LocalCluster, fork_server
from sandbox.runtime import compute_threads
from tests.waiting import wait_until


def default_route_env():
    """This environment, but for a start method chosen in it: children use the default."""
    return {k: v for k, v in os.environ.items() if k != "SANDBOX_START_METHOD"}


def parent_of(pid):
    for p, fields in live_processes():
        if p == pid:
            return int(fields[1])
    return None


def alive(pid):
    return any(p == pid for p, _ in live_processes())


def in_session(sid):
    return [pid for pid, fields in live_processes() if int(fields[3]) == sid]


def task_facts(server, report, should_stop):
    """Run in a task (LocalCluster.run_in_task): who it is, who its parent is, its BLAS
    threads, and the environment it got."""
    import os
    from threadpoolctl import threadpool_info
    return {"pid": os.getpid(), "parent": os.getppid(),
            "blas": [lib["num_threads"] for lib in threadpool_info()
                     if lib["user_api"] == "blas"],
            "mark": os.environ.get("SANDBOX_TEST_MARK"), "cwd": os.getcwd()}


def serves(cluster):
    """A variable on the ps, read and multiplied by the last worker, through worker 0's
    master: every task takes part."""
    g = tf.Graph()
    with g.as_default():
        with tf.device("/job:ps/task:0"):
            v = tf.Variable(3.0, name="v")
        with tf.device(f"/job:worker/task:{len(cluster.targets['worker']) - 1}"):
            y = v * 7.0
        with tf.Session(cluster.target("worker", 0), graph=g) as sess:
            sess.run(v.initializer)
            return sess.run(y) == 21.0


@pytest.fixture
def no_thread_env(monkeypatch):
    for name in compute_threads.ENV_NAMES + ("GOTO_NUM_THREADS",):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("SANDBOX_START_METHOD", raising=False)


def test_tasks_are_processes_forked_from_the_server_and_serve(no_thread_env, monkeypatch):
    server = fork_server.warm_up()
    assert server != os.getpid() and parent_of(server) == os.getpid()
    monkeypatch.setenv("SANDBOX_TEST_MARK", "set after the server started")
    with LocalCluster({"ps": 1, "worker": 2}) as cluster:
        assert cluster.start_method == "forkserver"
        pids = set(cluster.pids.values())
        assert len(pids) == 3 and os.getpid() not in pids and server not in pids
        assert {parent_of(p) for p in pids} == {server}
        assert fork_server.pid() == server                   # the same server for every task
        assert serves(cluster)
        facts = cluster.run_in_task("worker", 1, task_facts).result(30)
        assert facts["pid"] == cluster.pid("worker", 1) and facts["parent"] == server
        # the launcher's environment and directory as they are now, not the server's
        assert facts["mark"] == "set after the server started"
        assert facts["cwd"] == os.getcwd()
    assert wait_until(lambda: not any(alive(p) for p in pids))
    assert alive(server)                            # it stays, for the next cluster


@pytest.mark.parametrize("jobs", [{"worker": 1}, {"ps": 1, "worker": 1},
                                  {"ps": 1, "worker": 3}])
def test_each_task_gets_the_blas_threads_a_spawned_one_gets(jobs, no_thread_env):
    expected = compute_threads.share_of_cores(sum(jobs.values()))
    got = {}
    for method in ("forkserver", "spawn"):
        with LocalCluster(jobs, start_method=method) as cluster:
            got[method] = [cluster.run_in_task(*task, task_facts).result(30)["blas"]
                           for task in [("worker", 0), ("ps", 0)][:len(jobs)]]
    assert got["forkserver"] == got["spawn"] == [[expected]] * len(jobs)


@pytest.mark.parametrize("jobs, chosen", [({"worker": 1}, 1), ({"ps": 1, "worker": 1}, 2)])
def test_a_thread_count_the_user_chose_wins(jobs, chosen, no_thread_env, monkeypatch):
    """1 where a task alone would get every core; 2 where two tasks would get half each (on
    this 2-core machine; OpenBLAS takes at most the cores)."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", str(chosen))
    for method in ("forkserver", "spawn"):
        with LocalCluster(jobs, start_method=method) as cluster:
            facts = cluster.run_in_task("worker", 0, task_facts).result(30)
            assert facts["blas"] == [min(chosen, compute_threads.cores())], method


def test_restart_forks_the_task_again(no_thread_env):
    with LocalCluster({"ps": 1, "worker": 1}) as cluster:
        old = cluster.pid("worker", 0)
        cluster.kill("worker", 0)
        assert not cluster.is_alive("worker", 0) and not alive(old)
        cluster.restart("worker", 0)
        new = cluster.pid("worker", 0)
        assert new != old and parent_of(new) == fork_server.pid()
        assert serves(cluster)


def test_a_tasks_pipe_is_closed_only_once_its_reader_thread_has_left_it():
    """Clusters now follow each other within milliseconds: an fd closed under the thread that
    reads a task's pipe would go to the next cluster's pipe, and that thread would read (and
    lose) a new task's messages. So the reader is woken and gone before the fd is closed --
    here with the task's end still open, as when a task is still stopping."""
    import types

    import multiprocess
    from sandbox.cluster.local_cluster import _Task
    ours, theirs = multiprocess.Pipe()
    task = _Task("worker", 0, types.SimpleNamespace(exitcode=None), ours, None)
    task.start_reader()
    try:
        assert task._reader.is_alive()                     # waiting in recv()
        task.close_conn()
        assert not task._reader.is_alive() and ours.closed
    finally:
        theirs.close()


def test_the_spawn_route_still_works_when_chosen(no_thread_env, monkeypatch):
    with LocalCluster({"ps": 1, "worker": 1}, start_method="spawn") as cluster:
        assert {parent_of(p) for p in cluster.pids.values()} == {os.getpid()}
        assert serves(cluster)
    monkeypatch.setenv("SANDBOX_START_METHOD", "spawn")
    with LocalCluster({"worker": 1}) as cluster:
        assert cluster.start_method == "spawn"
        assert parent_of(cluster.pid("worker", 0)) == os.getpid()
    monkeypatch.setenv("SANDBOX_START_METHOD", "vfork")
    with pytest.raises(ValueError, match="SANDBOX_START_METHOD must be one of forkserver"):
        LocalCluster({"worker": 1})


@pytest.mark.parametrize("method", ["forkserver", "spawn"])
def test_a_cluster_started_from_a_thread_outlives_the_thread(no_thread_env, method):
    """The dashboard starts its clusters from a short-lived thread. PR_SET_PDEATHSIG fires when
    the parent's *thread* ends: a spawned task must not ask for it (its pipe tells it when the
    launcher dies), and a forked task's parent is the server's only thread."""
    import threading
    made = []
    starter = threading.Thread(target=lambda: made.append(
        LocalCluster({"ps": 1, "worker": 1}, start_method=method)))
    starter.start()
    starter.join()
    cluster = made[0]
    try:
        import time
        time.sleep(0.5)
        assert cluster.is_alive("ps", 0) and cluster.is_alive("worker", 0)
        assert serves(cluster)
    finally:
        cluster.close()


def test_tasks_end_with_the_server_and_a_new_one_takes_over(no_thread_env):
    """shutdown() ends the tasks still running (their cluster cannot work any more); a server
    killed outright takes its tasks with it too (PR_SET_PDEATHSIG). The next cluster starts a
    new server."""
    for end in ("shutdown", "SIGKILL"):
        cluster = LocalCluster({"ps": 1, "worker": 1})
        server, pids = fork_server.pid(), list(cluster.pids.values())
        if end == "shutdown":
            fork_server.shutdown()
            fork_server.shutdown()                               # idempotent
            assert fork_server.pid() is None and not alive(server)
        else:
            os.kill(server, signal.SIGKILL)
        assert wait_until(lambda: not any(alive(p) for p in pids), timeout=10), end
        assert not cluster.is_alive("ps", 0)
        cluster.close()
        with LocalCluster({"ps": 1, "worker": 1}) as again:
            assert fork_server.pid() not in (None, server)
            assert serves(again)


LAUNCHER = textwrap.dedent("""
    import time
    from sandbox.cluster import LocalCluster, fork_server
    c = LocalCluster({"ps": 1, "worker": 2})
    c.pause("worker", 1)                 # a stopped task must go too
    print(fork_server.pid(), *c.pids.values(), flush=True)
    time.sleep(120)
""")


def test_a_sigkilled_launcher_leaves_no_task_and_no_server():
    launcher = subprocess.Popen([sys.executable, "-c", LAUNCHER], cwd=str(REPO),
                                stdout=subprocess.PIPE, text=True, start_new_session=True,
                                env=default_route_env())
    try:
        server, *tasks = map(int, launcher.stdout.readline().split())
        assert parent_of(server) == launcher.pid
        assert len(tasks) == 3 and {parent_of(t) for t in tasks} == {server}
        assert sorted(in_session(launcher.pid)) == sorted([launcher.pid, server, *tasks])
        os.kill(launcher.pid, signal.SIGKILL)                 # no cleanup code runs
        launcher.wait(10)
        assert wait_until(lambda: not in_session(launcher.pid), timeout=10), \
            f"left running: {in_session(launcher.pid)}"
    finally:
        for pid in in_session(launcher.pid):
            os.kill(pid, signal.SIGKILL)
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
        launcher.stdout.close()


def test_a_script_without_a_main_guard_starts_one_cluster(tmp_path):
    """Neither the fork server nor a spawned task imports the user's __main__: the script's
    top level runs once, not once more per task."""
    script = tmp_path / "student.py"
    script.write_text(textwrap.dedent("""
        import sys
        from sandbox.cluster import LocalCluster
        print("top level ran", flush=True)
        with LocalCluster({"ps": 1, "worker": 1}, start_method=sys.argv[1]) as c:
            print("tasks:", len(c.pids), flush=True)
    """))
    for method in ("forkserver", "spawn"):
        done = subprocess.run([sys.executable, str(script), method], capture_output=True,
                              text=True, timeout=120, cwd=str(tmp_path))
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines() == ["top level ran", "tasks: 2"], method


KERNEL_CODE = """
import os
from sandbox.cluster import LocalCluster, fork_server
c = LocalCluster({"ps": 1, "worker": 1})
print(os.getpid(), fork_server.pid(), *c.pids.values())
"""


@pytest.mark.parametrize("how", ["restart", "shutdown", "SIGKILL to the kernel alone"])
def test_a_jupyter_kernel_that_restarts_or_shuts_down_leaves_nothing(how):
    """jupyter_client restarts a kernel by killing its whole process group; other front ends
    may kill the kernel's process alone -- then the server and the tasks go by themselves."""
    jupyter_client = pytest.importorskip("jupyter_client")
    manager, client = jupyter_client.manager.start_new_kernel(kernel_name="python3",
                                                              env=default_route_env())
    try:
        lines = []
        reply = client.execute_interactive(
            KERNEL_CODE, timeout=120,
            output_hook=lambda msg: lines.append(msg["content"].get("text", "")))
        assert reply["content"]["status"] == "ok", reply["content"]
        kernel, server, *tasks = [int(p) for p in "".join(lines).split()]
        assert parent_of(server) == kernel and {parent_of(t) for t in tasks} == {server}
        if how == "restart":
            manager.restart_kernel(now=True)
        elif how == "shutdown":
            manager.shutdown_kernel(now=False)
        else:
            os.kill(kernel, signal.SIGKILL)
        assert wait_until(lambda: not any(alive(p) for p in [server, *tasks]), timeout=15), \
            [p for p in [server, *tasks] if alive(p)]
    finally:
        client.stop_channels()
        if manager.is_alive():
            manager.shutdown_kernel(now=True)
        manager.context.destroy(linger=0)
