"""One command for lesson 3: starts the ps and the workers of placement.py and gathers their output.
    python lessons/03_placing_ops/launch.py [--ps 1] [--worker 2] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("placement.py"), ps=1, worker=2))
