"""Training from generators and Sequences (sandbox/keras/engine/training_generator.py), the
keras.utils helpers (sandbox/keras/utils.py) and keras.datasets (sandbox/keras/datasets/).

The training numbers are what TF 2.15.1 printed for the same model, weights and batches with
eager execution disabled (tf.compat.v1.keras: TF 1.x's generator loop, training_generator_v1).
The datasets are read from small files in TF's formats in a temporary ~/.keras, and their
arrays compared with what TF 2.15.1's load_data returned for the same files. Nothing here goes
to the network: every download is a file:// URL, and any other URL fails the test."""
import gzip
import hashlib
import io
import json
import os
import pickle
import tarfile
import time
import zipfile
from contextlib import redirect_stdout

import numpy as np
import pytest

import sandbox as tf
import sandbox.keras.utils as keras_utils

keras = tf.keras
U = keras.utils

RNG = np.random.RandomState(0)
X = RNG.randn(10, 3).astype("float32")
Y = (X.sum(1) > 0).astype("float32")[:, None]


@pytest.fixture(autouse=True)
def _fresh_keras_and_no_network(monkeypatch):
    keras.backend.clear_session()
    real = keras_utils.urlretrieve

    def local_only(origin, *args, **kwargs):
        assert origin.startswith("file://"), f"the tests never download: {origin}"
        return real(origin, *args, **kwargs)

    monkeypatch.setattr(keras_utils, "urlretrieve", local_only)
    yield
    keras.backend.clear_session()


class Batches(U.Sequence):
    def __init__(self, batch_size):
        self.batch_size, self.epochs_ended, self.read = batch_size, 0, []

    def __len__(self):
        return int(np.ceil(len(X) / self.batch_size))

    def __getitem__(self, i):
        self.read.append(i)
        return X[i * self.batch_size:(i + 1) * self.batch_size], \
            Y[i * self.batch_size:(i + 1) * self.batch_size]

    def on_epoch_end(self):
        self.epochs_ended += 1


def batches(batch_size):
    while True:
        for i in range(0, len(X), batch_size):
            yield X[i:i + batch_size], Y[i:i + batch_size]


def model():
    keras.backend.clear_session()
    m = keras.Sequential([keras.layers.Dense(4, activation="tanh", input_shape=(3,)),
                          keras.layers.Dense(1, activation="sigmoid")])
    m.set_weights([0.5 * np.sin(np.arange(w.size) + k).reshape(w.shape).astype("float32")
                   for k, w in enumerate(m.get_weights())])
    m.compile(keras.optimizers.SGD(0.5), "binary_crossentropy", metrics=["accuracy"])
    return m


def rounded(history):
    return {k: np.round(v, 5).tolist() for k, v in history.history.items()}


# -- fit / evaluate / predict on generators and Sequences (TF 2.15.1's numbers) --------------

PREDICTED = [0.91694, 0.79762, 0.86945, 0.92285, 0.89581, 0.80685, 0.41490, 0.76008, 0.89570,
             0.90930]


def test_fit_evaluate_predict_sequence_match_tf():
    m, data = model(), Batches(4)
    history = m.fit(data, epochs=2, shuffle=False, verbose=0)
    # fit's loss: the mean over the samples (batches of 4, 4, 2); acc: TF's running mean
    assert rounded(history) == {"loss": [0.52032, 0.28313], "acc": [0.9, 1.0]}
    assert data.read == [0, 1, 2, 0, 1, 2] and data.epochs_ended == 2
    # evaluate's loss: the mean over the steps
    np.testing.assert_allclose(m.evaluate(Batches(4), verbose=0), [0.1732, 1.0], atol=1e-4)
    np.testing.assert_allclose(m.evaluate_generator(batches(3), steps=4), [0.17195, 1.0],
                               atol=1e-4)
    np.testing.assert_allclose(m.predict(Batches(4)).ravel(), PREDICTED, atol=1e-5)
    np.testing.assert_allclose(m.predict_generator((x for x, _ in batches(4)), steps=2).ravel(),
                               PREDICTED[:8], atol=1e-5)
    # the same batches as arrays train the same weights
    arrays = model()
    arrays.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    np.testing.assert_allclose(arrays.predict(X).ravel(), PREDICTED, atol=1e-5)


