"""Exercise 1 -- the ES update, rebuilt from seeds.

Evolution strategies estimate the gradient of the reward R from perturbations alone:

    theta <- theta + learning_rate / (2 m sigma) * sum_i (R(theta + sigma eps_i)
                                                         - R(theta - sigma eps_i)) * eps_i

where eps_i = noise[seed_i : seed_i + DIM], a slice of the shared noise table. This file runs
ES on one machine on a simple function -- the reward of theta is minus its squared distance to
a target vector -- with es_update() below. As given, es_update returns zeros: theta never
moves and the reward stays where it started.

TODO: write es_update with TF ops: the rows eps_i of `noise` for the `seeds` (tf.gather with
tf.expand_dims(seeds, 1) + tf.range(DIM), as es_mnist.py's noise_rows does), weighted by the
reward differences and scaled as above. It returns the [DIM] step to add to theta.

Check: pytest lessons/10_evolution_strategies -k es_update
"""
import numpy as np

import sandbox as tf

NOISE_SIZE, DIM = 10000, 20


def es_update(noise, seeds, differences, sigma, learning_rate, m):
    """The ES step for m antithetic perturbations: noise [NOISE_SIZE], seeds [m] int32,
    differences [m] = R(theta + sigma eps_i) - R(theta - sigma eps_i). Returns [DIM]."""
    return tf.zeros([DIM])                                                   # TODO


def main():
    m, sigma, learning_rate = 16, 0.1, 0.05
    tf.set_random_seed(1)
    noise = tf.Variable(tf.random_normal([NOISE_SIZE], seed=2), trainable=False)
    target = tf.constant(np.linspace(-1.0, 1.0, DIM), tf.float32)
    theta = tf.Variable(tf.zeros([DIM]))
    seeds = tf.placeholder(tf.int32, [m])
    eps = tf.gather(noise, tf.expand_dims(seeds, 1) + tf.range(DIM))

    def reward(thetas):
        return -tf.reduce_sum(tf.square(thetas - target), axis=-1)

    differences = reward(theta + sigma * eps) - reward(theta - sigma * eps)
    step = theta.assign_add(es_update(noise, seeds, differences, sigma, learning_rate, m))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(reward(theta))
        for iteration in range(100):
            offsets = np.random.RandomState(iteration).randint(0, NOISE_SIZE - DIM, m)
            sess.run(step, {seeds: offsets})
        last = sess.run(reward(theta))
    print("reward %.3f -> %.3f after 100 iterations" % (first, last))


if __name__ == "__main__":
    main()
