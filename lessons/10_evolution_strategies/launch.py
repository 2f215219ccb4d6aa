"""One command for lesson 10: starts the ps and the workers of es_mnist.py and gathers their
output.
    python lessons/10_evolution_strategies/launch.py [--ps 1] [--worker 3] [--mode=assign_add]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("es_mnist.py"), ps=1, worker=2))
