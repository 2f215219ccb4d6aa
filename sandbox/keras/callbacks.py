"""keras.callbacks -- mirrors TensorFlow 1.15's python/keras/callbacks.py (and callbacks_v1.py,
whose TensorBoard is TF 1.15's tf.keras.callbacks.TensorBoard): Callback, History,
ProgbarLogger (the per-epoch line fit prints), BaseLogger, EarlyStopping, ModelCheckpoint,
LambdaCallback, CSVLogger, LearningRateScheduler, ReduceLROnPlateau, TerminateOnNaN,
TensorBoard and RemoteMonitor.

fit calls, on every callback: set_model, set_params, on_train_begin, then per epoch
on_epoch_begin, per batch on_batch_begin / on_batch_end (logs: batch, size, loss, metrics),
on_epoch_end(epoch, logs) with the epoch's means ('loss', 'acc', 'val_loss', 'val_acc'),
and on_train_end. A callback that sets model.stop_training = True ends the training after
the epoch.

The learning rate callbacks read and write the optimizer's learning rate variable with
keras.backend.get_value / set_value (`model.optimizer.lr`, keras/optimizers.py), so the new
rate holds from the next step on, without rebuilding the training step.
"""
import collections.abc
import csv
import json
import logging
import os
import sys
import urllib.error
import urllib.parse
import urllib.request

import numpy as np

from . import backend as K

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "BaseLogger",
           "EarlyStopping", "ModelCheckpoint", "LambdaCallback", "CSVLogger",
           "LearningRateScheduler", "ReduceLROnPlateau", "TerminateOnNaN", "TensorBoard",
           "RemoteMonitor", "format_logs"]

_log = logging.getLogger("sandbox.keras")      # TF logs these as warnings


def format_logs(logs, keys):
    """' - loss: 0.1234 - acc: 0.9500' (Keras's progress bar: %.4f, or %.4e when tiny)."""
    text = ""
    for key in keys:
        if key in logs:
            value = float(logs[key])
            text += f" - {key}: " + ("%.4f" % value if abs(value) > 1e-3 else "%.4e" % value)
    return text


def format_time(seconds, samples):
    per = seconds / max(samples, 1)
    if per >= 1:
        unit = "%.0fs/sample" % per
    elif per >= 1e-3:
        unit = "%.0fms/sample" % (per * 1e3)
    else:
        unit = "%.0fus/sample" % (per * 1e6)
    return "%.0fs %s" % (seconds, unit)


def progress_line(samples, seconds, logs, keys, verbose):
    """The line Keras's progress bar ends an epoch (or evaluate) with."""
    if verbose == 1:
        return (f"{samples}/{samples} [{'=' * 30}] - {format_time(seconds, samples)}"
                + format_logs(logs, keys))
    return f"{samples}/{samples} - {seconds:.0f}s" + format_logs(logs, keys)


class Callback:
    """Base class of the callbacks: every hook does nothing."""

    def __init__(self):
        self.model = None
        self.params = {}
        self.validation_data = None

    def set_params(self, params):
        self.params = params

    def set_model(self, model):
        self.model = model

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass

    def on_train_batch_begin(self, batch, logs=None):
        self.on_batch_begin(batch, logs)

    def on_train_batch_end(self, batch, logs=None):
        self.on_batch_end(batch, logs)

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass


class CallbackList:
    """Calls each hook on every callback in turn."""

    def __init__(self, callbacks):
        self.callbacks = list(callbacks)

    def __getattr__(self, hook):
        if not hook.startswith("on_") and hook not in ("set_model", "set_params"):
            raise AttributeError(hook)

        def call_all(*args, **kwargs):
            for callback in self.callbacks:
                getattr(callback, hook)(*args, **kwargs)
        return call_all


class History(Callback):
    """Records the epoch logs: history.history == {'loss': [...], 'acc': [...], ...}; fit
    returns it."""

    def on_train_begin(self, logs=None):
        self.epoch = []
        self.history = {}

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)


class ProgbarLogger(Callback):
    """Prints 'Epoch 3/10' and the epoch's last line: with a bar for verbose=1, without
    for 2 (no line per batch: the sandbox prints once an epoch)."""

    def __init__(self, verbose=1, stream=None):
        super().__init__()
        self.verbose = verbose
        self.stream = stream

    def _print(self, text):
        print(text, file=self.stream or sys.stdout)

    def on_epoch_begin(self, epoch, logs=None):
        self._print(f"Epoch {epoch + 1}/{self.params['epochs']}")

    def on_epoch_end(self, epoch, logs=None):
        seconds = getattr(self.model, "_epoch_seconds", 0.0)
        self._print(progress_line(self.params["samples"], seconds, logs or {},
                                  self.params["metrics"], self.verbose))


