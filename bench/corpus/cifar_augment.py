"""The CIFAR-10 tutorial's model and input distortions on small made-up colour images: a
tf.data pipeline (from_tensor_slices, shuffle, map, batch, repeat) whose map does the
tutorial's augmentation -- tf.random_crop to 24x24, tf.image.random_flip_left_right,
random_brightness, random_contrast, per_image_standardization -- feeding the tutorial's
inference(): conv / max_pool / lrn twice, two fully connected layers, weight decay added to a
'losses' collection, tf.add_n of the losses, exponential_decay of the learning rate,
ExponentialMovingAverage of the losses and of the variables under control_dependencies.
Evaluation crops the centre (resize_image_with_crop_or_pad) and counts tf.nn.in_top_k. The
images: 4 classes of 32x32 noise around one colour each, from --seed. (shuffle's order is TF
1.15's in the sandbox, so against TF 2.x the batches differ, not the learning.)

    python bench/corpus/cifar_augment.py --sandbox|--tf [--steps N]
"""
import time

import numpy as np

import corpus_common

args = corpus_common.parse_args(__doc__, steps=60)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
NUM_CLASSES, IMAGE_SIZE, N = 4, 24, 512
rng = np.random.RandomState(args.seed)
colors = rng.randint(0, 255, size=(NUM_CLASSES, 3))
labels_np = rng.randint(0, NUM_CLASSES, size=N).astype(np.int32)
images_np = np.clip(colors[labels_np][:, None, None, :] + rng.normal(0, 60, (N, 32, 32, 3)),
                    0, 255).astype(np.uint8)


def distort(image, label):
    image = tf.cast(image, tf.float32)
    distorted = tf.random_crop(image, [IMAGE_SIZE, IMAGE_SIZE, 3], seed=1)
    distorted = tf.image.random_flip_left_right(distorted, seed=2)
    distorted = tf.image.random_brightness(distorted, max_delta=63, seed=3)
    distorted = tf.image.random_contrast(distorted, lower=0.2, upper=1.8, seed=4)
    float_image = tf.image.per_image_standardization(distorted)
    float_image.set_shape([IMAGE_SIZE, IMAGE_SIZE, 3])
    return float_image, label


def centre(image, label):
    image = tf.image.resize_image_with_crop_or_pad(tf.cast(image, tf.float32), IMAGE_SIZE,
                                                   IMAGE_SIZE)
    return tf.image.per_image_standardization(image), label


def variable_with_weight_decay(name, shape, stddev, wd):
    var = tf.get_variable(name, shape,
                          initializer=tf.truncated_normal_initializer(stddev=stddev))
    if wd is not None:
        tf.add_to_collection("losses", tf.multiply(tf.nn.l2_loss(var), wd, name="weight_loss"))
    return var


def inference(images, reuse=False):
    with tf.variable_scope("conv1", reuse=reuse) as scope:
        kernel = variable_with_weight_decay("weights", [5, 5, 3, 16], 5e-2, None)
        conv = tf.nn.conv2d(images, kernel, [1, 1, 1, 1], padding="SAME")
        biases = tf.get_variable("biases", [16], initializer=tf.constant_initializer(0.0))
        conv1 = tf.nn.relu(tf.nn.bias_add(conv, biases), name=scope.name)
    pool1 = tf.nn.max_pool(conv1, [1, 3, 3, 1], [1, 2, 2, 1], padding="SAME", name="pool1")
    norm1 = tf.nn.lrn(pool1, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm1")
    with tf.variable_scope("conv2", reuse=reuse) as scope:
        kernel = variable_with_weight_decay("weights", [5, 5, 16, 16], 5e-2, None)
        conv = tf.nn.conv2d(norm1, kernel, [1, 1, 1, 1], padding="SAME")
        biases = tf.get_variable("biases", [16], initializer=tf.constant_initializer(0.1))
        conv2 = tf.nn.relu(tf.nn.bias_add(conv, biases), name=scope.name)
    norm2 = tf.nn.lrn(conv2, 4, bias=1.0, alpha=0.001 / 9.0, beta=0.75, name="norm2")
    pool2 = tf.nn.max_pool(norm2, [1, 3, 3, 1], [1, 2, 2, 1], padding="SAME", name="pool2")
    with tf.variable_scope("local3", reuse=reuse) as scope:
        reshape = tf.reshape(pool2, [-1, 6 * 6 * 16])
        weights = variable_with_weight_decay("weights", [6 * 6 * 16, 64], 0.04,
                                             None if reuse else 0.004)
        biases = tf.get_variable("biases", [64], initializer=tf.constant_initializer(0.1))
        local3 = tf.nn.relu(tf.matmul(reshape, weights) + biases, name=scope.name)
    with tf.variable_scope("softmax_linear", reuse=reuse) as scope:
        weights = variable_with_weight_decay("weights", [64, NUM_CLASSES], 1 / 64.0, None)
        biases = tf.get_variable("biases", [NUM_CLASSES],
                                 initializer=tf.constant_initializer(0.0))
        return tf.add(tf.matmul(local3, weights), biases, name=scope.name)


tf.set_random_seed(args.seed)
dataset = tf.data.Dataset.from_tensor_slices((images_np, labels_np))
images, labels = (dataset.shuffle(N, seed=7).map(distort).batch(32).repeat()
                  .make_one_shot_iterator().get_next())
eval_iterator = dataset.map(centre).batch(128).make_initializable_iterator()
eval_images, eval_labels = eval_iterator.get_next()

logits = inference(images)
cross_entropy_mean = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
    labels=tf.cast(labels, tf.int64), logits=logits), name="cross_entropy")
tf.add_to_collection("losses", cross_entropy_mean)
total_loss = tf.add_n(tf.get_collection("losses"), name="total_loss")
global_step = tf.train.get_or_create_global_step()
lr = tf.train.exponential_decay(0.1, global_step, 20, 0.5, staircase=True)
loss_averages_op = tf.train.ExponentialMovingAverage(0.9, name="avg").apply(
    [cross_entropy_mean, total_loss])
with tf.control_dependencies([loss_averages_op]):
    opt = tf.train.GradientDescentOptimizer(lr)
    grads = opt.compute_gradients(total_loss)
apply_gradient_op = opt.apply_gradients(grads, global_step=global_step)
variables_averages_op = tf.train.ExponentialMovingAverage(0.999, global_step).apply(
    tf.trainable_variables())
with tf.control_dependencies([apply_gradient_op, variables_averages_op]):
    train_op = tf.no_op(name="train")
top_k_op = tf.nn.in_top_k(inference(eval_images, reuse=True), eval_labels, 1)

with tf.Session() as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        _, cost = sess.run([train_op, total_loss])
    sess.run(eval_iterator.initializer)
    true_count = sum(int(np.sum(sess.run(top_k_op))) for _ in range(N // 128))
    final_step = int(sess.run(global_step))
corpus_common.report(args, cost, true_count / float(N), begin, global_step=final_step)
