"""Simulation knobs -- what makes a laptop behave like a datacenter.

Real clusters have stragglers (a slow or busy machine) and links that are slower than a
loopback socket. Each task carries knobs that the sandbox applies for real, where they belong:

  * compute slowdown  a step on this task takes `slowdown` times as long (2.0 = half speed):
                      after running its graph pieces, the worker sleeps the extra time
  * step delay        a fixed extra time per step on this task (seconds)
  * links             per destination task: latency (seconds) and bandwidth (bytes/s),
                      applied in the transport before each message leaves this task, so a
                      318 KB parameter push over a "100 Mbit/s" link takes what it would there

Every delay a knob adds is recorded in the task's trace ring, so the widgets show it.
Knobs can be set when a cluster starts and changed while it runs (LocalCluster.set_straggler,
LocalCluster.set_link).
"""
import threading
import time

from ..framework import errors

__all__ = ["Knobs"]


class Knobs:
    """The knobs of one task."""

    def __init__(self, owner=""):
        self.owner = owner
        self.slowdown = 1.0
        self.step_delay = 0.0
        self.straggles = False          # a step here must last longer (read on every step)
        self.links = {}                 # destination task -> (latency s, bandwidth bytes/s)
        self._lock = threading.Lock()

    def update(self, slowdown=None, step_delay=None, links=None):
        with self._lock:
            if slowdown is not None:
                if slowdown < 1.0:
                    raise errors.InvalidArgumentError(
                        None, None, f"slowdown must be >= 1.0 (1.0 = normal speed), got "
                        f"{slowdown}")
                self.slowdown = float(slowdown)
            if step_delay is not None:
                if step_delay < 0:
                    raise errors.InvalidArgumentError(
                        None, None, f"step_delay must be >= 0 seconds, got {step_delay}")
                self.step_delay = float(step_delay)
            self.straggles = self.slowdown != 1.0 or self.step_delay > 0
            for dst, setting in (links or {}).items():
                if setting is None:
                    self.links.pop(dst, None)
                    continue
                latency, bandwidth = setting
                if latency < 0 or (bandwidth is not None and bandwidth <= 0):
                    raise errors.InvalidArgumentError(
                        None, None, f"link to {dst}: latency must be >= 0 and bandwidth > 0")
                self.links[dst] = (float(latency), None if bandwidth is None
                                   else float(bandwidth))

    def as_dict(self):
        with self._lock:
            return {"slowdown": self.slowdown, "step_delay": self.step_delay,
                    "links": {dst: list(v) for dst, v in self.links.items()}}

    # -- applied by the runtime --------------------------------------------------
    def link_delay(self, dst, nbytes):
        """Seconds a message of `nbytes` to `dst` spends on the simulated link."""
        setting = self.links.get(dst) or self.links.get("*")
        if setting is None:
            return 0.0
        latency, bandwidth = setting
        return latency + (nbytes / bandwidth if bandwidth else 0.0)

    def compute_delay(self, elapsed):
        """Extra seconds a step that really took `elapsed` seconds must last."""
        return elapsed * (self.slowdown - 1.0) + self.step_delay


def sleep_for(seconds, step=None):
    """Sleeps, but wakes early if the step is cancelled."""
    end = time.monotonic() + seconds
    while True:
        left = end - time.monotonic()
        if left <= 0:
            return
        if step is not None:
            step.check()
        time.sleep(min(left, 0.05))
