"""Where replica_device_setter puts the variables of a model on 2 ps tasks -- round robin,
GreedyLoadBalancingStrategy by bytes, and greedy with the big embedding split in two shards.

The model: seed 002's MNIST network (W1 784x100, W2 100x10, b1, b2, global_step) beside a
100,000 x 64 embedding (25.6 MB) made first, as a recommender or a text model would. No cluster
is needed: a device function only names devices; this program prints the names and adds up
the bytes each ps would hold.

    python lessons/06_between_graph_replication/placement.py
"""
import re

import sandbox as tf

PS_TASKS = 2
ROWS, DIM = 100000, 64

# TF 1.15 names the greedy strategy tf.contrib.training.GreedyLoadBalancingStrategy; the
# sandbox also has it as tf.train.GreedyLoadBalancingStrategy. TF 2 dropped contrib, so there
# this program uses the same lines of TF 1.15's code, below.
if hasattr(tf.train, "GreedyLoadBalancingStrategy"):
    GreedyLoadBalancingStrategy = tf.train.GreedyLoadBalancingStrategy
    byte_size_load_fn = tf.train.byte_size_load_fn
else:
    class GreedyLoadBalancingStrategy(object):
        """Each ps op goes to the ps task with the smallest load so far."""

        def __init__(self, num_tasks, load_fn):
            self._num_tasks = num_tasks
            self._load_fn = load_fn
            self._ps_loads = [0] * num_tasks

        def __call__(self, op):
            task = self._ps_loads.index(min(self._ps_loads))
            self._ps_loads[task] += self._load_fn(op)
            return task

    def byte_size_load_fn(op):
        """The bytes of the op's one output (a variable: its shape x its dtype's size)."""
        shape = op.outputs[0].get_shape()
        if not shape.is_fully_defined():
            shape = tf.TensorShape(op.get_attr("shape"))
        return shape.num_elements() * op.outputs[0].dtype.base_dtype.size


def build_model(shards=1):
    """The variables, in the order a program creates them (the order matters to both
    strategies). With shards > 1 the embedding is a partitioned variable: `shards` variables
    embedding/part_0, embedding/part_1 ... of ROWS/shards rows, which the device function
    places one by one."""
    partitioner = tf.fixed_size_partitioner(shards) if shards > 1 else None
    embedding = tf.get_variable("embedding", [ROWS, DIM], partitioner=partitioner)
    ids = tf.placeholder(tf.int32, [None], name="ids")
    looked_up = tf.nn.embedding_lookup(embedding, ids)
    global_step = tf.train.get_or_create_global_step()
    W1 = tf.get_variable("W1", [784, 100])
    W2 = tf.get_variable("W2", [100, 10])
    b1 = tf.get_variable("b1", [100], initializer=tf.zeros_initializer())
    b2 = tf.get_variable("b2", [10], initializer=tf.zeros_initializer())
    return looked_up, global_step, [W1, W2, b1, b2]


def ps_task(variable):
    return int(re.search(r"/job:ps/task:(\d+)", variable.device).group(1))


def nbytes(variable):
    return variable.shape.num_elements() * variable.dtype.base_dtype.size


def show(title, ps_strategy=None, shards=1):
    graph = tf.Graph()
    with graph.as_default():
        with tf.device(tf.train.replica_device_setter(
                ps_tasks=PS_TASKS, worker_device="/job:worker/task:0",
                ps_strategy=ps_strategy)):
            build_model(shards)
        print("== %s" % title)
        totals = [0] * PS_TASKS
        for v in tf.global_variables():
            totals[ps_task(v)] += nbytes(v)
            print("  %-16s %-12s -> ps %d  %12s bytes" % (
                v.op.name, "x".join(str(d) for d in v.shape.as_list()) or "scalar",
                ps_task(v), "{:,}".format(nbytes(v))))
        for task, total in enumerate(totals):
            print("  ps %d holds %12s bytes" % (task, "{:,}".format(total)))
        print("  largest / smallest ps: %.1f" % (max(totals) / float(min(totals))))


show("round robin (the default)")
show("GreedyLoadBalancingStrategy(2, byte_size_load_fn)",
     GreedyLoadBalancingStrategy(PS_TASKS, byte_size_load_fn))
show("greedy, the embedding in 2 shards",
     GreedyLoadBalancingStrategy(PS_TASKS, byte_size_load_fn), shards=2)
