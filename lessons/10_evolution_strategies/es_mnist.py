"""Evolution strategies on a cluster: the parameters of a small network live on the ps; every
worker evaluates perturbed copies of them on MNIST and the ps applies the combined update.

    theta <- theta + learning_rate / (2 M sigma) * sum_i (R(theta + sigma eps_i)
                                                         - R(theta - sigma eps_i)) * eps_i

R is the reward of a network: minus its cross-entropy loss on a batch. eps_i is a slice of a
*shared noise table* (a fixed vector of normal numbers every task makes from the same seed),
so a perturbation is named by one int32: its offset in the table -- its "seed". M is the
number of perturbations of one iteration, summed over the workers (antithetic: each one is
evaluated at +eps and -eps).

Two ways to combine the workers' results (--mode):

  assign_add  each worker reads theta from the ps, evaluates its perturbations and pushes its
              share of the update with theta.assign_add: every iteration a worker pulls and
              pushes a whole parameter vector (asynchronous, like async SGD).
  queue       each worker keeps its own copy of theta (a local variable) and puts its
              (seed, reward difference) pairs into a FIFOQueue on the ps. The chief (worker 0)
              runs one op on the ps that dequeues all M pairs, rebuilds the noise from the seeds,
              updates the ps's theta, and hands every worker the M pairs through a queue of its
              own; each worker applies the same update to its own copy. Only seeds and rewards cross
              the wire -- the trick that lets ES scale to thousands of CPUs.

Run one process per task (the launcher does it: python lessons/10_evolution_strategies/launch.py):

    python es_mnist.py --job_name=ps --task_index=0
    python es_mnist.py --job_name=worker --task_index=0 [--mode=assign_add]
    python es_mnist.py --job_name=worker --task_index=1 [--mode=assign_add]
"""
import os
import sys

import numpy as np

import sandbox as tf

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("job_name", "", "Either 'ps' or 'worker'")
flags.DEFINE_integer("task_index", 0, "Index of task within the job")
flags.DEFINE_string("ps_hosts", "localhost:2222", "Comma-separated host:port pairs")
flags.DEFINE_string("worker_hosts", "localhost:2223,localhost:2224",
                    "Comma-separated host:port pairs")
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST files are")
flags.DEFINE_string("mode", "queue", "'queue' (seeds and rewards through a FIFOQueue on the ps) "
                    "or 'assign_add' (every worker pushes its share of the update)")
flags.DEFINE_integer("iterations", 30 if QUICK else 150, "ES iterations")
flags.DEFINE_integer("perturbations", 16, "Antithetic perturbations per worker and iteration")
flags.DEFINE_float("sigma", 0.1, "Standard deviation of the perturbations")
flags.DEFINE_float("learning_rate", 2.0, "Step size of the ES update")
flags.DEFINE_integer("batch_size", 100, "Examples each worker scores its perturbations on")
FLAGS = flags.FLAGS

NOISE_SIZE = 250000               # floats in the shared noise table (1 MB, made on every task)
INPUTS, CLASSES = 49, 10          # 28x28 digits averaged down to 7x7; a softmax layer on them
DIM = INPUTS * CLASSES + CLASSES  # 500 parameters
EVAL_EXAMPLES = 1000              # the chief reports the reward of theta on these test digits


def seeds_for(worker, iteration, n):
    """The offsets into the noise table ("seeds") of one worker's perturbations at one
    iteration: different for every worker and iteration, and the same on every run."""
    rng = np.random.RandomState(iteration * 1000 + worker)
    return rng.randint(0, NOISE_SIZE - DIM, size=n).astype(np.int32)


def noise_table(name, collections=None):
    """The shared noise table: every task makes the same numbers from the same seed."""
    return tf.Variable(tf.random_normal([NOISE_SIZE], seed=2), trainable=False, name=name,
                       collections=collections)


def noise_rows(noise, seeds):
    """eps: one row of DIM numbers of the table per seed, [len(seeds), DIM]."""
    return tf.gather(noise, tf.expand_dims(seeds, 1) + tf.range(DIM))


def logits_of(thetas, x):
    """The network of every parameter vector in `thetas` [k, DIM] on images x: [k, batch, 10]."""
    pooled = tf.reduce_mean(tf.reshape(x, [-1, 7, 4, 7, 4]), axis=[2, 4])
    x49 = tf.reshape(pooled, [-1, INPUTS])
    k = tf.shape(thetas)[0]
    weights = tf.reshape(thetas[:, :INPUTS * CLASSES], [-1, INPUTS, CLASSES])
    biases = tf.expand_dims(thetas[:, INPUTS * CLASSES:], 1)
    return tf.matmul(tf.tile(tf.expand_dims(x49, 0), [k, 1, 1]), weights) + biases


