"""Exercise 1 -- balance two parameter servers (solution: greedy by bytes, and 2 shards).

The model below (seed 002's MNIST network beside a 100,000 x 64 embedding) is placed with
replica_device_setter's default, round robin, on 2 ps tasks: ps 0 ends up with the embedding
AND W1 -- 25.9 MB -- and ps 1 with 4 kB. Run it and read the last lines.

TODO: make the largest ps hold at most 1.5 times what the smallest holds, without changing
the model (the same parameters, the same number of bytes in all):
  1. pass ps_strategy=tf.train.GreedyLoadBalancingStrategy(PS_TASKS, tf.train.byte_size_load_fn)
     to replica_device_setter (TF 1.15: tf.contrib.training.GreedyLoadBalancingStrategy). Is
     that enough? Why not?
  2. cut the embedding into 2 shards: give its tf.get_variable
     partitioner=tf.fixed_size_partitioner(2). It returns a PartitionedVariable, two variables
     embedding/part_0 and embedding/part_1 of 50,000 rows each, placed one by one; the same
     embedding_lookup looks each id up in its shard ('mod' strategy: id i is row i // 2 of
     shard i % 2).

Check: pytest lessons/06_between_graph_replication -k balance
"""
import re

import sandbox as tf

PS_TASKS = 2
ROWS, DIM = 100000, 64


def build_model(ids):
    """The model's variables and its looked-up rows for `ids`."""
    embedding = tf.get_variable("embedding", [ROWS, DIM],
                                partitioner=tf.fixed_size_partitioner(2))
    rows = tf.nn.embedding_lookup(embedding, ids)
    tf.train.get_or_create_global_step()
    tf.get_variable("W1", [784, 100])
    tf.get_variable("W2", [100, 10])
    tf.get_variable("b1", [100], initializer=tf.zeros_initializer())
    tf.get_variable("b2", [10], initializer=tf.zeros_initializer())
    return rows


def main():
    ids = tf.placeholder(tf.int32, [None], name="ids")
    with tf.device(tf.train.replica_device_setter(
            ps_tasks=PS_TASKS, worker_device="/job:worker/task:0",
            ps_strategy=tf.train.GreedyLoadBalancingStrategy(PS_TASKS,
                                                             tf.train.byte_size_load_fn))):
        rows = build_model(ids)
    totals = [0] * PS_TASKS
    for v in tf.global_variables():
        task = int(re.search(r"/job:ps/task:(\d+)", v.device).group(1))
        size = v.shape.num_elements() * v.dtype.base_dtype.size
        totals[task] += size
        print("%-12s -> ps %d  %12s bytes" % (v.op.name, task, "{:,}".format(size)))
    print("the lookup gives %s for %s ids" % (rows.shape, ids.shape))
    for task, total in enumerate(totals):
        print("ps %d holds %s bytes" % (task, "{:,}".format(total)))
    print("all ps hold %s bytes" % "{:,}".format(sum(totals)))
    print("largest / smallest ps: %.2f" % (max(totals) / float(min(totals))))


if __name__ == "__main__":
    main()
