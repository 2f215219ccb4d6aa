"""Finding checkpoints -- mirrors TensorFlow's checkpoint_management
(python/training/checkpoint_management.py).

Next to its checkpoints a Saver keeps a small text file named `checkpoint` -- the "state file"
-- that says which checkpoint is the newest and which older ones are still kept:

    model_checkpoint_path: "model.ckpt-3000"
    all_model_checkpoint_paths: "model.ckpt-2000"
    all_model_checkpoint_paths: "model.ckpt-3000"

(TF's text format of its CheckpointState protocol buffer; relative paths are relative to the
directory of the file.) `latest_checkpoint(dir)` reads it, so a program that restarts -- or a
chief that replaces a crashed one -- resumes from the newest checkpoint:

    saver.restore(sess, tf.train.latest_checkpoint('/tmp/train'))

The state file is replaced atomically and only after a checkpoint's files are all written, so
it never points at a checkpoint that is not complete.
"""
import logging
import os
import re

from ..framework import tensor_bundle

__all__ = ["CheckpointState", "generate_checkpoint_state_proto", "update_checkpoint_state",
           "get_checkpoint_state", "latest_checkpoint", "checkpoint_exists",
           "get_checkpoint_mtimes", "remove_checkpoint", "meta_graph_filename",
           "list_variables", "load_variable", "load_checkpoint"]

_log = logging.getLogger("sandbox")


class CheckpointState:
    """TF's CheckpointState: the newest checkpoint and all the ones kept."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(),
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and vars(self) == vars(other)

    def __str__(self):
        """The text format TF writes (text_format.MessageToString)."""
        lines = []
        if self.model_checkpoint_path:
            lines.append(f"model_checkpoint_path: {_quote(self.model_checkpoint_path)}")
        lines += [f"all_model_checkpoint_paths: {_quote(p)}"
                  for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t!r}"
                  for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp:
            lines.append(f"last_preserved_timestamp: {self.last_preserved_timestamp!r}")
        return "".join(line + "\n" for line in lines)

    __repr__ = __str__


# -- the text format ------------------------------------------------------------------

_ESCAPES = {"\\": "\\\\", '"': '\\"', "'": "\\'", "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_UNESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "r": "\r", "t": "\t"}


def _quote(text):
    return '"' + "".join(_ESCAPES.get(c, c) for c in text) + '"'


def _unquote(text):
    if len(text) < 2 or text[0] not in "\"'" or text[-1] != text[0]:
        raise ValueError(f"expected a quoted string, got {text!r}")
    out, i, body = [], 0, text[1:-1]
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in _UNESCAPES:
                out.append(_UNESCAPES[nxt])
                i += 2
                continue
            octal = re.match(r"[0-7]{1,3}", body[i + 1:])
            if octal:
                out.append(chr(int(octal.group(0), 8)))
                i += 1 + len(octal.group(0))
                continue
        out.append(c)
        i += 1
    return "".join(out)


def _parse_state(text):
    ckpt = CheckpointState()
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.strip()
        if not sep:
            raise ValueError(f"line {number}: expected 'field: value', got {line!r}")
        if key == "model_checkpoint_path":
            ckpt.model_checkpoint_path = _unquote(value)
        elif key == "all_model_checkpoint_paths":
            ckpt.all_model_checkpoint_paths.append(_unquote(value))
        elif key == "all_model_checkpoint_timestamps":
            ckpt.all_model_checkpoint_timestamps.append(float(value))
        elif key == "last_preserved_timestamp":
            ckpt.last_preserved_timestamp = float(value)
        else:
            raise ValueError(f"line {number}: unknown field {key!r}")
    return ckpt


# -- the state file --------------------------------------------------------------------

def _state_filename(save_dir, latest_filename):
    return os.path.join(save_dir, latest_filename or "checkpoint")


def generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                    all_model_checkpoint_paths=None,
                                    all_model_checkpoint_timestamps=None,
                                    last_preserved_timestamp=None):
    """A CheckpointState; the newest path is always last of all_model_checkpoint_paths.
    When `save_dir` is relative, the paths are made relative to it (as TF does)."""
    paths = list(all_model_checkpoint_paths or [])
    if not paths or paths[-1] != model_checkpoint_path:
        paths.append(model_checkpoint_path)
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir or ".")
        paths = [p if os.path.isabs(p) else os.path.relpath(p, save_dir or ".") for p in paths]
    return CheckpointState(model_checkpoint_path, paths, all_model_checkpoint_timestamps or (),
                           last_preserved_timestamp or 0.0)


def update_checkpoint_state(save_dir, model_checkpoint_path, all_model_checkpoint_paths=None,
                            latest_filename=None, all_model_checkpoint_timestamps=None,
                            last_preserved_timestamp=None, save_relative_paths=False):
    """Writes the state file of `save_dir` -- atomically: a reader sees the old file or the
    new one, never a half-written one."""
    if save_relative_paths:
        def rel(p):
            return os.path.relpath(p, save_dir) if os.path.isabs(p) else p
        model_checkpoint_path = rel(model_checkpoint_path)
        all_model_checkpoint_paths = [rel(p) for p in all_model_checkpoint_paths or []]
    ckpt = generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                           all_model_checkpoint_paths,
                                           all_model_checkpoint_timestamps,
                                           last_preserved_timestamp)
    filename = _state_filename(save_dir, latest_filename)
    if filename == ckpt.model_checkpoint_path:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for "
                           "checkpoint state.  Please use a different save path.")
    tensor_bundle.atomic_write(filename, [str(ckpt).encode("utf-8")])


update_checkpoint_state_internal = update_checkpoint_state


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The CheckpointState in `checkpoint_dir`'s state file (relative paths joined with
    `checkpoint_dir`), or None if there is no readable state file."""
    filename = _state_filename(checkpoint_dir, latest_filename)
    if not os.path.isfile(filename):
        return None
    try:
        with open(filename, encoding="utf-8") as f:
            ckpt = _parse_state(f.read())
    except (OSError, ValueError) as e:          # UnicodeDecodeError is a ValueError
        _log.warning("%s: %s", type(e).__name__, e)
        _log.warning("%s: Checkpoint ignored", filename)
        return None
    if not ckpt.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not os.path.isabs(ckpt.model_checkpoint_path):
        ckpt.model_checkpoint_path = os.path.join(checkpoint_dir, ckpt.model_checkpoint_path)
    ckpt.all_model_checkpoint_paths = [
        p if os.path.isabs(p) else os.path.join(checkpoint_dir, p)
        for p in ckpt.all_model_checkpoint_paths]
    return ckpt


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint in `checkpoint_dir` (from its state file), or None
    when there is none -- or when the files it names are gone."""
    ckpt = get_checkpoint_state(checkpoint_dir, latest_filename)
    if ckpt and ckpt.model_checkpoint_path:
        if checkpoint_exists(ckpt.model_checkpoint_path):
            return ckpt.model_checkpoint_path
        _log.error("Couldn't match files for checkpoint %s", ckpt.model_checkpoint_path)
    return None


def checkpoint_exists(checkpoint_prefix):
    """True if a checkpoint with this prefix exists (its index file does). It does not check
    that the checkpoint is intact: restoring does."""
    prefix = tensor_bundle._text(checkpoint_prefix)
    return os.path.isfile(tensor_bundle.index_filename(prefix))


checkpoint_exists_internal = checkpoint_exists


def get_checkpoint_mtimes(checkpoint_prefixes):
    """The modification times of the checkpoints' index files (those that exist)."""
    times = []
    for prefix in checkpoint_prefixes:
        try:
            times.append(os.path.getmtime(tensor_bundle.index_filename(prefix)))
        except OSError:
            pass
    return times


