"""tf.gfile / tf.io.gfile on local files and tf.logging, as TensorFlow 1.15 behaves (every
expected error class and value below was measured with TF 1.15.5 on the same calls)."""
import logging
import os

import pytest

import sandbox as tf
from sandbox.framework import errors

gf = tf.gfile


# -- GFile ---------------------------------------------------------------------------------

def test_gfile_modes_read_write_append(tmp_path):
    p = str(tmp_path / "a.txt")
    with gf.GFile(p, "w") as f:
        assert f.write("hello\nworld\n") is None
        assert f.tell() == 12
        with pytest.raises(errors.PermissionDeniedError, match="isn't open for reading"):
            f.read()
    with gf.GFile(p, "a") as f:
        f.write(u"third")
    with gf.GFile(p, "r") as f:
        assert f.read(3) == "hel" and f.tell() == 3
        assert f.readline() == "lo\n"
        assert f.readlines() == ["world\n", "third"]
        assert f.size() == 17 and f.name == p and f.mode == "r"
        with pytest.raises(errors.PermissionDeniedError, match="isn't open for writing"):
            f.write("x")
        f.seek(0)
        assert f.read() == "hello\nworld\nthird"
        f.seek(-2, 2)
        assert f.tell() == 15
        f.seek(position=1)
        assert f.tell() == 1
    with gf.GFile(p, "rb") as f:
        assert f.read() == b"hello\nworld\nthird"
        assert list(f) == []                                 # at the end already
    assert list(gf.GFile(p)) == ["hello\n", "world\n", "third"]
    assert next(gf.Open(p)) == "hello\n"
    with gf.FastGFile(p, "wb") as f:
        f.write("abc")                                       # str into 'wb' is fine in TF
        f.write(b"xyz")
    assert open(p, "rb").read() == b"abcxyz"
    assert gf.GFile(p, "r+").read() == "abcxyz"


def test_gfile_is_lazy_and_checks_its_mode(tmp_path):
    missing = str(tmp_path / "nope")
    f = gf.GFile(missing, "r")                               # no error yet, as in TF
    with pytest.raises(errors.NotFoundError, match="No such file"):
        f.read()
    with pytest.raises(errors.InvalidArgumentError, match="mode is not"):
        gf.GFile(missing, "x")
    with gf.GFile(str(tmp_path / "w"), "w"):
        pass
    assert not os.path.exists(tmp_path / "w")                # never written: never created
    with pytest.raises(errors.NotFoundError):
        gf.GFile(str(tmp_path / "no" / "w"), "w").write("x")
    with pytest.raises(errors.UnimplementedError, match="local files only"):
        gf.Exists("gs://bucket/x")


# -- files and directories -------------------------------------------------------------

def test_directories(tmp_path):
    d = str(tmp_path)
    p = os.path.join(d, "a.txt")
    open(p, "w").write("x")
    assert gf.Exists(p) and not gf.Exists(p + "no")
    assert gf.IsDirectory(d) and not gf.IsDirectory(p) and not gf.IsDirectory(p + "no")
    with pytest.raises(errors.NotFoundError, match="Could not find directory"):
        gf.ListDirectory(d + "/zz")
    with pytest.raises(errors.NotFoundError):
        gf.ListDirectory(p)
    gf.MakeDirs(d + "/x/y/z")
    gf.MakeDirs(d + "/x/y/z")                                # again: fine
    gf.MakeDirs(p)                                           # a file there: no error in TF
    gf.MkDir(d + "/x")                                       # exists: no error in TF 1.15
    with pytest.raises(errors.NotFoundError):
        gf.MkDir(d + "/q/r")
    gf.MkDir(d + "/m")
    assert sorted(gf.ListDirectory(d)) == ["a.txt", "m", "x"]
    with pytest.raises(errors.NotFoundError):
        gf.Remove(d + "/nope")
    with pytest.raises(errors.FailedPreconditionError, match="Is a directory"):
        gf.Remove(d + "/m")
    with pytest.raises(errors.NotFoundError):
        gf.DeleteRecursively(d + "/nope")
    with pytest.raises(errors.FailedPreconditionError, match="Not a directory"):
        gf.DeleteRecursively(p)
    gf.DeleteRecursively(d + "/x")
    gf.Remove(p)
    assert sorted(gf.ListDirectory(d)) == ["m"]


