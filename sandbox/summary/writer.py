"""Event files for TensorBoard -- mirrors TensorFlow's tf.summary.FileWriter and
FileWriterCache (python/summary/writer/writer.py, event_file_writer.py, writer_cache.py).

TensorBoard reads the *event files* of a directory (the "logdir"), named
`events.out.tfevents.<time>.<host>...`. Each is a sequence of records, each record one Event
protocol buffer: a Summary of scalars and histograms at a global step, the graph, a session
log (START / STOP / CHECKPOINT).

    writer = tf.summary.FileWriter('/tmp/logs', sess.graph)   # also records the graph
    summary = sess.run(merged)                                 # serialized Summary bytes
    writer.add_summary(summary, global_step=step)
    writer.close()                 # then: tensorboard --logdir /tmp/logs

As in TF the writer is asynchronous: add_* puts the event in a queue of `max_queue` events
and a background thread writes it, flushing to disk every `flush_secs` seconds; flush() and
close() write everything still queued. The record framing (length + masked CRC32C) and the
protocol buffers come from tensorboardX -- exactly the format TensorBoard reads; the sandbox
encodes no protobuf by hand. `tf.train.SummaryWriter` is TF 0.x's name for the same class.
"""
import atexit
import itertools
import logging
import os
import queue
import socket
import threading
import time
import weakref

import numpy as np

from ..framework.graph_def import graph_def_proto

__all__ = ["FileWriter", "FileWriterCache", "SummaryWriter", "graph_def_proto"]

_log = logging.getLogger("sandbox")
_file_ids = itertools.count()
_open_writers = weakref.WeakSet()


def _protos():
    from tensorboardX.proto import event_pb2, summary_pb2
    return event_pb2, summary_pb2


# -- the event file ---------------------------------------------------------------------

class EventFileWriter:
    """One event file, written by a background thread (TF's EventFileWriter)."""

    _CLOSE = object()

    def __init__(self, logdir, max_queue=10, flush_secs=120, filename_suffix=None):
        from tensorboardX.record_writer import RecordWriter
        event_pb2, _ = _protos()
        self._logdir = logdir
        os.makedirs(logdir, exist_ok=True)
        # TF 1.x names the file events.out.tfevents.<time>.<host><suffix>; the process id and
        # a counter (as TF 2 adds) keep two writers started in the same second apart. The
        # counter has a fixed width, so that the files of one process sort (as TensorBoard
        # reads them) in the order they were written: file 10 after file 9.
        name = (f"events.out.tfevents.{int(time.time()):010d}.{socket.gethostname()}."
                f"{os.getpid()}.{next(_file_ids):06d}{filename_suffix or ''}")
        self._path = os.path.join(logdir, name)
        self._records = RecordWriter(self._path)
        self._lock = threading.Lock()           # one writer of records at a time
        self._queue = queue.Queue(max(1, int(max_queue)))
        self._flush_secs = flush_secs
        self._error = None
        self._closed = False
        self._write(event_pb2.Event(wall_time=time.time(), file_version="brain.Event:2"))
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name="EventLoggerThread")
        self._thread.start()
        _open_writers.add(self)

    @property
    def path(self):
        return self._path

    def get_logdir(self):
        return self._logdir

    def _write(self, event):
        with self._lock:
            self._records.write(event.SerializeToString())

    def _run(self):
        next_flush = time.monotonic() + self._flush_secs
        pending = False
        while True:
            try:
                event = self._queue.get(timeout=max(0.0, next_flush - time.monotonic()))
            except queue.Empty:
                event = None
            try:
                if event is self._CLOSE:
                    return
                if event is not None:
                    self._write(event)
                    pending = True
                if time.monotonic() >= next_flush:
                    if pending:
                        with self._lock:
                            self._records.flush()
                        pending = False
                    next_flush = time.monotonic() + self._flush_secs
            except Exception as e:              # disk full, logdir deleted...: say it once
                if self._error is None:
                    _log.error("Could not write events to %s: %s", self._path, e)
                self._error = e
            finally:
                if event is not None:
                    self._queue.task_done()

    def add_event(self, event):
        if not self._closed:
            self._queue.put(event)

    def flush(self):
        """Writes every queued event and flushes the file to disk."""
        if self._closed:
            return
        self._queue.join()
        with self._lock:
            self._records.flush()

    def close(self):
        if self._closed:
            return
        self.flush()
        self._queue.put(self._CLOSE)
        self._thread.join()
        with self._lock:
            self._records.close()
        self._closed = True
        _open_writers.discard(self)


@atexit.register
def _close_open_writers():
    """Events still queued when the program ends are written, as TF's writer does."""
    for writer in list(_open_writers):
        try:
            writer.close()
        except Exception:
            pass


# -- the graph for TensorBoard ------------------------------------------------------------

# -- FileWriter ---------------------------------------------------------------------------

