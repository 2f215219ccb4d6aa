"""Monitored sessions -- mirrors TensorFlow's monitored_session
(python/training/monitored_session.py).

`MonitoredTrainingSession` is how TF-1 programs train, alone or on a cluster:

    with tf.train.MonitoredTrainingSession(master=server.target, is_chief=(task_index == 0),
                                           checkpoint_dir="/tmp/train_logs",
                                           hooks=[tf.train.StopAtStepHook(last_step=1000)]) as sess:
        while not sess.should_stop():
            sess.run(train_op)

What it does, in order:

  1. calls every hook's begin() (hooks may still add ops), then `Scaffold.finalize()`: builds
     the init op, the ready op (tf.report_uninitialized_variables), the local init op, the
     summary op and the Saver, and makes the graph read-only;
  2. creates the tf.Session with a *session creator*: the chief's (ChiefSessionCreator)
     restores the latest checkpoint of checkpoint_dir or runs the init op; the others'
     (WorkerSessionCreator) wait until the chief has made the model ready (session_manager.py);
  3. starts the graph's queue runners and calls every hook's after_create_session();
  4. each run() asks every hook's before_run() for extra fetches and feeds, runs everything in
     one Session.run, hands each hook its own results in after_run(), and returns yours;
  5. close() (or the end of the `with` block) calls every hook's end(), stops the queue
     runners and closes the session.

Sessions are wrapped in layers, each with one job (as in TF):

    _RecoverableSession   if a step fails with AbortedError/UnavailableError (a ps restarted,
                          a connection dropped), closes the session and creates a new one --
                          the chief restores the last checkpoint -- and runs the step again
    _CoordinatedSession   stops the queue-runner threads with the Coordinator
    _HookedSession        calls the hooks around every run
    tf.Session
"""
import sys
import time

from ..client.config import RunMetadata
from ..framework import errors
from ..framework.graph import GraphKeys, get_default_graph
from . import basic_session_run_hooks
from .session_manager import SessionManager, logger
from .session_run_hook import SessionRunArgs, SessionRunContext, SessionRunValues

__all__ = ["Scaffold", "MonitoredTrainingSession", "SessionCreator", "ChiefSessionCreator",
           "WorkerSessionCreator", "MonitoredSession", "SingularMonitoredSession"]

# The errors a monitored session recovers from by creating a new session.
_PREEMPTION_ERRORS = (errors.AbortedError, errors.UnavailableError)

USE_DEFAULT = object()      # "no value given" for MonitoredTrainingSession's arguments
_RETRY_SECS = 0.2           # pause before creating a session again after a preemption error


