"""Helpers shared by the benchmarks: medians, tables, locating full MNIST."""
import os
import pathlib
import socket
import statistics

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
