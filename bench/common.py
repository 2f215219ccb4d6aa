"""Helpers shared by the benchmarks: medians, tables, locating full MNIST."""
import os
import pathlib
import socket
import statistics
import threading
import time

REPO = pathlib.Path(__file__).resolve().parents[1]


def mnist_dir(cli_value=None):
    """Full MNIST for benchmarks: --data-dir, $MNIST_DIR, or ../shared/data/mnist beside the repo."""
    for candidate in (cli_value, os.environ.get("MNIST_DIR"),
                      REPO.parent / "shared" / "data" / "mnist"):
        if candidate and (pathlib.Path(candidate) / "train-images-idx3-ubyte.gz").exists():
            return str(candidate)
    return None


_given = set()


def free_port():
    """A TCP port of 127.0.0.1 that nothing listens on right now, never one this process was
    given before (the kernel may hand out a just-released port again at once)."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _given:
            _given.add(port)
            return port


def median(values):
    return statistics.median(values)


def each_worker(accs):
    """'0.651 (0.65, 0.65, 0.65)': the workers' mean test accuracy, then each worker's (task 0,
    the chief, first) -- whether they trained for the same span of the run shows there."""
    mean = statistics.mean(accs)
    return f"{mean:.3f}" + (f" ({', '.join(f'{a:.2f}' for a in accs)})" if len(accs) > 1 else "")


def print_table(title, rows):
    """rows: dicts with metric, sandbox, baseline, ratio, bar, ok."""
    headers = ["metric", "sandbox", "baseline", "ratio", "bar", "pass"]
    cells = [[str(r.get(h.lower(), "")) if h != "pass" else
              ("yes" if r.get("ok") else ("-" if r.get("ok") is None else "NO")) for h in headers]
             for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    print(f"\n{title}\n{line}\n{'-' * len(line)}")
    for c in cells:
        print("  ".join(x.ljust(w) for x, w in zip(c, widths)))


def cpu_ticks():
    """The machine's CPU time counters (the `cpu` line of /proc/stat: user, nice, system, idle,
    iowait, irq, softirq, steal, ...), or None where there is no /proc/stat."""
    try:
        with open("/proc/stat") as f:
            return [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def stolen_share(before, after):
    """The share of the CPU time between two cpu_ticks() that the hypervisor gave to other
    machines ("steal": this VM's CPUs were ready to run but not running). None if unknown.
    A benchmark on a shared VM is worth what its steal is: in one run of the sync/async turns
    here, turns with 1-4% stolen gave ratios of 1.43-1.51, turns with 16-24% gave 1.91-2.72."""
    use = cpu_use(before, after)
    return None if use is None else use["stolen"]


def cpu_use(before, after):
    """How the machine's CPU time between two cpu_ticks() went, as shares: busy (user, nice,
    system, irq, softirq), idle (idle, iowait) and stolen (steal). None if unknown."""
    if before is None or after is None or len(before) < 8 or len(after) < 8:
        return None
    spent = [b - a for a, b in zip(before[:8], after[:8])]
    total = sum(spent)
    if total <= 0:
        return None
    idle, stolen = (spent[3] + spent[4]) / total, spent[7] / total
    return {"busy": 1 - idle - stolen, "idle": idle, "stolen": stolen}


class CpuSampler:
    """Reads cpu_ticks() every `period` seconds in a thread while its `with` block runs, so
    that the CPU use of a window known only afterwards -- the steady part of a training run --
    can be read off: use(t0, t1), with time.time() values."""

    def __init__(self, period=0.05):
        self.period = period
        self.samples = []                 # (time.time(), cpu_ticks())
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True, name="cpu-sampler")

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc_info):
        self._stop.set()
        self._thread.join()

    def _sample(self):
        while True:
            self.samples.append((time.time(), cpu_ticks()))
            if self._stop.wait(self.period):
                return

    def use(self, t0, t1):
        """cpu_use() between the first and the last sample taken from t0 to t1; None if fewer
        than two samples fall in that window."""
        inside = [ticks for t, ticks in self.samples if t0 <= t <= t1]
        return cpu_use(inside[0], inside[-1]) if len(inside) >= 2 else None


def steal_row(shares, what):
    """An informative table row: the CPU stolen from this VM during each turn of `what`."""
    known = [s for s in shares if s is not None]
    return dict(metric=f"CPU stolen by the hypervisor during {what}",
                sandbox=f"median {100 * median(known):.0f}%" if known else "unknown",
                baseline="-", ratio=f"turns: {', '.join(f'{100 * s:.0f}%' for s in known)}"
                if known else "-", bar="(noise)" if known else "-", ok=None)
