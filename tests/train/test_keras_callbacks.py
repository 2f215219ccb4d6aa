"""keras.callbacks (sandbox/keras/callbacks.py): CSVLogger, LearningRateScheduler,
ReduceLROnPlateau, TerminateOnNaN, BaseLogger, TensorBoard, RemoteMonitor. The numbers are
TF 2.15.1's, printed by tf.compat.v1.keras (graph mode) fitting the same model on the same data
with shuffle=False; the messages are TF 1.15's (TF 2 reworded some). TF 2.15.1 names the
metric 'mae' where TF 1.15 (and the sandbox) say 'mean_absolute_error'."""
import glob
import http.server
import json
import logging
import os
import subprocess
import threading
import urllib.parse

import numpy as np
import pytest

import sandbox as tf

keras = tf.keras
K = keras.backend

X = np.array([[1., 2.], [0.5, -1.], [-1.5, 0.3], [2., 1.], [0.1, 0.2], [-0.7, -0.4],
              [1.2, -0.8], [0.3, 1.5]], np.float32)
Y = np.array([[1.], [0.], [-1.], [2.], [0.5], [-0.5], [1.], [0.8]], np.float32)
W0 = [np.array([[0.3], [-0.2]], np.float32), np.array([0.1], np.float32)]

TF_PYTHON = os.environ.get("TF_PYTHON", "")
needs_tf = pytest.mark.skipif(
    not TF_PYTHON or not os.path.exists(TF_PYTHON),
    reason="set TF_PYTHON to a Python with tensorflow to check that TensorFlow reads the "
           "TensorBoard callback's event files")


def _model(lr=0.1):
    K.clear_session()
    model = keras.Sequential([keras.layers.Dense(1, input_shape=(2,))])
    model.set_weights(W0)
    model.compile(keras.optimizers.SGD(lr), "mse", metrics=["mae"])
    return model


def _fit(model, callbacks, epochs, batch_size=4, validation=True):
    return model.fit(X, Y, batch_size=batch_size, epochs=epochs, shuffle=False, verbose=0,
                     callbacks=callbacks,
                     validation_data=(X[:3], Y[:3]) if validation else None)


class LrRecorder(keras.callbacks.Callback):
    """The learning rate variable's value at the end of each epoch."""

    def on_train_begin(self, logs=None):
        self.lrs = []

    def on_epoch_end(self, epoch, logs=None):
        self.lrs.append(float(K.get_value(self.model.optimizer.lr)))


def test_learning_rate_scheduler_and_csv_logger_as_tf(tmp_path, capsys):
    model = _model()
    path = str(tmp_path / "log.csv")
    recorder = LrRecorder()
    scheduler = keras.callbacks.LearningRateScheduler(
        lambda epoch, lr: lr * 0.5 if epoch else lr, verbose=1)
    _fit(model, [scheduler, keras.callbacks.CSVLogger(path), recorder], epochs=3)
    # the schedule got the variable's value (float32), and set it for the epoch
    assert recorder.lrs == [0.10000000149011612, 0.05000000074505806, 0.02500000037252903]
    assert capsys.readouterr().out == "".join(
        f"\nEpoch {e:05d}: LearningRateScheduler reducing learning rate to {lr}.\n"
        for e, lr in ((1, 0.10000000149011612), (2, 0.05000000074505806),
                      (3, 0.02500000037252903)))
    with open(path, newline="") as f:
        text = f.read()
    rows = text.split("\r\n")                            # csv.excel ends rows with \r\n
    assert rows[0] == "epoch,loss,lr,mean_absolute_error,val_loss,val_mean_absolute_error"
    assert rows[-1] == "" and len(rows) == 5
    # TF 2.15.1's file (its 'mae' column is our mean_absolute_error)
    tf_rows = [[0, 0.5294522792100906, 0.1, 0.597856879234314, 0.12625379860401154,
                0.3355611264705658],
               [1, 0.12793518602848053, 0.05, 0.3205069601535797, 0.09946658462285995,
                0.2593666613101959],
               [2, 0.0880584679543972, 0.025, 0.25778526067733765, 0.09330902248620987,
                0.2548653483390808]]
    for row, expected in zip(rows[1:4], tf_rows):
        fields = row.split(",")
        assert fields[0] == str(expected[0]) and fields[2] == str(expected[2])
        np.testing.assert_allclose([float(v) for v in fields[1:]], expected[1:], rtol=1e-6)

    # append=True with another separator: rows added, no second header
    _fit(model, [keras.callbacks.CSVLogger(path, separator=";", append=True)], epochs=1,
         validation=False)
    with open(path, newline="") as f:
        appended = f.read()[len(text):].split("\r\n")
    fields = appended[0].split(";")
    assert len(appended) == 2 and fields[0] == "0" and len(fields) == 3
    np.testing.assert_allclose([float(v) for v in fields[1:]],
                               [0.07615688443183899, 0.2415885031223297], rtol=1e-6)