class EarlyStopping(Callback):
    """Stops training when `monitor` has not improved by min_delta for `patience` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False):
        super().__init__()
        self.monitor, self.patience, self.verbose = monitor, patience, verbose
        self.baseline, self.restore_best_weights = baseline, restore_best_weights
        if mode not in ("auto", "min", "max"):
            mode = "auto"
        if mode == "max" or (mode == "auto" and "acc" in monitor):
            self.monitor_op, self.min_delta = np.greater, abs(min_delta)
        else:
            self.monitor_op, self.min_delta = np.less, -abs(min_delta)
        self.stopped_epoch = 0

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best_weights = None
        if self.baseline is not None:
            self.best = self.baseline
        else:
            self.best = np.inf if self.monitor_op is np.less else -np.inf

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            print(f"Early stopping conditioned on metric `{self.monitor}` which is not "
                  f"available. Available metrics are: {','.join(logs or {})}", file=sys.stderr)
            return
        if self.monitor_op(current - self.min_delta, self.best):
            self.best = current
            self.wait = 0
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = epoch
                self.model.stop_training = True
                if self.restore_best_weights and self.best_weights is not None:
                    self.model.set_weights(self.best_weights)

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print("Epoch %05d: early stopping" % (self.stopped_epoch + 1))


class ModelCheckpoint(Callback):
    """Saves the model's weights after every epoch (or every `period` epochs) to
    filepath.format(epoch=epoch + 1, **logs), e.g. 'ckpt-{epoch:02d}-{val_loss:.2f}';
    with save_best_only, only when `monitor` improved. The sandbox saves weights (a TF
    checkpoint, as save_weights does) even when save_weights_only=False: it has no
    whole-model (HDF5) format."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", period=1):
        super().__init__()
        self.filepath, self.monitor, self.verbose = str(filepath), monitor, verbose
        self.save_best_only, self.save_weights_only = save_best_only, save_weights_only
        self.period = period
        self.epochs_since_last_save = 0
        if mode == "max" or (mode == "auto" and ("acc" in monitor or
                                                  monitor.startswith("fmeasure"))):
            self.monitor_op, self.best = np.greater, -np.inf
        else:
            self.monitor_op, self.best = np.less, np.inf

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        self.epochs_since_last_save += 1
        if self.epochs_since_last_save < self.period:
            return
        self.epochs_since_last_save = 0
        filepath = self.filepath.format(epoch=epoch + 1, **logs)
        if self.save_best_only:
            current = logs.get(self.monitor)
            if current is None:
                print(f"Can save best model only with {self.monitor} available, skipping.",
                      file=sys.stderr)
                return
            if not self.monitor_op(current, self.best):
                if self.verbose > 0:
                    print("\nEpoch %05d: %s did not improve from %0.5f"
                          % (epoch + 1, self.monitor, self.best))
                return
            if self.verbose > 0:
                print("\nEpoch %05d: %s improved from %0.5f to %0.5f, saving model to %s"
                      % (epoch + 1, self.monitor, self.best, current, filepath))
            self.best = current
        elif self.verbose > 0:
            print("\nEpoch %05d: saving model to %s" % (epoch + 1, filepath))
        self.model.save_weights(filepath)


class LambdaCallback(Callback):
    """A callback made of functions: LambdaCallback(on_epoch_end=lambda epoch, logs: ...)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_batch_begin=None,
                 on_batch_end=None, on_train_begin=None, on_train_end=None):
        super().__init__()
        for hook, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_begin", on_batch_begin), ("on_batch_end", on_batch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, hook, fn)


class BaseLogger(Callback):
    """Averages the batch logs over the epoch (weighted by batch size) into the epoch logs
    of the metrics in params['metrics']; `stateful_metrics` keep their last value."""

    def __init__(self, stateful_metrics=None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or [])

    def on_epoch_begin(self, epoch, logs=None):
        self.seen = 0
        self.totals = {}

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        batch_size = logs.get("size", 0)
        self.seen += batch_size * logs.get("num_steps", 1)
        for key, value in logs.items():
            if key in self.stateful_metrics:
                self.totals[key] = value
            else:
                self.totals[key] = self.totals.get(key, 0) + value * batch_size

    def on_epoch_end(self, epoch, logs=None):
        if logs is None:
            return
        for key in self.params["metrics"]:
            if key in self.totals:
                logs[key] = (self.totals[key] if key in self.stateful_metrics
                             else self.totals[key] / self.seen)


class TerminateOnNaN(Callback):
    """Stops training when a batch's loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print("Batch %d: Invalid loss, terminating training" % batch)
            self.model.stop_training = True


