"""Spinning before sleeping -- the counterpart of the spin in Eigen's ThreadPool, on which
TensorFlow's executor runs (a thread out of work keeps looking for new work for a while
before it parks).

A thread that waits for the next message can sleep in poll() until the kernel wakes it up,
or keep asking poll() with a zero timeout. Sleeping costs no CPU, but waking up costs
50-100 us, and more in a virtual machine (an idle vCPU is halted, and the hypervisor must
schedule it again). Asking costs a core while it lasts. A step of the seed job waits four
times on its critical path -- for the request, the parameters, the gradients, the reply --
so on a machine with a core to spare a waiting task spins for a short while (SPIN_SECONDS)
before it sleeps.

Only with a core to spare: spinning on a busy machine takes the core from a task that has
work to do. So nobody spins in a process whose servers' cluster has more tasks on this
machine than there are cores (compute_threads.crowded): 1 ps + 1 worker on 2 cores spin,
1 ps + 3 workers do not -- there, not spinning took 0.87-0.90 of the time of an async step
and 0.91 of a sync round (5-8 alternating turns), and came out even when the machine was
slower. And before and while it spins, a waiter reads how many threads are runnable right
now (/proc/loadavg); if they are already as many as the cores, it goes to sleep at once.
Where /proc/loadavg does not exist (not Linux), waiters always sleep. SANDBOX_SPIN_US=0 turns
spinning off.

And only in a process that runs one step at a time. A spinning thread gives up the GIL (the
interpreter's lock) for each zero-timeout poll and takes it back at once, so another thread of
the same process that wakes up and wants it -- a second step's thread with a message to
handle, a queue runner woken by its queue -- may wait up to the whole spin for it. That
happened in synchronous training with ONE worker (1 ps + 1 worker: a core to spare): the
worker's process is in two steps at once, its training step and the chief's queue runner's,
and so is the ps; a round took 8.1 ms with spinning and 4.2 ms without. So a process where two
steps overlapped in the last second (STEPS_OVERLAP_SECONDS) does not spin, only one of its
threads spins at a time, and a spinner stops as soon as another step starts.
"""
import os
import threading
import time

from . import compute_threads

__all__ = ["SPIN_SECONDS", "STEPS_OVERLAP_SECONDS", "spin", "spare_core", "step_started",
           "step_ended"]

SPIN_SECONDS = float(os.environ.get("SANDBOX_SPIN_US", "2000")) / 1e6
STEPS_OVERLAP_SECONDS = 1.0      # no spinning for this long after two steps overlapped
_CHECK_EVERY = 100e-6            # how often a spinning thread looks at the load again

_CORES = compute_threads.cores()
_lock = threading.Lock()
_steps = 0                       # steps this process's threads wait in (their StepPumps)
_overlapped = -1e9               # when two of them last overlapped (time.monotonic())
_spinning = False                # a thread of this process spins right now
try:
    _LOADAVG = os.open("/proc/loadavg", os.O_RDONLY)
except OSError:
    _LOADAVG = None


def spare_core():
    """True if the runnable threads (this one included) are no more than the cores."""
    if _LOADAVG is None:
        return False
    try:          # '0.52 0.61 0.70 2/93 12345': 2 runnable of 93
        runnable = int(os.pread(_LOADAVG, 64, 0).split()[3].split(b"/")[0])
    except (OSError, ValueError, IndexError):
        return False
    return runnable <= _CORES


def step_started():
    """A thread of this process begins to wait in a step (runtime/step_channels.StepPump)."""
    global _steps, _overlapped
    with _lock:
        _steps += 1
        if _steps > 1:
            _overlapped = time.monotonic()


def step_ended():
    global _steps
    with _lock:
        _steps -= 1


def spin(ready, budget=None, own_steps=0):
    """Calls ready() -- a check that never blocks -- until it returns something true, the
    budget (default SPIN_SECONDS) is spent, or no core is spare any more. Returns ready()'s
    last value; a false one means: sleep now. `own_steps`: the steps counted by step_started
    that are the caller's own (1 for a thread waiting in its step, 0 for one waiting for the
    next request); with any other step in the process, or another thread spinning, the
    caller does not spin."""
    global _spinning
    budget = SPIN_SECONDS if budget is None else budget
    if budget <= 0 or compute_threads.crowded or _steps > own_steps \
            or time.monotonic() - _overlapped < STEPS_OVERLAP_SECONDS or not spare_core():
        return None
    with _lock:
        if _spinning:
            return None
        _spinning = True
    try:
        now = time.perf_counter()
        end, check = now + budget, now + _CHECK_EVERY
        while True:
            result = ready()
            if result or _steps > own_steps:     # done, or another step needs the GIL
                return result
            now = time.perf_counter()
            if now >= end:
                return result
            if now >= check:
                if not spare_core():
                    return result
                check = now + _CHECK_EVERY
    finally:
        _spinning = False