class Scaffold:
    """The pieces a training session needs, taken from the graph's collections or built:

    init_op                  initializes the global variables      (GraphKeys.INIT_OP)
    ready_op                 names the uninitialized variables     (GraphKeys.READY_OP)
    ready_for_local_init_op  names the uninitialized global ones   (READY_FOR_LOCAL_INIT_OP)
    local_init_op            initializes the local variables       (GraphKeys.LOCAL_INIT_OP)
    summary_op               tf.summary.merge_all()                (GraphKeys.SUMMARY_OP)
    saver                    a tf.train.Saver of all variables     (GraphKeys.SAVERS)

    Pieces passed to the constructor are used as given; the others are created by
    finalize(), which also makes the graph read-only. `init_fn(scaffold, session)` runs after
    the init op."""

    def __init__(self, init_op=None, init_feed_dict=None, init_fn=None, ready_op=None,
                 ready_for_local_init_op=None, local_init_op=None, summary_op=None, saver=None,
                 copy_from_scaffold=None):
        if copy_from_scaffold is not None:
            if not isinstance(copy_from_scaffold, Scaffold):
                raise TypeError("copy_from_scaffold is not a Scaffold instance.")

            def coalesce(a, b):
                return a if a is not None else b
            init_op = coalesce(init_op, copy_from_scaffold.init_op)
            init_feed_dict = coalesce(init_feed_dict, copy_from_scaffold.init_feed_dict)
            init_fn = coalesce(init_fn, copy_from_scaffold._user_init_fn)
            ready_op = coalesce(ready_op, copy_from_scaffold.ready_op)
            ready_for_local_init_op = coalesce(ready_for_local_init_op,
                                               copy_from_scaffold.ready_for_local_init_op)
            local_init_op = coalesce(local_init_op, copy_from_scaffold.local_init_op)
            summary_op = coalesce(summary_op, copy_from_scaffold.summary_op)
            saver = coalesce(saver, copy_from_scaffold.saver)
        self._user_init_fn = init_fn
        self._init_fn = (lambda sess: init_fn(self, sess)) if init_fn else None
        self._init_op = init_op
        self._init_feed_dict = init_feed_dict
        self._ready_op = ready_op
        self._ready_for_local_init_op = ready_for_local_init_op
        self._local_init_op = local_init_op
        self._summary_op = summary_op
        self._saver = saver

    def finalize(self):
        """Creates the missing pieces (see the class docstring) and finalizes the graph."""
        from ..ops import control_flow_ops, variables
        from ..ops.summary_ops import merge_all
        graph = get_default_graph()
        if self._init_op is None:
            self._init_op = Scaffold.get_or_default(
                "init_op", GraphKeys.INIT_OP,
                lambda: control_flow_ops.group(variables.global_variables_initializer()))
        if self._ready_op is None:
            self._ready_op = Scaffold.get_or_default(
                "ready_op", GraphKeys.READY_OP, variables.report_uninitialized_variables)
        if self._ready_for_local_init_op is None:
            self._ready_for_local_init_op = Scaffold.get_or_default(
                "ready_for_local_init_op", GraphKeys.READY_FOR_LOCAL_INIT_OP,
                lambda: variables.report_uninitialized_variables(variables.global_variables()))
        if self._local_init_op is None:
            self._local_init_op = Scaffold.get_or_default(
                "local_init_op", GraphKeys.LOCAL_INIT_OP, Scaffold.default_local_init_op)
        if self._summary_op is None:
            self._summary_op = Scaffold.get_or_default("summary_op", GraphKeys.SUMMARY_OP,
                                                       merge_all)
        if self._saver is None:
            from .saver import _get_saver_or_default     # the graph's Saver, or a new one
            self._saver = _get_saver_or_default()
        build = getattr(self._saver, "build", None)
        if build is not None:
            build()
        graph.finalize()
        logger.info("Graph was finalized.")
        return self

    @property
    def init_fn(self):
        return self._init_fn

    @property
    def init_op(self):
        return self._init_op

    @property
    def ready_op(self):
        return self._ready_op

    @property
    def ready_for_local_init_op(self):
        return self._ready_for_local_init_op

    @property
    def local_init_op(self):
        return self._local_init_op

    @property
    def summary_op(self):
        return self._summary_op

    @property
    def saver(self):
        return self._saver

    @property
    def init_feed_dict(self):
        return self._init_feed_dict

    @staticmethod
    def get_or_default(arg_name, collection_key, default_constructor):
        """The one item of collection `collection_key`, or a new one (added to it)."""
        elements = get_default_graph().get_collection(collection_key)
        if elements:
            if len(elements) > 1:
                raise RuntimeError(f'More than one item in the collection "{collection_key}". '
                                   "Please indicate which one to use by passing it to the "
                                   f"tf.train.Scaffold constructor as: "
                                   f"tf.train.Scaffold({arg_name}=item to use)")
            return elements[0]
        op = default_constructor()
        if op is not None:
            get_default_graph().add_to_collection(collection_key, op)
        return op

    @staticmethod
    def default_local_init_op():
        """Groups the initializers of the local variables."""
        from ..ops import control_flow_ops, variables
        return control_flow_ops.group(variables.local_variables_initializer())


# -- session creators ------------------------------------------------------------------

