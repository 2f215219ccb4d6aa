"""`python -m sandbox task`: run one task of a cluster from a terminal (or on another machine).

    python -m sandbox task --cluster '{"ps": ["localhost:2222"], "worker": ["localhost:2223"]}' \\
                           --job_name ps --task_index 0
    python -m sandbox task --cluster cluster.json --job_name worker --task_index 0
    TF_CONFIG='{"cluster": {...}, "task": {"type": "ps", "index": 0}}' python -m sandbox task

The task serves until Ctrl-C (or a Stop request). Every task of a cluster must share one
secret: --secret-file FILE, or $SANDBOX_CLUSTER_SECRET / $SANDBOX_CLUSTER_SECRET_FILE, or by
default ~/.sandbox/cluster_secret (the same for all terminals of one user on one machine).
"""
import argparse
import json
import os
import pathlib
import signal
import sys


def _load_cluster(text):
    path = pathlib.Path(text)
    if not text.lstrip().startswith("{") and path.exists():
        text = path.read_text()
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise SystemExit(f"--cluster must be JSON (or a file holding JSON) like "
                         f"'{{\"ps\": [\"localhost:2222\"], \"worker\": [\"localhost:2223\"]}}': "
                         f"{e}") from None


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m sandbox task", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cluster", help="ClusterSpec as JSON, or a JSON file (default: "
                                          "TF_CONFIG)")
    parser.add_argument("--job_name", "--job-name", dest="job_name")
    parser.add_argument("--task_index", "--task-index", dest="task_index", type=int)
    parser.add_argument("--gpus", type=int, default=0, help="simulated GPUs of this task")
    parser.add_argument("--secret-file", help="file holding the cluster secret")
    args = parser.parse_args(argv)

    from ..runtime import cluster_secret
    from ..runtime.task_server import TaskServer
    from ..train.cluster_spec import ClusterSpec
    from ..train.tf_config import task_from_tf_config

    if args.cluster:
        spec = ClusterSpec(_load_cluster(args.cluster))
        job, index = args.job_name, args.task_index
    else:
        spec, job, index = task_from_tf_config(os.environ)
        job = args.job_name or job
        index = args.task_index if args.task_index is not None else index
        if not spec:
            parser.error("give --cluster, or set TF_CONFIG")
    if job is None or index is None:
        parser.error("give --job_name and --task_index (or a TF_CONFIG with a task)")
    secret = cluster_secret.secret_from_file(args.secret_file) if args.secret_file \
        else cluster_secret.default_secret()
    from ..framework import errors
    try:
        server = TaskServer(spec, job, index, secret=secret, num_gpus=args.gpus)
    except (errors.OpError, ValueError) as e:
        print(f"error: {getattr(e, 'message', e)}", file=sys.stderr)
        return 1
    signal.signal(signal.SIGTERM, lambda *a: server.stop())    # before anyone can send it
    server.start()
    host = spec.task_address(job, index).rpartition(":")[0]
    print(f"Started {server.task} at {host}:{server.address[1]} -- target "
          f"grpc://{host}:{server.address[1]}. Ctrl-C stops it.", flush=True)
    try:
        server.join()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    print(f"Stopped {server.task}.", flush=True)
    return 0