def test_learning_rate_scheduler_of_keras_1_schedule_epoch_only():
    model = _model()
    recorder = LrRecorder()
    _fit(model, [keras.callbacks.LearningRateScheduler(lambda epoch: 0.05 * (epoch + 1)),
                 recorder], epochs=2, validation=False)
    assert recorder.lrs == [0.05000000074505806, 0.10000000149011612]
    kernel, bias = model.get_weights()                     # TF 2.15.1's
    np.testing.assert_allclose(kernel, [[0.61814165], [0.07408501]], rtol=1e-6)
    np.testing.assert_allclose(bias, [0.21669288], rtol=1e-6)
    with pytest.raises(ValueError, match="should be float"):
        _fit(model, [keras.callbacks.LearningRateScheduler(lambda epoch, lr: "fast")],
             epochs=1, validation=False)


def test_reduce_lr_on_plateau_as_tf(capsys, caplog):
    model = _model()
    recorder = LrRecorder()
    reduce = keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                               verbose=1, min_delta=10, cooldown=1,
                                               min_lr=0.02)
    history = _fit(model, [reduce, recorder], epochs=6, validation=False)
    # TF 2.15.1's rates, losses and weights
    assert recorder.lrs == [0.10000000149011612, 0.05000000074505806, 0.02500000037252903,
                            0.019999999552965164, 0.019999999552965164, 0.019999999552965164]
    np.testing.assert_allclose(history.history["loss"], [
        0.5294522792100906, 0.1194137018173933, 0.06110553815960884, 0.053474120795726776,
        0.05090233497321606, 0.0492344181984663], rtol=1e-6)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel, [[0.71452516], [0.15240683]], rtol=1e-6)
    np.testing.assert_allclose(bias, [0.2061945], rtol=1e-6)
    assert capsys.readouterr().out == (
        "\nEpoch 00002: ReduceLROnPlateau reducing learning rate to 0.05000000074505806.\n"
        "\nEpoch 00003: ReduceLROnPlateau reducing learning rate to 0.02500000037252903.\n"
        "\nEpoch 00004: ReduceLROnPlateau reducing learning rate to 0.02.\n")

    # a metric that is not there: a warning, and nothing changes ('acc' maximizes)
    model = _model()
    recorder = LrRecorder()
    reduce = keras.callbacks.ReduceLROnPlateau(monitor="val_acc", patience=0)
    with caplog.at_level(logging.WARNING):
        _fit(model, [reduce, recorder], epochs=2, validation=False)
    assert "Reduce LR on plateau conditioned on metric `val_acc` which is not available" \
        in caplog.text
    assert recorder.lrs == [0.10000000149011612] * 2 and reduce.best == -np.inf
    with pytest.raises(ValueError, match="does not support a factor >= 1.0"):
        keras.callbacks.ReduceLROnPlateau(factor=1.0)


def test_terminate_on_nan_and_base_logger(capsys):
    model = _model(lr=1e30)
    history = _fit(model, [keras.callbacks.TerminateOnNaN()], epochs=3, batch_size=2,
                   validation=False)
    out = capsys.readouterr().out
    assert out.startswith("Batch 1: Invalid loss, terminating training\n")   # TF's first line
    assert len(history.history["loss"]) == 1 and model.stop_training

    # BaseLogger recomputes the epoch means from the batches: what fit reports
    model = _model()
    seen = []
    logger = keras.callbacks.BaseLogger()
    check = keras.callbacks.LambdaCallback(on_epoch_end=lambda e, logs: seen.append(dict(logs)))
    history = _fit(model, [logger, check], epochs=2, validation=False, batch_size=3)
    for logs, loss in zip(seen, history.history["loss"]):
        assert logs["loss"] == pytest.approx(loss, rel=1e-6)
    assert logger.seen == 8


def _events(log_dir):
    """[(step, what, [(tag, value) ...])] of every event file in log_dir."""
    found = []
    for path in sorted(glob.glob(os.path.join(log_dir, "events*"))):
        for event in tf.train.summary_iterator(path):
            kind = event.WhichOneof("what")
            values = ([(v.tag, v.simple_value if v.WhichOneof("value") == "simple_value"
                        else v.WhichOneof("value")) for v in event.summary.value]
                      if kind == "summary" else [])
            found.append((event.step, kind, values))
    return found


# TF 2.15.1's scalar events (step, tag, value): update_freq='epoch', 'batch' and 6 samples
TF_EPOCH = [(0, "epoch_loss", 0.5294522643089294), (0, "epoch_mae", 0.597856879234314),
            (0, "epoch_val_loss", 0.12625379860401154), (0, "epoch_val_mae", 0.3355611264705658),
            (1, "epoch_loss", 0.11941370368003845), (1, "epoch_mae", 0.3022201657295227),
            (1, "epoch_val_loss", 0.09095507115125656), (1, "epoch_val_mae", 0.2722218334674835)]
TF_BATCH_LOSSES = [(0, 0.9501500129699707), (1, 0.10875454545021057), (2, 0.19793477654457092),
                   (3, 0.04089262709021568)]