class SessionCreator:
    """A factory of tf.Sessions: create_session()."""

    def create_session(self):
        raise NotImplementedError(f"create_session is not implemented for {self}.")


class ChiefSessionCreator(SessionCreator):
    """Creates the chief's session: restores the latest checkpoint of `checkpoint_dir` (or
    `checkpoint_filename_with_path`) if there is one, else runs the scaffold's init op."""

    def __init__(self, scaffold=None, master="", config=None, checkpoint_dir=None,
                 checkpoint_filename_with_path=None):
        self._checkpoint_dir = checkpoint_dir
        self._checkpoint_filename_with_path = checkpoint_filename_with_path
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._scaffold.local_init_op, ready_op=self._scaffold.ready_op,
                ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                graph=get_default_graph())
        return self._session_manager

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().prepare_session(
            self._master, saver=self._scaffold.saver, checkpoint_dir=self._checkpoint_dir,
            checkpoint_filename_with_path=self._checkpoint_filename_with_path,
            config=self._config, init_op=self._scaffold.init_op,
            init_feed_dict=self._scaffold.init_feed_dict, init_fn=self._scaffold.init_fn)


class WorkerSessionCreator(SessionCreator):
    """Creates a non-chief worker's session: waits (at most `max_wait_secs`) until the chief
    has initialized or restored the model, logging what it waits for."""

    def __init__(self, scaffold=None, master="", config=None, max_wait_secs=30 * 60,
                 recovery_wait_secs=30):
        self._scaffold = scaffold or Scaffold()
        self._session_manager = None
        self._master = master
        self._config = config
        self._max_wait_secs = max_wait_secs
        self._recovery_wait_secs = recovery_wait_secs

    def _get_session_manager(self):
        if self._session_manager is None:
            self._session_manager = SessionManager(
                local_init_op=self._scaffold.local_init_op, ready_op=self._scaffold.ready_op,
                ready_for_local_init_op=self._scaffold.ready_for_local_init_op,
                graph=get_default_graph(), recovery_wait_secs=self._recovery_wait_secs)
        return self._session_manager

    def create_session(self):
        self._scaffold.finalize()
        return self._get_session_manager().wait_for_session(
            self._master, config=self._config, max_wait_secs=self._max_wait_secs)


# -- MonitoredTrainingSession ----------------------------------------------------------------

