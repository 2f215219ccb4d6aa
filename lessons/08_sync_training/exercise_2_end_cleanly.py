"""Exercise 2: end synchronous training cleanly.

Each worker trains on its own shard of the data, and the shards differ in size: worker i's has
(i + 1) * --shard batches. The chief finishes its shard first and leaves -- and with it its
queue runner, the thread that applies the rounds and puts tokens in the token queue. The
other worker pushes its next gradient and waits for a token that no round will ever bring.
In TensorFlow it waits forever; here operation_timeout_in_ms ends the wait with a
DeadlineExceededError.

  TODO  make every worker stop at the SAME last global step, --last_step, whatever the size of
        its shard: after each step read the global step, and leave the loop once it has
        reached --last_step (StopAtStepHook's rule; or rewrite the loop with a
        MonitoredTrainingSession, opt.make_session_run_hook(is_chief) and
        tf.train.StopAtStepHook(last_step=...) on every worker).

Check:  pytest lessons/08_sync_training -k exercise_2   (or `make check-lessons`). Every worker
must print "reached last_step=N: True" and none may hit a DeadlineExceededError.

    python -m sandbox launch lessons/08_sync_training/exercise_2_end_cleanly.py --ps 1 --worker 2
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
flags.DEFINE_integer("shard", 30 if QUICK else 500, "Batches in worker 0's shard")
flags.DEFINE_integer("last_step", 40 if QUICK else 700, "The global step to stop at")
flags.DEFINE_integer("timeout_ms", 2000, "operation_timeout_in_ms of the sessions")
FLAGS = flags.FLAGS


def main(_):
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","), "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return
    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True)
    index = FLAGS.task_index
    is_chief = index == 0

    with tf.device(tf.train.replica_device_setter(
            worker_device="/job:worker/task:%d" % index, cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        x = tf.placeholder(tf.float32, [None, 784])
        y_ = tf.placeholder(tf.float32, [None, 10])
        W = tf.Variable(tf.zeros([784, 10]))
        b = tf.Variable(tf.zeros([10]))
        logits = tf.matmul(x, W) + b
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(labels=y_,
                                                                          logits=logits))
        opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.5),
                                             replicas_to_aggregate=len(worker_hosts),
                                             total_num_replicas=len(worker_hosts))
        train_op = opt.minimize(loss, global_step=global_step)
        init_op = tf.global_variables_initializer()
        init_tokens_op = opt.get_init_tokens_op()
        chief_queue_runner = opt.get_chief_queue_runner()

    # device_filters: the session uses the ps and this worker only, so a worker that starts
    # late does not wait for a chief that has already finished.
    config = tf.ConfigProto(operation_timeout_in_ms=FLAGS.timeout_ms,
                            device_filters=["/job:ps", "/job:worker/task:%d" % index])
    sess = tf.Session(server.target, config=config)
    coord, threads = tf.train.Coordinator(), []
    if is_chief:
        sess.run(init_op)
        sess.run(opt.chief_init_op)
        sess.run(init_tokens_op)
        threads = chief_queue_runner.create_threads(sess, coord=coord, daemon=True, start=True)
    else:
        while len(sess.run(opt.ready_for_local_init_op)):
            time.sleep(0.2)
        sess.run(opt.local_step_init_op)

    step = sess.run(global_step)
    try:
        for _ in range((index + 1) * FLAGS.shard):        # TODO: stop at --last_step instead
            batch_x, batch_y = mnist.train.next_batch(100)
            sess.run(train_op, {x: batch_x, y_: batch_y})
        step = sess.run(global_step)
    except tf.errors.DeadlineExceededError:
        print("worker %d: DeadlineExceededError: no token within %d ms"
              % (index, FLAGS.timeout_ms))
    print("worker %d: reached last_step=%d: %s" % (index, FLAGS.last_step,
                                                    step >= FLAGS.last_step))
    coord.request_stop()
    sess.close()
    coord.join(threads, stop_grace_period_secs=5, ignore_live_threads=True)


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