def test_fit_generator_with_validation_matches_tf():
    m = model()
    history = m.fit_generator(batches(3), steps_per_epoch=4, epochs=2,
                              validation_data=batches(5), validation_steps=2, verbose=0)
    assert rounded(history) == {"loss": [0.4938, 0.23268], "acc": [0.9, 1.0],
                                "val_loss": [0.27022, 0.1432], "val_acc": [1.0, 1.0]}
    # validation arrays: batches of the last training batch's size (2), the mean over steps
    m = model()
    history = m.fit(batches(4), steps_per_epoch=3, epochs=2, validation_data=(X[:7], Y[:7]),
                    verbose=0)
    assert rounded(history) == {"loss": [0.52032, 0.28313], "acc": [0.9, 1.0],
                                "val_loss": [0.3585, 0.2412], "val_acc": [1.0, 1.0]}
    m, val = model(), Batches(3)
    history = m.fit(Batches(4), validation_data=val, verbose=0, workers=0)
    assert rounded(history) == {"loss": [0.52032], "acc": [0.9], "val_loss": [0.29276],
                                "val_acc": [1.0]}
    assert val.epochs_ended == 0            # workers=0: the Sequence is only indexed


def test_sequence_order_callbacks_and_errors():
    m, data = model(), Batches(2)
    seen = []
    log = keras.callbacks.LambdaCallback(on_batch_end=lambda b, logs: seen.append(logs["size"]),
                                         on_epoch_end=lambda e, logs: seen.append(e))
    out = []
    with redirect_stdout(io.StringIO()) as printed:
        m.fit(data, epochs=2, callbacks=[log], verbose=2)   # shuffle=True: a new batch order
    out = printed.getvalue()
    assert sorted(data.read[:5]) == sorted(data.read[5:]) == [0, 1, 2, 3, 4]
    assert seen == [2, 2, 2, 2, 2, 0, 2, 2, 2, 2, 2, 1] and data.epochs_ended == 2
    assert "Epoch 2/2" in out and "5/5 - " in out and " - loss: " in out
    with pytest.raises(ValueError, match="`y` argument is not supported"):
        m.fit(batches(2), Y)
    with pytest.raises(ValueError, match="`steps_per_epoch` argument"):
        m.fit(batches(2))
    with pytest.raises(ValueError, match="the `validation_steps` argument"):
        m.fit(batches(2), steps_per_epoch=2, validation_data=batches(2))
    with pytest.raises(ValueError, match="`steps` argument"):
        m.evaluate_generator(batches(2))
    # a finite generator that runs out stops the training
    with redirect_stdout(io.StringIO()) as printed:
        m.fit((b for b in [(X[:2], Y[:2])]), steps_per_epoch=3, epochs=2, verbose=0)
    assert "ran out of data" in printed.getvalue()