def _scalars(events, prefix=""):
    return [(step, tag.replace("mean_absolute_error", "mae"), value)
            for step, kind, values in events if kind == "summary"
            for tag, value in values if tag.startswith(prefix)]


def _assert_close(ours, theirs):
    assert [(s, t) for s, t, _ in ours] == [(s, t) for s, t, _ in theirs]
    np.testing.assert_allclose([v for _, _, v in ours], [v for _, _, v in theirs], rtol=1e-6)


@pytest.mark.parametrize("update_freq", ["epoch", "batch", 6])
def test_tensorboard_scalars_as_tf(tmp_path, update_freq):
    log_dir = str(tmp_path / "logs")
    model = _model()
    _fit(model, [keras.callbacks.TensorBoard(log_dir, write_graph=update_freq == "epoch",
                                             update_freq=update_freq)], epochs=2)
    events = _events(log_dir)
    assert events[0][1] == "file_version"
    assert any(kind == "graph_def" for _, kind, _ in events) == (update_freq == "epoch")
    if update_freq == "epoch":
        _assert_close(_scalars(events), TF_EPOCH)
        return
    # batch scalars at the count of batches seen; epoch scalars at the count of samples seen
    _assert_close(_scalars(events, "epoch_"), [(8 if s == 0 else 16, t, v)
                                               for s, t, v in TF_EPOCH])
    every = 1 if update_freq == "batch" else 2          # 6 samples: every other batch of 4
    _assert_close(_scalars(events, "batch_loss"), [(s, "batch_loss", v)
                                                   for s, v in TF_BATCH_LOSSES[every - 1::every]])


def test_tensorboard_histograms_of_the_weights(tmp_path):
    log_dir = str(tmp_path / "logs")
    model = _model()
    _fit(model, [keras.callbacks.TensorBoard(log_dir, histogram_freq=2, write_graph=False)],
         epochs=3)
    histograms = [(step, tag) for step, kind, values in _events(log_dir)
                  for tag, value in values if value == "histo"]
    assert histograms == [(0, "dense/kernel_0"), (0, "dense/bias_0"),
                          (2, "dense/kernel_0"), (2, "dense/bias_0")]
    with pytest.raises(NotImplementedError, match="embeddings"):
        keras.callbacks.TensorBoard(log_dir, embeddings_freq=1)


_TF_READER = r"""
import glob, json, sys
import tensorflow as tf
found = []
for path in sorted(glob.glob(sys.argv[1] + '/events*')):
    for event in tf.compat.v1.train.summary_iterator(path):
        found += [(event.step, v.tag, v.simple_value) for v in event.summary.value]
print('RESULT' + json.dumps(found))
"""


@needs_tf
def test_tensorflow_reads_the_tensorboard_callbacks_event_file(tmp_path):
    log_dir = str(tmp_path / "logs")
    _fit(_model(), [keras.callbacks.TensorBoard(log_dir)], epochs=2)
    proc = subprocess.run([TF_PYTHON, "-c", _TF_READER, log_dir], capture_output=True,
                          text=True, timeout=300,
                          env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "3"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    theirs = [tuple(e) for e in json.loads(proc.stdout.split("RESULT", 1)[1])]
    _assert_close([(s, t.replace("mean_absolute_error", "mae"), v) for s, t, v in theirs],
                  TF_EPOCH)


class _Collector(http.server.BaseHTTPRequestHandler):
    received = []

    def do_POST(self):                                   # noqa: N802 (http.server's name)
        body = self.rfile.read(int(self.headers["Content-Length"])).decode()
        self.received.append((self.path, self.headers["Content-Type"],
                              self.headers.get("X-Run"), body))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_remote_monitor_posts_each_epochs_logs(caplog):
    server = http.server.HTTPServer(("127.0.0.1", 0), _Collector)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    root = f"http://127.0.0.1:{server.server_address[1]}"
    _Collector.received = []
    try:
        model = _model()
        _fit(model, [keras.callbacks.RemoteMonitor(root=root),
                     keras.callbacks.RemoteMonitor(root=root, path="/json",
                                                   headers={"X-Run": "7"},
                                                   send_as_json=True)],
             epochs=1, validation=False)
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
    (path, ctype, _, body), (json_path, json_type, run, json_body) = _Collector.received
    assert path == "/publish/epoch/end/" and ctype == "application/x-www-form-urlencoded"
    sent = json.loads(urllib.parse.parse_qs(body)["data"][0])
    assert list(sent) == ["epoch", "loss", "mean_absolute_error"] and sent["epoch"] == 0
    assert sent["loss"] == pytest.approx(0.5294522792100906, rel=1e-6)    # TF 2.15.1's
    assert json_path == "/json" and json_type == "application/json" and run == "7"
    assert json.loads(json_body) == sent
    # no server: a warning, training goes on
    with caplog.at_level(logging.WARNING):
        _fit(_model(), [keras.callbacks.RemoteMonitor(root=root)], epochs=1, validation=False)
    assert f"could not reach RemoteMonitor root server at {root}" in caplog.text
