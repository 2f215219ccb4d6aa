"""Lesson 8: synchronous between-graph training on MNIST with tf.train.SyncReplicasOptimizer.

The program of a TF-1 distributed tutorial: one process per task, the ps serves, the workers
build the same graph under replica_device_setter, worker 0 is the chief. The optimizer is
wrapped in SyncReplicasOptimizer, so each update of the variables averages the gradients of
`replicas_to_aggregate` workers (stale gradients are dropped) and every worker waits at the
token queue until its round has been applied.

    python lessons/08_sync_training/launch.py                          # 1 ps + 2 workers
    python lessons/08_sync_training/launch.py --worker 3 --replicas_to_aggregate=2 \
        --straggler_delay=0.3                                          # a backup worker
    python lessons/08_sync_training/launch.py --stop=own_shard         # the end-of-training hang

or one terminal per task (the hosts below are the defaults):

    python lessons/08_sync_training/sync_mnist.py --job_name=ps --task_index=0
    python lessons/08_sync_training/sync_mnist.py --job_name=worker --task_index=0
    python lessons/08_sync_training/sync_mnist.py --job_name=worker --task_index=1

--stop chooses how training ends:
  last_step  (default) MonitoredTrainingSession with the optimizer's make_session_run_hook and
             a StopAtStepHook(last_step=--train_steps) on EVERY worker: every worker leaves at
             the same global step, so every worker still gets the token it waits for.
  own_shard  the loop a tutorial author wrote and saw hang: a plain Session, and each worker
             leaves after its own shard of batches -- worker i's shard is (i + 1) times
             --train_steps // 2 batches. The chief leaves first; the next worker pushes its
             gradient and waits for a token that no round will ever put in the queue. In
             TensorFlow it waits forever; here --timeout_ms (operation_timeout_in_ms) bounds
             the wait, and the worker reports the DeadlineExceededError.

In both, each worker's sessions have device_filters (the ps and the worker itself): a session
waits for every task it may use, and a worker that creates one after the chief has exited
would otherwise wait for the chief forever. (In TensorFlow a non-chief MonitoredTrainingSession
that finds the model not yet initialized sleeps 30 s before it creates its next session; by
then, in quick mode, the chief is done. That is also why a non-chief worker here waits for the
chief's initialization itself.)

--straggler_delay makes the last worker sleep that many seconds before each step (a slow
machine). With replicas_to_aggregate < number of workers (backup workers) the rounds go on
without it and its late gradients are dropped as stale.

SANDBOX_QUICK=1 shrinks the run (200 global steps instead of 2000).
"""
import os
import sys
import time

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_integer("train_steps", 200 if QUICK else 2000, "Global step to stop at")
flags.DEFINE_integer("replicas_to_aggregate", 0,
                     "Gradients averaged per update (0: the number of workers)")
flags.DEFINE_integer("total_num_replicas", 0, "Workers taking part (0: the number of workers)")
flags.DEFINE_float("straggler_delay", 0.0, "Seconds the last worker sleeps before each step")
flags.DEFINE_string("stop", "last_step", "How training ends: 'last_step' or 'own_shard'")
flags.DEFINE_integer("timeout_ms", 3000, "operation_timeout_in_ms of the own_shard sessions")
flags.DEFINE_float("learning_rate", 0.5, "Learning rate")
flags.DEFINE_integer("batch_size", 100, "Examples per batch")
FLAGS = flags.FLAGS


def main(_):
    ps_hosts = FLAGS.ps_hosts.split(",")
    worker_hosts = FLAGS.worker_hosts.split(",")
    num_workers = len(worker_hosts)
    cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()                      # serves until the launcher stops it
        return

    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)

    index = FLAGS.task_index
    is_chief = index == 0
    name = "worker %d%s" % (index, " (chief)" if is_chief else "")
    replicas_to_aggregate = FLAGS.replicas_to_aggregate or num_workers
    total_num_replicas = FLAGS.total_num_replicas or num_workers
    straggler = num_workers > 1 and index == num_workers - 1 and FLAGS.straggler_delay > 0

    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 784], name="x-input")
        y_ = tf.placeholder(tf.float32, [None, 10], name="y-input")
        tf.set_random_seed(1)
        W1 = tf.Variable(tf.random_normal([784, 100]), name="W1")
        W2 = tf.Variable(tf.random_normal([100, 10]), name="W2")
        b1 = tf.Variable(tf.zeros([100]), name="b1")
        b2 = tf.Variable(tf.zeros([10]), name="b2")
        a2 = tf.nn.sigmoid(tf.add(tf.matmul(x, W1), b1))
        y = tf.nn.softmax(tf.add(tf.matmul(a2, W2), b2))
        cross_entropy = tf.reduce_mean(-tf.reduce_sum(y_ * tf.log(y + 1e-10), axis=[1]))
        accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(y, 1), tf.argmax(y_, 1)),
                                          tf.float32))

        opt = tf.train.SyncReplicasOptimizer(
            tf.train.GradientDescentOptimizer(FLAGS.learning_rate),
            replicas_to_aggregate=replicas_to_aggregate,
            total_num_replicas=total_num_replicas)
        # train_op: push this worker's gradients into the accumulators on the ps, then wait
        # for a token (the barrier); its value is the global step the worker goes on from.
        train_op = opt.minimize(cross_entropy, global_step=global_step)

    print("%s: SyncReplicasOptimizer replicas_to_aggregate=%d total_num_replicas=%d"
          % (name, replicas_to_aggregate, total_num_replicas))
    if is_chief:
        count = len(tf.trainable_variables())
        print("%s: %d trainable variables, so %d ConditionalAccumulators on the ps"
              % (name, count, count))
    if FLAGS.stop == "own_shard":
        local_steps = train_own_shard(server, opt, train_op, cross_entropy, x, y_, mnist, name,
                                      is_chief, straggler)
    else:
        local_steps = train_to_last_step(server, opt, train_op, cross_entropy, accuracy,
                                         global_step, x, y_, mnist, name, is_chief, straggler)
    print("%s: %d local steps" % (name, local_steps))