class CSVLogger(Callback):
    """Writes a row per epoch to a CSV file: 'epoch' and the epoch logs' keys (sorted),
    separated by `separator`; append=True adds to an existing file (without a second
    header)."""

    def __init__(self, filename, separator=",", append=False):
        super().__init__()
        self.sep = separator
        self.filename = filename
        self.append = append
        self.writer = None
        self.keys = None
        self.append_header = True

    def on_train_begin(self, logs=None):
        mode = "w"
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename) as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        self.csv_file = open(self.filename, mode, newline="\n")

    @staticmethod
    def _handle_value(value):
        """A list (an array of several values) as '"[1, 2]"'; anything else as it is."""
        zero_dim = isinstance(value, np.ndarray) and value.ndim == 0
        if isinstance(value, str):
            return value
        if isinstance(value, collections.abc.Iterable) and not zero_dim:
            return '"[%s]"' % ", ".join(map(str, value))
        return value

    def on_epoch_end(self, epoch, logs=None):
        logs = logs or {}
        if self.keys is None:
            self.keys = sorted(logs.keys())
        if self.model.stop_training:
            # the last epoch may lack some keys: 'NA', so that CSV readers do not fail
            logs = {key: logs.get(key, "NA") for key in self.keys}
        if not self.writer:
            class CustomDialect(csv.excel):
                delimiter = self.sep
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys,
                                         dialect=CustomDialect)
            if self.append_header:
                self.writer.writeheader()
        row = {"epoch": epoch}
        row.update((key, self._handle_value(logs[key])) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs=None):
        self.csv_file.close()
        self.writer = None


def _optimizer_lr(model):
    if not hasattr(model.optimizer, "lr"):
        raise ValueError('Optimizer must have a "lr" attribute.')
    return model.optimizer.lr


