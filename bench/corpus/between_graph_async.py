"""Between-graph replication, asynchronous -- the classic distributed TF-1 tutorial: one ps
task and two workers, each task its own process with a tf.train.Server; every worker builds
the same graph under tf.train.replica_device_setter (variables on the ps, compute on itself)
and trains the tf.layers perceptron (784 -> 128 relu -> 10) with plain SGD under a
tf.train.Supervisor (as TF's dist_test/mnist_replica.py does; recovery_wait_secs=1 so the
other worker joins within a second instead of TF's 30) until the shared global step reaches
--steps. Worker 0, the chief, initializes the variables and reports the test accuracy.

Run as it is, the program starts the cluster itself (corpus_common.run_cluster: the same
script in three subprocesses, on free local ports); with --job_name it is one task.

    python bench/corpus/between_graph_async.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import sys
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
if not args.job_name:
    sys.exit(corpus_common.run_cluster(__file__, args, num_ps=1, num_workers=2))
tf = corpus_common.import_tf(args.framework)
begin = time.time()

cluster = tf.train.ClusterSpec({"ps": args.ps_hosts.split(","),
                                "worker": args.worker_hosts.split(",")})
server = tf.train.Server(cluster, job_name=args.job_name, task_index=args.task_index)
if args.job_name == "ps":
    server.join()
    sys.exit(0)

train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)
is_chief = args.task_index == 0
tf.set_random_seed(args.seed)
with tf.device(tf.train.replica_device_setter(
        worker_device="/job:worker/task:%d" % args.task_index, cluster=cluster)):
    global_step = tf.train.get_or_create_global_step()
    x = tf.placeholder(tf.float32, [None, 784], name="x")
    labels = tf.placeholder(tf.int64, [None], name="labels")
    hidden = tf.layers.dense(x, 128, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(hidden, 10, name="logits")
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))

    init_op = tf.global_variables_initializer()

sv = tf.train.Supervisor(is_chief=is_chief, init_op=init_op, global_step=global_step,
                         recovery_wait_secs=1)
stream = corpus_common.batches(len(train_x), 100, args.seed + args.task_index)
local_steps, cost = 0, float("nan")
sess = sv.prepare_or_wait_for_session(server.target)
step = sess.run(global_step)
while step < args.steps:
    batch = next(stream)
    _, cost = sess.run([train_op, loss], {x: train_x[batch], labels: train_y[batch]})
    step = sess.run(global_step)
    local_steps += 1
test_loss, test_acc = sess.run([loss, accuracy], {x: test_x, labels: test_y})
corpus_common.report(args, cost, test_acc, begin, test_loss=float(test_loss),
                     local_steps=local_steps, task_index=args.task_index)
