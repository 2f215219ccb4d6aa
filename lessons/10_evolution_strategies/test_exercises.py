"""Checks of lesson 10's exercises (a few seconds each).

    pytest lessons/10_evolution_strategies               # your files
    pytest lessons/10_evolution_strategies --solutions   # the reference solutions
"""
import importlib.util
import re

import numpy as np

import sandbox as tf


def _load(path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_exercise_1_es_update_is_the_es_formula(exercise, run_program):
    path = exercise("exercise_1_es_update.py")
    module = _load(path)
    rng = np.random.RandomState(0)
    noise = rng.randn(module.NOISE_SIZE).astype(np.float32)
    m, sigma, lr = 8, 0.1, 0.05
    seeds = rng.randint(0, module.NOISE_SIZE - module.DIM, m).astype(np.int32)
    differences = rng.randn(m).astype(np.float32)
    with tf.Graph().as_default(), tf.Session() as sess:
        got = sess.run(module.es_update(tf.constant(noise), tf.constant(seeds),
                                        tf.constant(differences), sigma, lr, m))
    eps = np.stack([noise[s:s + module.DIM] for s in seeds])
    expected = lr / (2 * m * sigma) * differences.dot(eps)
    assert got.shape == (module.DIM,), got.shape
    assert np.allclose(got, expected, atol=1e-5), "es_update is not lr/(2 m sigma) sum d_i eps_i"
    run = run_program(path, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    first, last = map(float, re.search(r"reward (-?[\d.]+) -> (-?[\d.]+)", run.stdout).groups())
    assert last > first + 1.0, f"the reward did not rise: {run.stdout}"


def test_exercise_2_seeds_differ_between_workers_and_iterations(exercise):
    module = _load(exercise("exercise_2_seeds.py"))
    n = 16
    table = {(w, it): np.asarray(module.seeds_for(w, it, n)) for w in range(8) for it in range(10)}
    for (w, it), seeds in table.items():
        assert seeds.shape == (n,)
        assert np.array_equal(seeds, module.seeds_for(w, it, n)), \
            "the same worker and iteration must give the same seeds (anyone rebuilds eps)"
        assert seeds.min() >= 0 and seeds.max() <= module.NOISE_SIZE - module.DIM, \
            "a seed is an offset: 0 <= seed <= NOISE_SIZE - DIM"
    for it in range(10):
        assert not np.array_equal(table[0, it], table[1, it]), \
            f"workers 0 and 1 get the same seeds at iteration {it}"
    for w in range(8):
        assert not np.array_equal(table[w, 0], table[w, 1]), \
            f"worker {w} gets the same seeds at iterations 0 and 1"
    every = np.concatenate(list(table.values()))
    assert len(set(every.tolist())) > 0.95 * len(every), "too many seeds repeat"
