"""Lesson 2 -- one program, run once per task: the TF-1 tutorials' way to start a cluster.

    python lessons/02_clusters_and_servers/launch.py              # 1 ps + 2 workers, at once

or by hand, one terminal per task (the same program, the same cluster, a different task):

    python cluster_tasks.py --ps_hosts=localhost:2222 \\
        --worker_hosts=localhost:2223,localhost:2224 --job_name=ps --task_index=0
    python cluster_tasks.py ... --job_name=worker --task_index=0
    python cluster_tasks.py ... --job_name=worker --task_index=1

Every task builds the same ClusterSpec from the flags and starts the tf.train.Server of its own
task. The ps only serves (server.join()). Each worker opens sessions on its OWN server's target,
so its own task is the session's master -- and that master runs the ops on whichever tasks
they are placed on: the ps, this worker, even the other worker.
"""
import time

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("ps_hosts", "localhost:2222", "comma-separated host:port of the ps tasks")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "comma-separated host:port of the worker tasks")
flags.DEFINE_string("job_name", "", "this task's job: 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "this task's index in its job")
FLAGS = flags.FLAGS


def devices_seen(sess):
    """The devices a session may place ops on (sorted: the order differs between runtimes)."""
    return sorted(d.name for d in sess.list_devices())


def tasks_used(run_metadata):
    """The tasks that ran a piece of one step, from its statistics (RunOptions FULL_TRACE)."""
    return sorted({s.device.split("/device:")[0] for s in run_metadata.step_stats.dev_stats})


def main(_):
    ps_hosts = FLAGS.ps_hosts.split(",")
    worker_hosts = FLAGS.worker_hosts.split(",")
    cluster = tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        print("ps %d: serving at %s" % (FLAGS.task_index, server.target))
        server.join()                   # runs the ops the workers' masters place here, forever
        return

    index = FLAGS.task_index
    me = "/job:worker/task:%d" % index
    other = "/job:worker/task:%d" % ((index + 1) % len(worker_hosts))
    name = "worker %d" % index
    print("%s: cluster %s" % (name, cluster.as_dict()))
    print("%s: my master is %s" % (name, server.target))

    def build_mine():
        """In the default graph: this worker's numbers, kept on the ps, summed here."""
        with tf.device("/job:ps/task:0"):
            numbers = tf.Variable([1.0, 2.0, 3.0], name="numbers_of_worker_%d" % index)
        with tf.device(me):
            mine = tf.reduce_sum(numbers) * float(index + 1)
        return numbers, mine

    def flags_on_the_ps(what):
        """One flag variable per worker, on the ps; `wait` raises this worker's flag (it
        initializes it) and waits until every worker has raised its own."""
        with tf.device("/job:ps/task:0"):
            flags = [tf.Variable(True, name="worker_%d_%s" % (i, what))
                     for i in range(len(worker_hosts))]
        not_raised = tf.report_uninitialized_variables(flags)

        def wait(sess):
            sess.run(flags[index].initializer)
            while sess.run(not_raised).size:
                time.sleep(0.1)
        return wait

    # 1. A session on this task's master, with a graph that uses three tasks. Such a session
    #    may use every task of the cluster, so it waits until all of them answer.
    options = tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE)
    with tf.Graph().as_default():
        numbers, mine = build_mine()
        with tf.device(other):                          # computed by the other worker
            theirs = tf.reduce_max(numbers) * float(index + 1)
        wait_until_all_ready = flags_on_the_ps("ready")
        with tf.Session(server.target) as sess:
            print("%s: a session on my target sees %s" % (name, devices_seen(sess)))
            sess.run(numbers.initializer)
            # Wait until the other worker has its session too: run earlier, the step has the
            # other worker read from the ps before that worker's connections are all up, and
            # TensorFlow 2.15 often failed it (UnavailableError: failed to connect to all
            # addresses) when we tried.
            wait_until_all_ready(sess)
            metadata = tf.RunMetadata()
            values = sess.run([mine, theirs], options=options, run_metadata=metadata)
            print("%s: mine = %.1f, theirs = %.1f" % (name, values[0], values[1]))
            print("%s: that step ran on %s" % (name, tasks_used(metadata)))

    # 2. device_filters narrows the tasks a session may use -- and waits for -- to the ps and
    #    this worker. Its whole graph must then be placeable on those tasks.
    with tf.Graph().as_default():
        numbers, mine = build_mine()
        wait_until_all_done = flags_on_the_ps("done")
        narrow = tf.ConfigProto(device_filters=["/job:ps", me])
        with tf.Session(server.target, config=narrow) as sess:
            print("%s: with device_filters it sees %s" % (name, devices_seen(sess)))
            metadata = tf.RunMetadata()
            value = sess.run(mine, options=options, run_metadata=metadata)
            print("%s: mine = %.1f" % (name, value))        # the numbers survived session 1
            print("%s: that step ran on %s" % (name, tasks_used(metadata)))

            # 3. Leave together: a worker that exits early would keep another worker's
            #    unfiltered session waiting for it.
            wait_until_all_done(sess)
    print("%s: every worker is done" % name)


if __name__ == "__main__":
    tf.app.run()
