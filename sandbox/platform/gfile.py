"""`tf.gfile` / `tf.io.gfile` -- mirrors TensorFlow 1.x's python/platform/gfile.py and
python/lib/io/file_io.py, for local files.

TensorFlow reads and writes files through its own file system layer (local disks, but also
gs:// and hdfs://), so TF programs use `tf.gfile` instead of `open` and `os`:

    if not tf.gfile.Exists(FLAGS.log_dir):
        tf.gfile.MakeDirs(FLAGS.log_dir)
    with tf.gfile.GFile(os.path.join(FLAGS.log_dir, "labels.txt"), "w") as f:
        f.write("\\n".join(labels))

The sandbox has local files only; a path with a scheme such as gs:// is refused, saying so.
The TF-1 names (`tf.gfile.Exists`) and the TF-2 ones (`tf.io.gfile.exists`) are the same
functions. Failures raise TF's error classes, where TF 1.15 raises them: a missing file is
NotFoundError, `Rename`/`Copy` onto an existing file without overwrite=True is
AlreadyExistsError, `Remove` of a directory or `DeleteRecursively` of a file is
FailedPreconditionError.

As in TF, a GFile opens its file lazily -- at the first read or write -- so
`GFile("missing.txt")` succeeds and its `read()` raises NotFoundError; text modes ('r', 'w',
'a') read str and binary modes ('rb' ...) bytes, and both write str or bytes.
"""
import collections
import glob as _glob
import os
import shutil

from ..framework import errors

__all__ = ["GFile", "FastGFile", "Open", "Exists", "IsDirectory", "ListDirectory", "MakeDirs",
           "MkDir", "Remove", "DeleteRecursively", "Rename", "Copy", "Glob", "Stat", "Walk",
           "exists", "glob", "isdir", "listdir", "makedirs", "mkdir", "remove", "rename",
           "rmtree", "stat", "walk", "copy"]

_MODES = ("r", "w", "a", "r+", "w+", "a+")


def _path(name):
    name = os.fspath(name)
    if isinstance(name, bytes):
        name = name.decode()
    if "://" in name:
        raise errors.UnimplementedError(
            None, None, f"File system scheme '{name.split('://')[0]}' not implemented (file: "
            f"'{name}'): the sandbox reads and writes local files only.")
    return name


def _os_error(e, path):
    """The TF error class for an OSError, with TF's message '<path>; <reason>'."""
    text = f"{path}; {e.strerror or e}"
    if isinstance(e, FileNotFoundError):
        return errors.NotFoundError(None, None, text)
    if isinstance(e, FileExistsError):
        return errors.AlreadyExistsError(None, None, text)
    if isinstance(e, (IsADirectoryError, NotADirectoryError)):
        return errors.FailedPreconditionError(None, None, text)
    if isinstance(e, PermissionError):
        return errors.PermissionDeniedError(None, None, text)
    return errors.UnknownError(None, None, text)


# -- GFile -----------------------------------------------------------------------------

