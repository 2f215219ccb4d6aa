"""Command line: `python -m sandbox demo` (the showcase), `python -m sandbox task ...` (one task
of a cluster, see sandbox/cluster/command_line.py), `python -m sandbox launch PROGRAM ...` (a
TF-1 program started once per task of a cluster, see sandbox/cluster/launcher.py)."""
import sys


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    commands = {"demo": "run the showcase (trains the seed's MNIST network)",
                "task": "run one task (ps/worker/chief) of a cluster until stopped",
                "launch": "run a TF-1 program once per task of a local cluster (--ps N --worker N)"}
    if not argv or argv[0] in ("-h", "--help") or argv[0] not in commands:
        print("usage: python -m sandbox <command> [options]\n\ncommands:")
        for name, text in commands.items():
            print(f"  {name:<8} {text}")
        return 0 if not argv or argv[0] in ("-h", "--help") else 2
    if argv[0] == "demo":
        from .demo import main as demo_main
        return demo_main(argv[1:])
    if argv[0] == "task":
        from .cluster.command_line import main as task_main
        return task_main(argv[1:])
    if argv[0] == "launch":
        from .cluster.launcher import main as launch_main
        return launch_main(argv[1:])
    return 2


if __name__ == "__main__":
    sys.exit(main())