def test_rename_copy_glob_stat(tmp_path):
    d = str(tmp_path)
    a, b, c = (os.path.join(d, n) for n in ("a.txt", "b.txt", "c.txt"))
    open(a, "w").write("aaaa")
    open(b, "w").write("bbb")
    with pytest.raises(errors.AlreadyExistsError, match="file already exists"):
        gf.Rename(a, b)
    gf.Rename(a, b, overwrite=True)
    assert open(b).read() == "aaaa" and not os.path.exists(a)
    with pytest.raises(errors.NotFoundError):
        gf.Rename(a, c)
    gf.Copy(b, c)
    with pytest.raises(errors.AlreadyExistsError):
        gf.Copy(b, c)
    gf.Copy(b, c, overwrite=True)
    with pytest.raises(errors.NotFoundError):
        gf.Copy(a, c + "2")
    os.mkdir(os.path.join(d, "sub"))
    open(os.path.join(d, "sub", "s.txt"), "w").write("s")
    strip = len(d)
    assert sorted(x[strip:] for x in gf.Glob(d + "/*.txt")) == ["/b.txt", "/c.txt"]
    assert sorted(x[strip:] for x in gf.Glob([d + "/b*", d + "/c*"])) == ["/b.txt", "/c.txt"]
    assert [x[strip:] for x in gf.Glob(d + "/*/*")] == ["/sub/s.txt"]
    assert gf.Glob(d + "/*.zzz") == []
    with pytest.raises(errors.NotFoundError):
        gf.Glob(d + "/nodir/*")
    st = gf.Stat(b)
    assert st.length == 4 and not st.is_directory
    assert st.mtime_nsec % 10**9 == 0                        # TF 1.15: whole seconds
    assert abs(st.mtime_nsec - os.stat(b).st_mtime_ns) < 10**9
    assert gf.Stat(d).is_directory
    with pytest.raises(errors.NotFoundError):
        gf.Stat(a)


def test_walk(tmp_path):
    d = str(tmp_path)
    for sub in ("m", "x/y"):
        os.makedirs(os.path.join(d, sub))
    open(os.path.join(d, "f"), "w").write("1")
    walked = [(r[len(d):], sorted(ds), sorted(fs)) for r, ds, fs in gf.Walk(d)]
    assert sorted(walked) == [("", ["m", "x"], ["f"]), ("/m", [], []), ("/x", ["y"], []),
                              ("/x/y", [], [])]
    assert walked[0][0] == ""                                # parents first
    bottom_up = [r[len(d):] for r, _, _ in gf.Walk(d, in_order=False)]
    assert bottom_up[-1] == "" and bottom_up.index("/x/y") < bottom_up.index("/x")
    assert list(gf.Walk(d + "/nope")) == [] and list(gf.Walk(os.path.join(d, "f"))) == []
    errors_seen = []
    assert list(tf.io.gfile.walk(d + "/nope", onerror=errors_seen.append)) == []
    assert isinstance(errors_seen[0], errors.NotFoundError)


def test_tf_io_gfile_names(tmp_path):
    io_gfile = tf.io.gfile
    assert sorted(n for n in dir(io_gfile) if not n.startswith("_")) == [
        "GFile", "copy", "exists", "glob", "isdir", "listdir", "makedirs", "mkdir", "remove",
        "rename", "rmtree", "stat", "walk"]                  # TF 1.15's dir(tf.io.gfile)
    assert io_gfile.GFile is gf.GFile and gf.Open is gf.GFile
    d = str(tmp_path)
    io_gfile.makedirs(d + "/k/l")
    with io_gfile.GFile(d + "/k/f.txt", "w") as f:
        f.write("hi")
    assert io_gfile.exists(d + "/k/f.txt") and io_gfile.isdir(d + "/k")
    assert sorted(io_gfile.listdir(d + "/k")) == ["f.txt", "l"]
    io_gfile.copy(d + "/k/f.txt", d + "/k/g.txt")
    io_gfile.rename(d + "/k/g.txt", d + "/k/f.txt", overwrite=True)
    assert io_gfile.stat(d + "/k/f.txt").length == 2
    assert io_gfile.glob(d + "/k/*.txt") == [d + "/k/f.txt"]
    io_gfile.remove(d + "/k/f.txt")
    io_gfile.rmtree(d + "/k")
    io_gfile.mkdir(d + "/k")
    assert io_gfile.listdir(d + "/k") == []