def MonitoredTrainingSession(master="", is_chief=True, checkpoint_dir=None,  # noqa: N802 (TF)
                             scaffold=None, hooks=None, chief_only_hooks=None,
                             save_checkpoint_secs=USE_DEFAULT, save_summaries_steps=USE_DEFAULT,
                             save_summaries_secs=USE_DEFAULT, config=None,
                             stop_grace_period_secs=120, log_step_count_steps=100,
                             max_wait_secs=7200, save_checkpoint_steps=USE_DEFAULT,
                             summary_dir=None):
    """A MonitoredSession for training.

    The chief (is_chief=True) initializes the model or restores the latest checkpoint of
    `checkpoint_dir`, and gets the default hooks: StepCounterHook (every
    `log_step_count_steps`) and SummarySaverHook (every `save_summaries_steps` = 100 steps, or
    `save_summaries_secs`) writing to `summary_dir` (default: checkpoint_dir), and a
    CheckpointSaverHook (every `save_checkpoint_secs` = 600 s, or `save_checkpoint_steps`) when
    there is a checkpoint_dir. Other workers wait (at most `max_wait_secs`) for the chief and
    run only `hooks`; `chief_only_hooks` run only on the chief."""
    if save_summaries_steps is USE_DEFAULT and save_summaries_secs is USE_DEFAULT:
        save_summaries_steps, save_summaries_secs = 100, None
    elif save_summaries_secs is USE_DEFAULT:
        save_summaries_secs = None
    elif save_summaries_steps is USE_DEFAULT:
        save_summaries_steps = None
    if save_checkpoint_steps is USE_DEFAULT and save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_steps, save_checkpoint_secs = None, 600
    elif save_checkpoint_secs is USE_DEFAULT:
        save_checkpoint_secs = None
    elif save_checkpoint_steps is USE_DEFAULT:
        save_checkpoint_steps = None

    scaffold = scaffold or Scaffold()
    if not is_chief:
        session_creator = WorkerSessionCreator(scaffold=scaffold, master=master, config=config,
                                               max_wait_secs=max_wait_secs)
        return MonitoredSession(session_creator=session_creator, hooks=hooks or [],
                                stop_grace_period_secs=stop_grace_period_secs)

    all_hooks = list(chief_only_hooks or [])
    session_creator = ChiefSessionCreator(scaffold=scaffold, checkpoint_dir=checkpoint_dir,
                                          master=master, config=config)
    summary_dir = summary_dir or checkpoint_dir
    if summary_dir:
        if log_step_count_steps and log_step_count_steps > 0:
            all_hooks.append(basic_session_run_hooks.StepCounterHook(
                output_dir=summary_dir, every_n_steps=log_step_count_steps))
        if (save_summaries_steps and save_summaries_steps > 0) or \
                (save_summaries_secs and save_summaries_secs > 0):
            all_hooks.append(basic_session_run_hooks.SummarySaverHook(
                scaffold=scaffold, save_steps=save_summaries_steps,
                save_secs=save_summaries_secs, output_dir=summary_dir))
    if checkpoint_dir:
        if (save_checkpoint_secs and save_checkpoint_secs > 0) or \
                (save_checkpoint_steps and save_checkpoint_steps > 0):
            all_hooks.append(basic_session_run_hooks.CheckpointSaverHook(
                checkpoint_dir, save_steps=save_checkpoint_steps,
                save_secs=save_checkpoint_secs, scaffold=scaffold))
    all_hooks.extend(hooks or [])
    return MonitoredSession(session_creator=session_creator, hooks=all_hooks,
                            stop_grace_period_secs=stop_grace_period_secs)


# -- the monitored session ---------------------------------------------------------------

