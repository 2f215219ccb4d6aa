"""Kills the ps of a running mts_train.py job and starts it again -- what you would do by hand
with Ctrl-C in the ps terminal and the same command once more -- and shows the recovery:

    python lessons/09_fault_tolerance/restart_ps.py [--kill_after_step 100] [--down_secs 1]
                                                    [--task ps:0] [mts_train.py flags...]

It starts 1 ps and 2 workers of mts_train.py (with --train_steps=600
--save_checkpoint_steps=100 unless given) on free local ports (each its own process, as
launch.py does), waits until the chief has saved a checkpoint at or after global step
--kill_after_step, lets the workers train a little longer (--train_on_secs), kills the ps
(SIGKILL: a machine that dies, no goodbye), leaves it down for --down_secs, starts it again
at the same address with empty memory, waits for the workers to finish and stops the ps.
`--task worker:0` kills and restarts the chief instead (or worker:1, the other worker).
At the end it opens the chief's checkpoints with tf.train's checkpoint readers: which files
a checkpoint is, which checkpoints are kept, and which variables one holds.
"""
import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

import sandbox as tf

# The program's flags this demo sets unless you give them: long enough a run to kill the ps
# in the middle of it, checkpoints far enough apart to lose some steps.
DEFAULTS = {"--train_steps": 600, "--save_checkpoint_steps": 100}
PROGRAM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "mts_train.py")


def free_ports(n):
    sockets = [socket.socket() for _ in range(n)]
    try:
        for s in sockets:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


def say(text):
    print("[restart_ps] %s" % text, flush=True)


OUTPUT = []          # (time, job, index, line) of every task, as it comes


def start(job, index, flags, env):
    process = subprocess.Popen(
        [sys.executable, PROGRAM] + flags + ["--job_name=%s" % job, "--task_index=%d" % index],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
        start_new_session=True)

    def echo():
        for line in process.stdout:
            OUTPUT.append((time.monotonic(), job, index, line))
            sys.stdout.write("[%s %d] %s" % (job, index, line))
            sys.stdout.flush()
    threading.Thread(target=echo, daemon=True).start()
    return process


def stop(process, sig=signal.SIGTERM):
    if process.poll() is None:
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
    try:
        process.wait(10)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def latest_checkpoint_step(checkpoint_dir):
    """The step of the newest checkpoint the chief has recorded in checkpoint_dir/checkpoint."""
    try:
        with open(os.path.join(checkpoint_dir, "checkpoint")) as f:
            found = re.search(r'^model_checkpoint_path: "[^"]*-(\d+)"', f.read(), re.M)
    except OSError:
        return None
    return int(found.group(1)) if found else None


def report_lost_steps(restored):
    """The highest global step the workers saw before the kill, against the checkpoint's step
    the chief restored: the updates in between are lost. (The chief's new session may start a
    few steps later: the other worker can train on while the chief's hooks begin.)"""
    seen = [int(m.group(1)) for _, job, index, line in OUTPUT
            for m in [re.search(r"before the failure this worker saw global step (\d+)", line)]
            if m]
    chief = [int(m.group(1)) for _, job, index, line in OUTPUT if (job, index) == ("worker", 0)
             for m in [re.search(r"session [2-9]\d* created at global step (\d+)", line)] if m]
    if not seen or not chief:
        say("no recovery seen in the workers' output (was the ps killed after they finished?)")
        return
    say("before the kill the workers saw global step %d; the chief restored global step %d "
        "and its new session started at global step %d: %d steps lost"
        % (max(seen), restored, chief[0], max(seen) - restored))


def report_restarted_worker(job, index, killed_at, restored):
    """A restarted worker is a new process: its first session is `session 1` again."""
    new = [int(m.group(1)) for t, j, i, line in OUTPUT if (j, i) == (job, index) and t > killed_at
           for m in [re.search(r"session 1 created at global step (\d+)", line)] if m]
    before = [int(m.group(1)) for t, j, i, line in OUTPUT if t < killed_at
              for m in [re.search(r"global step (\d+)", line)] if m]
    say("the last checkpoint held global step %d; the highest global step printed before the "
        "kill was %s; the restarted %s %d's session started at global step %s"
        % (restored, max(before) if before else "none", job, index,
           new[0] if new else "(none: it never got a session)"))


