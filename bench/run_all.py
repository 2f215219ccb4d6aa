"""Runs every benchmark in bench/ and prints their tables.

    python bench/run_all.py [--data-dir DIR] [--quick] [--tf-python PY]

`--tf-python` (a Python that has TensorFlow) goes only to the benchmarks that measure a
TensorFlow baseline in the same run; the others have none.
"""
import argparse
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
WITH_TF_BASELINE = {"bench_foundation.py", "bench_cluster.py", "bench_training.py", "bench_route.py",
                    "bench_corpus.py"}


def commands(argv=None):
    """The command line of each benchmark, in the order they run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=None)
    parser.add_argument("--quick", action="store_true", help="each benchmark's short version")
    parser.add_argument("--tf-python", default=None,
                        help="a Python with tensorflow, for the TensorFlow baselines")
    args = parser.parse_args(argv)
    common = [*(["--data-dir", args.data_dir] if args.data_dir else []),
              *(["--quick"] if args.quick else [])]
    return [[sys.executable, str(script), *common,
             *(["--tf-python", args.tf_python]
               if args.tf_python and script.name in WITH_TF_BASELINE else [])]
            for script in sorted(HERE.glob("bench_*.py"))]


def main(argv=None):
    status = 0
    for command in commands(argv):
        print(f"== {pathlib.Path(command[1]).name}", flush=True)
        status |= subprocess.call(command)
    return status


if __name__ == "__main__":
    sys.exit(main())
