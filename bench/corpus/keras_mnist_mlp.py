"""MNIST with tf.keras -- the TF 1.x "basic classification" tutorial's model:
tf.keras.Sequential([Dense(128, relu, input_shape=(784,)), Dropout(0.2), Dense(10, softmax)]),
compile(optimizer='adam', loss='sparse_categorical_crossentropy', metrics=['accuracy']), fit,
evaluate on the test set.

--steps is the number of training batches: fit runs one epoch over the first steps * 100
training images in batches of 100, in order (shuffle=False), so both sides see the same
batches. The seed: tf.set_random_seed(--seed) before the model is built (Keras's default
initializers -- glorot_uniform kernels, zero biases -- then draw from the graph seed; the
sandbox's Keras reuses tf.layers' initializers). The loss reported is the last training
batch's (a LambdaCallback reads it from the batch logs); the epoch's mean is reported too.

    python bench/corpus/keras_mnist_mlp.py --sandbox|--tf [--data_dir DIR] [--steps N]
"""
import time

import corpus_common

BATCH = 100

args = corpus_common.parse_args(__doc__, steps=300)
tf = corpus_common.import_tf(args.framework)
begin = time.time()
train_x, train_y, test_x, test_y = corpus_common.load_mnist(args.data_dir)
n = min(len(train_x), args.steps * BATCH)
x, y = train_x[:n], train_y[:n]

tf.set_random_seed(args.seed)
model = tf.keras.Sequential([
    tf.keras.layers.Dense(128, activation=tf.nn.relu, input_shape=(784,)),
    tf.keras.layers.Dropout(0.2),
    tf.keras.layers.Dense(10, activation=tf.nn.softmax),
])
model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])

batch_losses = []
record = tf.keras.callbacks.LambdaCallback(
    on_batch_end=lambda batch, logs: batch_losses.append(float(logs["loss"])))
history = model.fit(x, y, epochs=1, batch_size=BATCH, shuffle=False, verbose=0,
                    callbacks=[record])
test_loss, test_acc = model.evaluate(test_x, test_y, batch_size=1000, verbose=0)
corpus_common.report(args, batch_losses[-1], test_acc, begin, test_loss=float(test_loss),
                     epoch_loss=float(history.history["loss"][-1]), batches=len(batch_losses))