def test_image_data_generator_feeds_fit():
    m = keras.Sequential([keras.layers.Flatten(input_shape=(4, 4, 1)),
                          keras.layers.Dense(2, activation="softmax")])
    m.compile("sgd", "sparse_categorical_crossentropy")
    images = np.random.RandomState(1).rand(6, 4, 4, 1).astype("float32")
    flow = keras.preprocessing.image.ImageDataGenerator(horizontal_flip=True).flow(
        images, np.arange(6) % 2, batch_size=4, seed=0)
    history = m.fit(flow, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    assert m.predict(flow).shape == (6, 2)    # flow's batches are (x, y): predict takes x


# -- keras.utils -------------------------------------------------------------------------------

def test_progbar_prints_tf_lines():
    with redirect_stdout(io.StringIO()) as printed:
        bar = U.Progbar(10, verbose=1, interval=0, stateful_metrics=["acc"])
        bar.update(3, [("loss", 0.5), ("acc", 0.25)])
        bar.add(3, [("loss", 0.25), ("acc", 0.5)])
        bar.update(10, [("loss", 0.125), ("acc", 0.75)])
    lines = printed.getvalue().replace("\b", "").split("\r")
    # TF 2.15.1's (the times aside): loss is averaged over the samples, acc is stateful
    assert lines[1] == " 3/10 [========>.....................] - ETA: 0s - loss: 0.5000 - acc: 0.2500"
    assert lines[2] == " 6/10 [=================>............] - ETA: 0s - loss: 0.3750 - acc: 0.5000"
    assert lines[3].startswith("10/10 [==============================] - 0s ")
    assert lines[3].endswith("/step - loss: 0.2750 - acc: 0.7500\n")
    with redirect_stdout(io.StringIO()) as printed:
        bar = U.Progbar(10, verbose=2)
        bar.update(5, [("loss", 1.0)])
        bar.update(10, [("loss", 0.0)])
    assert printed.getvalue() == "10/10 - 0s - loss: 0.5000\n"


def test_get_file_downloads_caches_checks_and_unpacks(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "data.txt").write_text("one")
    origin = "file://" + str(source / "data.txt")
    cache = str(tmp_path / "cache")
    os.mkdir(cache)              # (a cache_dir that is not writable means /tmp/.keras, as in TF)
    with redirect_stdout(io.StringIO()) as printed:
        path = U.get_file("data.txt", origin, cache_dir=cache)
    assert path == os.path.join(cache, "datasets", "data.txt") and open(path).read() == "one"
    assert "Downloading data from " + origin in printed.getvalue()
    (source / "data.txt").write_text("two")
    assert open(U.get_file("data.txt", origin, cache_dir=cache)).read() == "one"   # cached
    md5 = hashlib.md5(b"two").hexdigest()
    with redirect_stdout(io.StringIO()) as printed:
        path = U.get_file("data.txt", origin, md5_hash=md5, cache_dir=cache)
    assert open(path).read() == "two" and "md5 file hash does not match" in printed.getvalue()
    assert U.validate_file(path, hashlib.sha256(b"two").hexdigest())

    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "a.txt").write_text("inside")
    with tarfile.open(source / "pkg.tar.gz", "w:gz") as archive:
        archive.add(folder, arcname="pkg")
    with redirect_stdout(io.StringIO()):
        unpacked = U.get_file("pkg", "file://" + str(source / "pkg.tar.gz"), untar=True,
                              cache_dir=cache, cache_subdir="things")
    assert unpacked == os.path.join(cache, "things", "pkg")
    assert open(os.path.join(unpacked, "a.txt")).read() == "inside"
    with zipfile.ZipFile(source / "z.zip", "w") as archive:
        archive.writestr("z/b.txt", "zipped")
    with redirect_stdout(io.StringIO()):
        U.get_file("z.zip", "file://" + str(source / "z.zip"), extract=True, cache_dir=cache)
    assert open(os.path.join(cache, "datasets", "z", "b.txt")).read() == "zipped"
    with redirect_stdout(io.StringIO()), pytest.raises(Exception, match="URL fetch failure"):
        U.get_file("gone.txt", "file://" + str(source / "gone.txt"), cache_dir=cache)
    assert not os.path.exists(os.path.join(cache, "datasets", "gone.txt"))


class Twice(keras.layers.Layer):
    def call(self, inputs):
        return inputs * 2


def test_custom_objects_sources_and_plot_model():
    with U.custom_object_scope({"Twice": Twice}):
        assert U.get_custom_objects()["Twice"] is Twice
        with U.CustomObjectScope({"other": len}):
            assert set(U.get_custom_objects()) >= {"Twice", "other"}
        assert "other" not in U.get_custom_objects()
    assert "Twice" not in U.get_custom_objects()
    assert U.serialize_keras_object is tf.keras.serialization.serialize_keras_object

    a, b = keras.Input(shape=(3,), name="a"), keras.Input(shape=(2,), name="b")
    out = keras.layers.Dense(1)(keras.layers.concatenate([keras.layers.Dense(2)(a), b]))
    assert [t.name for t in U.get_source_inputs(out)] == ["a:0", "b:0"]
    assert U.get_source_inputs(a) == [a]
    try:
        import pydot  # noqa: F401
    except ImportError:
        with pytest.raises(ImportError, match="Failed to import pydot"):
            U.plot_model(keras.Model([a, b], out))


