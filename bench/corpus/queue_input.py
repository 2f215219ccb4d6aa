"""Reading a CSV file through queues -- the TF-1 "reading data" guide's pipeline, from the days
before tf.data: tf.train.string_input_producer over the file names, a tf.TextLineReader that
skips the header, tf.decode_csv into columns, tf.train.shuffle_batch (with its queue runner),
a tf.train.Coordinator and tf.train.start_queue_runners. The model is logistic regression
(plain tf.Variables, softmax over 2 classes) on 4 features.

The file is written here into a temporary folder: 2,000 rows of 4 normal features and a label
that a fixed linear rule gives (with 5 % of the labels flipped), from --seed, so TensorFlow and
the sandbox read the same bytes. Accuracy is measured on all rows, fed through a placeholder.

    python bench/corpus/queue_input.py --sandbox|--tf [--steps N]
"""
import os
import shutil
import tempfile
import time

import numpy as np

import corpus_common

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()

rng = np.random.RandomState(args.seed)
features = rng.normal(size=(2000, 4)).astype(np.float32)
truth = (features @ np.array([1.5, -2.0, 0.5, 1.0]) + 0.3 > 0).astype(np.int32)
truth = np.where(rng.rand(2000) < 0.05, 1 - truth, truth)
folder = tempfile.mkdtemp(prefix="corpus_queue_")
path = os.path.join(folder, "points.csv")
with open(path, "w") as f:
    f.write("a,b,c,d,label\n")
    for row, label in zip(features, truth):
        f.write("%s,%d\n" % (",".join("%.6f" % v for v in row), label))

try:
    tf.set_random_seed(args.seed)
    filename_queue = tf.train.string_input_producer([path], shuffle=False)
    reader = tf.TextLineReader(skip_header_lines=1)
    _, line = reader.read(filename_queue)
    a, b, c, d, label = tf.decode_csv(line, record_defaults=[[0.0], [0.0], [0.0], [0.0], [0]])
    example = tf.stack([a, b, c, d])
    example_batch, label_batch = tf.train.shuffle_batch(
        [example, label], batch_size=32, capacity=1000, min_after_dequeue=200, seed=args.seed)

    weights = tf.Variable(tf.zeros([4, 2]), name="weights")
    bias = tf.Variable(tf.zeros([2]), name="bias")
    logits = tf.matmul(example_batch, weights) + bias
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=label_batch, logits=logits))
    train_op = tf.train.GradientDescentOptimizer(0.5).minimize(loss)

    all_x = tf.placeholder(tf.float32, [None, 4])
    all_y = tf.placeholder(tf.int32, [None])
    predicted = tf.cast(tf.argmax(tf.matmul(all_x, weights) + bias, 1), tf.int32)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(predicted, all_y), tf.float32))

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess=sess, coord=coord)
        try:
            for step in range(args.steps):
                _, cost = sess.run([train_op, loss])
        finally:
            coord.request_stop()
            coord.join(threads)
        acc = sess.run(accuracy, {all_x: features, all_y: truth})
    corpus_common.report(args, cost, acc, begin)
finally:
    shutil.rmtree(folder, ignore_errors=True)
