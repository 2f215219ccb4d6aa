"""`tf.data.experimental.get_single_element` -- mirrors TF 1.15's
python/data/experimental/ops/get_single_element.py and its DatasetToSingleElement kernel
(core/kernels/data/dataset_ops.cc).

    x, y = tf.data.experimental.get_single_element(dataset.batch(1000000))

The one element of a dataset, as tensors in the structure of its elements: one op that runs
the whole pipeline when it runs (no iterator to make or initialize). A dataset with no element
or more than one is an InvalidArgumentError, with TF's messages ("Dataset was empty.",
"Dataset had more than one element."). The op takes the tensors the dataset reads as its
inputs, like Dataset.reduce's ReduceDataset (ops/dataset_ops.py), so a dataset that reads a
placeholder is fed as usual.
"""
from ..framework import errors
from ..framework.graph import get_default_graph
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor_shape import TensorShape
from ..ops.dataset_pipeline import PipelineEnv, iterate
from . import nest
from .dataset_ops import DatasetV1

__all__ = ["get_single_element"]


class DatasetToSingleElement(OpDef):
    """The one element of the dataset `dataset` (a plan), whose tensors are the inputs."""
    uses_context = True
    stateful = True
    differentiable = False
    multi_output = True

    def shape(op):
        return [TensorShape(s) for s in op.get_attr("output_shapes")]

    def kernel(ctx, step, *inputs, dataset=None, output_types=(), output_shapes=()):
        env = PipelineEnv(ctx.name, ctx.resources, ctx.device)
        env.step = step
        elements = iterate(dataset, list(inputs), env)
        element = next(elements, None)
        if element is None:
            raise errors.InvalidArgumentError(ctx.name, None, "Dataset was empty.")
        if next(elements, None) is not None:
            raise errors.InvalidArgumentError(ctx.name, None,
                                              "Dataset had more than one element.")
        return tuple(element)


def get_single_element(dataset):
    """The only element of `dataset`, as tensors (a tuple or dict of them, as its elements)."""
    if not isinstance(dataset, DatasetV1):
        raise TypeError("Invalid `dataset`. Expected a `tf.data.Dataset` object but got "
                        f"{type(dataset)}.")
    plan, tensors = dataset._plan_and_tensors()
    specs = dataset._flat_specs()
    outputs = apply_op("DatasetToSingleElement", tensors,
                       {"dataset": plan, "output_types": [s.dtype for s in specs],
                        "output_shapes": [s.shape for s in specs]},
                       name="DatasetToSingleElement", output_dtypes=[s.dtype for s in specs],
                       graph=get_default_graph())
    outputs = outputs if isinstance(outputs, (list, tuple)) else [outputs]
    return nest.pack_sequence_as(dataset._structure, list(outputs))
