"""The seed job, built and timed round by round -- the workload of the step benchmarks, written
once for both sides: the sandbox's (bench_cluster.py, bench_route.py, tests/runtime/test_route.py) and
TensorFlow's gRPC runtime (tf_step_baseline.py, under a Python that has TensorFlow). The TF-1
program it mirrors is seed 002's between-graph MNIST job (bench/seed_002_mnist.py): its
variables on the ps, its compute on the worker.

Every function takes the module `tf` to build with -- `import sandbox as tf` or TensorFlow's
compat.v1 -- so this file imports neither, and both benchmarks import it (neither imports the
other).
"""
import contextlib
import time

__all__ = ["WARM_UP_STEPS", "build_seed_job", "warm_round_ms", "seed_job"]

# Steps run, untimed, right before each timed round of every contender. The rounds take turns,
# so each one starts after the others' rounds, idle: the sandbox's first steps after 0.5 s of
# idling took 6.2, 4.7 and ~3.3 ms against 2.3 ms steady (8 rounds here), ~25 ms more per
# round -- a cost of the turns, not of training, where steps follow each other.
WARM_UP_STEPS = 30


def build_seed_job(tf, ps_device="/job:ps/task:0", worker_device="/job:worker/task:0"):
    """The seed's network with its variables on the ps and its compute on the worker
    (what replica_device_setter does for it)."""
    with tf.device(ps_device):
        global_step = tf.Variable(0, name="global_step", trainable=False)
        w1 = tf.Variable(tf.random_normal([784, 100], seed=1), name="w1")
        w2 = tf.Variable(tf.random_normal([100, 10], seed=2), name="w2")
        b1 = tf.Variable(tf.zeros([100]), name="b1")
        b2 = tf.Variable(tf.zeros([10]), name="b2")
    with tf.device(worker_device):
        x = tf.placeholder(tf.float32, [None, 784], name="x")
        y_ = tf.placeholder(tf.float32, [None, 10], name="y_")
        a2 = tf.nn.sigmoid(tf.add(tf.matmul(x, w1), b1))
        y = tf.nn.softmax(tf.add(tf.matmul(a2, w2), b2))
        loss = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y), reduction_indices=[1]))
        train_op = tf.train.GradientDescentOptimizer(0.001).minimize(loss,
                                                                     global_step=global_step)
    return x, y_, loss, train_op, tf.global_variables_initializer()


def warm_round_ms(step, items):
    """Calls step(item) on the first WARM_UP_STEPS items untimed, then on every item of
    `items`; returns the milliseconds per call of the timed part (one round)."""
    for item in items[:WARM_UP_STEPS]:
        step(item)
    start = time.perf_counter()
    for item in items:
        step(item)
    return 1000 * (time.perf_counter() - start) / len(items)


@contextlib.contextmanager
def seed_job(tf, target, batches, devices=("/job:ps/task:0", "/job:worker/task:0")):
    """Builds the seed job with module `tf` (the sandbox or TensorFlow's compat.v1: the
    TensorFlow baseline, tf_step_baseline.py, uses this too), its variables on devices[0] and
    its compute on devices[1] and initializes it through a Session on `target`; yields
    `one_round()`, which warms up on WARM_UP_STEPS batches, then runs a round over `batches`
    and returns its milliseconds per step."""
    graph = tf.Graph()
    with graph.as_default():
        x, y_, loss, train_op, init = build_seed_job(tf, *devices)
    with tf.Session(target, graph=graph) as sess:
        sess.run(init)

        def step(batch):
            sess.run([train_op, loss], {x: batch[0], y_: batch[1]})
        yield lambda: warm_round_ms(step, batches)
