"""keras.utils -- mirrors TensorFlow 1.15's python/keras/utils/: np_utils.py (to_categorical,
normalize), layer_utils.py (print_summary: the table model.summary() prints, get_source_inputs),
generic_utils.py (Progbar, CustomObjectScope, get_custom_objects, serialize_keras_object ...),
data_utils.py (Sequence, get_file; the enqueuers: enqueuers.py), io_utils.py (HDF5Matrix),
vis_utils.py (plot_model, model_to_dot) and multi_gpu_utils.py (multi_gpu_model: refused, as
on a machine without GPUs).

    class Batches(keras.utils.Sequence):            # model.fit(Batches(), epochs=3)
        def __len__(self): return 10
        def __getitem__(self, i): return x[i * 32:(i + 1) * 32], y[i * 32:(i + 1) * 32]

    path = get_file('data.npz', origin='https://...', file_hash='...')   # ~/.keras/datasets/
    with custom_object_scope({'MyLayer': MyLayer}):
        model = keras.models.load_model('m.h5')     # finds MyLayer by name

The custom objects live in one dict (get_custom_objects(), in keras/serialization.py, which
looks a name up there after deserialize's own `custom_objects`, before the module's classes).
"""
import collections
import hashlib
import os
import sys
import tarfile
import time
import zipfile
from urllib.error import HTTPError, URLError
from urllib.request import urlretrieve

import numpy as np

from .callbacks import format_logs
from .enqueuers import GeneratorEnqueuer, OrderedEnqueuer, SequenceEnqueuer  # noqa: F401
from .serialization import (CustomObjectScope, custom_object_scope,  # noqa: F401
                            deserialize_keras_object, get_custom_objects,
                            serialize_keras_object)

__all__ = ["to_categorical", "normalize", "print_summary", "get_source_inputs", "Sequence",
           "Progbar", "get_file", "CustomObjectScope", "custom_object_scope",
           "get_custom_objects", "serialize_keras_object", "deserialize_keras_object",
           "HDF5Matrix", "plot_model", "model_to_dot", "SequenceEnqueuer", "OrderedEnqueuer",
           "GeneratorEnqueuer", "multi_gpu_model", "convert_all_kernels_in_model"]


