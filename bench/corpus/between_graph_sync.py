"""Between-graph replication, synchronous -- the classic distributed TF-1 tutorial with
tf.train.SyncReplicasOptimizer: each step of the shared global step averages one gradient from
each of the two workers (replicas_to_aggregate=2); stale gradients are dropped. One ps
task and two workers, each task its own process with a tf.train.Server; every worker builds
the same graph under tf.train.replica_device_setter (variables on the ps, compute on itself)
and trains the tf.layers perceptron (784 -> 128 relu -> 10) with SGD wrapped in
SyncReplicasOptimizer under a tf.train.Supervisor (as TF's dist_test/mnist_replica.py
does; recovery_wait_secs=1 so the other worker joins within a second instead of TF's 30)
until the shared global step reaches --steps. Worker 0, the chief, initializes the
variables, fills the token queue, runs the chief queue runner (which applies the averaged
gradients) and reports the test accuracy.

Run as it is, the program starts the cluster itself (corpus_common.run_cluster: the same
script in three subprocesses, on free local ports); with --job_name it is one task.

    python bench/corpus/between_graph_sync.py --sandbox|--tf [--data_dir DIR] [--steps N]
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
    opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.5),
                                         replicas_to_aggregate=2, total_num_replicas=2)
    train_op = opt.minimize(loss, global_step=global_step)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), labels), tf.float32))

    init_op = tf.global_variables_initializer()
    local_init_op = opt.chief_init_op if is_chief else opt.local_step_init_op
    chief_queue_runner = opt.get_chief_queue_runner()
    init_tokens_op = opt.get_init_tokens_op()

sv = tf.train.Supervisor(is_chief=is_chief, init_op=init_op, local_init_op=local_init_op,
                         ready_for_local_init_op=opt.ready_for_local_init_op,
                         global_step=global_step, recovery_wait_secs=1)
stream = corpus_common.batches(len(train_x), 100, args.seed + args.task_index)
local_steps, cost = 0, float("nan")
sess = sv.prepare_or_wait_for_session(server.target)
if is_chief:
    sess.run(init_tokens_op)
    sv.start_queue_runners(sess, [chief_queue_runner])
step = sess.run(global_step)
while step < args.steps:
    batch = next(stream)
    _, cost = sess.run([train_op, loss], {x: train_x[batch], labels: train_y[batch]})
    step = sess.run(global_step)
    local_steps += 1
test_loss, test_acc = sess.run([loss, accuracy], {x: test_x, labels: test_y})
corpus_common.report(args, cost, test_acc, begin, test_loss=float(test_loss),
                     local_steps=local_steps, task_index=args.task_index)
