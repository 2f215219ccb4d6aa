"""tf.profiler (sandbox/profiler/): the reports TensorFlow 2.15.1 printed for the same graphs
(tf.compat.v1 with disable_v2_behavior, so variables are VariableV2 as in TF 1.15) are printed
here character for character: parameters and float operations, by scope and by op type, with
TF's filters (show, hide, start, trim, depth) and columns. Then what only the sandbox can
show: the time of each op of a traced step, on a local session and on a cluster, where the
'device' column names the task each op ran on.
"""
import pytest

import sandbox as tf

B = tf.profiler.ProfileOptionBuilder

# TensorFlow 2.15.1's whole stdout for profile(graph) (trainable_variables_parameter).
TF_PARAMS_REPORT = (
    '\n'
    '=========================Options=============================\n'
    '-max_depth                  10000\n'
    '-min_bytes                  0\n'
    '-min_peak_bytes             0\n'
    '-min_residual_bytes         0\n'
    '-min_output_bytes           0\n'
    '-min_micros                 0\n'
    '-min_accelerator_micros     0\n'
    '-min_cpu_micros             0\n'
    '-min_params                 0\n'
    '-min_float_ops              0\n'
    '-min_occurrence             0\n'
    '-step                       -1\n'
    '-order_by                   name\n'
    '-account_type_regexes       _trainable_variables\n'
    '-start_name_regexes         .*\n'
    '-trim_name_regexes          \n'
    '-show_name_regexes          .*\n'
    '-hide_name_regexes          \n'
    '-account_displayed_op_only  true\n'
    '-select                     params\n'
    '-output                     stdout:\n'
    '\n'
    '==================Model Analysis Report======================\n'
    '\n'
    'Doc:\n'
    'scope: The nodes in the model graph are organized by their names, which is hiera'
    'rchical like filesystem.\n'
    'param: Number of parameters (in the Variable).\n'
    '\n'
    'Profile:\n'
    'node name | # parameters\n'
    '_TFProfRoot (--/1.56k params)\n'
    '  conv (--/112 params)\n'
    '    conv/bias (4, 4/4 params)\n'
    '    conv/kernel (3x3x3x4, 108/108 params)\n'
    '  dense (--/1.45k params)\n'
    '    dense/b (10, 10/10 params)\n'
    '    dense/w (144x10, 1.44k/1.44k params)\n'
    '\n'
    '======================End of Report==========================\n')

# The "Profile:" part of TensorFlow 2.15.1's other reports of the same graph.
TF_FLOPS_BY_SCOPE = (
    'node name | # float_ops\n'
    '_TFProfRoot (--/284.93k flops)\n'
    '  conv/Conv2D (248.83k/248.83k flops)\n'
    '  dense/MatMul (23.04k/23.04k flops)\n'
    '  conv/BiasAdd (4.61k/4.61k flops)\n'
    '  conv/MaxPool (4.61k/4.61k flops)\n'
    '  dense/w/Initializer/random_uniform (1.44k/2.88k flops)\n'
    '    dense/w/Initializer/random_uniform/mul (1.44k/1.44k flops)\n'
    '    dense/w/Initializer/random_uniform/sub (1/1 flops)\n'
    '  Softmax (400/400 flops)\n'
    '  conv/kernel/Initializer/random_uniform (108/217 flops)\n'
    '    conv/kernel/Initializer/random_uniform/mul (108/108 flops)\n'
    '    conv/kernel/Initializer/random_uniform/sub (1/1 flops)\n'
    '  Mean (80/80 flops)\n'
    '  Square (80/80 flops)\n'
    '  dense/BiasAdd (80/80 flops)\n'
    '  Sum (79/79 flops)\n'
    '  dense/b/Initializer/random_uniform (10/21 flops)\n'
    '    dense/b/Initializer/random_uniform/mul (10/10 flops)\n'
    '    dense/b/Initializer/random_uniform/sub (1/1 flops)\n')
