"""The tags of a MetaGraphDef in a SavedModel -- TF's python/saved_model/tag_constants.py.
A SavedModel may hold several meta graphs; loader.load picks the one whose tags are exactly
the set asked for (e.g. [tag_constants.SERVING])."""
__all__ = ["SERVING", "TRAINING", "GPU", "TPU"]

SERVING = "serve"       # the graph for serving (TensorFlow Serving loads this one)
TRAINING = "train"      # the graph for training
GPU = "gpu"             # the graph for GPUs
TPU = "tpu"             # the graph for TPUs