def meta_graph_filename(checkpoint_filename, meta_graph_suffix="meta"):
    """'model.ckpt-123' -> 'model.ckpt-123.meta'."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])


def remove_checkpoint(checkpoint_prefix, checkpoint_format_version=2, meta_graph_suffix="meta"):
    """Deletes the files of a checkpoint: index, data shards and meta graph."""
    files = tensor_bundle.checkpoint_files(checkpoint_prefix)
    meta = meta_graph_filename(checkpoint_prefix, meta_graph_suffix)
    if os.path.exists(meta):
        files.append(meta)
    for path in files:
        try:
            os.remove(path)
        except FileNotFoundError:
            pass


# -- reading variables out of a checkpoint (TF's checkpoint_utils) ---------------------

def _prefix_of(ckpt_dir_or_file):
    if os.path.isdir(ckpt_dir_or_file):
        prefix = latest_checkpoint(ckpt_dir_or_file)
        if prefix is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {ckpt_dir_or_file}")
        return prefix
    return ckpt_dir_or_file


def load_checkpoint(ckpt_dir_or_file):
    """A CheckpointReader for a checkpoint prefix or the newest checkpoint of a directory."""
    return tensor_bundle.CheckpointReader(_prefix_of(ckpt_dir_or_file))


def list_variables(ckpt_dir_or_file):
    """[(name, shape)] of every tensor in the checkpoint, sorted by name."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


def load_variable(ckpt_dir_or_file, name):
    """The value of tensor `name` in the checkpoint."""
    if name.endswith(":0"):
        name = name[:-2]
    with load_checkpoint(ckpt_dir_or_file) as reader:
        return reader.get_tensor(name)
