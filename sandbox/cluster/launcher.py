"""The launcher -- one command for a tutorial's cluster.

The TF-1 tutorials run one program once per task, each in its own terminal:

    python train.py --ps_hosts=localhost:2222 --worker_hosts=localhost:2223,localhost:2224 \\
                    --job_name=worker --task_index=0        # ... and once more per task

The launcher does exactly that, for every task of the cluster at once, on free local ports:

    python -m sandbox launch lessons/06_between_graph_replication/train.py --ps 2 --worker 2
    python -m sandbox launch estimator.py --chief 1 --worker 1 --ps 1 --evaluator 1 --tf-config

Each task gets `--job_name`, `--task_index` and one `--<job>_hosts` flag per job (or, with
--tf-config, a TF_CONFIG environment variable instead, as Kubeflow's TFJob and tf.estimator use it:
the evaluator is not in the cluster). Every task prints with its name in front (`[worker 0] ...`).
The launcher waits for every task that is not a ps; the ps tasks `server.join()` forever, as in
TensorFlow, so it stops them at the end. If a task fails, it stops the others rather than leave
them waiting for it, and says so. All tasks share one fresh cluster secret
(`SANDBOX_CLUSTER_SECRET`), so a notebook may watch them: `sandbox.widgets.attach(spec, secret)`.

In Python, `launch(program, {"ps": 1, "worker": 2})` returns each task's exit code and output;
`Launch` starts the tasks and hands back the cluster while they run. TensorFlow has no launcher of
its own; this is the shell loop of the tutorials' READMEs, made safe.
"""
import argparse
import collections
import json
import os
import signal
import subprocess
import sys
import threading
import time

from ..train.local_servers import free_ports

__all__ = ["Launch", "TaskRun", "launch", "launch_main", "main", "JOB_ORDER"]

TaskRun = collections.namedtuple("TaskRun", "returncode stdout stderr")
JOB_ORDER = ("ps", "chief", "worker", "evaluator")     # the order tasks are started in
SERVING_JOBS = ("ps",)                                  # they serve until stopped


def _ordered(jobs):
    """The jobs asked for, those with at least one task, in JOB_ORDER and then by name."""
    known = [j for j in JOB_ORDER if jobs.get(j)]
    return known + sorted(j for j in jobs if j not in JOB_ORDER and jobs[j])


