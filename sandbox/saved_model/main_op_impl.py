"""tf.saved_model.main_op -- TF's python/saved_model/main_op_impl.py: the op a SavedModel's
loader runs after restoring the variables (pass it as `main_op=` to SavedModelBuilder)."""
from ..framework.graph import get_default_graph

__all__ = ["main_op", "main_op_with_restore"]


def main_op():
    """A group of the initializers of the global and local variables and of the tables."""
    from ..ops.control_flow_ops import group
    from ..ops.lookup_ops import tables_initializer
    from ..ops.variables import global_variables_initializer, local_variables_initializer
    return group(global_variables_initializer(), local_variables_initializer(),
                 tables_initializer())


def main_op_with_restore(restore_op_name):
    """main_op(), then the op named `restore_op_name`."""
    from ..ops.control_flow_ops import group
    init = main_op()
    with get_default_graph().control_dependencies([init]):
        return group(get_default_graph().as_graph_element(restore_op_name))