def to_categorical(y, num_classes=None, dtype="float32"):
    """Class labels (ints) -> one-hot rows: to_categorical([0, 2], 3) -> [[1,0,0],[0,0,1]]."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    y = y.ravel()
    if not num_classes:
        num_classes = np.max(y) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    l2 = np.atleast_1d(np.linalg.norm(x, order, axis))
    l2[l2 == 0] = 1
    return x / np.expand_dims(l2, axis)


def _shape_text(layer, model=None):
    if model is not None and not getattr(model, "_shapes_known", True):
        return "multiple"                    # a subclassed model built from data or build()
    try:
        shape = tuple(layer.output.get_shape().as_list())
    except AttributeError:
        return "multiple"
    return f"[{shape}]" if type(layer).__name__ == "InputLayer" else str(shape)


def _inbound_names(model, layer):
    """'dense[0][0]' for each tensor the layer was called on inside the model (TF's
    "Connected to": the calling layer, the call's index, the tensor's index)."""
    members = set(id(m) for m in model.layers)
    names = []
    for inputs, _ in layer._inbound:
        if inputs is None or inputs is _:
            continue
        for tensor in inputs if isinstance(inputs, (list, tuple)) else [inputs]:
            for other in model.layers:
                calls = [out for _inp, out in other._inbound]
                if id(other) in members and any(out is tensor for out in calls):
                    index = next(i for i, out in enumerate(calls) if out is tensor)
                    names.append(f"{other.name}[{index}][0]")
    return names


def _sequential_like(model):
    """A chain: each layer called once, on the previous layer's output (TF's test)."""
    if type(model).__name__ == "Sequential" or getattr(model, "_subclassed", False):
        return True
    layers = model.layers
    for previous, layer in zip(layers, layers[1:]):
        if len(layer._inbound) != 1 or isinstance(layer._inbound[0][0], (list, tuple)):
            return False
        if layer._inbound[0][0] is not previous._inbound[-1][1]:
            return False
    return len(model.inputs) == 1 and len(model.outputs) == 1


def print_summary(model, line_length=None, positions=None, print_fn=None):
    """The table of TF 1.15's model.summary(): layer (type), output shape, param #, then the
    totals; a model that is not a chain (several inputs, merge layers) gets TF's fourth
    column, "Connected to"."""
    print_fn = print_fn or print
    chain = _sequential_like(model)
    if chain:
        line_length = line_length or 65
        positions = positions or [0.45, 0.85, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
    else:
        line_length = line_length or 98
        positions = positions or [0.33, 0.55, 0.67, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
    if positions[-1] <= 1:
        positions = [int(line_length * p) for p in positions]

    def row(fields):
        line = ""
        for i, field in enumerate(fields):
            if i > 0:
                line = line[:-1] + " "
            line += str(field)
            line = line[:positions[i]]
            line += " " * (positions[i] - len(line))
        print_fn(line)

    print_fn(f'Model: "{model.name}"')
    print_fn("_" * line_length)
    row(header)
    print_fn("=" * line_length)
    layers = model.layers
    for i, layer in enumerate(layers):
        fields = [f"{layer.name} ({type(layer).__name__})", _shape_text(layer, model),
                  layer.count_params()]
        if chain:
            row(fields)
        else:
            connections = _inbound_names(model, layer)
            row(fields + [connections[0] if connections else ""])
            for extra in connections[1:]:
                row(["", "", "", extra])
        print_fn("=" * line_length if i == len(layers) - 1 else "_" * line_length)
    trainable = int(sum(np.prod(w.get_shape().as_list()) for w in model.trainable_weights))
    total = model.count_params()
    print_fn(f"Total params: {total:,}")
    print_fn(f"Trainable params: {trainable:,}")
    print_fn(f"Non-trainable params: {total - trainable:,}")
    print_fn("_" * line_length)


def get_source_inputs(tensor, layer=None, node_index=None):
    """The keras.Input tensors that `tensor` was computed from (walking back through the
    layers that made it), each once, in the order found."""
    from . import backend as K
    history = K._state(tensor.graph)["history"]
    found = []

    def visit(t):
        entry = history.get(id(t))
        if entry is None or entry[2] is None:        # an Input (or a tensor keras did not make)
            if not any(t is f for f in found):
                found.append(t)
            return
        inputs = entry[2]
        for inp in inputs if isinstance(inputs, (list, tuple)) else [inputs]:
            visit(inp)

    visit(tensor)
    return found


# -- generic_utils.py: Progbar (the custom objects are serialization.py's) ---------------------

class Progbar:
    """A progress bar: update(current, values=[('loss', 0.5)]) shows
    ' 3/10 [========>.....................] - ETA: 2s - loss: 0.5000'; the values are
    averaged over the samples seen (those in stateful_metrics are shown as given).
    verbose=2 prints one line, when current reaches target."""

    def __init__(self, target, width=30, verbose=1, interval=0.05, stateful_metrics=None,
                 unit_name="step"):
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = set(stateful_metrics or [])
        self._total_width = 0
        self._seen_so_far = 0
        self._values = collections.OrderedDict()     # name -> [weighted sum, count] or value
        self._start = time.time()
        self._last_update = 0

    def _means(self):
        return {k: (v[0] / max(1, v[1]) if isinstance(v, list) else v)
                for k, v in self._values.items()}

    def _count(self, current):
        digits = int(np.log10(self.target)) + 1
        return ("%" + str(digits) + "d/%d") % (current, self.target)

    def update(self, current, values=None):
        for name, value in values or []:
            seen = max(current - self._seen_so_far, 1)     # TF: a repeated update counts once
            if name in self.stateful_metrics:
                self._values[name] = value
            elif name not in self._values:
                self._values[name] = [value * seen, seen]
            else:
                self._values[name][0] += value * seen
                self._values[name][1] += seen
        self._seen_so_far = current
        now = time.time()
        done = self.target is not None and current >= self.target
        if self.verbose == 1:
            if now - self._last_update < self.interval and not done and \
                    self.target is not None:
                return
            self._write_bar(current, now, done)
        elif self.verbose == 2 and done:
            sys.stdout.write(self._count(current) + " - %.0fs" % (now - self._start) +
                             format_logs(self._means(), list(self._values)) + "\n")
            sys.stdout.flush()
        self._last_update = now

    def _write_bar(self, current, now, done):
        previous = self._total_width
        sys.stdout.write("\b" * previous + "\r")
        if self.target is not None:
            filled = int(self.width * current / self.target)
            bar = self._count(current) + " ["
            if filled > 0:
                bar += "=" * (filled - 1) + ("=" if done else ">")
            bar += "." * (self.width - filled) + "]"
        else:
            bar = "%7d/Unknown" % current
        per_unit = (now - self._start) / current if current else 0
        if self.target is not None and not done:
            eta = per_unit * (self.target - current)
            if eta > 3600:
                info = " - ETA: %d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
            elif eta > 60:
                info = " - ETA: %d:%02d" % (eta // 60, eta % 60)
            else:
                info = " - ETA: %ds" % eta
        else:
            info = " - %.0fs" % (now - self._start)
            if per_unit >= 1 or per_unit == 0:
                info += " %.0fs/%s" % (per_unit, self.unit_name)
            elif per_unit >= 1e-3:
                info += " %.0fms/%s" % (per_unit * 1e3, self.unit_name)
            else:
                info += " %.0fus/%s" % (per_unit * 1e6, self.unit_name)
        info += format_logs(self._means(), list(self._values))
        self._total_width = len(bar) + len(info)
        info += " " * max(0, previous - self._total_width)
        sys.stdout.write(bar + info + ("\n" if done else ""))
        sys.stdout.flush()

    def add(self, n, values=None):
        self.update(self._seen_so_far + n, values)


# -- data_utils.py: Sequence, get_file --------------------------------------------------------

class Sequence:
    """A dataset as batches: __len__ is the number of batches, __getitem__(i) batch i as
    (x, y) or (x, y, sample_weight); on_epoch_end is called after each epoch (shuffle
    there). model.fit(sequence) takes the batches in order, one pass per epoch."""

    def __getitem__(self, index):
        raise NotImplementedError

    def __len__(self):
        raise NotImplementedError

    def on_epoch_end(self):
        pass

    def __iter__(self):
        for i in range(len(self)):
            yield self[i]


def _hasher(algorithm, file_hash=None):
    if algorithm == "sha256" or (algorithm == "auto" and file_hash is not None and
                                 len(file_hash) == 64):
        return hashlib.sha256()
    return hashlib.md5()


def _hash_file(fpath, algorithm="sha256", chunk_size=65535):
    hasher = _hasher(algorithm) if isinstance(algorithm, str) else algorithm
    with open(fpath, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def validate_file(fpath, file_hash, algorithm="auto", chunk_size=65535):
    """Whether the file's sha256 or md5 (algorithm='auto': sha256 for a 64-digit hash) is
    file_hash."""
    return str(_hash_file(fpath, _hasher(algorithm, file_hash), chunk_size)) == str(file_hash)


def _extract_archive(file_path, path=".", archive_format="auto"):
    """Unpacks a tar (.tar.gz, .tar.bz2 ...) or zip archive into `path`; False if the file is
    neither. (TF also deletes `path` -- the whole cache folder -- when unpacking fails; the
    sandbox leaves it.)"""
    if archive_format is None:
        return False
    formats = ["tar", "zip"] if archive_format == "auto" else archive_format
    for kind in [formats] if isinstance(formats, str) else formats:
        opener, is_match = ((tarfile.open, tarfile.is_tarfile) if kind == "tar" else
                            (zipfile.ZipFile, zipfile.is_zipfile))
        if is_match(file_path):
            with opener(file_path) as archive:
                if kind == "tar" and hasattr(tarfile, "data_filter"):
                    archive.extractall(path, filter="data")    # no paths outside `path`
                else:
                    archive.extractall(path)
            return True
    return False


def get_file(fname, origin, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None):
    """The local path of `origin` in cache_dir/cache_subdir/fname (~/.keras/datasets/ by
    default), downloaded (urllib) only when it is not there or its hash is not file_hash.
    untar=True: the file is fname + '.tar.gz', unpacked next to it, and the path returned is
    the unpacked fname; extract=True unpacks a tar or zip archive too."""
    if cache_dir is None:
        cache_dir = os.path.join(os.path.expanduser("~"), ".keras")
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(cache_dir)
    if not os.access(base, os.W_OK):
        base = os.path.join("/tmp", ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    if untar:
        untar_fpath = os.path.join(datadir, fname)
        fpath = untar_fpath + ".tar.gz"
    else:
        fpath = os.path.join(datadir, fname)

    download = not os.path.exists(fpath)
    if not download and file_hash is not None and \
            not validate_file(fpath, file_hash, algorithm=hash_algorithm):
        print("A local file was found, but it seems to be incomplete or outdated because the "
              + hash_algorithm + " file hash does not match the original value of "
              + file_hash + " so we will re-download the data.")
        download = True
    if download:
        print("Downloading data from", origin)
        progress = []

        def show(count, block_size, total_size):
            if not progress:
                progress.append(Progbar(None if total_size == -1 else total_size))
            else:
                progress[0].update(count * block_size)

        error_msg = "URL fetch failure on {}: {} -- {}"
        try:
            try:
                urlretrieve(origin, fpath, show)
            except HTTPError as e:
                raise Exception(error_msg.format(origin, e.code, e.msg)) from e
            except URLError as e:
                raise Exception(error_msg.format(origin, e.errno, e.reason)) from e
        except (Exception, KeyboardInterrupt):
            if os.path.exists(fpath):
                os.remove(fpath)
            raise
    if untar:
        if not os.path.exists(untar_fpath):
            _extract_archive(fpath, datadir, archive_format="tar")
        return untar_fpath
    if extract:
        _extract_archive(fpath, datadir, archive_format)
    return fpath


# -- io_utils.py: HDF5Matrix ----------------------------------------------------------------

class HDF5Matrix:
    """A dataset of an HDF5 file used as a numpy array: rows [start, end), read on indexing
    (and `normalizer` applied to what is read). fit reads it through np.asarray."""
    refs = collections.defaultdict(int)      # datapath -> the open h5py.File

    def __init__(self, datapath, dataset, start=0, end=None, normalizer=None):
        try:
            import h5py
        except ImportError:
            raise ImportError("The use of HDF5Matrix requires HDF5 and h5py installed.") \
                from None
        if datapath not in self.refs:
            self.refs[datapath] = h5py.File(datapath, "r")
        self.data = self.refs[datapath][dataset]
        self.start = start
        self.end = self.data.shape[0] if end is None else end
        self.normalizer = normalizer

    def __len__(self):
        return self.end - self.start

    def __getitem__(self, key):
        if isinstance(key, slice):
            start = 0 if key.start is None else key.start
            stop = self.shape[0] if key.stop is None else key.stop
            if stop + self.start > self.end:
                raise IndexError
            idx = slice(start + self.start, stop + self.start)
        elif isinstance(key, (int, np.integer)):
            if key + self.start >= self.end:
                raise IndexError
            idx = key + self.start
        else:                                  # an array or list of row numbers
            key = np.asarray(key)
            if np.max(key) + self.start >= self.end:
                raise IndexError
            idx = (self.start + key).tolist()
        data = self.data[idx]
        return data if self.normalizer is None else self.normalizer(data)

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self[0:len(self)], dtype=dtype)

    @property
    def shape(self):
        return (self.end - self.start,) + self.data.shape[1:]

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        return int(np.prod(self.shape))


# -- vis_utils.py: plot_model -----------------------------------------------------------------

def _pydot():
    """pydot (or pydot_ng, pydotplus), with graphviz working; else TF's ImportError."""
    for name in ("pydot_ng", "pydotplus", "pydot"):
        try:
            module = __import__(name)
            break
        except ImportError:
            module = None
    try:
        module.Dot.create(module.Dot())
    except Exception:      # no pydot (None has no Dot), or graphviz's `dot` is not installed
        raise ImportError("Failed to import pydot. You must install pydot and graphviz for "
                          "`pydotprint` to work.") from None
    return module