class _MonitoredSession:
    """See MonitoredSession and SingularMonitoredSession."""

    def __init__(self, session_creator, hooks, should_recover, stop_grace_period_secs=120):
        self._graph = get_default_graph()
        self._graph_was_finalized = self._graph.finalized
        self._hooks = list(hooks or [])
        for h in self._hooks:
            h.begin()
        self._coordinated_creator = self._CoordinatedSessionCreator(
            session_creator=session_creator or ChiefSessionCreator(), hooks=self._hooks,
            stop_grace_period_secs=stop_grace_period_secs)
        try:
            if should_recover:
                self._sess = _RecoverableSession(self._coordinated_creator)
            else:
                self._sess = self._coordinated_creator.create_session()
        except BaseException:
            if not self._graph_was_finalized:
                self._graph._unsafe_unfinalize()
            raise

    @property
    def graph(self):
        """The graph that was launched in this session."""
        tf_sess = self._tf_sess()
        return None if tf_sess is None else tf_sess.graph

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """Runs `fetches` like tf.Session.run, with the hooks' fetches and feeds merged in."""
        if self._sess is None:
            raise RuntimeError("Attempted to use a closed MonitoredSession.")
        return self._sess.run(fetches, feed_dict=feed_dict, options=options,
                              run_metadata=run_metadata)

    def run_step_fn(self, step_fn):
        """Calls `step_fn(step_context)`; step_context.session is the raw session,
        step_context.run_with_hooks(...) runs with the hooks, and step_context.request_stop()
        ends the loop."""
        import inspect
        params = tuple(inspect.signature(step_fn).parameters)
        if params not in (("step_context",), ("self", "step_context")):
            raise ValueError("`step_fn` may either have one `step_context` argument, or `self` "
                             "and `step_context` arguments if it's an instance method. Got "
                             f"{params} instead.")
        return self._sess.run_step_fn(step_fn, self._tf_sess(), run_with_hooks=None)

    class StepContext:
        """What run_step_fn hands to `step_fn`: the raw session, run_with_hooks, request_stop."""

        def __init__(self, session, run_with_hooks_fn):
            self._session = session
            self._run_with_hooks_fn = run_with_hooks_fn

        @property
        def session(self):
            return self._session

        def run_with_hooks(self, *args, **kwargs):
            return self._run_with_hooks_fn(*args, **kwargs)

        def request_stop(self):
            raise StopIteration("step_fn has requested the iterations to stop.")

    def should_stop(self):
        """True once a hook requested a stop, the coordinator stopped, or the session closed."""
        return self._sess is None or self._sess.should_stop()

    def close(self):
        """Calls the hooks' end(), stops the queue runners and closes the session."""
        self._close_internal()

    def __enter__(self):
        return self

    def __exit__(self, exception_type, exception_value, traceback):
        # Running out of input (OutOfRangeError) or a step_fn's request_stop ends the loop
        # normally; other exceptions propagate after the session is closed.
        if exception_type in (errors.OutOfRangeError, StopIteration):
            exception_type = None
        self._close_internal(exception_type)
        return exception_type is None

    class _CoordinatedSessionCreator(SessionCreator):
        """Creates the session, starts the queue runners, calls after_create_session."""

        def __init__(self, session_creator, hooks, stop_grace_period_secs):
            self._session_creator = session_creator
            self._hooks = hooks
            self.coord = None
            self.tf_sess = None
            self._stop_grace_period_secs = stop_grace_period_secs

        def create_session(self):
            from .coordinator import Coordinator
            self.tf_sess = self._session_creator.create_session()
            # The coordinator must not swallow any exception (not even OutOfRangeError).
            self.coord = Coordinator(clean_stop_exception_types=[])
            if get_default_graph().get_collection(GraphKeys.QUEUE_RUNNERS):
                from .queue_runner import start_queue_runners
                start_queue_runners(sess=self.tf_sess, coord=self.coord)
            for hook in self._hooks:
                hook.after_create_session(self.tf_sess, self.coord)
            return _CoordinatedSession(_HookedSession(self.tf_sess, self._hooks), self.coord,
                                       self._stop_grace_period_secs)

    def _close_internal(self, exception_type=None):
        try:
            if not exception_type:
                for h in self._hooks:
                    h.end(self._coordinated_creator.tf_sess)
        finally:
            try:
                if self._sess is None:
                    raise RuntimeError("Session is already closed.")
                self._sess.close()
            finally:
                self._sess = None
                self._coordinated_creator.tf_sess = None
                self._coordinated_creator.coord = None
                if not self._graph_was_finalized:
                    self._graph._unsafe_unfinalize()

    def _is_closed(self):
        return self._coordinated_creator.tf_sess is None

    def _tf_sess(self):
        return self._coordinated_creator.tf_sess


class MonitoredSession(_MonitoredSession):
    """A session that initializes or waits (via `session_creator`, default
    ChiefSessionCreator()), runs `hooks` around every run(), and recovers from
    AbortedError/UnavailableError by creating a new session. See the module docstring."""

    def __init__(self, session_creator=None, hooks=None, stop_grace_period_secs=120):
        super().__init__(session_creator, hooks, should_recover=True,
                         stop_grace_period_secs=stop_grace_period_secs)


class SingularMonitoredSession(_MonitoredSession):
    """A MonitoredSession for one process: always the chief, no recovery, and the raw
    tf.Session is available (raw_session()) to run without hooks or to save."""

    def __init__(self, hooks=None, scaffold=None, master="", config=None, checkpoint_dir=None,
                 stop_grace_period_secs=120, checkpoint_filename_with_path=None):
        session_creator = ChiefSessionCreator(
            scaffold=scaffold, master=master, config=config, checkpoint_dir=checkpoint_dir,
            checkpoint_filename_with_path=checkpoint_filename_with_path)
        super().__init__(session_creator, hooks, should_recover=False,
                         stop_grace_period_secs=stop_grace_period_secs)

    def raw_session(self):
        """The underlying tf.Session."""
        return self._tf_sess()


