"""In-graph replication on one machine -- the "multi-GPU" pattern of the TF-1 tutorials
(cifar10_multi_gpu_train.py, multigpu_cnn.py): the batch is split between two towers, each
built under tf.device('/gpu:%d') with the variables pinned to the CPU by a device function
and shared through variable_scope(reuse=True); each tower's optimizer.compute_gradients gives
its gradients, average_gradients stacks and averages them, and one apply_gradients updates
the shared variables. allow_soft_placement=True lets it run where there is no GPU (TensorFlow
puts the ops on the CPU; the sandbox's devices are names). A small tf.layers conv net with
dropout; Adam; accuracy on the test set.

    python bench/corpus/mnist_towers.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import time

import corpus_common

args = corpus_common.parse_args(__doc__, steps=60)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)
NUM_GPUS, BATCH = 2, 32
PS_OPS = ["Variable", "VariableV2", "AutoReloadVariable"]


def conv_net(x, reuse, is_training):
    with tf.variable_scope("ConvNet", reuse=reuse):
        x = tf.reshape(x, [-1, 28, 28, 1])
        x = tf.layers.conv2d(x, 8, 5, activation=tf.nn.relu)
        x = tf.layers.max_pooling2d(x, 2, 2)
        x = tf.layers.conv2d(x, 16, 3, activation=tf.nn.relu)
        x = tf.layers.max_pooling2d(x, 2, 2)
        x = tf.layers.flatten(x)
        x = tf.layers.dense(x, 64)
        x = tf.layers.dropout(x, rate=0.25, training=is_training)
        return tf.layers.dense(x, 10)


def average_gradients(tower_grads):
    average_grads = []
    for grad_and_vars in zip(*tower_grads):
        grads = [tf.expand_dims(g, 0) for g, _ in grad_and_vars]
        grad = tf.reduce_mean(tf.concat(grads, 0), 0)
        average_grads.append((grad, grad_and_vars[0][1]))
    return average_grads


def assign_to_device(device, ps_device="/cpu:0"):
    def _assign(op):
        node_def = op if isinstance(op, tf.NodeDef) else op.node_def
        return "/" + ps_device if node_def.op in PS_OPS else device
    return _assign


tf.set_random_seed(args.seed)
with tf.device("/cpu:0"):
    X = tf.placeholder(tf.float32, [None, 784], name="images")
    Y = tf.placeholder(tf.int64, [None], name="digits")
    optimizer = tf.train.AdamOptimizer(learning_rate=0.001)
    tower_grads, losses = [], []
    for i in range(NUM_GPUS):
        with tf.device(assign_to_device("/gpu:%d" % i, ps_device="/cpu:0")):
            _x, _y = X[i * BATCH:(i + 1) * BATCH], Y[i * BATCH:(i + 1) * BATCH]
            logits = conv_net(_x, reuse=i > 0, is_training=True)
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=_y, logits=logits))
            tower_grads.append(optimizer.compute_gradients(loss))
            losses.append(loss)
    train_op = optimizer.apply_gradients(average_gradients(tower_grads))
    mean_loss = tf.add_n(losses) / NUM_GPUS
    test_logits = conv_net(X, reuse=True, is_training=False)
    accuracy = tf.reduce_mean(tf.cast(tf.equal(tf.argmax(test_logits, 1), Y), tf.float32))

stream = corpus_common.batches(len(train_x), BATCH * NUM_GPUS, args.seed)
config = tf.ConfigProto(allow_soft_placement=True)
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    for step in range(args.steps):
        batch = next(stream)
        _, cost = sess.run([train_op, mean_loss], {X: train_x[batch], Y: train_y[batch]})
    test_acc = sess.run(accuracy, {X: test_x[:1000], Y: test_y[:1000]})
corpus_common.report(args, cost, test_acc, begin, variables=len(tf.trainable_variables()),
                     kernel_device=tf.trainable_variables()[0].device)
