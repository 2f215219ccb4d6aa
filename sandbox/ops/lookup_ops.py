"""tf.tables_initializer -- mirrors TensorFlow's python/ops/lookup_ops.py, the part a TF-1
program calls even when it builds no table: `sess.run(tf.tables_initializer())`, or
`tf.group(tf.global_variables_initializer(), tf.tables_initializer())`.

A lookup table (tf.lookup) adds its initializer to the TABLE_INITIALIZERS collection; this op
runs them all. The sandbox has no lookup tables yet, so the collection holds only what a
program put there itself, and with nothing in it the op is a NoOp -- as in TF.
"""
from ..framework.graph import GraphKeys, get_collection
from .control_flow_ops import group, no_op

__all__ = ["tables_initializer", "initialize_all_tables"]


def tables_initializer(name="init_all_tables"):
    """An op that runs every initializer in the TABLE_INITIALIZERS collection."""
    initializers = get_collection(GraphKeys.TABLE_INITIALIZERS)
    if initializers:
        return group(*initializers, name=name)
    return no_op(name=name)


def initialize_all_tables(name="init_all_tables"):
    """The TF 0.x name of tables_initializer."""
    return tables_initializer(name)
