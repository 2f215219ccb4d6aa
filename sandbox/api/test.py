"""`tf.test` -- the names of TensorFlow 1.15's tf.test namespace (python/platform/test.py, with
TestCase from python/framework/test_util.py, the gradient checker of
python/ops/gradient_checker.py, Benchmark of python/platform/benchmark.py and
create_local_cluster: train/local_servers.py).

A TF-1 test file:

    import sandbox as tf

    class MyOpTest(tf.test.TestCase):
        def testDouble(self):
            with self.cached_session():
                self.assertAllClose([2.0, 4.0], self.evaluate(2.0 * tf.constant([1.0, 2.0])))

    if __name__ == "__main__":
        tf.test.main()

pytest collects such classes too (they are unittest.TestCases).
"""
import inspect as _inspect
import os as _os
import re as _re
import sys as _sys
import time as _time
import unittest as _unittest

from ..client.gradient_checker import compute_gradient, compute_gradient_error
from ..client.test_util import TensorFlowTestCase as TestCase
from ..client.test_util import get_temp_dir, gpu_device_name, is_gpu_available
from ..train.local_servers import create_local_cluster

__all__ = ["TestCase", "main", "get_temp_dir", "test_src_dir_path", "is_gpu_available",
           "gpu_device_name", "is_built_with_cuda", "is_built_with_gpu_support",
           "is_built_with_rocm", "compute_gradient", "compute_gradient_error", "Benchmark",
           "mock", "create_local_cluster"]


def main(argv=None):
    """Runs the tests of the __main__ module (unittest.main, as TF's absl runner does);
    `--benchmarks=REGEX` runs the tf.test.Benchmark methods whose 'Class.method' name
    matches instead, as TF's does."""
    argv = list(_sys.argv if argv is None else argv)
    regex = None
    for arg in argv[1:]:
        if arg.startswith("--benchmarks="):
            regex = arg.split("=", 1)[1]
    if regex is not None:
        return _run_benchmarks(regex)
    return _unittest.main(module="__main__", argv=argv)


def test_src_dir_path(relative_path):
    """The absolute path of `relative_path` inside the sandbox package (TF: inside the
    tensorflow source tree, e.g. 'core/platform')."""
    root = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))
    return _os.path.join(root, relative_path)


def is_built_with_cuda():
    """False: the sandbox runs NumPy kernels only."""
    return False


def is_built_with_rocm():
    """False: the sandbox runs NumPy kernels only."""
    return False


def is_built_with_gpu_support():
    """False: the sandbox runs NumPy kernels only (its GPUs are simulated)."""
    return False


# -- benchmarks (TF: python/platform/benchmark.py) ----------------------------------------

_BENCHMARKS = []


class Benchmark:
    """Base class of benchmarks: methods named benchmark* time something and call
    report_benchmark; `tf.test.main()` runs them with --benchmarks=REGEX."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _BENCHMARKS.append(cls)

    def _get_name(self, overwrite_name=None):
        """'Class.method' of the outermost benchmark method calling report_benchmark."""
        calling, name = None, None
        for frame in _inspect.stack()[::-1]:
            if isinstance(frame.frame.f_locals.get("self"), Benchmark):
                calling, name = frame.frame.f_locals["self"], frame.function
                break
        if calling is None:
            raise ValueError("Unable to determine calling Benchmark class.")
        return "%s.%s" % (type(calling).__name__, overwrite_name or name)

    def report_benchmark(self, iters=None, cpu_time=None, wall_time=None, throughput=None,
                         extras=None, name=None, metrics=None):
        """Reports one benchmark result: printed as a BenchmarkEntries entry (TF prints the
        proto the same way when no report file is asked for). Times are in seconds."""
        name = self._get_name(overwrite_name=name)
        lines = ["entry {", '  name: "%s"' % name]
        for field, value in (("iters", iters), ("cpu_time", cpu_time),
                             ("wall_time", wall_time), ("throughput", throughput)):
            if value is not None:
                lines.append("  %s: %s" % (field, value))
        for key, value in sorted((extras or {}).items()):
            kind = "double_value" if isinstance(value, (int, float)) else "string_value"
            shown = value if kind == "double_value" else '"%s"' % value
            lines.append('  extras {\n    key: "%s"\n    value {\n      %s: %s\n    }\n  }'
                         % (key, kind, shown))
        for metric in metrics or []:
            lines.append('  metrics {\n    name: "%s"\n    value: %s\n  }'
                         % (metric["name"], metric["value"]))
        lines.append("}")
        print("\n".join(lines))

    def run_op_benchmark(self, sess, op_or_tensor, feed_dict=None, burn_iters=2,
                         min_iters=10, store_trace=False, store_memory_usage=True, name=None,
                         extras=None, mbs=0):
        """Runs op_or_tensor burn_iters times, then min_iters timed times; reports and
        returns {'iters', 'wall_time' (the median, seconds), 'extras', 'name',
        'throughput' (mbs / wall_time)}. store_trace and store_memory_usage are ignored."""
        for _ in range(burn_iters):
            sess.run(op_or_tensor, feed_dict=feed_dict)
        deltas = []
        for _ in range(min_iters):
            start = _time.time()
            sess.run(op_or_tensor, feed_dict=feed_dict)
            deltas.append(_time.time() - start)
        deltas.sort()
        n = len(deltas)
        median = (deltas[n // 2] if n % 2 else (deltas[n // 2 - 1] + deltas[n // 2]) / 2.0) \
            if n else 0.0
        values = {"iters": min_iters, "wall_time": median,
                  "extras": extras if extras is not None else {}, "name": name,
                  "throughput": mbs / median if median else 0.0}
        self.report_benchmark(**values)
        return values


def _run_benchmarks(regex):
    pattern = _re.compile(regex if regex not in ("all", ".") else ".*")
    for cls in list(_BENCHMARKS):
        for attr in sorted(dir(cls)):
            if not attr.startswith("benchmark"):
                continue
            if not callable(getattr(cls, attr)):
                continue
            if pattern.search("%s.%s" % (cls.__name__, attr)):
                getattr(cls(), attr)()
    return None


def __getattr__(name):
    # tf.test.mock (unittest.mock, as TF 1.15 has it): loaded on first use, as it costs
    # `import sandbox` 50 ms
    if name == "mock":
        from unittest import mock
        return mock
    raise AttributeError(f"module 'sandbox.test' has no attribute {name!r}")