def test_custom_object_scope_reaches_load_model(tmp_path):
    m = keras.Sequential([Twice(input_shape=(2,))])
    m.compile("sgd", "mse")
    m.save(str(tmp_path / "m.h5"))
    with pytest.raises(ValueError, match="Unknown layer: Twice"):
        keras.models.load_model(str(tmp_path / "m.h5"))
    with U.custom_object_scope({"Twice": Twice}):
        loaded = keras.models.load_model(str(tmp_path / "m.h5"))
    np.testing.assert_allclose(loaded.predict(np.ones((1, 2))), [[2, 2]])


def test_hdf5_matrix(tmp_path):
    import h5py
    path = str(tmp_path / "data.h5")
    with h5py.File(path, "w") as f:
        f["x"], f["y"] = X, Y
    x = U.HDF5Matrix(path, "x", start=2, end=8, normalizer=lambda a: a * 2)
    assert len(x) == 6 and x.shape == (6, 3) and x.ndim == 2 and x.size == 18
    np.testing.assert_allclose(x[0], X[2] * 2)
    np.testing.assert_allclose(x[1:3], X[3:5] * 2)
    np.testing.assert_allclose(x[[0, 5]], X[[2, 7]] * 2)
    with pytest.raises(IndexError):
        x[6]
    m = model()
    history = m.fit(U.HDF5Matrix(path, "x"), U.HDF5Matrix(path, "y"), batch_size=4, epochs=2,
                    shuffle=False, verbose=0)
    assert rounded(history)["loss"] == [0.52032, 0.28313]      # as fit(X, Y) and TF's


# -- keras.datasets ----------------------------------------------------------------------------

def _object_array(lists):
    out = np.empty(len(lists), dtype=object)
    out[:] = lists
    return out


def _cifar_batch(rng, n, label_keys):
    d = {b"data": rng.randint(0, 256, (n, 3072)).astype("uint8")}
    for key, classes in label_keys:
        d[key] = rng.randint(0, classes, n).tolist()
    return pickle.dumps(d)


def _tar(path, folder, files):
    with tarfile.open(path, "w:gz") as archive:
        for name, data in files:
            info = tarfile.TarInfo(f"{folder}/{name}")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    """~/.keras/datasets/ with small files in TF's formats (the same ones TF read)."""
    monkeypatch.setenv("HOME", str(tmp_path))
    d = tmp_path / ".keras" / "datasets"
    (d / "fashion-mnist").mkdir(parents=True)
    rng = np.random.RandomState(1)

    def seqs(n):
        return _object_array([list(rng.randint(1, 30, rng.randint(2, 9))) for _ in range(n)])

    np.savez(d / "imdb.npz", x_train=seqs(9), y_train=rng.randint(0, 2, 9), x_test=seqs(7),
             y_test=rng.randint(0, 2, 7))
    np.savez(tmp_path / "reuters.npz", x=seqs(11), y=rng.randint(0, 46, 11))
    np.savez(tmp_path / "boston_housing.npz", x=rng.rand(12, 13), y=rng.rand(12))
    (d / "imdb_word_index.json").write_text(json.dumps({"the": 1, "cat": 2}))
    for name, n in [("train", 5), ("t10k", 3)]:
        with gzip.open(d / "fashion-mnist" / f"{name}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(b"\0\0\x08\x01" + n.to_bytes(4, "big") +
                    bytes(rng.randint(0, 10, n).tolist()))
        with gzip.open(d / "fashion-mnist" / f"{name}-images-idx3-ubyte.gz", "wb") as f:
            f.write(b"\0\0\x08\x03" + n.to_bytes(4, "big") + b"\0\0\0\x1c\0\0\0\x1c" +
                    bytes(rng.randint(0, 256, n * 784).tolist()))
    _tar(d / "cifar-10-batches-py.tar.gz", "cifar-10-batches-py",
         [(name, _cifar_batch(rng, 2, [(b"labels", 10)]))
          for name in [f"data_batch_{i}" for i in range(1, 6)] + ["test_batch"]])
    _tar(d / "cifar-100-python.tar.gz", "cifar-100-python",
         [(name, _cifar_batch(rng, n, [(b"fine_labels", 100), (b"coarse_labels", 20)]))
          for name, n in [("train", 4), ("test", 3)]])
    # imdb's files sit in the cache under TF's names: load_data gets their hashes
    digest = hashlib.sha256(open(d / "imdb.npz", "rb").read()).hexdigest()
    monkeypatch.setattr(keras.datasets.imdb, "FILE_HASH", digest)
    index_md5 = hashlib.md5(open(d / "imdb_word_index.json", "rb").read()).hexdigest()
    monkeypatch.setattr(keras.datasets.imdb, "WORD_INDEX_HASH", index_md5)
    return tmp_path


