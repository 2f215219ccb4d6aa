r"""Lesson 12, exercise 2 -- what the evaluator reports: the model_fn's EVAL mode.

The evaluator (and a local run) evaluates each checkpoint by calling model_fn in EVAL mode
and running the EstimatorSpec's eval_metric_ops over the whole eval input: each metric is a
pair (value, update_op) of tensors over LOCAL variables -- every run of update_op folds one
batch in, and value is read once at the end. The Estimator adds "loss" and "global_step".

TODO: in model_fn's EVAL mode, report two metrics besides the loss:
    "accuracy"         tf.metrics.accuracy of the predicted classes;
    "mean_confidence"  tf.metrics.mean of the probability the model gives its predicted
                       class (tf.reduce_max of the softmax over each row).

Run it (alone, no TF_CONFIG):
    SANDBOX_QUICK=1 python lessons/12_estimator/exercise_2_eval_metrics.py --synthetic
or on the four-task cluster:
    python -m sandbox launch lessons/12_estimator/exercise_2_eval_metrics.py \
        --chief 1 --worker 1 --ps 1 --evaluator 1 --tf-config
Check it: pytest lessons/12_estimator -k exercise_2
"""
import os
import sys

import numpy as np

import sandbox as tf
from sandbox.examples.tutorials.mnist import input_data

QUICK = os.environ.get("SANDBOX_QUICK") == "1"

flags = tf.app.flags
flags.DEFINE_string("data_dir", "data/mnist", "Where the MNIST IDX files are")
flags.DEFINE_boolean("synthetic", False, "Use made-up MNIST-like data instead of the files")
flags.DEFINE_string("model_dir", "estimator_mnist_model",
                    "Checkpoints and summaries, shared by every task")
flags.DEFINE_integer("max_steps", 300 if QUICK else 2000,
                     "Train until the global step reaches this")
flags.DEFINE_integer("batch_size", 100, "Examples per step")
flags.DEFINE_integer("eval_examples", 1000 if QUICK else 10000,
                     "Evaluate on the first N test images")
flags.DEFINE_float("learning_rate", 0.1, "Learning rate of gradient descent")
flags.DEFINE_integer("save_checkpoints_steps", 100 if QUICK else 250,
                     "The chief saves a checkpoint every N global steps")
flags.DEFINE_integer("start_delay_secs", 0, "Evaluator: wait this long before the first eval")
flags.DEFINE_integer("throttle_secs", 1, "Evaluator: at most one evaluation per N seconds")
flags.DEFINE_integer("max_worker_delay_secs", 1 if QUICK else 60,
                     "Worker k waits min(this, 5 * (k + 1)) seconds before training")
FLAGS = flags.FLAGS

_data = {}


def synthetic_mnist(n, seed):
    """n 28x28 'digits': one fixed random pattern per class, plus noise."""
    prototypes = np.random.RandomState(0).rand(10, 784) > 0.7
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 10, n)
    images = np.clip(prototypes[labels] * 0.8 + rng.rand(n, 784) * 0.4, 0, 1)
    return images.astype(np.float32), labels.astype(np.int32)


def load_data():
    """(train images, labels), (test images, labels) -- loaded once, by the tasks that ask."""
    if not _data:
        if FLAGS.synthetic:
            _data["train"], _data["test"] = synthetic_mnist(2000, 1), synthetic_mnist(500, 2)
        else:
            mnist = input_data.read_data_sets(FLAGS.data_dir)
            _data["train"] = mnist.train.images, mnist.train.labels.astype(np.int32)
            _data["test"] = mnist.test.images, mnist.test.labels.astype(np.int32)
        images, labels = _data["test"]
        _data["test"] = images[:FLAGS.eval_examples], labels[:FLAGS.eval_examples]
    return _data["train"], _data["test"]


def train_input_fn():
    """Called by the Estimator inside the graph it builds (chief and worker only)."""
    images, labels = load_data()[0]
    return tf.estimator.inputs.numpy_input_fn(
        {"x": images}, labels, batch_size=FLAGS.batch_size, num_epochs=None, shuffle=True)()


def eval_input_fn():
    """One pass over the test set (the evaluator, and the local run)."""
    images, labels = load_data()[1]
    return tf.estimator.inputs.numpy_input_fn(
        {"x": images}, labels, batch_size=FLAGS.batch_size, num_epochs=1, shuffle=False)()


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
        confidence = tf.reduce_max(tf.nn.softmax(logits), 1)
        return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops={
            "accuracy": tf.metrics.accuracy(labels=labels, predictions=classes),
            "mean_confidence": tf.metrics.mean(confidence)})
    optimizer = tf.train.GradientDescentOptimizer(params["learning_rate"])
    train_op = optimizer.minimize(loss, global_step=tf.train.get_global_step())
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)


class CountSteps(tf.train.SessionRunHook):
    """Counts the training steps THIS task runs (the global step counts everybody's)."""

    def __init__(self):
        self.steps = 0

    def after_run(self, run_context, run_values):
        self.steps += 1


def main(_):
    tf.logging.set_verbosity(tf.logging.INFO)
    config = tf.estimator.RunConfig(model_dir=FLAGS.model_dir, tf_random_seed=1,
                                    save_checkpoints_steps=FLAGS.save_checkpoints_steps,
                                    log_step_count_steps=50,
                                    experimental_max_worker_delay_secs=FLAGS.max_worker_delay_secs)
    print("Task: %s %d, is_chief %s, %d ps, %d worker replicas, jobs it sees %s"
          % (config.task_type, config.task_id, config.is_chief, config.num_ps_replicas,
             config.num_worker_replicas, sorted(config.cluster_spec.jobs)), flush=True)
    print("  master: %r" % config.master, flush=True)
    estimator = tf.estimator.Estimator(model_fn, config=config,
                                       params={"learning_rate": FLAGS.learning_rate})
    counter = CountSteps()
    result = tf.estimator.train_and_evaluate(      # a ps never returns from this call
        estimator,
        tf.estimator.TrainSpec(train_input_fn, max_steps=FLAGS.max_steps, hooks=[counter]),
        tf.estimator.EvalSpec(eval_input_fn, steps=None, start_delay_secs=FLAGS.start_delay_secs,
                              throttle_secs=FLAGS.throttle_secs))
    if config.task_type == "evaluator" or result is not None:
        # The evaluator (or a local run): the metrics of the newest checkpoint.
        metrics = result[0] if result is not None else estimator.evaluate(eval_input_fn)
        print("Evaluated a checkpoint at or past max_steps: %s"
              % (metrics["global_step"] >= FLAGS.max_steps), flush=True)
        print("Final evaluation: global_step=%d loss=%.4f" % (metrics["global_step"],
                                                              metrics["loss"]), flush=True)
        for name in ("accuracy", "mean_confidence"):
            print("  %s: %s" % (name, "%.4f" % metrics[name] if name in metrics
                                else "not reported"), flush=True)
    else:
        print("%s %d: trained %d of the steps" % (config.task_type, config.task_id,
                                                  counter.steps), flush=True)
        if config.is_chief:
            print("chief: saved the last checkpoint at global step %d"
                  % estimator.get_variable_value("global_step"), flush=True)


if __name__ == "__main__":
    tf.app.run()
    sys.exit(0)