class GFile:
    """A file, with the methods of TF's GFile: read(n=-1), readline, readlines, iteration,
    write, seek(offset, whence) / tell, size, flush, close, and `with`."""

    def __init__(self, name, mode="r"):
        base = mode.replace("b", "")
        if base not in _MODES or mode.count("b") > 1:
            raise errors.InvalidArgumentError(
                None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name = _path(name)
        self._mode = mode
        self._binary = "b" in mode
        self._readable = base.startswith("r") or "+" in base
        self._writable = not base == "r"
        self._file = None

    @property
    def name(self):
        return self._name

    @property
    def mode(self):
        return self._mode

    def _open(self):
        if self._file is None:
            try:
                self._file = open(self._name, self._mode.replace("b", "") + "b")  # noqa: SIM115
            except OSError as e:
                raise _os_error(e, self._name) from None
        return self._file

    def _reader(self):
        if not self._readable:
            raise errors.PermissionDeniedError(
                None, None, f"File isn't open for reading: {self._name} was opened with mode "
                f"{self._mode!r}")
        return self._open()

    def _out(self, data):
        return data if self._binary else data.decode("utf-8")

    # -- reading --
    def size(self):
        """The file's length in bytes."""
        return Stat(self._name).length

    def read(self, n=-1):
        """Up to n bytes (all that is left when n is -1 or None): str, or bytes in 'rb' mode."""
        return self._out(self._reader().read(-1 if n is None else n))

    def readline(self):
        """The next line, with its '\\n' ('' at the end of the file)."""
        return self._out(self._reader().readline())

    def readlines(self):
        """The lines that are left, as a list."""
        return [self._out(line) for line in self._reader().readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    # -- writing --
    def write(self, file_content):
        """Writes str (as UTF-8) or bytes."""
        if not self._writable:
            raise errors.PermissionDeniedError(
                None, None, f"File isn't open for writing: {self._name} was opened with mode "
                f"{self._mode!r}")
        if isinstance(file_content, str):
            file_content = file_content.encode("utf-8")
        self._open().write(bytes(file_content))

    def flush(self):
        if self._file is not None:
            self._file.flush()

    # -- position --
    def tell(self):
        """The position in bytes from the start."""
        return self._open().tell()

    def seek(self, offset=None, whence=0, position=None):
        """Moves to `offset` bytes from the start (whence=0), the current position (1) or the
        end (2). `position` is TF's deprecated name for offset."""
        if position is not None:
            offset = position
        self._open().seek(offset, whence)

    # -- closing --
    def close(self):
        """Closes the file; reading again starts over from the beginning (as in TF)."""
        if self._file is not None:
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:        # noqa: S110 -- never raise from a finalizer
            pass


class FastGFile(GFile):
    """Deprecated in TF 1.x: the same as GFile."""


Open = GFile


# -- files and directories -------------------------------------------------------------

def Exists(filename):  # noqa: N802 -- TF's names
    """Whether a file or directory `filename` exists."""
    return os.path.exists(_path(filename))


def IsDirectory(dirname):  # noqa: N802
    """Whether `dirname` is a directory (False when it does not exist)."""
    return os.path.isdir(_path(dirname))


def ListDirectory(dirname):  # noqa: N802
    """The names of the entries of directory `dirname` (not '.' and '..'), in no order."""
    path = _path(dirname)
    if not os.path.isdir(path):
        raise errors.NotFoundError(None, None, f"Could not find directory {path}")
    return os.listdir(path)


def MakeDirs(dirname):  # noqa: N802
    """Creates `dirname` and every missing parent; an existing one is fine."""
    path = _path(dirname)
    if os.path.isdir(path) or os.path.exists(path):    # TF 1.15: a file there is no error
        return
    try:
        os.makedirs(path, exist_ok=True)
    except OSError as e:
        raise _os_error(e, path) from None


def MkDir(dirname):  # noqa: N802
    """Creates directory `dirname`; its parent must exist (NotFoundError otherwise). An
    existing directory is no error, as in TF 1.15."""
    path = _path(dirname)
    try:
        os.mkdir(path)
    except FileExistsError:
        return
    except OSError as e:
        raise _os_error(e, path) from None


def Remove(filename):  # noqa: N802
    """Deletes file `filename` (a directory: FailedPreconditionError; use DeleteRecursively)."""
    path = _path(filename)
    if os.path.isdir(path):
        raise errors.FailedPreconditionError(
            None, None, f"{path}; Is a directory (use tf.gfile.DeleteRecursively)")
    try:
        os.remove(path)
    except OSError as e:
        raise _os_error(e, path) from None


def DeleteRecursively(dirname):  # noqa: N802
    """Deletes directory `dirname` and everything in it."""
    path = _path(dirname)
    if not os.path.exists(path):
        raise errors.NotFoundError(None, None, f"{path} not found")
    if not os.path.isdir(path):
        raise errors.FailedPreconditionError(
            None, None, f"{path}; Not a directory (use tf.gfile.Remove for a file)")
    shutil.rmtree(path)


def _refuse_existing(dst, overwrite):
    if not overwrite and os.path.exists(dst):
        raise errors.AlreadyExistsError(
            None, None, f"file already exists: {dst} (pass overwrite=True to replace it)")


def Rename(oldname, newname, overwrite=False):  # noqa: N802
    """Renames (moves) file or directory `oldname` to `newname`."""
    src, dst = _path(oldname), _path(newname)
    _refuse_existing(dst, overwrite)
    try:
        os.replace(src, dst)
    except OSError as e:
        raise _os_error(e, src) from None


def Copy(oldpath, newpath, overwrite=False):  # noqa: N802
    """Copies file `oldpath` to `newpath` (files only, as in TF)."""
    src, dst = _path(oldpath), _path(newpath)
    _refuse_existing(dst, overwrite)
    if os.path.isdir(src):
        raise errors.InvalidArgumentError(None, None, f"{src}; Is a directory: tf.gfile.Copy "
                                          "copies files only")
    try:
        shutil.copyfile(src, dst)
    except OSError as e:
        raise _os_error(e, src if not os.path.exists(src) else dst) from None


def Glob(filename):  # noqa: N802
    """The paths matching a pattern (`*`, `?`, `[...]`) or any of a list of patterns. A
    pattern whose directory part does not exist raises NotFoundError, as in TF."""
    patterns = [filename] if isinstance(filename, (str, bytes, os.PathLike)) else filename
    found = []
    for pattern in patterns:
        pattern = _path(pattern)
        if not pattern:
            continue
        head = pattern
        while _glob.has_magic(head):
            head = os.path.dirname(head)
        if head and head != pattern and not os.path.exists(head):
            raise errors.NotFoundError(None, None, f"{head}; No such file or directory")
        found.extend(_glob.glob(pattern))
    return found


FileStatistics = collections.namedtuple("FileStatistics", "length mtime_nsec is_directory")
FileStatistics.__doc__ = "What Stat returns: length in bytes, mtime_nsec, is_directory."


def Stat(filename):  # noqa: N802
    """FileStatistics(length, mtime_nsec, is_directory) of `filename`. As TF 1.15 does on
    Linux, mtime_nsec is whole seconds times 1e9."""
    path = _path(filename)
    try:
        st = os.stat(path)
    except OSError as e:
        raise _os_error(e, path) from None
    return FileStatistics(st.st_size, st.st_mtime_ns // 10**9 * 10**9, os.path.isdir(path))


def Walk(top, in_order=True):  # noqa: N802
    """Yields (dirname, [subdirectory names], [file names]) for `top` and every directory below
    it: parents first when in_order, else children first. A missing `top` yields nothing."""
    top = _path(top)
    try:
        entries = ListDirectory(top)
    except errors.NotFoundError:
        return
    subdirs, files = [], []
    for entry in entries:
        (subdirs if os.path.isdir(os.path.join(top, entry)) else files).append(entry)
    here = (top, subdirs, files)
    if in_order:
        yield here
    for subdir in subdirs:
        yield from Walk(os.path.join(top, subdir), in_order)
    if not in_order:
        yield here


# -- the tf.io.gfile names (TF 2 style) -------------------------------------------------

exists = Exists
isdir = IsDirectory
listdir = ListDirectory
makedirs = MakeDirs
mkdir = MkDir
remove = Remove
rmtree = DeleteRecursively
stat = Stat


def glob(pattern):
    """The paths matching `pattern` (tf.io.gfile.glob)."""
    return Glob(pattern)


def rename(src, dst, overwrite=False):
    """Renames src to dst (tf.io.gfile.rename)."""
    Rename(src, dst, overwrite)


def copy(src, dst, overwrite=False):
    """Copies file src to dst (tf.io.gfile.copy)."""
    Copy(src, dst, overwrite)


def walk(top, topdown=True, onerror=None):
    """Like os.walk: (dirname, subdirs, files), parents first when topdown. A missing `top`
    calls onerror(NotFoundError) if given, and yields nothing."""
    if onerror is not None and not IsDirectory(top):
        onerror(errors.NotFoundError(None, None, f"Could not find directory {_path(top)}"))
        return
    yield from Walk(top, in_order=topdown)