class Launch:
    """Every task of `program` started as its own process; `wait()` gathers them.

    `jobs` maps a job name to its number of tasks. `args` go to every task. `env` is added to
    every task's environment. `echo` prints each line as it comes, named by its task.
    """

    def __init__(self, program, jobs=None, args=(), tf_config=False, env=None, echo=False,
                 python=None, cwd=None, fail_fast=True):
        jobs = dict(jobs if jobs is not None else {"ps": 1, "worker": 2})
        for job, count in jobs.items():
            if not isinstance(count, int) or count < 0:
                raise ValueError(f"launch: the number of {job!r} tasks must be a whole number "
                                 f">= 0, not {count!r}")
        self.program = os.fspath(program)
        if not os.path.exists(self.program):
            raise FileNotFoundError(f"launch: no program at {self.program}")
        self.jobs = {job: jobs[job] for job in _ordered(jobs)}
        if not self.jobs:
            raise ValueError("launch: a cluster needs at least one task, e.g. {'worker': 1}")
        ports = iter(free_ports(sum(self.jobs.values())))
        self.hosts = {job: [f"localhost:{next(ports)}" for _ in range(n)]
                      for job, n in self.jobs.items()}
        self.cluster = {job: hosts for job, hosts in self.hosts.items() if job != "evaluator"}
        from ..runtime.cluster_secret import make_secret
        self.secret = os.environ.get("SANDBOX_CLUSTER_SECRET") or make_secret().hex()
        self.echo = echo
        self.fail_fast = fail_fast
        self._lock = threading.Lock()
        self._output = {}                 # task -> (stdout lines, stderr lines)
        self._readers = []
        self.processes = {}
        try:
            for job, n in self.jobs.items():
                for index in range(n):
                    self._start(job, index, args, tf_config, env, python, cwd)
        except BaseException:
            self.stop()
            raise

    # -- starting --------------------------------------------------------------------------
    def task_flags(self, job, index):
        """The tutorial's flags for one task: --job_name, --task_index, --<job>_hosts."""
        flags = [f"--{name}_hosts={','.join(hosts)}" for name, hosts in self.hosts.items()]
        return flags + [f"--job_name={job}", f"--task_index={index}"]

    def tf_config(self, job, index):
        """The TF_CONFIG of one task: the cluster (without the evaluator) and the task."""
        return json.dumps({"cluster": self.cluster, "task": {"type": job, "index": index}})

    def _start(self, job, index, args, tf_config, env, python, cwd):
        environment = dict(os.environ)
        environment.update(PYTHONUNBUFFERED="1", SANDBOX_CLUSTER_SECRET=self.secret)
        environment.update(env or {})
        command = [python or sys.executable, self.program]
        if tf_config:
            environment["TF_CONFIG"] = self.tf_config(job, index)
        else:
            environment.pop("TF_CONFIG", None)
            command += self.task_flags(job, index)
        process = subprocess.Popen(command + [str(a) for a in args], stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, env=environment, cwd=cwd,
                                   start_new_session=True)
        self.processes[job, index] = process
        self._output[job, index] = ([], [])
        for stream, lines, sink in ((process.stdout, self._output[job, index][0], sys.stdout),
                                    (process.stderr, self._output[job, index][1], sys.stderr)):
            reader = threading.Thread(target=self._read, args=(job, index, stream, lines, sink),
                                      daemon=True, name=f"launch-{job}-{index}")
            reader.start()
            self._readers.append(((job, index), reader))

    def _read(self, job, index, stream, lines, sink):
        for line in stream:
            with self._lock:
                lines.append(line)
                if self.echo:
                    sink.write(f"[{job} {index}] {line}")
                    sink.flush()
        stream.close()

    def _say(self, text):
        if self.echo:
            print(f"[launch] {text}", file=sys.stderr, flush=True)

    # -- waiting -------------------------------------------------------------------------------
    def wait(self, timeout=600.0):
        """Waits for every task that is not a ps (at most `timeout` seconds), then stops the
        rest; returns {(job, index): TaskRun}. Raises TimeoutError naming the tasks still
        running (after stopping everything)."""
        waited = [t for t in self.processes if t[0] not in SERVING_JOBS] or list(self.processes)
        deadline = time.monotonic() + timeout
        try:
            while True:
                running = [t for t in waited if self.processes[t].poll() is None]
                failed = [t for t in self.processes if self.processes[t].poll() not in (None, 0)
                          and t[0] not in SERVING_JOBS]
                if not running:
                    break
                if failed and self.fail_fast:
                    job, index = failed[0]
                    self._say(f"{job} {index} exited with code "
                              f"{self.processes[failed[0]].returncode}; stopping the other "
                              f"tasks rather than leave them waiting for it")
                    break
                if time.monotonic() > deadline:
                    names = ", ".join(f"{j} {i}" for j, i in running)
                    raise TimeoutError(
                        f"launch: {names} still running after {timeout:.0f} s; stopped them "
                        f"all. A session waits for every task of its cluster: is one of them "
                        f"waiting for a task that failed or was never started?")
                time.sleep(0.05)
        finally:
            self.stop()
        return self.results()

    def results(self):
        """{(job, index): TaskRun} of the tasks so far (returncode None: still running)."""
        for task, reader in self._readers:
            if self.processes[task].poll() is not None:     # its output is complete
                reader.join(timeout=5)
        with self._lock:
            return {task: TaskRun(process.poll(), "".join(self._output[task][0]),
                                  "".join(self._output[task][1]))
                    for task, process in self.processes.items()}

    def stop(self):
        """Stops every task still running (its whole process group): SIGTERM, then SIGKILL."""
        for (job, index), process in self.processes.items():
            if process.poll() is None:
                if job in SERVING_JOBS:
                    self._say(f"stopping {job} {index} (a ps serves until it is stopped)")
                stop_group(process)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def stop_group(process):
    """Ends a task and everything it started (its process group): SIGTERM, then SIGKILL."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=10)
    except ProcessLookupError:
        pass
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def launch(program, jobs=None, args=(), tf_config=False, env=None, timeout=600.0, echo=False,
           python=None, cwd=None, fail_fast=True):
    """Runs `program` once per task of `jobs` (default 1 ps, 2 workers) and returns
    {(job, index): TaskRun(returncode, stdout, stderr)} when the non-ps tasks are done."""
    with Launch(program, jobs, args=args, tf_config=tf_config, env=env, echo=echo,
                python=python, cwd=cwd, fail_fast=fail_fast) as started:
        return started.wait(timeout)


# -- the command line -----------------------------------------------------------------------------

def _parser(prog, defaults):
    parser = argparse.ArgumentParser(
        prog=prog, description="Starts every task of a TF-1 cluster program on this machine "
        "(each its own process, on free ports), prints their output, waits for the workers, "
        "then stops the ps tasks. Other arguments go to the program.")
    for job in JOB_ORDER:
        parser.add_argument(f"--{job}", type=int, default=defaults.get(job, 0),
                            metavar="N", help=f"number of {job} tasks "
                            f"(default {defaults.get(job, 0)})")
    parser.add_argument("--tf-config", action="store_true", default=defaults.get("tf_config"),
                        help="give each task TF_CONFIG instead of --job_name/--task_index flags")
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="stop everything after this many seconds (default 600)")
    return parser


def launch_main(program, argv=None, tf_config=False, **jobs):
    """The body of a lesson's launch.py: the cluster shape given here, overridable from the
    command line (--ps 2 --worker 3); every other argument goes to the program."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser(f"python {os.path.basename(sys.argv[0] or 'launch.py')}",
                     dict(jobs, tf_config=tf_config))
    options, rest = parser.parse_known_args(argv)
    if rest[:1] == ["--"]:
        rest = rest[1:]
    return _run(program, options, rest)


