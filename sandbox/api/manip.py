"""`tf.manip` -- the names of TensorFlow 1.15's tf.manip namespace (TF's generated
api/_v1/manip/__init__.py): TF 1.x's first home of `roll`, and the TF-2 spelling of a few
array ops. Each is the top-level function of the same name (`tf.manip.tile is tf.tile`):

    shifted = tf.manip.roll(x, shift=1, axis=0)

roll is sandbox/ops/manip_ops.py's; reshape and reverse array_ops.py's; tile slicing_ops.py's;
gather_nd and scatter_nd indexing_ops.py's; the *_nd space ops space_ops.py's.
"""
from ..ops.array_ops import reshape, reverse  # noqa: F401
from ..ops.indexing_ops import gather_nd, scatter_nd  # noqa: F401
from ..ops.manip_ops import roll  # noqa: F401
from ..ops.slicing_ops import tile  # noqa: F401
from ..ops.space_ops import batch_to_space_nd, space_to_batch_nd  # noqa: F401

__all__ = ["batch_to_space_nd", "gather_nd", "reshape", "reverse", "roll", "scatter_nd",
           "space_to_batch_nd", "tile"]
