"""Ready-made experiments on the seed's MNIST job: locally (seed_mnist) and on a local
cluster, asynchronously or synchronously (cluster_run)."""
from .seed_mnist import SeedModel, build_seed_model, train_locally, evaluate
from .cluster_run import Experiment, SharedData, run_experiment

__all__ = ["SeedModel", "build_seed_model", "train_locally", "evaluate", "Experiment",
           "SharedData", "run_experiment"]
