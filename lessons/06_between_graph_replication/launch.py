"""One command for lesson 6: starts the two ps and the workers of between_graph.py (or of the
program named first, e.g. sparse_embedding.py) and gathers their output.
    python lessons/06_between_graph_replication/launch.py [--ps 3] [--worker 3] [--ps_strategy=greedy]
    python lessons/06_between_graph_replication/launch.py sparse_embedding.py [--dense]"""
import pathlib
import sys

from sandbox.cluster.launcher import launch_main

args = sys.argv[1:]
program = args.pop(0) if args and args[0].endswith(".py") else "between_graph.py"
sys.exit(launch_main(pathlib.Path(__file__).with_name(program), argv=args, ps=2, worker=2))