TF_SHOWN_DENSE = (
    'node name | # float_ops\n'
    '_TFProfRoot (--/23.12k flops)\n'
    '  dense/BiasAdd (80/80 flops)\n'
    '  dense/MatMul (23.04k/23.04k flops)\n')
TF_HIDE_START_INPUT_SHAPES = (
    'node name | # float_ops | input shapes\n'
    '_TFProfRoot (--/284.93k flops, )\n'
    '  conv/BiasAdd (4.61k/4.61k flops, 0:8x12x12x4|1:4)\n'
    '  conv/MaxPool (4.61k/4.61k flops, 0:8x12x12x4)\n'
    '  conv/kernel/Initializer/random_uniform (108/217 flops, 0:3x3x3x4|1:1)\n'
    '    conv/kernel/Initializer/random_uniform/mul (108/108 flops, 0:3x3x3x4|1:1)\n'
    '    conv/kernel/Initializer/random_uniform/sub (1/1 flops, 0:1|1:1)\n')
TF_TRIMMED = (
    'node name | # parameters\n'
    '_TFProfRoot (--/108 params)\n'
    '  conv/kernel (3x3x3x4, 108/108 params)\n')
TF_FLOPS_BY_OP_TYPE = (
    'node name | # float_ops\n'
    'Conv2D                   248.83k float_ops (100.00%, 88.30%)\n'
    'MatMul                   23.04k float_ops (11.70%, 8.18%)\n'
    'BiasAdd                  4.69k float_ops (3.53%, 1.66%)\n'
    'MaxPool                  4.61k float_ops (1.86%, 1.64%)\n'
    'Softmax                    400 float_ops (0.23%, 0.14%)\n'
    'Mean                        80 float_ops (0.08%, 0.03%)\n'
    'Square                      80 float_ops (0.06%, 0.03%)\n'
    'Sum                         79 float_ops (0.03%, 0.03%)\n')
TF_PARAMS_BY_OP_TYPE = (
    'node name | # parameters | op types | op occurrence (run|defined)\n'
    'VariableV2               1.56k params (100.00%, 100.00%), VariableV2|_trainable_'
    'variables,        0|4\n')