def model_to_dot(model, show_shapes=False, show_layer_names=True, rankdir="TB",
                 expand_nested=False, dpi=96, subgraph=False):
    """A pydot.Dot of the model: a node per layer ('name: Class', and the shapes), an edge
    per connection."""
    pydot = _pydot()
    dot = pydot.Dot()
    dot.set("rankdir", rankdir)
    dot.set("concentrate", True)
    dot.set("dpi", dpi)
    dot.set_node_defaults(shape="record")
    for layer in model.layers:
        label = type(layer).__name__
        if show_layer_names:
            label = f"{layer.name}: {label}"
        if show_shapes:
            inputs = layer._inbound[-1][0] if layer._inbound else None
            shape = ("multiple" if isinstance(inputs, (list, tuple)) or inputs is None
                     else str(tuple(inputs.get_shape().as_list())))
            label = f"{label}\n|{{input:|output:}}|{{{shape}|{_shape_text(layer)}}}"
        dot.add_node(pydot.Node(str(id(layer)), label=label))
    for layer in model.layers:
        for inputs, _ in layer._inbound:
            for tensor in inputs if isinstance(inputs, (list, tuple)) else [inputs]:
                entry = _history_of(tensor)
                if entry is not None and entry[1] in model.layers:
                    dot.add_edge(pydot.Edge(str(id(entry[1])), str(id(layer))))
    return dot


