"""Supervisor -- mirrors TensorFlow's tf.train.Supervisor (python/training/supervisor.py).

The Supervisor is the older helper (before MonitoredTrainingSession) for training in a cluster.
It bundles a Coordinator (stop the threads together), a Saver, a SessionManager and a summary
writer:

    sv = tf.train.Supervisor(is_chief=(task_index == 0), global_step=global_step,
                             init_op=init_op, logdir=None)
    with sv.prepare_or_wait_for_session(server.target) as sess:
        while not sv.should_stop() and step < 1000:
            _, step = sess.run([train_op, global_step])
    sv.stop()

- The chief creates the session and initializes the model -- or, with a `logdir`, restores
  the latest checkpoint in it -- and starts the *standard services*: background threads that
  save a checkpoint every `save_model_secs` and the summaries every `save_summaries_secs`.
- The other workers wait until the chief has made the model ready ("Waiting for model to be
  ready...", see session_manager.py).
- Everyone starts the graph's queue runners.
- `sv.stop()` stops and joins every thread the Supervisor started and closes the writer; the
  session itself is closed by its `with` block (or use `sv.managed_session(...)`, which does
  both).

The constructor adds the ops it needs (init, ready, saver, summary) and finalizes the graph.
`logdir=None` means no checkpoints and no summaries; `save_model_secs=0` and
`save_summaries_secs=0` turn those services off.
"""
import contextlib
import os
import time

from ..framework import dtypes
from ..framework.graph import GraphKeys, get_default_graph
from .basic_session_run_hooks import _add_session_log, _scalar_summary
from .coordinator import Coordinator, LooperThread
from .session_manager import SessionManager, logger

__all__ = ["Supervisor"]