def _graph(random_init=True):
    """A small conv net with fixed shapes (so every op's float operations are known)."""
    def init(value):
        return None if random_init else tf.constant_initializer(value)
    x = tf.placeholder(tf.float32, [8, 12, 12, 3], name="images")
    with tf.variable_scope("conv"):
        k = tf.get_variable("kernel", [3, 3, 3, 4], initializer=init(0.1))
        b = tf.get_variable("bias", [4], initializer=tf.zeros_initializer())
        h = tf.nn.relu(tf.nn.bias_add(tf.nn.conv2d(x, k, [1, 1, 1, 1], "SAME"), b))
        h = tf.nn.max_pool(h, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    with tf.variable_scope("dense"):
        w = tf.get_variable("w", [6 * 6 * 4, 10], initializer=init(0.01))
        tf.get_variable("step", [], trainable=False, initializer=tf.zeros_initializer())
        logits = tf.nn.bias_add(tf.matmul(tf.reshape(h, [8, 144]), w),
                                tf.get_variable("b", [10], initializer=init(0.0)))
    probs = tf.nn.softmax(logits)
    tf.reduce_mean(probs, axis=0)
    tf.reduce_sum(tf.square(logits))
    return x, logits


def _profile_part(capsys, **kwargs):
    """Runs tf.profiler.profile and returns (the printed 'Profile:' part, the answer)."""
    answer = tf.profiler.profile(tf.get_default_graph(), **kwargs)
    printed = capsys.readouterr().out
    return printed.split("Profile:\n", 1)[1].split("\n======================End of Report")[0], \
        answer


def test_parameters_by_scope_print_tfs_report_and_answer_its_tree(capsys):
    with tf.Graph().as_default():
        _graph()
        answer = tf.profiler.profile(tf.get_default_graph())   # the default options
        assert capsys.readouterr().out == TF_PARAMS_REPORT
    assert type(answer).__name__ == "GraphNodeProto" and answer.name == "_TFProfRoot"
    assert answer.total_parameters == 3 * 3 * 3 * 4 + 4 + 144 * 10 + 10
    assert [(c.name, c.total_parameters) for c in answer.children] == [("conv", 112),
                                                                        ("dense", 1450)]
    assert [(g.name, g.parameters) for g in answer.children[1].children] == [
        ("dense/b", 10), ("dense/w", 1440)]          # dense/step is not trainable: not counted


def test_float_operations_by_scope_and_tfs_filters(capsys):
    with tf.Graph().as_default():
        _graph()
        text, answer = _profile_part(capsys, options=B.float_operation())
        assert text == TF_FLOPS_BY_SCOPE
        # Conv2D: 2 * output elements (8*12*12*4) * filter (3*3*3); MatMul: 2 * k * m * n
        assert answer.children[0].name == "conv/Conv2D"
        assert answer.children[0].float_ops == 2 * 8 * 12 * 12 * 4 * 27
        assert answer.children[1].float_ops == 2 * 144 * 8 * 10
        opts = (B(B.float_operation()).with_node_names(show_name_regexes=["dense.*"])
                .order_by("name").with_max_depth(3).build())
        assert _profile_part(capsys, options=opts)[0] == TF_SHOWN_DENSE
        opts = (B(B.float_operation())
                .with_node_names(hide_name_regexes=["conv/Conv2D"], start_name_regexes=["conv"])
                .account_displayed_op_only(False).select(["float_ops", "input_shapes"]).build())
        assert _profile_part(capsys, options=opts)[0] == TF_HIDE_START_INPUT_SHAPES
        opts = (B(B.trainable_variables_parameter()).with_node_names(trim_name_regexes=["dense"])
                .with_min_parameters(5).build())
        text, answer = _profile_part(capsys, options=opts)
        assert text == TF_TRIMMED and answer.total_parameters == 108


def test_op_view_chains_op_types_with_tfs_percentages(capsys):
    with tf.Graph().as_default():
        _graph(random_init=False)
        text, answer = _profile_part(capsys, cmd="op", options=B.float_operation())
        assert text == TF_FLOPS_BY_OP_TYPE
        assert type(answer).__name__ == "MultiGraphNodeProto"
        chain = []
        node = answer
        while node.children:                     # TF's children: one op type inside the other
            node = node.children[0]
            chain.append((node.name, node.float_ops, node.total_float_ops))
        assert [name for name, _, _ in chain] == ["Conv2D", "MatMul", "BiasAdd", "MaxPool",
                                                  "Softmax", "Mean", "Square", "Sum"]
        assert chain[-1][1] == chain[-1][2] and answer.total_float_ops == chain[0][2]
        assert [g.name for g in answer.children[0].children[0].children[0].graph_nodes] == [
            "conv/BiasAdd", "dense/BiasAdd"]
        opts = B(B.trainable_variables_parameter()).select(
            ["params", "occurrence", "op_types"]).build()
        assert _profile_part(capsys, cmd="op", options=opts)[0] == TF_PARAMS_BY_OP_TYPE


def test_incomplete_shapes_are_reported_and_op_log_types_are_accounted(capsys):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 4])
        w = tf.Variable(tf.ones([4, 3]), name="w")
        tf.matmul(x, w, name="mm")
        answer = tf.profiler.profile(options=B.float_operation())
        captured = capsys.readouterr()
        assert "1 ops no flops stats due to incomplete shapes." in captured.err
        assert answer.total_float_ops == 0
        opts = B(B.trainable_variables_parameter()).with_accounted_types(["_mine"]).build()
        answer = tf.profiler.profile(op_log={"mm": ["_mine"]}, options=opts)
        assert [c.name for c in answer.children] == ["mm"]   # only the op given the type


