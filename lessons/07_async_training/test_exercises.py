"""Checks of lesson 7's exercises (each runs a real cluster in quick mode: a few seconds).

    pytest lessons/07_async_training               # your files
    pytest lessons/07_async_training --solutions   # the reference solutions
"""
import re


def _last_int(pattern, text):
    found = re.findall(pattern, text)
    assert found, f"the output has no line matching {pattern!r}:\n{text[-1500:]}"
    return int(found[-1])


def _batches(runs, asked):
    """The batches per epoch a worker ran: those asked for, or fewer when the training set is
    smaller (the offline subset has 3,667 examples: 36 batches of 100)."""
    found = re.search(r"MNIST: (\d+) train", runs["worker", 0].stderr)
    assert found, f"the loader said nothing:\n{runs['worker', 0].stderr[-1500:]}"
    return min(asked, int(found.group(1)) // 100)


def _check_every_worker_finished(runs, workers, asked, epochs=1):
    for index in range(workers):
        run = runs["worker", index]
        assert run.returncode == 0, f"worker {index} failed:\n{run.stderr[-2000:]}"
    batches = _batches(runs, asked)
    for index in range(workers):
        assert _last_int(r"Updates by this worker: (\d+)", runs["worker", index].stdout) \
            == batches * epochs
    return batches


def test_exercise_1_the_chief_initializes_and_the_others_wait(exercise, run_tasks):
    workers, batches = 3, 100
    runs = run_tasks(exercise("exercise_1_chief_init.py"), ps=1, worker=workers,
                     args=[f"--batches_per_epoch={batches}", "--training_epochs=1",
                           "--init_timeout=8"], timeout=120)
    batches = _check_every_worker_finished(runs, workers, batches)
    initialized = [i for i in range(workers)
                   if "initialized the variables" in runs["worker", i].stdout]
    assert initialized == [0], (f"exactly one worker, the chief (worker 0), must initialize "
                                f"the variables; these did: {initialized}")
    for i in range(1, workers):
        assert "found the variables initialized" in runs["worker", i].stdout, \
            f"worker {i} did not say it waited for the chief"
    # Nobody reset the variables while the others trained: global_step counted every update.
    last = max(_last_int(r"global_step after its last update: (\d+)", runs["worker", i].stdout)
               for i in range(workers))
    assert last == workers * batches, (
        f"global_step ended at {last}, not {workers} workers x {batches} updates: "
        "a worker initialized the variables after training had begun")


def test_exercise_2_staleness_is_measured(exercise, run_tasks):
    program = exercise("exercise_2_staleness.py")
    # One worker: nobody else updates the variables, every gradient is fresh.
    runs = run_tasks(program, ps=1, worker=1, args=["--batches_per_epoch=50",
                                                    "--training_epochs=1"], timeout=120)
    _check_every_worker_finished(runs, 1, 50)
    assert re.search(r"Staleness: mean 0\.00, max 0\b", runs["worker", 0].stdout), \
        f"with one worker every staleness is 0:\n{runs['worker', 0].stdout[-800:]}"
    # Three workers training together: some gradients were computed on weights that other
    # workers' updates had changed before they were applied.
    # About 300 updates each, so that they overlap: on the offline subset (36 batches an
    # epoch) that takes several epochs.
    workers, batches = 3, _batches(runs, 300)
    epochs = -(-300 // batches)
    runs = run_tasks(program, ps=1, worker=workers,
                     args=[f"--batches_per_epoch={batches}", f"--training_epochs={epochs}"],
                     timeout=120)
    _check_every_worker_finished(runs, workers, batches, epochs)
    batches *= epochs
    means, maxima = [], []
    for i in range(workers):
        found = re.search(r"Staleness: mean (\d+\.\d+), max (\d+)", runs["worker", i].stdout)
        assert found, f"worker {i} printed no staleness:\n{runs['worker', i].stdout[-800:]}"
        means.append(float(found.group(1)))
        maxima.append(int(found.group(2)))
        assert means[-1] <= maxima[-1] <= (workers - 1) * batches
    assert max(maxima) >= 1, f"three workers, yet no gradient was stale: {maxima}"
    assert sum(means) > 0
