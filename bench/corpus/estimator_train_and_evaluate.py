"""MNIST with tf.estimator -- the "premade loop, custom model_fn" tutorial: a model_fn built
from tf.layers (784 -> 128 relu -> 10) returning an EstimatorSpec per ModeKeys, input from
tf.estimator.inputs.numpy_input_fn, and tf.estimator.train_and_evaluate run locally (no
TF_CONFIG: one process) with a TrainSpec of --steps steps and an EvalSpec over the test set.
The Estimator writes its checkpoints into a fresh temporary model_dir.

TensorFlow 2.16 and later no longer ship tf.estimator: run the --tf side with TF 1.15.

    python bench/corpus/estimator_train_and_evaluate.py --sandbox|--tf [--data_dir DIR]
"""
import shutil
import tempfile
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)


def model_fn(features, labels, mode):
    hidden = tf.layers.dense(features["x"], 128, activation=tf.nn.relu)
    logits = tf.layers.dense(hidden, 10)
    predictions = tf.argmax(logits, axis=1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(mode, predictions={"classes": predictions})
    loss = tf.losses.sparse_softmax_cross_entropy(labels=labels, logits=logits)
    if mode == tf.estimator.ModeKeys.TRAIN:
        train_op = tf.train.AdamOptimizer(1e-3).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train_op)
    metrics = {"accuracy": tf.metrics.accuracy(labels=labels, predictions=predictions)}
    return tf.estimator.EstimatorSpec(mode, loss=loss, eval_metric_ops=metrics)


model_dir = tempfile.mkdtemp(prefix="corpus_estimator_")
try:
    config = tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=args.seed,
                                    save_checkpoints_steps=args.steps, log_step_count_steps=100)
    estimator = tf.estimator.Estimator(model_fn=model_fn, config=config)
    train_input = tf.estimator.inputs.numpy_input_fn(
        x={"x": train_x}, y=train_y, batch_size=100, num_epochs=None, shuffle=True)
    eval_input = tf.estimator.inputs.numpy_input_fn(
        x={"x": test_x}, y=test_y, batch_size=1000, num_epochs=1, shuffle=False)
    train_spec = tf.estimator.TrainSpec(input_fn=train_input, max_steps=args.steps)
    eval_spec = tf.estimator.EvalSpec(input_fn=eval_input, steps=None, throttle_secs=0)
    result = tf.estimator.train_and_evaluate(estimator, train_spec, eval_spec)
    metrics = result[0] if isinstance(result, tuple) else result
    corpus_common.report(args, metrics["loss"], metrics["accuracy"], begin,
                         global_step=int(metrics["global_step"]))
finally:
    shutil.rmtree(model_dir, ignore_errors=True)
