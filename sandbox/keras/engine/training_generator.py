"""Training from generators and keras.utils.Sequence -- mirrors TensorFlow 1.15's
python/keras/engine/training_generator.py (model_iteration: the one loop behind
fit_generator, evaluate_generator, predict_generator, and fit / evaluate / predict given a
generator or a Sequence).

    model.fit(sequence, epochs=3)                                # steps: len(sequence)
    model.fit(generator(), steps_per_epoch=20, epochs=3,
              validation_data=val_generator(), validation_steps=5)
    model.evaluate_generator(sequence)       # loss (and metrics): a scalar or a list
    model.predict_generator(generator(), steps=4)

Each step takes the next batch -- x, (x,), (x, y) or (x, y, sample_weight) -- from the data
and runs it through one Session.run, as train_on_batch / test_on_batch / predict_on_batch
would; an epoch is `steps_per_epoch` batches (a Sequence's len() by default). The results are
TF 1.15's: fit's epoch loss is the mean over the samples (TF's BaseLogger), evaluate's the
mean of the batches' losses (TF's MetricsAggregator counts steps, even for validation arrays),
a metric the mean over the samples seen (TF's metrics accumulate over the epoch; a stateful one,
AUC, Precision ..., reports what it has accumulated), the
predictions the batches' outputs one after the other.

Where the batches come from (TF's data_utils enqueuers, run here on the calling thread):
  * workers=0: a Sequence is read in order, again and again (its on_epoch_end is not called);
    a generator is read as it is.
  * workers>=1 (the default): a Sequence is read as TF's OrderedEnqueuer reads it: its
    batches in a new random (Python `random`) order each pass when shuffle=True, and
    on_epoch_end() once the last batch of a pass has been taken. TF would read ahead in
    `workers` threads or processes (use_multiprocessing): the sandbox reads each batch when
    it is needed, so the same batches come in the same order.
"""
import inspect
import math
import random
import time

import numpy as np

from .. import callbacks as cbks
from ..utils import Progbar, Sequence
from . import training_utils

__all__ = ["model_iteration", "fit_generator", "evaluate_generator", "predict_generator",
           "is_generator_or_sequence", "check_generator_arguments"]

TRAIN, TEST, PREDICT = "train", "test", "predict"


def is_generator_or_sequence(x):
    """Whether fit should read `x` batch by batch: a generator, an iterator, a Sequence."""
    if isinstance(x, (np.ndarray, str, list, tuple, dict, set, frozenset)):
        return False
    return inspect.isgenerator(x) or isinstance(x, Sequence) or hasattr(x, "__next__")


def check_generator_arguments(y=None, sample_weight=None, validation_split=None):
    """TF's errors for fit / evaluate arguments that a generator's batches carry instead."""
    if y is not None:
        raise ValueError("`y` argument is not supported when data isa generator or Sequence "
                         "instance. Instead pass targets as the second element of the "
                         "generator.")
    if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when data isa generator or "
                         "Sequence instance. Instead pass sample weights as the third element "
                         "of the generator.")
    if validation_split:
        raise ValueError("If your data is in the form of a Python generator, you cannot use "
                         "`validation_split`.")


def _array_batches(data, batch_size, epochs):
    """A generator of the arrays' batches (x, y), in order, for `epochs` passes (TF's
    convert_to_generator_like, for validation_data=(x_val, y_val))."""
    n = len(data[0][0] if isinstance(data[0], (list, tuple)) else data[0])

    def take(part, start):
        if isinstance(part, (list, tuple)):
            return [np.asarray(p)[start:start + batch_size] for p in part]
        return np.asarray(part)[start:start + batch_size]

    for _ in range(epochs):
        for start in range(0, n, batch_size):
            yield tuple(take(part, start) for part in data)


def _ordered_sequence(sequence, shuffle):
    """TF's OrderedEnqueuer on one thread: every batch of the Sequence, pass after pass."""
    order = list(range(len(sequence)))
    while True:
        if shuffle:
            random.shuffle(order)
        for position, i in enumerate(order):
            batch = sequence[i]
            if position == len(order) - 1:       # the queue is empty: the pass is over
                sequence.on_epoch_end()
            yield batch


def _sequence_forever(sequence):
    while True:
        yield from (sequence[i] for i in range(len(sequence)))


