"""Exercise 2 -- seeds that never repeat the same perturbation twice.

In es_mnist.py every worker derives the offsets ("seeds") of its perturbations from its task
index and the iteration, so that nothing but the seed has to cross the wire and anybody can
rebuild eps from it. The seeds_for() below forgets the worker: at the same iteration all the
workers evaluate the same perturbations, and 2 workers do the work of 1 -- the run still
"works", only slower. Run this file: it prints how many of the M seeds of an iteration are
different.

TODO: derive the seeds from the worker AND the iteration, so that
  - every call with the same (worker, iteration) gives the same seeds (anyone can rebuild them),
  - two workers, or two iterations, get different seeds,
  - every seed is a valid offset: 0 <= seed <= NOISE_SIZE - DIM.

Check: pytest lessons/10_evolution_strategies -k seeds
"""
import numpy as np


NOISE_SIZE, DIM = 250000, 500


def seeds_for(worker, iteration, n):
    """n int32 offsets into the noise table for `worker` at `iteration`."""
    rng = np.random.RandomState(iteration)                                   # TODO
    return rng.randint(0, NOISE_SIZE - DIM, size=n).astype(np.int32)


def main():
    workers, n = 4, 16
    for iteration in range(3):
        seeds = np.concatenate([seeds_for(w, iteration, n) for w in range(workers)])
        print("iteration %d: %d different seeds of %d" % (iteration, len(set(seeds)),
                                                          len(seeds)))


if __name__ == "__main__":
    main()