def digest(arrays):
    """shape, dtype and (for object arrays) the lists, else the sum * 1000, as TF printed."""
    out = []
    for a in arrays:
        a = np.asarray(a)
        out.append((a.shape, str(a.dtype),
                    [list(map(int, x)) for x in a] if a.dtype == object
                    else int(a.astype(float).sum() * 1000)))
    return out


def test_imdb_matches_tf(keras_home):
    D = keras.datasets
    (x, y), (xt, yt) = D.imdb.load_data()
    assert digest([x, y, xt, yt]) == [                                 # TF 2.15.1's
        ((9,), "object", [[1, 15, 16, 12, 13, 15, 9, 19], [1, 20, 5], [1, 9, 22, 24, 15, 2, 14],
                          [1, 29, 12, 11, 7], [1, 21, 12, 28, 17, 23, 19],
                          [1, 13, 13, 11, 26, 29, 5, 4], [1, 11, 17, 2, 10, 29, 22],
                          [1, 18, 22, 8, 27, 27, 13], [1, 27, 4, 26]]),
        ((9,), "int64", 6000),
        ((7,), "object", [[1, 11, 27, 8, 31, 9], [1, 26, 13], [1, 27, 11, 30, 29], [1, 6, 14],
                          [1, 19, 4, 8, 29], [1, 30, 24, 20, 17, 23, 13], [1, 23, 10, 12]]),
        ((7,), "int64", 7000)]
    (x, _), (xt, _) = D.imdb.load_data(num_words=20, skip_top=4, maxlen=8, start_char=None,
                                       oov_char=None, index_from=2, seed=5)
    assert digest([x])[0][2] == [[10, 16, 9], [17, 7, 12], [11, 10, 6], [11, 16, 18], [19, 4],
                                 [14, 15, 11, 12, 14, 8, 18], [], [12, 12, 10, 4], [8, 14, 13]]
    assert digest([xt])[0][2] == [[9, 11], [18, 7], [10, 7, 8], [10], [19, 16, 12], [12],
                                  [5, 13]]
    (x, _), _ = D.imdb.load_data(num_words=15, oov_char=9)
    assert x[0] == [1, 9, 9, 12, 13, 9, 9, 9]
    assert D.imdb.get_word_index() == {"the": 1, "cat": 2}


