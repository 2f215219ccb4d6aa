"""`tf.graph_util` -- the names of TensorFlow 1.15's tf.graph_util namespace (TF's generated
api/_v1/graph_util/__init__.py): freezing and pruning graph_defs, sandbox/framework/
graph_util.py (see it for how), and tf.import_graph_def (framework/importer.py).

    frozen = tf.graph_util.convert_variables_to_constants(sess, sess.graph_def, ["softmax"])
    tf.train.write_graph(frozen, "/tmp/model", "frozen.pb", as_text=False)
"""
from ..framework.graph_util import (  # noqa: F401
    convert_variables_to_constants, extract_sub_graph, must_run_on_cpu, remove_training_nodes,
    tensor_shape_from_node_def_name,
)
from ..framework.importer import import_graph_def  # noqa: F401

__all__ = ["convert_variables_to_constants", "extract_sub_graph", "import_graph_def",
           "must_run_on_cpu", "remove_training_nodes", "tensor_shape_from_node_def_name"]
