"""One command for lesson 12: starts the ps, the chief, the worker and the evaluator of
estimator_mnist.py, each with its own TF_CONFIG, and gathers their output.
    python lessons/12_estimator/launch.py [--worker 2] [--ps 2] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("estimator_mnist.py"), tf_config=True,
                     ps=1, chief=1, worker=1, evaluator=1))