def _run(program, options, program_args):
    jobs = {job: getattr(options, job) for job in JOB_ORDER if getattr(options, job)}
    try:
        started = Launch(program, jobs, args=program_args, tf_config=options.tf_config,
                         echo=True)
    except (ValueError, FileNotFoundError) as e:
        print(e, file=sys.stderr)
        return 2
    shape = ", ".join(f"{n} {job}" for job, n in started.jobs.items())
    print(f"[launch] {os.path.basename(started.program)}: {shape}: "
          f"{json.dumps(started.cluster)}", file=sys.stderr, flush=True)
    with started:
        try:
            runs = started.wait(options.timeout)
        except TimeoutError as e:
            print(f"[launch] {e}", file=sys.stderr)
            return 124
        except KeyboardInterrupt:
            print("[launch] interrupted: stopped every task", file=sys.stderr)
            return 130
    failed = {t: r.returncode for t, r in runs.items()
              if t[0] not in SERVING_JOBS and r.returncode != 0}
    for (job, index), code in failed.items():
        print(f"[launch] {job} {index} exited with code {code}", file=sys.stderr)
    return next(iter(failed.values()), 0) if failed else 0


def main(argv=None):
    """`python -m sandbox launch PROGRAM [--ps N --worker N ...] [-- program args]`."""
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = _parser("python -m sandbox launch", {"ps": 1, "worker": 2})
    parser.add_argument("program", help="the TF-1 program to run once per task")
    options, rest = parser.parse_known_args(argv)
    if rest[:1] == ["--"]:
        rest = rest[1:]
    return _run(options.program, options, rest)