# -- the session wrappers --------------------------------------------------------------------

class _WrappedSession:
    """A wrapper around a tf.Session (or another wrapper) that can say should_stop() and whose
    close() never raises a preemption error."""

    def __init__(self, sess):
        self._sess = sess
        self._wrapped_is_stoppable = isinstance(self._sess, _WrappedSession)

    @property
    def graph(self):
        return self._sess.graph

    @property
    def sess_str(self):
        return self._sess.sess_str

    def should_stop(self):
        if self._check_stop():
            return True
        if self._sess:
            return self._wrapped_is_stoppable and self._sess.should_stop()
        return True

    def _check_stop(self):
        return False

    def close(self):
        if self._sess:
            try:
                self._sess.close()
            except _PREEMPTION_ERRORS as e:
                logger.warning("An error occurred when attempting to close the session. This "
                               "may be due to a preemption in a connected worker or parameter "
                               "server. Error: %s", e)
            finally:
                self._sess = None

    def run(self, *args, **kwargs):
        return self._sess.run(*args, **kwargs)

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        run_with_hooks = run_with_hooks or self.run
        return step_fn(_MonitoredSession.StepContext(raw_session, run_with_hooks))


_RECOVERY_TEXT = ("This may be due to a preemption in a connected worker or parameter server "
                  "(a task that died or restarted). The current session will be closed and a "
                  "new session will be created%s. Error: %s")


class _RecoverableSession(_WrappedSession):
    """Re-creates the session (with the session creator) whenever a run fails with
    AbortedError or UnavailableError, and runs the step again."""

    def __init__(self, sess_creator):
        self._sess_creator = sess_creator
        super().__init__(self._create_session())

    def _create_session(self):
        while True:
            try:
                return self._sess_creator.create_session()
            except _PREEMPTION_ERRORS as e:
                logger.info("An error was raised while a session was being created. " +
                            _RECOVERY_TEXT, "", e)
                time.sleep(_RETRY_SECS)       # a task coming back needs a moment

    def _check_stop(self):
        try:
            if self._sess:
                return self._sess._check_stop()
            return True
        except _PREEMPTION_ERRORS as e:
            logger.info("An error was raised while considering whether the session is "
                        "complete. " + _RECOVERY_TEXT, "", e)
            self.close()
            self._sess = self._create_session()
            return False          # a new session: the computation goes on
        except Exception:
            return True           # should_stop() says True rather than raising

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run(fetches, feed_dict=feed_dict, options=options,
                                      run_metadata=run_metadata)
            except _PREEMPTION_ERRORS as e:
                logger.info("An error was raised. " + _RECOVERY_TEXT,
                            " (the chief restores the last checkpoint)", e)
                self.close()
                self._sess = None

    def run_step_fn(self, step_fn, raw_session, run_with_hooks):
        while True:
            try:
                if not self._sess:
                    self._sess = self._create_session()
                return self._sess.run_step_fn(step_fn, raw_session, self._sess.run)
            except _PREEMPTION_ERRORS as e:
                logger.info("An error was raised. " + _RECOVERY_TEXT, "", e)
                self.close()
                self._sess = None


class _CoordinatedSession(_WrappedSession):
    """Works with the Coordinator of the queue-runner threads: should_stop() when it stops,
    an error of a thread is raised from run(), close() stops and joins the threads."""

    def __init__(self, sess, coord, stop_grace_period_secs=120):
        super().__init__(sess)
        self._coord = coord
        self._stop_grace_period_secs = stop_grace_period_secs

    def _check_stop(self):
        # An error reported to the coordinator by a thread is raised here.
        self._coord.raise_requested_exception()
        return self._coord.should_stop()

    def close(self):
        self._coord.request_stop()
        try:
            self._coord.join(stop_grace_period_secs=self._stop_grace_period_secs,
                             ignore_live_threads=True)
        finally:
            try:
                _WrappedSession.close(self)
            except Exception:        # join() already reported what matters
                pass

    def run(self, *args, **kwargs):
        try:
            return self._sess.run(*args, **kwargs)
        except _PREEMPTION_ERRORS:
            raise
        except Exception:
            # The root cause may be a preemption error seen by a queue-runner thread: then
            # raise that one (so the session is recovered); else the original error.
            original = sys.exc_info()[1]
            try:
                self._coord.raise_requested_exception()
            except _PREEMPTION_ERRORS:
                raise
            except Exception:
                pass
            raise original


