r"""An Estimator on MNIST -- the TF-1 recipe for distributed training, unchanged but for
`import sandbox as tf`.

The program is the same for every process; TF_CONFIG says which task it is. Locally (no
TF_CONFIG) it trains, evaluating after each checkpoint:

    python lessons/estimator_mnist.py --data_dir=data/mnist

On a cluster, one process per task: in each of four terminals, the same two lines

    CLUSTER='{"chief": ["localhost:2222"], "worker": ["localhost:2223"], "ps": ["localhost:2224"]}'
    task() { TF_CONFIG="{\"cluster\": $CLUSTER, \"task\": {\"type\": \"$1\", \"index\": 0}}" \
             python lessons/estimator_mnist.py --data_dir=data/mnist; }

then `task ps` in the first, `task chief`, `task worker` and `task evaluator` in the others.

The ps holds the variables and serves until you stop it (Ctrl-C); the chief and the worker
train them, the chief saving checkpoints to --model_dir (shared by all tasks); the evaluator
evaluates each new checkpoint until the one at --max_steps. `--synthetic` uses made-up
MNIST-like digits instead of the files (for quick runs and tests).
"""
import sys

import numpy as np

import sandbox as tf

flags = tf.app.flags
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST IDX files are")
flags.DEFINE_boolean("synthetic", False, "Use made-up MNIST-like data instead of the files")
flags.DEFINE_string("model_dir", "/tmp/estimator_mnist", "Checkpoints and summaries")
flags.DEFINE_integer("max_steps", 1000, "Train until the global step reaches this")
flags.DEFINE_integer("batch_size", 100, "Examples per step")
flags.DEFINE_float("learning_rate", 0.1, "Learning rate of gradient descent")
flags.DEFINE_integer("save_checkpoints_steps", 100, "Save a checkpoint every N steps")
flags.DEFINE_integer("start_delay_secs", 0, "Evaluator: wait this long before the first eval")
flags.DEFINE_integer("throttle_secs", 1, "Evaluator: at most one evaluation per N seconds")
flags.DEFINE_integer("max_worker_delay_secs", 60,
                     "Worker k waits min(this, 5 * (k + 1)) seconds before training")
FLAGS = flags.FLAGS


def synthetic_mnist(n, seed):
    """n 28x28 'digits': one fixed random pattern per class, plus noise."""
    prototypes = np.random.RandomState(0).rand(10, 784) > 0.7
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 10, n)
    images = np.clip(prototypes[labels] * 0.8 + rng.rand(n, 784) * 0.4, 0, 1)
    return images.astype(np.float32), labels.astype(np.int32)


def load_data():
    if FLAGS.synthetic:
        return synthetic_mnist(2000, seed=1), synthetic_mnist(500, seed=2)
    from sandbox.examples.tutorials.mnist import input_data
    mnist = input_data.read_data_sets(FLAGS.data_dir)
    return ((mnist.train.images, mnist.train.labels.astype(np.int32)),
            (mnist.test.images, mnist.test.labels.astype(np.int32)))


def model_fn(features, labels, mode, params):
    hidden = tf.layers.dense(features["x"], 100, activation=tf.nn.relu, name="hidden")
    logits = tf.layers.dense(hidden, 10, name="logits")
    classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={
            "classes": classes, "probabilities": tf.nn.softmax(logits)})
    loss = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits))
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.metrics.accuracy(labels=labels, predictions=classes)})
    optimizer = tf.train.GradientDescentOptimizer(params["learning_rate"])
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


def main(_):
    (train_x, train_y), (test_x, test_y) = load_data()
    config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, tf_random_seed=1,
                                    save_checkpoints_steps=FLAGS.save_checkpoints_steps,
                                    log_step_count_steps=50,
                                    experimental_max_worker_delay_secs=FLAGS.max_worker_delay_secs)
    estimator = tf.estimator.Estimator(model_fn, config=config,
                                       params={"learning_rate": FLAGS.learning_rate})
    train_input_fn = tf.estimator.inputs.numpy_input_fn(
        {"x": train_x}, train_y, batch_size=FLAGS.batch_size, num_epochs=None, shuffle=True)
    eval_input_fn = tf.estimator.inputs.numpy_input_fn(
        {"x": test_x}, test_y, batch_size=FLAGS.batch_size, num_epochs=1, shuffle=False)
    print("Task:", config.task_type, config.task_id, "master:", repr(config.master),
          "ps tasks:", config.num_ps_replicas, flush=True)
    result = tf.estimator.train_and_evaluate(
        estimator,
        tf.estimator.TrainSpec(train_input_fn, max_steps=FLAGS.max_steps),
        tf.estimator.EvalSpec(eval_input_fn, steps=None, start_delay_secs=FLAGS.start_delay_secs,
                              throttle_secs=FLAGS.throttle_secs))
    if config.task_type == "evaluator" or result is not None:
        metrics = result[0] if result is not None else estimator.evaluate(eval_input_fn)
        print("Final evaluation: global_step=%d accuracy=%.4f loss=%.4f"
              % (metrics["global_step"], metrics["accuracy"], metrics["loss"]), flush=True)
    else:
        print("Training done: global_step=%d"
              % estimator.get_variable_value("global_step"), flush=True)


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
