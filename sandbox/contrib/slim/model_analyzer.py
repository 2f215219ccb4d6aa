"""slim.model_analyzer: how big a model is -- mirrors TensorFlow 1.15's
contrib/slim/python/slim/model_analyzer.py.

    n_params, n_bytes = slim.model_analyzer.analyze_vars(tf.trainable_variables(),
                                                         print_info=True)
    # conv1/weights:0 (float32_ref 5x5x1x32) [800, bytes: 3200]   ...

analyze_ops(graph) adds up the number of elements of every op output instead.
"""
__all__ = ["tensor_description", "analyze_ops", "analyze_vars"]


def tensor_description(var):
    """'(dtype AxBxC)' for a tensor or variable."""
    dims = var.get_shape().as_list() if var.get_shape().ndims is not None else []
    return f"({var.dtype.name} " + "x".join(str(d) for d in dims) + ")"


def analyze_ops(graph, print_info=False):
    """The total number of elements of the outputs of graph's ops (unknown sizes count 0)."""
    if print_info:
        print("---------")
        print("Operations: name -> (type shapes) [size]")
        print("---------")
    total_size = 0
    for op in graph.get_operations():
        op_size = 0
        shapes = []
        for output in op.outputs:
            op_size += output.get_shape().num_elements() or 0
            if output.get_shape():
                shapes.append(tensor_description(output))
        if print_info:
            print(op.name, "\t->", ", ".join(shapes), "[" + str(op_size) + "]")
        total_size += op_size
    return total_size


def analyze_vars(variables, print_info=False):
    """(number of parameters, number of bytes) of `variables`."""
    if print_info:
        print("---------")
        print("Variables: name (type shape) [size]")
        print("---------")
    total_size = total_bytes = 0
    for var in variables:
        var_size = var.get_shape().num_elements() or 0
        var_bytes = var_size * var.dtype.size
        total_size += var_size
        total_bytes += var_bytes
        if print_info:
            print(var.name, tensor_description(var), f"[{var_size}, bytes: {var_bytes}]")
    if print_info:
        print(f"Total size of variables: {total_size}")
        print(f"Total bytes of variables: {total_bytes}")
    return total_size, total_bytes