def rewards_of(thetas, x, y_):
    """Reward of every parameter vector: minus its mean cross-entropy on (x, y_), [k]."""
    logits = logits_of(thetas, x)
    labels = tf.tile(tf.expand_dims(y_, 0), [tf.shape(thetas)[0], 1, 1])
    losses = tf.nn.softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
    return -tf.reduce_mean(losses, axis=1)


def reward_differences(theta, noise, seeds, x, y_, sigma):
    """R(theta + sigma eps_i) - R(theta - sigma eps_i) for every seed i."""
    eps = noise_rows(noise, seeds)
    n = tf.shape(seeds)[0]
    rewards = rewards_of(tf.concat([theta + sigma * eps, theta - sigma * eps], 0), x, y_)
    return rewards[:n] - rewards[n:]


def es_update(noise, seeds, differences, sigma, learning_rate, m):
    """The combined ES step of m antithetic perturbations, rebuilt from their seeds."""
    eps = noise_rows(noise, seeds)
    weighted = tf.matmul(tf.expand_dims(differences, 0), eps)[0]
    return learning_rate / (2.0 * m * sigma) * weighted


def accuracy_of(theta, x, y_):
    logits = logits_of(tf.expand_dims(theta, 0), x)[0]
    return tf.reduce_mean(tf.cast(tf.equal(tf.argmax(logits, 1), tf.argmax(y_, 1)), tf.float32))


def build_graph(cluster, task, mode, n, sigma, lr):
    """Worker `task`'s graph (the notebook builds it too). Returns its tensors and ops by name:
    mode 'assign_add': step_op; mode 'queue': send_pairs, broadcast (the chief's), catch_up."""
    num_workers = cluster.num_tasks("worker")
    m = n * num_workers                         # perturbations per iteration, all workers
    worker_device = "/job:worker/task:%d" % task
    tf.set_random_seed(1)

    with tf.device(tf.train.replica_device_setter(worker_device=worker_device,
                                                  cluster=cluster)):
        global_step = tf.train.get_or_create_global_step()
        theta = tf.get_variable("theta", [DIM], initializer=tf.zeros_initializer())
        x = tf.placeholder(tf.float32, [None, 784], name="x")
        y_ = tf.placeholder(tf.float32, [None, 10], name="y")
        seeds = tf.placeholder(tf.int32, [n], name="seeds")
    with tf.device(worker_device):              # this worker's own copies: never on the wire
        local = [tf.GraphKeys.LOCAL_VARIABLES]
        local_noise = noise_table("local_noise", collections=local)
        local_theta = tf.Variable(tf.zeros([DIM]), trainable=False, name="local_theta",
                                  collections=local)

    if mode == "assign_add":
        with tf.device(worker_device):
            differences = reward_differences(theta, local_noise, seeds, x, y_, sigma)
            my_share = es_update(local_noise, seeds, differences, sigma, lr, m)
        with tf.device(tf.train.replica_device_setter(worker_device=worker_device,
                                                      cluster=cluster)):
            step_op = tf.group(theta.assign_add(my_share), global_step.assign_add(1))
        model = theta                            # the reward is read from the ps's theta
    elif mode == "queue":
        with tf.device("/job:ps/task:0"):
            pairs = tf.FIFOQueue(2 * m, [tf.int32, tf.float32], shapes=[[], []],
                                 shared_name="es_pairs", name="es_pairs")
            # One queue per worker for the combined pairs: with a single queue a fast worker
            # could take the copy meant for a slow one and the slow one would wait forever.
            results = [tf.FIFOQueue(2, [tf.int32, tf.float32], shapes=[[m], [m]],
                                    shared_name="es_results_%d" % w, name="es_results_%d" % w)
                       for w in range(num_workers)]
            ps_noise = noise_table("ps_noise")  # made on the ps itself, from the same seed
        with tf.device(worker_device):
            my_seeds = tf.identity(seeds, name="my_seeds")    # sent from here to the ps
            differences = reward_differences(local_theta, local_noise, my_seeds, x, y_, sigma)
        with tf.device("/job:ps/task:0"):
            send_pairs = pairs.enqueue_many([my_seeds, differences])
            # The chief's op: all M pairs of the iteration, one update on the ps, and the
            # pairs handed to every worker (one element in each worker's queue).
            all_seeds, all_differences = pairs.dequeue_many(m)
            apply_update = tf.group(
                theta.assign_add(es_update(ps_noise, all_seeds, all_differences, sigma, lr, m)),
                global_step.assign_add(1))
            with tf.control_dependencies([apply_update]):
                broadcast = tf.group(*[q.enqueue([all_seeds, all_differences])
                                       for q in results])
            got_seeds, got_differences = results[task].dequeue()
        with tf.device(worker_device):
            catch_up = local_theta.assign_add(
                es_update(local_noise, got_seeds, got_differences, sigma, lr, m))
        model = local_theta
    else:
        raise ValueError("--mode is 'queue' or 'assign_add', not %r" % mode)

    with tf.device(worker_device):
        eval_reward = rewards_of(tf.expand_dims(model, 0), x, y_)[0]
        eval_accuracy = accuracy_of(model, x, y_)

    graph = dict(x=x, y_=y_, seeds=seeds, theta=theta, local_theta=local_theta,
                 global_step=global_step, eval_reward=eval_reward, eval_accuracy=eval_accuracy)
    if mode == "assign_add":
        graph.update(step_op=step_op)
    else:
        graph.update(send_pairs=send_pairs, broadcast=broadcast, catch_up=catch_up)
    return graph