class LearningRateScheduler(Callback):
    """Sets the learning rate at the start of each epoch to schedule(epoch, lr) (epochs
    from 0; lr the current rate), or schedule(epoch) for a one-argument schedule. The epoch
    logs get 'lr'."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        lr_variable = _optimizer_lr(self.model)
        try:                                             # the newer, two-argument schedule
            lr = self.schedule(epoch, float(K.get_value(lr_variable)))
        except TypeError:                                # Keras 1's schedule(epoch)
            lr = self.schedule(epoch)
        if not isinstance(lr, (float, np.float32, np.float64)):
            raise ValueError('The output of the "schedule" function should be float.')
        K.set_value(lr_variable, lr)
        if self.verbose > 0:
            print("\nEpoch %05d: LearningRateScheduler reducing learning rate to %s."
                  % (epoch + 1, lr))

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = K.get_value(self.model.optimizer.lr)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` (not below min_lr) when `monitor` has not
    improved by min_delta for `patience` epochs, then waits `cooldown` epochs before counting
    again. mode 'auto' maximizes metrics named '...acc...' and minimizes the others."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0, **kwargs):
        super().__init__()
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0.")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            _log.warning("`epsilon` argument is deprecated and will be removed, use "
                         "`min_delta` instead.")
        self.monitor, self.factor, self.min_lr = monitor, factor, min_lr
        self.min_delta, self.patience, self.verbose = min_delta, patience, verbose
        self.cooldown, self.mode = cooldown, mode
        self._reset()

    def _reset(self):
        """Starts counting afresh: no best value, no wait, no cooldown."""
        if self.mode not in ("auto", "min", "max"):
            _log.warning("Learning Rate Plateau Reducing mode %s is unknown, fallback to auto "
                         "mode.", self.mode)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        logs = logs if logs is not None else {}
        logs["lr"] = K.get_value(self.model.optimizer.lr)
        current = logs.get(self.monitor)
        if current is None:
            _log.warning("Reduce LR on plateau conditioned on metric `%s` which is not "
                         "available. Available metrics are: %s", self.monitor,
                         ",".join(logs.keys()))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = float(K.get_value(self.model.optimizer.lr))
                if old_lr > self.min_lr:
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    K.set_value(self.model.optimizer.lr, new_lr)
                    if self.verbose > 0:
                        print("\nEpoch %05d: ReduceLROnPlateau reducing learning rate to %s."
                              % (epoch + 1, new_lr))
                    self.cooldown_counter = self.cooldown
                    self.wait = 0


class TensorBoard(Callback):
    """Writes an event file for TensorBoard into `log_dir` (a tf.summary.FileWriter): the
    epoch logs as scalars 'epoch_loss', 'epoch_val_loss' ... at step `epoch`; with
    update_freq='batch' (or a number of samples) also 'batch_loss' ... at the count of
    batches seen, and the epoch scalars then at the count of samples seen; the graph when
    write_graph. With histogram_freq=n, every n-th epoch adds a histogram of each weight
    ('dense/kernel_0'), at step `epoch` -- TF also histograms the layers' outputs over the
    validation batches, which the sandbox's fit does not hand to callbacks. Not in the
    sandbox: embeddings, write_grads / write_images, the profiler (profile_batch is
    ignored)."""

    def __init__(self, log_dir="./logs", histogram_freq=0, batch_size=32, write_graph=True,
                 write_grads=False, write_images=False, embeddings_freq=0,
                 embeddings_layer_names=None, embeddings_metadata=None, embeddings_data=None,
                 update_freq="epoch", profile_batch=2):
        super().__init__()
        if embeddings_freq or (histogram_freq and (write_grads or write_images)):
            raise NotImplementedError("TensorBoard: embeddings, write_grads and write_images "
                                      "are not in the sandbox's keras")
        self.log_dir = str(log_dir)
        self.histogram_freq = histogram_freq
        self.batch_size = batch_size
        self.write_graph = write_graph
        self.update_freq = 1 if update_freq == "batch" else update_freq
        self.merged = None
        self.writer = None
        self._total_batches_seen = 0
        self._samples_seen = 0
        self._samples_seen_at_last_write = 0

    def set_model(self, model):
        from ..summary import FileWriter, histogram, merge
        self.model = model
        graph = K.get_graph()
        self.writer = FileWriter(self.log_dir, graph if self.write_graph else None)
        if self.histogram_freq and (self.merged is None or self.merged.graph is not graph):
            with graph.as_default():
                self.merged = merge([histogram(weight.name.replace(":", "_"), weight)
                                     for layer in model.layers for weight in layer.weights])

    def _write_custom_summaries(self, step, logs):
        """Each entry of `logs` as a scalar (Summary.Value simple_value) at `step`."""
        from ..framework import protos
        for name, value in logs.items():
            if isinstance(value, np.ndarray):
                value = value.item()
            summary = protos.Summary()
            summary_value = summary.value.add()
            summary_value.simple_value = value
            summary_value.tag = name
            self.writer.add_summary(summary, step)
        self.writer.flush()

    def on_batch_end(self, batch, logs=None):
        logs = logs or {}
        self._samples_seen += logs.get("size", 1)
        since = self._samples_seen - self._samples_seen_at_last_write
        if self.update_freq != "epoch" and since >= self.update_freq:
            self._write_custom_summaries(
                self._total_batches_seen, {"batch_" + key: value for key, value in logs.items()
                                           if key not in ("batch", "size", "num_steps")})
            self._samples_seen_at_last_write = self._samples_seen
        self._total_batches_seen += 1

    def on_epoch_end(self, epoch, logs=None):
        logs = {"epoch_" + key: value for key, value in (logs or {}).items()
                if key not in ("batch", "size", "num_steps")}
        step = epoch if self.update_freq == "epoch" else self._samples_seen
        self._write_custom_summaries(step, logs)
        if self.merged is not None and epoch % self.histogram_freq == 0:
            self.writer.add_summary(K.get_session().run(self.merged), epoch)

    def on_train_end(self, logs=None):
        self.writer.close()


class RemoteMonitor(Callback):
    """POSTs the epoch logs (and 'epoch') as JSON to root + path at the end of each epoch:
    as the form field `field` (application/x-www-form-urlencoded), or with send_as_json as
    the body (application/json). TF posts with `requests`; the sandbox with urllib, the same
    request. A server that cannot be reached is a warning, not an error."""

    def __init__(self, root="http://localhost:9000", path="/publish/epoch/end/", field="data",
                 headers=None, send_as_json=False):
        super().__init__()
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def on_epoch_end(self, epoch, logs=None):
        send = {"epoch": epoch}
        for key, value in (logs or {}).items():
            # numpy scalars are not JSON: their Python values are
            send[key] = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
        headers = dict(self.headers or {})
        if self.send_as_json:
            body = json.dumps(send).encode("utf-8")
            headers.setdefault("Content-Type", "application/json")
        else:
            body = urllib.parse.urlencode({self.field: json.dumps(send)}).encode("utf-8")
            headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
        request = urllib.request.Request(self.root + self.path, data=body, headers=headers,
                                         method="POST")
        try:
            with urllib.request.urlopen(request, timeout=10):
                pass
        except urllib.error.HTTPError:           # the server answered: as requests.post, no error
            pass
        except (urllib.error.URLError, OSError):
            _log.warning("Warning: could not reach RemoteMonitor root server at %s",
                         str(self.root))
