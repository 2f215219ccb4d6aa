"""One command for lesson 5: starts the ps and the worker(s) of in_graph_mnist.py and gathers
their output. Worker 0 is the one client; any other worker only lends its GPUs.
    python lessons/05_in_graph_replication/launch.py [--ps 1] [--worker 2] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("in_graph_mnist.py"), ps=1, worker=1))
