"""One command for lesson 9: starts the ps and the workers of mts_train.py and gathers their
output.
    python lessons/09_fault_tolerance/launch.py [--ps 1] [--worker 2] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("mts_train.py"), ps=1, worker=2))