def test_reuters_boston_fashion_cifar_match_tf(keras_home):
    D = keras.datasets
    (x, y), (xt, yt) = D.reuters.load_data(path=str(keras_home / "reuters.npz"))
    assert digest([y, yt]) == [((8,), "int64", 106000), ((3,), "int64", 87000)]   # TF's
    assert x[0] == [1, 12, 15, 16, 15, 24, 8, 11] and xt[2] == [1, 8, 29, 20, 2, 22, 4, 17]
    (x, y), (xt, yt) = D.reuters.load_data(path=str(keras_home / "reuters.npz"),
                                           num_words=12, test_split=0.3, maxlen=7)
    assert digest([x, y, xt, yt]) == [
        ((3,), "object", [[1, 2, 2, 2], [1, 2, 2, 7], [1, 2, 2, 2, 11]]),
        ((3,), "int64", 42000), ((2,), "object", [[1, 2, 5, 6, 2], [1, 2, 2]]),
        ((2,), "int64", 48000)]
    boston = str(keras_home / "boston_housing.npz")
    assert digest(sum(D.boston_housing.load_data(path=boston), ())) == [
        ((9, 13), "float64", 49471), ((9,), "float64", 3855),
        ((3, 13), "float64", 18905), ((3,), "float64", 1203)]
    assert digest(sum(D.boston_housing.load_data(boston, test_split=0.4, seed=3), ())) == [
        ((7, 13), "float64", 38611), ((7,), "float64", 3208),
        ((5, 13), "float64", 29765), ((5,), "float64", 1851)]
    assert digest(sum(D.fashion_mnist.load_data(), ())) == [
        ((5, 28, 28), "uint8", 504154000), ((5,), "uint8", 27000),
        ((3, 28, 28), "uint8", 299851000), ((3,), "uint8", 15000)]
    assert digest(sum(D.cifar100.load_data(), ())) == [                  # unpacked from the .tar.gz
        ((4, 32, 32, 3), "uint8", 1574496000), ((4, 1), "int64", 167000),
        ((3, 32, 32, 3), "uint8", 1180377000), ((3, 1), "int64", 140000)]
    assert digest(sum(D.cifar100.load_data("coarse"), ()))[1] == ((4, 1), "int64", 39000)
    # TF's cifar10 fills 50000 rows and cannot read small batches; the sandbox joins them
    assert digest(sum(D.cifar10.load_data(), ())) == [
        ((10, 32, 32, 3), "uint8", 3913870000), ((10, 1), "uint8", 37000),
        ((2, 32, 32, 3), "uint8", 785314000), ((2, 1), "uint8", 7000)]
    with pytest.raises(ValueError, match="label_mode"):
        D.cifar100.load_data("medium")


def test_enqueuers_read_ahead_in_threads_and_report_errors():
    """OrderedEnqueuer: a Sequence's batches in order, pass after pass, on_epoch_end between
    them; GeneratorEnqueuer: a generator's items until it ends; an exception in a batch comes
    out of get(); no thread is left behind."""
    import threading
    before = threading.active_count()

    class Numbers(U.Sequence):
        epochs = 0

        def __len__(self):
            return 3

        def __getitem__(self, i):
            return i * 10

        def on_epoch_end(self):
            Numbers.epochs += 1
    enqueuer = U.OrderedEnqueuer(Numbers())
    enqueuer.start(workers=2, max_queue_size=2)
    got = [value for _, value in zip(range(7), enqueuer.get())]
    enqueuer.stop()
    assert got == [0, 10, 20, 0, 10, 20, 0] and Numbers.epochs >= 2

    enqueuer = U.GeneratorEnqueuer(iter(range(5)))
    enqueuer.start(workers=2)
    assert sorted(enqueuer.get()) == [0, 1, 2, 3, 4]
    enqueuer.stop()

    class Broken(Numbers):
        def __getitem__(self, i):
            raise KeyError(f"batch {i}")
    enqueuer = U.OrderedEnqueuer(Broken())
    enqueuer.start()
    with pytest.raises(KeyError, match="batch 0"):
        next(enqueuer.get())
    with pytest.raises(NotImplementedError, match="threads only"):
        U.OrderedEnqueuer(Numbers(), use_multiprocessing=True)
    deadline = time.monotonic() + 5
    while threading.active_count() > before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert threading.active_count() == before


def test_multi_gpu_model_fails_as_tf_on_a_machine_without_gpus_and_kernels_flip():
    model = keras.Sequential([keras.layers.Conv2D(1, (2, 3), input_shape=(4, 4, 1))])
    with pytest.raises(ValueError, match=r"with `gpus >= 2`. Received: `gpus=1`"):
        U.multi_gpu_model(model, 1)
    with pytest.raises(ValueError, match=r"\['/cpu:0', '/gpu:0', '/gpu:1'\]. However this "
                                         r"machine only has: \['/cpu:0'\]"):
        U.multi_gpu_model(model, gpus=2)
    kernel = keras.backend.get_value(model.layers[0].kernel)
    U.convert_all_kernels_in_model(model)
    np.testing.assert_array_equal(keras.backend.get_value(model.layers[0].kernel),
                                  kernel[::-1, ::-1])
