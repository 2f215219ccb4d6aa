"""Local clusters and task launching.

LocalCluster starts every task of a cluster as its own process on this machine;
TFConfigClusterResolver reads the TF_CONFIG environment variable as TensorFlow does;
`python -m sandbox task ...` runs one task from the command line.
"""
from ..train.tf_config import TFConfigClusterResolver, task_from_tf_config

__all__ = ["LocalCluster", "TFConfigClusterResolver", "task_from_tf_config"]


def __getattr__(name):
    if name == "LocalCluster":
        from .local_cluster import LocalCluster
        return LocalCluster
    raise AttributeError(f"module 'sandbox.cluster' has no attribute {name!r}")