# -- tf.logging ----------------------------------------------------------------------------

@pytest.fixture
def verbosity():
    names = ("tensorflow", "sandbox", "sandbox.train")
    old = {name: logging.getLogger(name).level for name in names}
    yield
    for name in names:
        logging.getLogger(name).setLevel(old[name])


def test_logging_constants_and_verbosity(verbosity, caplog):
    assert (tf.logging.DEBUG, tf.logging.INFO, tf.logging.WARN, tf.logging.ERROR,
            tf.logging.FATAL) == (10, 20, 30, 40, 50)         # TF 1.15's values
    assert tf.logging.get_logger() is logging.getLogger("tensorflow")
    tf.logging.set_verbosity(tf.logging.WARN)
    with caplog.at_level(logging.NOTSET):
        tf.logging.set_verbosity(tf.logging.WARN)
        tf.logging.info("hidden %d", 1)
        tf.logging.warn("shown %d", 2)
        tf.logging.set_verbosity(tf.logging.INFO)
        assert tf.logging.get_verbosity() == tf.logging.INFO
        tf.logging.info("hello %d", 3)
        tf.logging.log(tf.logging.ERROR, "via log %s", "x")
        tf.logging.vlog(tf.logging.INFO, "vlog")
        tf.logging.debug("no debug")
        tf.logging.TaskLevelStatusMessage("status")
        tf.logging.fatal("fatal but alive")
    got = [(r.name, r.levelname, r.getMessage()) for r in caplog.records
           if r.name == "tensorflow"]
    assert got == [("tensorflow", "WARNING", "shown 2"), ("tensorflow", "INFO", "hello 3"),
                   ("tensorflow", "ERROR", "via log x"), ("tensorflow", "INFO", "vlog"),
                   ("tensorflow", "ERROR", "status"), ("tensorflow", "CRITICAL",
                                                      "fatal but alive")]


def test_log_every_n_and_first_n_count_per_line(verbosity, caplog):
    tf.logging.set_verbosity(tf.logging.INFO)
    with caplog.at_level(logging.NOTSET):
        for i in range(5):
            tf.logging.log_every_n(tf.logging.INFO, "every2 %d", 2, i)
        for i in range(5):
            tf.logging.log_first_n(tf.logging.INFO, "first2 %d", 2, i)
        tf.logging.log_if(tf.logging.INFO, "if %s", False, "no")
        tf.logging.log_if(tf.logging.INFO, "if %s", True, "yes")
    got = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert got == ["every2 0", "every2 2", "every2 4", "first2 0", "first2 1", "if yes"]


def test_format_on_stderr_when_logging_is_unconfigured(verbosity, capsys, monkeypatch):
    monkeypatch.setattr(logging.getLogger(), "handlers", [])     # a program without logging
    tf.logging.set_verbosity(tf.logging.INFO)
    tf.logging.info("to stderr %d", 7)
    assert "INFO:tensorflow:to stderr 7\n" in capsys.readouterr().err


def test_set_verbosity_governs_the_training_hooks(verbosity, caplog):
    """The sandbox's hooks log to 'sandbox.train'; tf.logging.set_verbosity sets it as TF's
    verbosity governs TF's hooks: WARN hides LoggingTensorHook's lines, INFO shows them."""
    with tf.Graph().as_default():
        step = tf.train.get_or_create_global_step()
        inc = tf.assign_add(step, 1)
        hook = tf.train.LoggingTensorHook({"step": step}, every_n_iter=1)
        for level, expect in ((tf.logging.WARN, False), (tf.logging.INFO, True)):
            tf.logging.set_verbosity(level)
            caplog.clear()
            with caplog.at_level(logging.NOTSET, logger="tensorflow"):
                with tf.train.MonitoredSession(hooks=[hook]) as sess:
                    sess.run(inc)
            lines = [r.getMessage() for r in caplog.records if r.levelno == logging.INFO
                     and "step = " in r.getMessage()]
            assert bool(lines) == expect, (level, lines)