class Supervisor:
    """A training helper that initializes or waits, checkpoints, writes summaries and stops
    threads together. See the module docstring."""

    # Pass this for ready_op, init_op, summary_op, saver, global_step... to get the default.
    USE_DEFAULT = 0

    def __init__(self, graph=None, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT,
                 is_chief=True, init_op=USE_DEFAULT, init_feed_dict=None,
                 local_init_op=USE_DEFAULT, logdir=None, summary_op=USE_DEFAULT,
                 saver=USE_DEFAULT, global_step=USE_DEFAULT, save_summaries_secs=120,
                 save_model_secs=600, recovery_wait_secs=30, stop_grace_secs=120,
                 checkpoint_basename="model.ckpt", session_manager=None,
                 summary_writer=USE_DEFAULT, init_fn=None, local_init_run_options=None):
        if graph is None:
            graph = get_default_graph()
        with graph.as_default():
            self._init_ready_op(ready_op, ready_for_local_init_op)
            self._init_init_op(init_op, init_feed_dict)
            self._init_local_init_op(local_init_op)
            self._init_saver(saver)
            self._init_summary_op(summary_op)
            self._init_global_step(global_step)
        self._graph = graph
        self._is_chief = is_chief
        self._coord = Coordinator()
        self._recovery_wait_secs = recovery_wait_secs
        self._stop_grace_secs = stop_grace_secs
        self._init_fn = init_fn
        self._local_init_run_options = local_init_run_options
        self._service_threads = []

        # Only the chief writes checkpoints and events.
        self._logdir = None
        self._save_summaries_secs = None
        self._save_model_secs = None
        self._save_path = None
        self._summary_writer = None
        if self._is_chief:
            self._logdir = logdir
            self._save_summaries_secs = save_summaries_secs
            self._save_model_secs = save_model_secs
            if self._logdir:
                self._save_path = os.path.join(self._logdir, checkpoint_basename)
            if summary_writer is Supervisor.USE_DEFAULT:
                if self._logdir:
                    from ..summary.writer import FileWriter
                    self._summary_writer = FileWriter(self._logdir)
            else:
                self._summary_writer = summary_writer
            self._graph_added_to_summary = False

        if session_manager is None:
            session_manager = SessionManager(
                local_init_op=self._local_init_op, ready_op=self._ready_op,
                ready_for_local_init_op=self._ready_for_local_init_op, graph=self._graph,
                recovery_wait_secs=self._recovery_wait_secs,
                local_init_run_options=self._local_init_run_options)
        self._session_manager = session_manager
        self._verify_setup()
        graph.finalize()            # the graph may not change any more

    # -- the pieces (default: from the graph's collections, else built) ---------------------
    def _get_first_op_from_collection(self, key):
        items = get_default_graph().get_collection(key)
        if len(items) > 1:
            logger.info("Found %d %s operations. Returning the first one.", len(items), key)
        return items[0] if items else None

    def _first_or_build(self, key, build):
        """The first item of collection `key`; if there is none, build() (added to the
        collection unless it is None)."""
        item = self._get_first_op_from_collection(key)
        if item is None:
            item = build()
            if item is not None:
                get_default_graph().add_to_collection(key, item)
        return item

    def _init_ready_op(self, ready_op=USE_DEFAULT, ready_for_local_init_op=USE_DEFAULT):
        from ..ops import variables
        if ready_op is Supervisor.USE_DEFAULT:
            ready_op = self._first_or_build(GraphKeys.READY_OP,
                                            variables.report_uninitialized_variables)
        self._ready_op = ready_op
        # ready_for_local_init_op defaults to None (TF keeps it so for backward compatibility).
        if ready_for_local_init_op is Supervisor.USE_DEFAULT:
            ready_for_local_init_op = self._get_first_op_from_collection(
                GraphKeys.READY_FOR_LOCAL_INIT_OP)
        self._ready_for_local_init_op = ready_for_local_init_op

    def _init_init_op(self, init_op=USE_DEFAULT, init_feed_dict=None):
        from ..ops import variables
        if init_op is Supervisor.USE_DEFAULT:
            init_op = self._first_or_build(GraphKeys.INIT_OP,
                                           variables.global_variables_initializer)
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict

    def _init_local_init_op(self, local_init_op=USE_DEFAULT):
        from ..ops import control_flow_ops, variables
        if local_init_op is Supervisor.USE_DEFAULT:
            local_init_op = self._first_or_build(
                GraphKeys.LOCAL_INIT_OP,
                lambda: control_flow_ops.group(variables.local_variables_initializer()))
        self._local_init_op = local_init_op

    def _init_saver(self, saver=USE_DEFAULT):
        from ..ops import variables
        from .saver import Saver
        if saver is Supervisor.USE_DEFAULT:
            saver = self._first_or_build(
                GraphKeys.SAVERS, lambda: Saver() if variables.global_variables() else None)
        self._saver = saver

    def _init_summary_op(self, summary_op=USE_DEFAULT):
        from ..ops.summary_ops import merge_all
        if summary_op is Supervisor.USE_DEFAULT:
            summary_op = self._first_or_build(GraphKeys.SUMMARY_OP, merge_all)
        self._summary_op = summary_op

    def _init_global_step(self, global_step=USE_DEFAULT):
        if global_step is Supervisor.USE_DEFAULT:
            global_step = self._first_or_build(GraphKeys.GLOBAL_STEP,
                                               self._default_global_step_tensor)
        self._global_step = global_step

    def _default_global_step_tensor(self):
        """The tensor 'global_step:0' if it exists and is an integer, else None."""
        try:
            gs = get_default_graph().get_tensor_by_name("global_step:0")
        except KeyError:
            return None
        if gs.dtype.base_dtype in (dtypes.int32, dtypes.int64):
            return gs
        logger.warning("Found 'global_step' is not an int type: %s", gs.dtype)
        return None

    def _verify_setup(self):
        """With replicas (a non-chief), every variable must be placed on a device (a ps)."""
        if not self._is_chief:
            for op in self._graph.get_operations():
                if op.type in ("Variable", "VariableV2") and not op.device:
                    raise ValueError("When using replicas, all Variables must have their "
                                     f"device set: {op.name}. Create the variables inside "
                                     "`with tf.device(...)` (e.g. tf.train."
                                     "replica_device_setter) so all workers share them.")

    # -- properties ---------------------------------------------------------------------
    @property
    def is_chief(self):
        return self._is_chief

    @property
    def session_manager(self):
        return self._session_manager

    @property
    def coord(self):
        """The Coordinator of the Supervisor's threads (use it for your own threads too)."""
        return self._coord

    @property
    def init_op(self):
        return self._init_op

    @property
    def init_feed_dict(self):
        return self._init_feed_dict

    @property
    def ready_op(self):
        return self._ready_op

    @property
    def ready_for_local_init_op(self):
        return self._ready_for_local_init_op

    @property
    def summary_writer(self):
        return self._summary_writer

    @property
    def summary_op(self):
        return self._summary_op

    @property
    def save_summaries_secs(self):
        return self._save_summaries_secs

    @property
    def global_step(self):
        return self._global_step

    @property
    def saver(self):
        return self._saver

    @property
    def save_model_secs(self):
        return self._save_model_secs

    @property
    def save_path(self):
        return self._save_path

    # -- sessions --------------------------------------------------------------------
    def _write_graph(self):
        add_graph = getattr(self._summary_writer, "add_graph", None)
        if add_graph is not None and not self._graph_added_to_summary:
            add_graph(self._graph)
            self._graph_added_to_summary = True

    def start_standard_services(self, sess):
        """Starts the chief's background threads: summaries every save_summaries_secs (and
        global steps/sec), a checkpoint every save_model_secs. Returns the threads."""
        if not self._is_chief:
            raise RuntimeError("Only chief supervisor can start standard services. Because only "
                               "chief supervisors can write events.")
        if not self._logdir:
            logger.warning("Standard services need a 'logdir' passed to the SessionManager")
            return []
        if self._global_step is not None and self._summary_writer:
            _add_session_log(self._summary_writer, "START", _global_step(sess, self._global_step))
        threads = []
        if self._save_summaries_secs and self._summary_writer:
            if self._summary_op is not None:
                threads.append(_SVSummaryThread(self, sess))
            if self._global_step is not None:
                threads.append(_SVStepCounterThread(self, sess))
        if self._saver and self._save_model_secs:
            threads.append(_SVTimerCheckpointThread(self, sess))
        for t in threads:
            t.start()
        self._service_threads.extend(threads)
        return threads

    def prepare_or_wait_for_session(self, master="", config=None, wait_for_checkpoint=False,
                                    max_wait_secs=7200, start_standard_services=True):
        """A Session on `master` whose model is ready: the chief restores or initializes it
        (and starts the standard services), the others wait for the chief. Queue runners are
        started. Use the session in a `with` block to close it."""
        self._coord.clear_stop()
        reopen = getattr(self._summary_writer, "reopen", None)
        if reopen is not None:
            reopen()
        if self._is_chief:
            sess = self._session_manager.prepare_session(
                master, init_op=self.init_op, saver=self.saver, checkpoint_dir=self._logdir,
                wait_for_checkpoint=wait_for_checkpoint, max_wait_secs=max_wait_secs,
                config=config, init_feed_dict=self._init_feed_dict, init_fn=self._init_fn)
            self._write_graph()
            if start_standard_services:
                logger.info("Starting standard services.")
                self.start_standard_services(sess)
        else:
            sess = self._session_manager.wait_for_session(master, config=config,
                                                          max_wait_secs=max_wait_secs)
        if start_standard_services:
            logger.info("Starting queue runners.")
            self.start_queue_runners(sess)
        return sess

    def start_queue_runners(self, sess, queue_runners=None):
        """Starts the threads of `queue_runners` (default: the graph's QUEUE_RUNNERS) under
        the Supervisor's coordinator; returns them."""
        if queue_runners is None:
            queue_runners = self._graph.get_collection(GraphKeys.QUEUE_RUNNERS)
        threads = []
        for qr in queue_runners:
            threads.extend(qr.create_threads(sess, coord=self._coord, daemon=True, start=True))
        return threads

    def loop(self, timer_interval_secs, target, args=None, kwargs=None):
        """Starts a thread that calls `target(*args, **kwargs)` every `timer_interval_secs`
        until the Supervisor stops."""
        looper = LooperThread(self._coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def stop(self, threads=None, close_summary_writer=True, ignore_live_threads=False):
        """Stops the services and queue runners and waits for their threads (at most
        stop_grace_secs); re-raises an error a thread reported. Does not close the session."""
        self._coord.request_stop()
        try:
            self._coord.join(threads, stop_grace_period_secs=self._stop_grace_secs,
                             ignore_live_threads=ignore_live_threads)
        finally:
            self._service_threads = [t for t in self._service_threads if t.is_alive()]
            if close_summary_writer and self._summary_writer:
                _add_session_log(self._summary_writer, "STOP")
                self._summary_writer.close()
                self._graph_added_to_summary = False

    def request_stop(self, ex=None):
        """Asks every thread to stop; `ex` (an exception) is re-raised by stop()."""
        self._coord.request_stop(ex=ex)

    def should_stop(self):
        """True once a stop was requested (by you, a service, or a failing thread)."""
        return self._coord.should_stop()

    def stop_on_exception(self):
        return self._coord.stop_on_exception()

    def wait_for_stop(self):
        self._coord.wait_for_stop()

    def summary_computed(self, sess, summary, global_step=None):
        """Writes `summary` (serialized Summary bytes) to the event file, at `global_step`
        (default: the current global step)."""
        if not self._summary_writer:
            raise RuntimeError("Writing a summary requires a summary writer.")
        if global_step is None and self.global_step is not None:
            global_step = _global_step(sess, self.global_step)
        self._summary_writer.add_summary(summary, global_step)

    @contextlib.contextmanager
    def managed_session(self, master="", config=None, start_standard_services=True,
                        close_summary_writer=True):
        """`with sv.managed_session(target) as sess:` -- prepare_or_wait_for_session, then on
        exit stop() and close the session. An error in the block (or in a service thread) is
        re-raised after everything is stopped; OutOfRangeError ends the block cleanly."""
        sess = None
        try:
            sess = self.prepare_or_wait_for_session(
                master=master, config=config, start_standard_services=start_standard_services)
            yield sess
        except Exception as e:
            self.request_stop(e)
        finally:
            try:
                self.stop(close_summary_writer=close_summary_writer)
            finally:
                if sess is not None:
                    try:
                        sess.close()
                    except Exception:      # closing must not hide the real error
                        pass

    # TF's old CamelCase names.
    PrepareSession = prepare_or_wait_for_session
    StartQueueRunners = start_queue_runners
    StartStandardServices = start_standard_services
    Stop = stop
    RequestStop = request_stop
    Loop = loop
    ShouldStop = should_stop
    StopOnException = stop_on_exception
    WaitForStop = wait_for_stop
    SummaryComputed = summary_computed


def _global_step(sess, tensor):
    return int(sess.run(tensor))


class _SVThread(LooperThread):
    """A service thread that quietly ends when its session was closed under it (the `with`
    block of the session ends before sv.stop() is called)."""

    def __init__(self, sv, sess, interval):
        super().__init__(sv.coord, interval)
        self._sv = sv
        self._sess = sess

    def _session_closed(self):
        return getattr(self._sess, "_closed", False)

    def run_loop(self):
        if self._session_closed():
            return
        try:
            self.service()
        except Exception:
            if self._session_closed() or self._sv.should_stop():
                return
            raise

    def service(self):
        raise NotImplementedError


class _SVSummaryThread(_SVThread):
    """Runs the summary op every save_summaries_secs and writes it."""

    def __init__(self, sv, sess):
        super().__init__(sv, sess, sv.save_summaries_secs)

    def service(self):
        if self._sv.global_step is not None:
            summary, step = self._sess.run([self._sv.summary_op, self._sv.global_step])
            step = int(step)
        else:
            summary, step = self._sess.run(self._sv.summary_op), None
        logger.info("Recording summary at step %s.", step)
        self._sv.summary_writer.add_summary(summary, step)


class _SVStepCounterThread(_SVThread):
    """Writes global steps per second every save_summaries_secs."""

    def __init__(self, sv, sess):
        super().__init__(sv, sess, sv.save_summaries_secs)
        self._tag = f"{sv.global_step.op.name}/sec"
        self._logged = 0

    def start_loop(self):
        self._last_time = time.time()
        self._last_step = 0 if self._session_closed() else \
            _global_step(self._sess, self._sv.global_step)

    def service(self):
        step = _global_step(self._sess, self._sv.global_step)
        now = time.time()
        elapsed, added = now - self._last_time, step - self._last_step
        self._last_time, self._last_step = now, step
        steps_per_sec = added / elapsed if elapsed > 0 else float("inf")
        self._sv.summary_writer.add_summary(_scalar_summary(self._tag, steps_per_sec), step)
        if self._logged < 10:
            self._logged += 1
            logger.info("%s: %g", self._tag, steps_per_sec)


class _SVTimerCheckpointThread(_SVThread):
    """Saves a checkpoint every save_model_secs."""

    def __init__(self, sv, sess):
        super().__init__(sv, sess, sv.save_model_secs)

    def service(self):
        logger.info("Saving checkpoint to path %s", self._sv.save_path)
        step = None
        if self._sv.global_step is not None:
            step = _global_step(self._sess, self._sv.global_step)
        self._sv.saver.save(self._sess, self._sv.save_path, global_step=step)
        if self._sv.summary_writer and step is not None:
            _add_session_log(self._sv.summary_writer, "CHECKPOINT", step, self._sv.save_path)