class FileWriter:
    """Writes Summary protocol buffers and the graph to an event file in `logdir`."""

    def __init__(self, logdir, graph=None, max_queue=10, flush_secs=120, graph_def=None,
                 filename_suffix=None, session=None):
        # `session` (TF 1.15's graph-based writer) changes nothing here: events are written
        # by this process either way.
        self._logdir = str(os.fspath(logdir))
        self._max_queue = max_queue
        self._flush_secs = flush_secs
        self._filename_suffix = filename_suffix
        self._seen_summary_tags = set()
        self._warned_run_metadata = False
        self._closed = False
        self.event_writer = EventFileWriter(self._logdir, max_queue, flush_secs, filename_suffix)
        if graph is not None or graph_def is not None:
            self.add_graph(graph=graph, graph_def=graph_def)

    def get_logdir(self):
        """The directory the event files are written to."""
        return self._logdir

    def _warn_if_closed(self):
        if self._closed:
            _log.warning("Attempting to use a closed FileWriter. The operation will be a noop "
                         "unless the FileWriter is explicitly reopened.")
        return self._closed

    def add_event(self, event):
        """Adds an Event protocol buffer as it is."""
        if not self._warn_if_closed():
            self.event_writer.add_event(event)

    def _add_event(self, event, step):
        event.wall_time = time.time()
        if step is not None:
            event.step = int(step)
        self.add_event(event)

    def add_summary(self, summary, global_step=None):
        """Adds a Summary: the bytes a summary op produced (sess.run(merged)) or a Summary
        protocol buffer, recorded at `global_step`."""
        event_pb2, summary_pb2 = _protos()
        if isinstance(summary, np.ndarray) and summary.dtype == object and summary.size == 1:
            summary = summary.item()
        if isinstance(summary, (bytes, bytearray)):
            try:
                summary = summary_pb2.Summary.FromString(bytes(summary))
            except Exception as e:
                raise ValueError(f"add_summary got bytes that are not a serialized Summary "
                                 f"({e}). Pass what a summary op returns, e.g. "
                                 "sess.run(tf.summary.merge_all()).") from None
        elif not isinstance(summary, summary_pb2.Summary):
            raise TypeError(f"add_summary expects a Summary protocol buffer or its serialized "
                            f"bytes (the result of running a summary op), got "
                            f"{type(summary).__name__}.")
        # Plugin metadata is stored only with the first value of each tag (as TF does).
        for value in summary.value:
            if not value.HasField("metadata"):
                continue
            if value.tag in self._seen_summary_tags:
                value.ClearField("metadata")
            else:
                self._seen_summary_tags.add(value.tag)
        self._add_event(event_pb2.Event(summary=summary), global_step)

    def add_session_log(self, session_log, global_step=None):
        """Adds a SessionLog (START, STOP, CHECKPOINT) protocol buffer."""
        event_pb2, _ = _protos()
        self._add_event(event_pb2.Event(session_log=session_log), global_step)

    def add_graph(self, graph, global_step=None, graph_def=None):
        """Adds the graph (a tf.Graph, or the deprecated graph_def: sess.graph_def) for
        TensorBoard's Graphs tab."""
        from ..framework.graph import Graph
        if graph is not None and graph_def is not None:
            raise ValueError("Please pass only graph, or graph_def (deprecated), but not both.")
        graph = graph if graph is not None else graph_def
        if isinstance(graph, Graph) or (isinstance(graph, dict) and "node" in graph):
            proto = graph_def_proto(graph)
        elif hasattr(graph, "SerializeToString") and hasattr(graph, "node"):
            proto = graph                                  # already a GraphDef protobuf
        else:
            raise TypeError("The passed graph must be an instance of `Graph` or the "
                            "deprecated `GraphDef`")
        event_pb2, _ = _protos()
        self._add_event(event_pb2.Event(graph_def=proto.SerializeToString()), global_step)

    def add_meta_graph(self, meta_graph_def, global_step=None):
        """Adds the graph part of a meta graph (as written by Saver.export_meta_graph)."""
        graph_def = meta_graph_def.get("graph_def") if isinstance(meta_graph_def, dict) else None
        if graph_def is None:
            raise TypeError(f"meta_graph_def must be a meta graph (a dict with a 'graph_def'), "
                            f"got {type(meta_graph_def).__name__}")
        self.add_graph(graph_def, global_step)

    def add_run_metadata(self, run_metadata, tag, global_step=None):
        """TF stores a step's RunMetadata for TensorBoard. The sandbox's RunMetadata has no
        protobuf form, so nothing is written; use sandbox.client.timeline to see step stats."""
        if not self._warned_run_metadata:
            self._warned_run_metadata = True
            _log.warning("FileWriter.add_run_metadata(tag=%r): the sandbox does not store run "
                         "metadata in event files; view it with "
                         "sandbox.client.timeline.Timeline(run_metadata.step_stats).", tag)

    def flush(self):
        """Writes every pending event to disk."""
        if not self._closed:
            self.event_writer.flush()

    def close(self):
        """Flushes and closes the event file. Call reopen() to write again."""
        if not self._closed:
            self.event_writer.close()
            self._closed = True

    def reopen(self):
        """After close(): starts a new event file in the same logdir."""
        if self._closed:
            self.event_writer = EventFileWriter(self._logdir, self._max_queue,
                                                self._flush_secs, self._filename_suffix)
            self._closed = False

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


SummaryWriter = FileWriter     # TF 0.x name (tf.train.SummaryWriter)


class FileWriterCache:
    """One FileWriter per logdir, shared by everyone who asks (TF's FileWriterCache)."""

    _cache = {}
    _lock = threading.RLock()

    @staticmethod
    def get(logdir):
        from ..framework.graph import get_default_graph
        with FileWriterCache._lock:
            writer = FileWriterCache._cache.get(logdir)
            if writer is None:
                writer = FileWriter(logdir, graph=get_default_graph())
                FileWriterCache._cache[logdir] = writer
            return writer

    @staticmethod
    def clear():
        with FileWriterCache._lock:
            for writer in FileWriterCache._cache.values():
                writer.close()
            FileWriterCache._cache.clear()