def _next_batch(generator):
    """The next batch as a tuple (x,), (x, y) or (x, y, sample_weight); None at the end."""
    try:
        batch = next(generator)
    except StopIteration:
        return None
    if not isinstance(batch, tuple):
        batch = (batch,)
    if len(batch) not in (1, 2, 3):
        raise ValueError("Output of generator should be a tuple of 1 or 2 or 3 elements: "
                         "(input,) or (input, target) or (input, target, sample_weights). "
                         f"Received {batch}")
    return batch


def should_run_validation(validation_freq, epoch):
    """validation_freq=2: after epochs 2, 4, ...; [1, 5]: after epochs 1 and 5 (1-based)."""
    if isinstance(validation_freq, int):
        if validation_freq < 1:
            raise ValueError("`validation_freq` can not be less than 1.")
        return (epoch + 1) % validation_freq == 0
    return epoch + 1 in validation_freq


def _run_batch(model, mode, batch, class_weight=None):
    """One batch through the model: [loss, metrics...] (TRAIN, TEST) or the list of outputs
    (PREDICT). A batch's third element is its examples' weights; class_weight weighs the
    training batches' examples by their class."""
    if mode == PREDICT:
        xs, _ = model._standardize(batch[0], need_y=False)
        return model._run_batches(list(model.outputs), xs, None, len(xs[0]), False)
    xs, ys = model._standardize(batch[0], batch[1] if len(batch) > 1 else None)
    weights = training_utils.sample_weights(ys, model.output_names,
                                            batch[2] if len(batch) == 3 else None,
                                            class_weight if mode == TRAIN else None)
    fetches = [model.total_loss] + model._metric_tensors
    if mode == TRAIN:
        fetches = [model._make_train_function()] + fetches
    return model._run_batches(fetches, xs, ys, len(xs[0]), mode == TRAIN, weights=weights)