def show_checkpoints(checkpoint_dir):
    """What a tf.train.Saver wrote: the `checkpoint` state file, and per checkpoint an
    .index, a .data-00000-of-00001 and a .meta (the graph) file."""
    state = tf.train.get_checkpoint_state(checkpoint_dir)
    kept = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
    say("checkpoints kept (the Saver keeps the newest 5): %s" % ", ".join(kept))
    latest = tf.train.latest_checkpoint(checkpoint_dir)
    files = sorted(f for f in os.listdir(checkpoint_dir)
                   if f.startswith(os.path.basename(latest) + "."))
    say("%s is the files %s" % (os.path.basename(latest), ", ".join(files)))
    for name, shape in tf.train.list_variables(latest):
        value = tf.train.load_variable(latest, name)
        say("  %-12s shape %-10s %s" % (name, shape, value if shape == [] else
                                          "sum of |values| %.3f" % abs(value).sum()))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kill_after_step", type=int, default=100,
                        help="kill the ps once a checkpoint at or after this step exists")
    parser.add_argument("--train_on_secs", type=float, default=0.3,
                        help="seconds of training between that checkpoint and the kill")
    parser.add_argument("--down_secs", type=float, default=1.0,
                        help="seconds the ps stays dead")
    parser.add_argument("--task", default="ps:0",
                        help="the task to kill and restart: ps:0 (default), worker:0, worker:1")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="give up (and stop every task) after this many seconds")
    options, program_flags = parser.parse_known_args()
    job, index = options.task.split(":")
    victim = (job, int(index))
    if victim not in (("ps", 0), ("worker", 0), ("worker", 1)):
        parser.error("--task must be ps:0, worker:0 or worker:1")
    for flag, value in DEFAULTS.items():          # unless given on the command line
        if not any(f.startswith(flag + "=") for f in program_flags):
            program_flags.append("%s=%s" % (flag, value))
    checkpoint_dir = next((f.split("=", 1)[1] for f in program_flags
                           if f.startswith("--checkpoint_dir=")), None)
    if checkpoint_dir is None:
        checkpoint_dir = tempfile.mkdtemp(prefix="lesson09_")
        program_flags.append("--checkpoint_dir=" + checkpoint_dir)
    ps_port, w0, w1 = free_ports(3)
    flags = ["--ps_hosts=localhost:%d" % ps_port,
             "--worker_hosts=localhost:%d,localhost:%d" % (w0, w1)] + program_flags
    env = dict(os.environ, PYTHONUNBUFFERED="1")
    if "SANDBOX_CLUSTER_SECRET" not in env:
        env["SANDBOX_CLUSTER_SECRET"] = os.urandom(16).hex()
    say("checkpoints go to %s" % checkpoint_dir)
    tasks = {("ps", 0): start("ps", 0, flags, env)}
    for i in range(2):
        tasks["worker", i] = start("worker", i, flags, env)
    workers = [("worker", 0), ("worker", 1)]
    try:
        deadline = time.monotonic() + options.timeout
        while (latest_checkpoint_step(checkpoint_dir) or -1) < options.kill_after_step:
            if time.monotonic() > deadline or any(tasks[w].poll() is not None for w in workers):
                say("no checkpoint at step %d or later appeared; is --train_steps larger "
                    "than --kill_after_step?" % options.kill_after_step)
                return 1
            time.sleep(0.02)
        time.sleep(options.train_on_secs)
        say("killing %s %d (SIGKILL)" % victim)
        killed_at = time.monotonic()
        stop(tasks[victim], signal.SIGKILL)
        time.sleep(options.down_secs)
        latest = tf.train.latest_checkpoint(checkpoint_dir)
        restored = int(tf.train.load_variable(latest, "global_step"))
        say("starting %s %d again at its address, with empty memory; the last checkpoint is "
            "%s, which holds global_step = %d" % (victim + (os.path.basename(latest), restored)))
        tasks[victim] = start(victim[0], victim[1], flags, env)
        codes = []
        for w in workers:
            try:
                codes.append(tasks[w].wait(max(1.0, deadline - time.monotonic())))
            except subprocess.TimeoutExpired:
                say("the workers did not finish within %.0f s" % options.timeout)
                return 124
        time.sleep(0.1)                       # the echo threads read the last lines
        say("workers exited with %s" % codes)
        if victim == ("ps", 0):
            report_lost_steps(restored)
        else:
            report_restarted_worker(victim[0], victim[1], killed_at, restored)
        show_checkpoints(checkpoint_dir)
        return max(codes)
    finally:
        for process in tasks.values():
            stop(process)
        time.sleep(0.1)              # let the echo threads print what is left


if __name__ == "__main__":
    sys.exit(main())
