"""tf.tables_initializer (ops/lookup_ops.py): a NoOp named init_all_tables when the graph has
no table initializers (as in TF), a group of them when it has."""
import sandbox as tf


def test_tables_initializer_without_tables_is_a_no_op_a_session_runs():
    with tf.Graph().as_default():
        init = tf.tables_initializer()
        assert (init.type, init.name) == ("NoOp", "init_all_tables")
        v = tf.Variable(3.0)
        with tf.Session() as sess:
            sess.run(tf.group(tf.global_variables_initializer(), tf.tables_initializer()))
            assert sess.run(v) == 3.0
        assert tf.initialize_all_tables(name="t").name == "t"


def test_tables_initializer_runs_what_the_collection_holds():
    with tf.Graph().as_default():
        v = tf.Variable(0.0)
        tf.add_to_collection(tf.GraphKeys.TABLE_INITIALIZERS, tf.assign(v, 5.0))
        init = tf.tables_initializer()
        assert init.type == "NoOp" and len(init.control_inputs) == 1
        with tf.Session() as sess:
            sess.run(init)
            assert sess.run(v) == 5.0
