"""One command for lesson 4: starts the ps and the workers of shared_variable.py and gathers their output.
    python lessons/04_shared_state/launch.py [--ps 1] [--worker 2] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("shared_variable.py"), ps=1, worker=2))