def test_traced_steps_give_each_ops_time_on_a_local_session(capsys, tmp_path):
    with tf.Graph().as_default():
        x, logits = _graph()
        import numpy as np
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            profiler = tf.profiler.Profiler(sess.graph)
            for step in range(2):
                run_meta = tf.RunMetadata()
                sess.run(logits, {x: np.ones([8, 12, 12, 3], np.float32)},
                         options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                         run_metadata=run_meta)
                profiler.add_step(step, run_meta)
        out = tmp_path / "report.txt"
        opts = (B(B.time_and_memory(min_bytes=0)).select(["micros", "occurrence", "device"])
                .with_file_output(str(out)).build())
        answer = profiler.profile_operations(opts)
        assert capsys.readouterr().out == ""               # the report went to the file
        text = out.read_text()
        assert text.startswith("\nDoc:\nop: The nodes are operation kernel type")
        node, by_type = answer, {}
        while node.children:
            node = node.children[0]
            by_type[node.name] = node
        for op_type in ("Conv2D", "MatMul", "MaxPool", "Relu"):
            assert by_type[op_type].exec_micros >= 1, op_type
            assert op_type in text
        assert by_type["Conv2D"].graph_nodes[0].run_count == 1   # the average of 2 steps
        assert answer.total_exec_micros == sum(n.exec_micros for n in by_type.values())
        one = profiler.profile_name_scope(B(B.time_and_memory(min_bytes=0)).with_step(1)
                                          .with_empty_output().build())
        assert one.total_exec_micros > 0 and capsys.readouterr().out == ""
        missing = profiler.profile_name_scope(B(B.time_and_memory()).with_step(7).build())
        assert missing.total_exec_micros == 0
        assert "Options -step=7 not found.\nAvailable steps: 0 1" in capsys.readouterr().err


def test_on_a_cluster_the_device_column_names_the_task_each_op_ran_on(capsys):
    workers, ps_servers = tf.test.create_local_cluster(num_workers=1, num_ps=1)
    try:
        with tf.Graph().as_default():
            with tf.device("/job:ps/task:0"):
                w = tf.Variable(tf.ones([4, 3]), name="w")
            with tf.device("/job:worker/task:0"):
                y = tf.reduce_sum(tf.matmul(tf.ones([2, 4]), w, name="mm"), name="total")
            with tf.Session(workers[0].target) as sess:
                sess.run(w.initializer)
                run_meta = tf.RunMetadata()
                assert sess.run(y, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
                                run_metadata=run_meta) == 24.0
            opts = B(B.time_and_memory(min_bytes=0)).select(["micros", "device"]).build()
            answer = tf.profiler.profile(run_meta=run_meta, options=opts)
        text = capsys.readouterr().out
        devices = {}

        def walk(node):
            devices[node.name] = node.devices
            for child in node.children:
                walk(child)
        walk(answer)
        assert devices["mm"] == ["/job:worker/replica:0/task:0/device:cpu:0"]
        assert devices["w"] == ["/job:ps/replica:0/task:0/device:cpu:0"]
        assert "/job:ps/replica:0/task:0/device:cpu:0" in text
    finally:
        for server in workers + ps_servers:
            server.stop()


def test_what_the_profiler_refuses_says_why():
    with tf.Graph().as_default():
        _graph()
        with pytest.raises(ValueError, match="select \\['flops'\\] is not a column"):
            tf.profiler.profile(options=B(B.float_operation()).select(["flops"]).build())
        with pytest.raises(ValueError, match="order_by 'size' is not one of"):
            tf.profiler.profile(options=B().order_by("size").build())
        with pytest.raises(NotImplementedError, match="'graph' view"):
            tf.profiler.profile(cmd="graph")
        with pytest.raises(tf.errors.InvalidArgumentError, match="unknown cmd: tree"):
            tf.profiler.profile(cmd="tree")
        with pytest.raises(NotImplementedError, match="Timeline"):
            tf.profiler.profile(options=B().with_timeline_output("/tmp/t.json").build())
        with pytest.raises(ValueError, match="holds no traced step"):
            tf.profiler.Profiler().add_step(0, tf.RunMetadata())
        with pytest.raises(NotImplementedError, match="advise is not in the sandbox"):
            tf.profiler.advise()
