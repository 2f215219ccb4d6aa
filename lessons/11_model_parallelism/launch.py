"""One command for lesson 11: starts worker 0 (the client, stage 1) and worker 1 (stage 2) of
model_parallel_mnist.py and gathers their output. There is no ps.
    python lessons/11_model_parallelism/launch.py [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("model_parallel_mnist.py"), ps=0,
                     worker=2))