def model_iteration(model, data, steps_per_epoch=None, epochs=1, verbose=1, callbacks=None,
                    validation_data=None, validation_steps=None, validation_freq=1,
                    class_weight=None, max_queue_size=10, workers=1, use_multiprocessing=False,
                    shuffle=False, initial_epoch=0, mode=TRAIN, batch_size=None,
                    steps_name="steps", **kwargs):
    """The loop: History (TRAIN), the loss and metrics (TEST) or the predictions (PREDICT)."""
    if "steps" in kwargs:
        steps_per_epoch = kwargs.pop("steps")
    if kwargs:
        raise ValueError(f"Invalid arguments passed: {list(kwargs)}")
    if mode != PREDICT:
        model._check_compiled()

    use_steps = True                 # the progress bar counts steps (samples for arrays)
    if isinstance(data, tuple) and not is_generator_or_sequence(data):    # arrays
        data = tuple(part for part in data if part is not None)
        first = data[0][0] if isinstance(data[0], (list, tuple)) else data[0]
        if batch_size is None:
            raise ValueError("When passing input data as arrays, do not specify "
                             "`steps_per_epoch`/`steps` argument. Please use `batch_size` "
                             "instead.")
        steps_per_epoch = int(math.ceil(len(first) / batch_size))
        generator, use_steps = _array_batches(data, batch_size, epochs - initial_epoch), False
        samples = len(first)
    elif isinstance(data, Sequence):
        if steps_per_epoch is None:
            steps_per_epoch = len(data)
        generator = (_ordered_sequence(data, shuffle) if workers > 0
                     else _sequence_forever(data))
    else:
        generator = data
    if steps_per_epoch is None:
        raise ValueError("Please specify the number of steps via the `"
                         f"{'steps_per_epoch' if mode == TRAIN else 'steps'}` argument.")
    if use_steps:
        samples = steps_per_epoch
    if (is_generator_or_sequence(validation_data) and
            not isinstance(validation_data, Sequence) and not validation_steps):
        raise ValueError("Please specify the `validation_steps` argument.")

    callback_list = callbacks
    if mode == TRAIN:
        model.history = cbks.History()
        callback_list = cbks.CallbackList(list(callbacks or []) + [model.history])
        callback_list.set_model(model)
    params = {"batch_size": batch_size, "epochs": epochs, "steps": steps_per_epoch,
              "samples": samples, "verbose": verbose,
              "do_validation": validation_data is not None, "metrics": []}

    def set_metric_names():
        names = list(getattr(model, "metrics_names", None) or [])
        params["metrics"] = names + (["val_" + n for n in names]
                                     if validation_data is not None else [])
        return names

    names = set_metric_names() if model._graph_compiled else []
    if mode == TRAIN:
        callback_list.set_params(params)
        model.stop_training = False
        callback_list.on_train_begin()

    results = None
    for epoch in range(initial_epoch, epochs):
        if model.stop_training:
            break
        epoch_logs = {}
        if mode == TRAIN:
            callback_list.on_epoch_begin(epoch, epoch_logs)
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}")
        progbar = Progbar(steps_per_epoch if use_steps else samples, verbose=verbose,
                          stateful_metrics=names[1:],
                          unit_name="step" if use_steps else "sample") if verbose else None
        seen, loss_sum, metric_sums, outputs, step = 0, 0.0, None, [], 0
        if mode != PREDICT:
            model._reset_metrics()              # the stateful ones (AUC ...): each epoch
        started = time.time()
        while step < steps_per_epoch:
            batch = _next_batch(generator)
            if batch is None:
                model.stop_training = True
                print("WARNING: Your dataset iterator ran out of data; interrupting training. "
                      f"Make sure that your iterator can generate at least `{steps_name} * "
                      f"epochs` batches (in this case, {steps_per_epoch * epochs} batches).")
                break
            first = batch[0][0] if isinstance(batch[0], (list, tuple)) else batch[0]
            size = len(first)
            batch_logs = {"batch": step, "size": size}
            if mode == TRAIN:
                callback_list.on_batch_begin(step, batch_logs)
            values = _run_batch(model, mode, batch, class_weight)
            if not names and mode != PREDICT:
                names = set_metric_names()          # a model built by its first batch
                if progbar is not None:
                    progbar.stateful_metrics = set(names[1:])
            step += 1
            if mode == PREDICT:
                outputs.append(values)
                if progbar is not None:
                    progbar.update(step)
                continue
            # the loss: TF's BaseLogger weighs fit's batches by their size, evaluate's
            # MetricsAggregator does not; a metric: the mean over the samples so far
            loss_sum += values[0] * (size if mode == TRAIN else 1)
            metric_sums = (np.array(values[1:]) * size if metric_sums is None
                           else metric_sums + np.array(values[1:]) * size)
            seen += size
            running = _running(model, metric_sums / seen, values)
            batch_logs.update(zip(names, [values[0]] + running))
            if mode == TRAIN:
                callback_list.on_batch_end(step - 1, batch_logs)
            if progbar is not None and step < steps_per_epoch:   # the last: at the epoch end
                progbar.update(step if use_steps else seen,
                               list(zip(names, [values[0]] + running)))
            if model.stop_training:
                break
        model._epoch_seconds = time.time() - started
        if mode == PREDICT:
            if not outputs:
                raise ValueError("Empty prediction data.")
            results = [np.concatenate([o[i] for o in outputs]) for i in range(len(outputs[0]))]
            return results[0] if len(results) == 1 else results
        if step == 0:
            raise ValueError("Empty training data.")
        results = [loss_sum / (seen if mode == TRAIN else step)] + \
            _running(model, metric_sums / seen, values)
        epoch_logs.update(zip(names, results))
        if (validation_data is not None and mode == TRAIN and not model.stop_training and
                should_run_validation(validation_freq, epoch)):
            val_results = model_iteration(model, validation_data,
                                          steps_per_epoch=validation_steps,
                                          batch_size=size, workers=workers, verbose=0,
                                          mode=TEST, steps_name="validation_steps")
            val_results = val_results if isinstance(val_results, list) else [val_results]
            epoch_logs.update(("val_" + n, v) for n, v in zip(names, val_results))
        if progbar is not None:         # TF's ProgbarLogger: the epoch's line, val_* too
            progbar.stateful_metrics |= set(epoch_logs)
            progbar.update(step if use_steps else seen, list(epoch_logs.items()))
        if mode == TRAIN:
            callback_list.on_epoch_end(epoch, epoch_logs)
    if mode == TRAIN:
        callback_list.on_train_end()
        return model.history
    return results[0] if len(results) == 1 else results


def fit_generator(model, generator, **kwargs):
    return model_iteration(model, generator, mode=TRAIN, **kwargs)


def evaluate_generator(model, generator, **kwargs):
    return model_iteration(model, generator, mode=TEST, shuffle=False, **kwargs)


def predict_generator(model, generator, **kwargs):
    return model_iteration(model, generator, mode=PREDICT, shuffle=False, **kwargs)


def _running(model, means, values):
    """The metrics after a batch: a mean over the samples so far, or, for a stateful metric
    (AUC, Precision ...), the value it has accumulated (`values`: the batch's [loss, ...])."""
    stateful = getattr(model, "_stateful_metrics", {})
    return [float(values[i + 1]) if i + 1 in stateful else float(v)
            for i, v in enumerate(means)]