def _history_of(tensor):
    from . import backend as K
    return K._state(tensor.graph)["history"].get(id(tensor)) if tensor is not None else None


def plot_model(model, to_file="model.png", show_shapes=False, show_layer_names=True,
               rankdir="TB", expand_nested=False, dpi=96):
    """Draws model_to_dot's graph into `to_file` (the format from its extension)."""
    dot = model_to_dot(model, show_shapes, show_layer_names, rankdir, expand_nested, dpi)
    _, extension = os.path.splitext(to_file)
    dot.write(to_file, format=extension[1:] if extension else "png")


# -- multi_gpu_utils.py, layer_utils.py --------------------------------------------------------
def multi_gpu_model(model, gpus, cpu_merge=True, cpu_relocation=False):
    """TF 1.15 copies the model onto `gpus` GPUs and splits each batch among them. The sandbox
    has one device per task, '/cpu:0' -- as a machine without GPUs, where TF raises these same
    errors. (To spread training over devices here, use a cluster: replica_device_setter.)"""
    ids = list(gpus) if isinstance(gpus, (list, tuple)) else None
    if (len(ids) if ids is not None else gpus) <= 1:
        what = "`len(gpus) >= 2`" if ids is not None else "`gpus >= 2`"
        raise ValueError(f"For multi-gpu usage to be effective, call `multi_gpu_model` with "
                         f"{what}. Received: `gpus={gpus}`")
    target = ["/cpu:0"] + [f"/gpu:{i}" for i in (ids if ids is not None else range(gpus))]
    raise ValueError(f"To call `multi_gpu_model` with `gpus={gpus}`, we expect the following "
                     f"devices to be available: {target}. However this machine only has: "
                     "['/cpu:0']. Try reducing `gpus`.")


def convert_all_kernels_in_model(model):
    """Flips the spatial axes of every convolution kernel of `model` (Conv1D/2D/3D and their
    transposes): between Theano's convolution and TensorFlow's, as TF 1.15 does."""
    from . import backend as K
    for layer in model.layers:
        if type(layer).__name__ in ("Conv1D", "Conv2D", "Conv3D", "Conv2DTranspose",
                                    "Conv3DTranspose"):
            kernel = K.get_value(layer.kernel)
            flip = tuple([slice(None, None, -1)] * (kernel.ndim - 2) + [slice(None)] * 2)
            K.set_value(layer.kernel, kernel[flip].copy())
