"""`tf.queue` -- the names of TensorFlow 1.15's tf.queue namespace (TF's generated
api/_v1/queue/__init__.py): the queue classes of sandbox/ops/data_flow_ops.py, the same
classes as tf.FIFOQueue, tf.RandomShuffleQueue, tf.PaddingFIFOQueue, tf.PriorityQueue and
tf.QueueBase.

    q = tf.queue.FIFOQueue(capacity=10, dtypes=[tf.float32], shapes=[[]])
    enqueue = q.enqueue([x])
"""
from ..ops.data_flow_ops import (  # noqa: F401
    FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase, RandomShuffleQueue,
)

__all__ = ["FIFOQueue", "PaddingFIFOQueue", "PriorityQueue", "QueueBase", "RandomShuffleQueue"]
