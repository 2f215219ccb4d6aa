"""MNIST with a premade Estimator -- the "premade estimators" tutorial: a
tf.estimator.DNNClassifier (hidden_units=[64, 32], n_classes=10) over one feature column,
tf.feature_column.numeric_column('pixels', shape=[784]), fed by
tf.estimator.inputs.numpy_input_fn; train for --steps steps of 100 images, then evaluate on
the test set. Its defaults: relu, no dropout, Adagrad at 0.05, glorot_uniform kernels.

Both sides read the same batches: the training input_fn does not shuffle (shuffle=False, one
reader thread: the images in order, epoch after epoch). RunConfig(tf_random_seed=--seed) is the
graph seed. The Estimator writes its checkpoints into a fresh temporary model_dir. The loss
reported is the evaluation's average_loss (the mean cross-entropy per test image); the
evaluation's 'loss' (the mean over eval batches of the batch's loss, a SUM over the batch for
the v1 DNNClassifier) is reported as eval_loss.

TensorFlow 2.16 and later no longer ship tf.estimator: run the --tf side with 2.15 or 1.15.

    python bench/corpus/premade_estimator.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import shutil
import tempfile
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)

model_dir = tempfile.mkdtemp(prefix="corpus_premade_")
try:
    feature_columns = [tf.feature_column.numeric_column("pixels", shape=[784])]
    classifier = tf.estimator.DNNClassifier(
        hidden_units=[64, 32], feature_columns=feature_columns, n_classes=10,
        model_dir=model_dir, config=tf.estimator.RunConfig(tf_random_seed=args.seed))
    train_input = tf.estimator.inputs.numpy_input_fn(
        x={"pixels": train_x}, y=train_y, batch_size=100, num_epochs=None, shuffle=False)
    eval_input = tf.estimator.inputs.numpy_input_fn(
        x={"pixels": test_x}, y=test_y, batch_size=1000, num_epochs=1, shuffle=False)
    classifier.train(input_fn=train_input, steps=args.steps)
    metrics = classifier.evaluate(input_fn=eval_input)
    corpus_common.report(args, metrics["average_loss"], metrics["accuracy"], begin,
                         eval_loss=float(metrics["loss"]),
                         global_step=int(metrics["global_step"]))
finally:
    shutil.rmtree(model_dir, ignore_errors=True)
