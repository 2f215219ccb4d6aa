"""One command for lesson 8: starts the ps and the workers of sync_mnist.py and gathers their
output.

    python lessons/08_sync_training/launch.py [--ps 1] [--worker 3] [program flags...]
    python lessons/08_sync_training/launch.py --worker 3 --replicas_to_aggregate=2 --straggler_delay=0.3
    python lessons/08_sync_training/launch.py --stop=own_shard
"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("sync_mnist.py"), ps=1, worker=2))
