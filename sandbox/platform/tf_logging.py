"""`tf.logging` -- mirrors TensorFlow 1.x's python/platform/tf_logging.py.

TF-1 programs log through `tf.logging`, a thin layer over Python's `logging` module: every
function writes to the Python logger named 'tensorflow', whose level is the verbosity.

    tf.logging.set_verbosity(tf.logging.INFO)       # default: WARN -- INFO lines are hidden
    tf.logging.info("step %d, loss %.3f", step, loss)     # INFO:tensorflow:step 10, loss 0.512

As in TF, the logger prints `LEVEL:tensorflow:message` to stderr by itself only while the
program has not configured logging (the root logger has no handler); once it has (e.g.
`logging.basicConfig()`, or pytest capturing), the records go to the program's handlers only.
In an interactive Python the default verbosity is INFO, as in TF.

The sandbox's own library code (the training hooks, MonitoredTrainingSession, the Saver...)
logs to the loggers 'sandbox' and 'sandbox.train' rather than 'tensorflow', so
`set_verbosity` sets their level too: `set_verbosity(INFO)` shows the hooks' INFO lines
(`loss = 0.51, step = 100`), `set_verbosity(WARN)` hides them, as in TF.

Two departures from TF 1.15, both fixes: `log_every_n` and `log_first_n` count per calling
line (TF 1.15 finds no caller and counts all calls of both in one counter, so a
`log_first_n(..., 2)` after a loop of `log_every_n` never logs), and `flush` flushes the
handlers instead of raising NotImplementedError.
"""
import logging as _logging
import sys as _sys
import threading as _threading

__all__ = ["DEBUG", "INFO", "WARN", "WARNING", "ERROR", "FATAL",
           "set_verbosity", "get_verbosity", "debug", "info", "warn", "warning", "error",
           "fatal", "log", "log_if", "log_every_n", "log_first_n", "vlog", "flush",
           "TaskLevelStatusMessage", "get_logger"]

DEBUG = _logging.DEBUG        # 10
INFO = _logging.INFO          # 20
WARN = _logging.WARN          # 30
WARNING = _logging.WARNING    # 30 (TF 1.15 exports only WARN; WARNING is Python's name)
ERROR = _logging.ERROR        # 40
FATAL = _logging.FATAL        # 50

_LIBRARY_LOGGERS = ("sandbox", "sandbox.train")   # the sandbox's own code logs here


class _StderrHandler(_logging.Handler):
    """Prints 'INFO:tensorflow:message' to the *current* sys.stderr -- only while the program
    has not configured logging itself (TF decides the same way, once)."""

    def __init__(self):
        super().__init__()
        self.setFormatter(_logging.Formatter(_logging.BASIC_FORMAT))

    def emit(self, record):
        if _logging.getLogger().handlers:       # the program (or pytest) handles the records
            return
        try:
            _sys.stderr.write(self.format(record) + "\n")
            _sys.stderr.flush()
        except Exception:                        # logging must never break training
            self.handleError(record)


def _interactive():
    return hasattr(_sys, "ps1") or bool(_sys.flags.interactive)


def _make_logger():
    logger = _logging.getLogger("tensorflow")
    if not any(isinstance(h, _StderrHandler) for h in logger.handlers):
        logger.addHandler(_StderrHandler())
    if logger.level == _logging.NOTSET:
        logger.setLevel(INFO if _interactive() else WARN)
    return logger


_logger = _make_logger()
_counts_lock = _threading.Lock()
_log_counter_per_token = {}


def get_logger():
    """The Python logger tf.logging writes to (named 'tensorflow'): tf.get_logger()."""
    return _logger


# -- verbosity -------------------------------------------------------------------------

def set_verbosity(v):
    """Sets the threshold: messages below level `v` (e.g. tf.logging.INFO) are dropped. Also
    sets the level of the sandbox's own loggers, so the training hooks follow it as in TF."""
    _logger.setLevel(v)
    for name in _LIBRARY_LOGGERS:
        _logging.getLogger(name).setLevel(v)


def get_verbosity():
    """The current threshold (WARN = 30 unless set)."""
    return _logger.getEffectiveLevel()


# -- logging ---------------------------------------------------------------------------

def log(level, msg, *args, **kwargs):
    """Logs `msg % args` at `level`."""
    _logger.log(level, msg, *args, **kwargs)


def vlog(level, msg, *args, **kwargs):
    """The same as log: TF's verbose log levels are plain logging levels."""
    _logger.log(level, msg, *args, **kwargs)


def debug(msg, *args, **kwargs):
    _logger.debug(msg, *args, **kwargs)


def info(msg, *args, **kwargs):
    _logger.info(msg, *args, **kwargs)


def warning(msg, *args, **kwargs):
    _logger.warning(msg, *args, **kwargs)


warn = warning


def error(msg, *args, **kwargs):
    _logger.error(msg, *args, **kwargs)


def fatal(msg, *args, **kwargs):
    """Logs at FATAL (Python's CRITICAL). As in TF, it does not stop the program."""
    _logger.fatal(msg, *args, **kwargs)


def TaskLevelStatusMessage(msg):  # noqa: N802 -- TF's name
    """Logs `msg` as an error (what TF does with it)."""
    error(msg)


def log_if(level, msg, condition, *args):
    """Logs `msg % args` at `level` only if `condition` is true."""
    if condition:
        vlog(level, msg, *args)


def _next_count(depth=2):
    """How many times the line `depth` frames up has called us before (0 the first time)."""
    frame = _sys._getframe(depth)
    token = (frame.f_code.co_filename, frame.f_lineno)
    with _counts_lock:
        count = _log_counter_per_token[token] = _log_counter_per_token.get(token, -1) + 1
    return count


def log_every_n(level, msg, n, *args):
    """Logs `msg % args` at the 1st, (n+1)st, (2n+1)st ... call from the same line."""
    log_if(level, msg, not _next_count() % n, *args)


def log_first_n(level, msg, n, *args):
    """Logs `msg % args` at the first n calls from the same line only."""
    log_if(level, msg, _next_count() < n, *args)


def flush():
    """Flushes the handlers of the 'tensorflow' logger (TF 1.15 raises NotImplementedError)."""
    for handler in _logger.handlers:
        handler.flush()