def train_to_last_step(server, opt, train_op, loss, accuracy, global_step, x, y_, mnist, name,
                       is_chief, straggler):
    """MonitoredTrainingSession + the optimizer's hook + StopAtStepHook on every worker."""
    last_step = FLAGS.train_steps
    # The hook: every worker sets its sync_rep_local_step from global_step; the chief also
    # runs chief_init_op (each accumulator's global step), get_init_tokens_op (the first
    # tokens) and starts get_chief_queue_runner() -- the thread that applies the rounds.
    hooks = [opt.make_session_run_hook(is_chief),
             tf.train.StopAtStepHook(last_step=last_step)]
    # A session waits until every task it may use answers: a worker would wait forever for
    # a chief that has exited. So each worker's sessions use the ps and this worker only.
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
    if not is_chief:
        # TensorFlow's WorkerSessionCreator checks once whether the chief has initialized the
        # model and, if not, sleeps recovery_wait_secs (30 s; MonitoredTrainingSession does
        # not let you change it) before it checks again -- in quick mode the chief would
        # train alone to last_step meanwhile. So wait for the chief here, checking every 0.2 s.
        with tf.Session(server.target, config=config) as probe:
            while len(probe.run(opt.ready_for_local_init_op)):
                time.sleep(0.2)
    local_steps = 0
    begin = time.time()
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief,
                                           config=config, hooks=hooks,
                                           save_checkpoint_secs=None,
                                           save_summaries_steps=None,
                                           log_step_count_steps=None,
                                           stop_grace_period_secs=5) as sess:
        while not sess.should_stop():
            if straggler:
                time.sleep(FLAGS.straggler_delay)
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            # train_op's value: the token it dequeued, the global step this worker goes on from
            step, cost = sess.run([train_op, loss], {x: batch_x, y_: batch_y})
            local_steps += 1
            if local_steps % max(10, FLAGS.train_steps // 10) == 0:
                print("%s: local step %d, global step %d, cost %.4f"
                      % (name, local_steps, step, cost))

        # after the stop a MonitoredSession refuses run(); its raw session does not
        def read(fetch, feed=None):
            return sess.run_step_fn(lambda step_context: step_context.session.run(fetch, feed))
        final_step = read(global_step)
        if is_chief:
            print("%s: Test-Accuracy: %.3f" % (name, read(accuracy, {x: mnist.test.images,
                                                                    y_: mnist.test.labels})))
    print("%s: reached last_step=%d: %s" % (name, last_step, final_step >= last_step))
    print("%s: %.1f local steps/s" % (name, local_steps / (time.time() - begin)))
    return local_steps


def train_own_shard(server, opt, train_op, loss, x, y_, mnist, name, is_chief, straggler):
    """The loop that hangs in TensorFlow: a plain Session, each worker its own shard."""
    index = FLAGS.task_index
    shard_batches = (index + 1) * max(1, FLAGS.train_steps // 2)
    init_op = tf.global_variables_initializer()
    init_tokens_op = opt.get_init_tokens_op()
    chief_queue_runner = opt.get_chief_queue_runner()
    not_ready = opt.ready_for_local_init_op
    config = tf.ConfigProto(operation_timeout_in_ms=FLAGS.timeout_ms,
                            device_filters=["/job:ps", "/job:worker/task:%d" % index])
    sess = tf.Session(server.target, config=config)
    coord, threads = tf.train.Coordinator(), []
    if is_chief:
        sess.run(init_op)
        sess.run(opt.chief_init_op)        # the accumulators' global step, the local step
        sess.run(init_tokens_op)           # replicas_to_aggregate tokens for the first round
        threads = chief_queue_runner.create_threads(sess, coord=coord, daemon=True,
                                                    start=True)
    else:
        while len(sess.run(not_ready)):    # wait for the chief to initialize the variables
            time.sleep(0.2)
        sess.run(opt.local_step_init_op)
    print("%s: my shard has %d batches" % (name, shard_batches))
    local_steps = 0
    try:
        for _ in range(shard_batches):
            if straggler:
                time.sleep(FLAGS.straggler_delay)
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            sess.run([train_op, loss], {x: batch_x, y_: batch_y})
            local_steps += 1
        print("%s: shard done, leaving" % name)
    except tf.errors.DeadlineExceededError:
        print("%s: no token within operation_timeout_in_ms=%d (DeadlineExceededError): "
              "no round will be applied any more, TensorFlow without a timeout waits here "
              "forever" % (name, FLAGS.timeout_ms))
    coord.request_stop()                   # the chief: stop the queue runner, ...
    sess.close()                           # ... closing the session cancels its take_grad
    coord.join(threads, stop_grace_period_secs=5, ignore_live_threads=True)
    return local_steps


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
