"""One command for lesson 7: starts the ps and the workers of seed_002_mnist.py and gathers
their output.
    python lessons/07_async_training/launch.py [--ps 1] [--worker 3] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("seed_002_mnist.py"), ps=1, worker=2))
