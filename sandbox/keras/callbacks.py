"""keras.callbacks -- mirrors TensorFlow 1.15's python/keras/callbacks.py: Callback, History,
ProgbarLogger (the per-epoch line fit prints), EarlyStopping and LambdaCallback.

fit calls, on every callback: set_model, set_params, on_train_begin, then per epoch
on_epoch_begin, per batch on_batch_begin / on_batch_end (logs: batch, size, loss, metrics),
on_epoch_end(epoch, logs) with the epoch's means ('loss', 'acc', 'val_loss', 'val_acc'),
and on_train_end. A callback that sets model.stop_training = True ends the training after
the epoch.
"""
import sys

import numpy as np

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger", "EarlyStopping",
           "ModelCheckpoint", "LambdaCallback", "format_logs"]


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