def main(_):
    cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                    "worker": FLAGS.worker_hosts.split(",")})
    server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
    if FLAGS.job_name == "ps":
        server.join()
        return

    from sandbox.examples.tutorials.mnist import input_data
    # seed: each worker its own order of batches, the same on every run
    mnist = input_data.read_data_sets(FLAGS.data_dir, one_hot=True, seed=FLAGS.task_index + 1)
    task, mode = FLAGS.task_index, FLAGS.mode
    num_workers = cluster.num_tasks("worker")
    n, sigma, lr = FLAGS.perturbations, FLAGS.sigma, FLAGS.learning_rate
    m = n * num_workers                         # perturbations per iteration, all workers
    is_chief = task == 0
    g = build_graph(cluster, task, mode, n, sigma, lr)
    x, y_, seeds = g["x"], g["y_"], g["seeds"]
    eval_ops = [g["eval_reward"], g["eval_accuracy"]]

    if is_chief:
        print("Worker %d: %d parameters on the ps, %d perturbations per iteration "
              "(%d workers x %d, each at +eps and -eps), mode %s"
              % (task, DIM, m, num_workers, n, mode))
    eval_feed = {x: mnist.test.images[:EVAL_EXAMPLES], y_: mnist.test.labels[:EVAL_EXAMPLES]}
    every = 5 if QUICK else 25
    history = []
    # device_filters: this worker's session sees the ps tasks and itself only, so it
    # neither waits for nor depends on the other workers (which may have finished).
    config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % task])
    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=is_chief,
                                           config=config) as sess:
        for iteration in range(FLAGS.iterations):
            if is_chief and iteration % every == 0:
                history.append(sess.run(eval_ops, eval_feed))
                print("Iteration %3d: reward %.3f (minus the test loss), test accuracy %.3f"
                      % (iteration, history[-1][0], history[-1][1]))
            batch_x, batch_y = mnist.train.next_batch(FLAGS.batch_size)
            feed = {x: batch_x, y_: batch_y, seeds: seeds_for(task, iteration, n)}
            if mode == "assign_add":
                sess.run(g["step_op"], feed)
            else:
                sess.run(g["send_pairs"], feed)
                if is_chief:
                    sess.run(g["broadcast"])
                sess.run(g["catch_up"])
        if is_chief:
            history.append(sess.run(eval_ops, eval_feed))
            print("Iteration %3d: reward %.3f (minus the test loss), test accuracy %.3f"
                  % (FLAGS.iterations, history[-1][0], history[-1][1]))
            first, last = history[0][0], history[-1][0]
            print("The reward %s from %.3f to %.3f in %d iterations"
                  % ("rose" if last > first else "did not rise", first, last,
                     FLAGS.iterations))
            if mode == "queue":
                gap = np.abs(sess.run(g["local_theta"]) - sess.run(g["theta"])).max()
                print("Largest difference between the chief's copy of theta and the ps's: %.1e"
                      % gap)

    # What crosses between this worker and the ps each iteration (the tensors on the edges
    # between the two tasks; the notebook measures them in the sandbox's trace).
    vector = DIM * 4                                       # float32 parameters
    pair = 4 + 4                                           # int32 seed + float32 reward
    if mode == "assign_add":
        pulled, pushed = vector, vector
        what = "pulls theta (%d float32), pushes its update (%d float32)" % (DIM, DIM)
    else:
        pulled, pushed = m * pair, n * pair
        what = "pushes %d (seed, reward) pairs, pulls all %d pairs" % (n, m)
    print("Worker %d, per iteration: %s = %d bytes pushed, %d bytes pulled (theta is %d bytes)"
          % (task, what, pushed, pulled, vector))


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
