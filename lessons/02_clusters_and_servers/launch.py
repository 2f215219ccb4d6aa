"""One command for lesson 2: starts the ps and the workers of cluster_tasks.py and gathers their
output.
    python lessons/02_clusters_and_servers/launch.py [--ps 1] [--worker 3] [program flags...]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

sys.exit(launch_main(pathlib.Path(__file__).with_name("cluster_tasks.py"), ps=1, worker=2))