class _HookedSession(_WrappedSession):
    """Calls the hooks around each run(): merges their fetches and feeds into one
    Session.run, gives each hook its results, and stops when a hook requests it."""

    def __init__(self, sess, hooks):
        super().__init__(sess)
        self._hooks = hooks
        self._should_stop = False

    def _check_stop(self):
        return self._should_stop

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        if self.should_stop():
            raise RuntimeError("Run called even after should_stop requested.")
        actual_fetches = {"caller": fetches}
        run_context = SessionRunContext(original_args=SessionRunArgs(fetches, feed_dict),
                                        session=self._sess)
        feed_dict, options = self._call_hook_before_run(run_context, actual_fetches, feed_dict,
                                                        options)
        run_metadata = run_metadata or RunMetadata()    # as TF: a hook may ask for a trace
        outputs = _WrappedSession.run(self, fetches=actual_fetches, feed_dict=feed_dict,
                                      options=options, run_metadata=run_metadata)
        for hook in self._hooks:
            hook.after_run(run_context, SessionRunValues(results=outputs.get(hook),
                                                         options=options,
                                                         run_metadata=run_metadata))
        self._should_stop = self._should_stop or run_context.stop_requested
        return outputs["caller"]

    def _call_hook_before_run(self, run_context, fetch_dict, user_feed_dict, options):
        """Collects the hooks' requests: fetches go into `fetch_dict` under the hook, feeds
        are merged (a tensor fed twice is an error), run options are merged."""
        hook_feeds = {}
        for hook in self._hooks:
            request = hook.before_run(run_context)
            if request is None:
                continue
            if request.fetches is not None:
                fetch_dict[hook] = request.fetches
            if request.feed_dict:
                self._raise_if_feeds_intersects(hook_feeds, request.feed_dict,
                                                "Same tensor is fed by two hooks.")
                hook_feeds.update(request.feed_dict)
            if request.options:
                options = _merge_run_options(options, request.options)
        if not hook_feeds:
            return user_feed_dict, options
        if not user_feed_dict:
            return hook_feeds, options
        self._raise_if_feeds_intersects(user_feed_dict, hook_feeds,
                                        "Same tensor is fed by a SessionRunHook and user.")
        hook_feeds.update(user_feed_dict)
        return hook_feeds, options

    @staticmethod
    def _raise_if_feeds_intersects(feeds1, feeds2, message):
        intersection = set(feeds1.keys()) & set(feeds2.keys())
        if intersection:
            raise RuntimeError(f"{message} Conflict(s): {list(intersection)}")


def _merge_run_options(options, incoming):
    """A RunOptions with the larger of each number and the OR of each flag of the two."""
    from ..client.config import RunOptions
    merged = RunOptions()
    if options is not None:
        merged.CopyFrom(options)
    merged.trace_level = max(merged.trace_level, incoming.trace_level)
    merged.timeout_in_ms = max(merged.timeout_in_ms, incoming.timeout_in_ms)
    merged.inter_op_thread_pool = max(merged.inter_op_thread_pool, incoming.inter_op_thread_pool)
    merged.output_partition_graphs = (merged.output_partition_graphs or
                                      incoming.output_partition_graphs)
    merged.report_tensor_allocations_upon_oom = (merged.report_tensor_allocations_upon_oom or
                                                 incoming.report_tensor_allocations_upon_oom)
    return merged

