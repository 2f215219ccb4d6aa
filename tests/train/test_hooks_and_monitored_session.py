"""Session run hooks, Scaffold, SessionManager and (Monitored)TrainingSession: in one process
(every hook, fetch/feed merging, stop requests, checkpoints and summaries, recovery) and on a
LocalCluster (the chief initializes, a non-chief waits and logs TF's line, then both train)."""
import glob
import logging
import os
import struct
import threading
import time

import numpy as np
import pytest

import sandbox as tf
from sandbox.train import session_manager as session_manager_module
from sandbox.train.basic_session_run_hooks import (
    CheckpointSaverHook, CheckpointSaverListener, FeedFnHook, FinalOpsHook, LoggingTensorHook,
    NanLossDuringTrainingError, NanTensorHook, SecondOrStepTimer, StepCounterHook,
    StopAtStepHook, SummarySaverHook)
from sandbox.train.monitored_session import (
    ChiefSessionCreator, MonitoredSession, MonitoredTrainingSession, Scaffold, SessionCreator,
    SingularMonitoredSession, WorkerSessionCreator)
from sandbox.train.queue_runner import QueueRunner, add_queue_runner
from sandbox.train.saver import Saver
from sandbox.train.session_manager import SessionManager
from sandbox.train.session_run_hook import (
    SessionRunArgs, SessionRunContext, SessionRunHook, SessionRunValues)

LOGGER = "sandbox.train"


# -- helpers ---------------------------------------------------------------------------------

def read_events(logdir):
    """Every Event of the event files in `logdir` (TFRecord framing: length, crc, data, crc)."""
    from tensorboardX.proto import event_pb2
    events = []
    for path in sorted(glob.glob(os.path.join(logdir, "events.out.tfevents.*"))):
        with open(path, "rb") as f:
            data = f.read()
        pos = 0
        while pos + 12 <= len(data):
            (length,) = struct.unpack("<Q", data[pos:pos + 8])
            events.append(event_pb2.Event.FromString(data[pos + 12:pos + 12 + length]))
            pos += 12 + length + 4
    return events


def scalars(logdir, tag):
    """[(step, value)] of the scalar summaries tagged `tag` in `logdir`."""
    return [(e.step, v.simple_value) for e in read_events(logdir)
            for v in e.summary.value if v.tag == tag]


def linear_model():
    """global_step, w (2,), a train op that moves w towards [1, 2], the loss."""
    gs = tf.train.get_or_create_global_step()
    w = tf.Variable([0.0, 0.0], name="w")
    loss = tf.reduce_sum(tf.square(w - tf.constant([1.0, 2.0])), name="loss")
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    return gs, w, loss, train


class RecordingHook(SessionRunHook):
    """Records the calls it gets; optionally adds fetches/feeds and stops after N runs."""

    def __init__(self, fetches=None, feed_dict=None, stop_after=None):
        self.calls = []
        self.fetches = fetches
        self.feed_dict = feed_dict
        self.stop_after = stop_after
        self.results = []
        self.contexts = []

    def begin(self):
        self.calls.append("begin")

    def after_create_session(self, session, coord):
        self.calls.append("after_create_session")
        self.session = session
        self.coord = coord

    def before_run(self, run_context):
        self.calls.append("before_run")
        self.contexts.append(run_context)
        if self.fetches is None and self.feed_dict is None:
            return None
        return SessionRunArgs(self.fetches, self.feed_dict)

    def after_run(self, run_context, run_values):
        self.calls.append("after_run")
        assert isinstance(run_values, SessionRunValues)
        self.results.append(run_values.results)
        if self.stop_after is not None and len(self.results) >= self.stop_after:
            run_context.request_stop()

    def end(self, session):
        self.calls.append("end")


# -- the hook API ----------------------------------------------------------------------------

def test_session_run_args_context_and_values():
    args = SessionRunArgs("a")
    assert (args.fetches, args.feed_dict, args.options) == ("a", None, None)
    ctx = SessionRunContext(original_args=args, session="sess")
    assert ctx.original_args is args and ctx.session == "sess"
    assert not ctx.stop_requested
    ctx.request_stop()
    assert ctx.stop_requested
    values = SessionRunValues(results=1, options=None, run_metadata=None)
    assert values.results == 1
    hook = SessionRunHook()       # every method has a do-nothing default
    hook.begin()
    assert hook.before_run(ctx) is None


def test_second_or_step_timer(monkeypatch):
    with pytest.raises(ValueError, match="Either every_secs or every_steps"):
        SecondOrStepTimer()
    with pytest.raises(ValueError, match="Can not provide both"):
        SecondOrStepTimer(every_secs=1, every_steps=1)
    timer = SecondOrStepTimer(every_steps=3)
    assert timer.should_trigger_for_step(0)            # the first call always triggers
    assert timer.update_last_triggered_step(0) == (None, None)
    assert [timer.should_trigger_for_step(s) for s in range(5)] == [False, False, False, True,
                                                                    True]
    assert timer.update_last_triggered_step(3)[1] == 3
    assert timer.last_triggered_step() == 3

    now = [100.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    timer = SecondOrStepTimer(every_secs=10)
    timer.update_last_triggered_step(5)
    assert not timer.should_trigger_for_step(6)
    now[0] = 110.0
    assert timer.should_trigger_for_step(6)
    assert not timer.should_trigger_for_step(5)        # never twice for the same step
    assert timer.update_last_triggered_step(7) == (10.0, 2)


# -- MonitoredSession: hooks around run ------------------------------------------------------

def test_hooks_are_called_in_order_and_fetches_and_feeds_are_merged():
    a = tf.placeholder(tf.float32, [], name="a")
    b = tf.placeholder(tf.float32, [], name="b")
    total = tf.add(a, b, name="total")
    doubled = tf.multiply(b, 2.0, name="doubled")
    hook = RecordingHook(fetches={"d": doubled, "t": [total]}, feed_dict={b: 10.0})
    plain = RecordingHook()
    with MonitoredSession(hooks=[hook, plain]) as sess:
        assert hook.calls == ["begin", "after_create_session"]
        result = sess.run(total, feed_dict={a: 1.0})
        assert result == 11.0                        # the caller gets only its own fetches
        assert hook.results == [{"d": 20.0, "t": [11.0]}]
        assert plain.results == [None]               # a hook that asked nothing gets None
        ctx = hook.contexts[0]
        assert ctx.original_args.fetches is total
        assert ctx.original_args.feed_dict == {a: 1.0}
        assert ctx.session is hook.session           # the raw tf.Session
        assert sess.run([total, doubled], {a: 2.0}) == [12.0, 20.0]
    assert hook.calls == ["begin", "after_create_session", "before_run", "after_run",
                          "before_run", "after_run", "end"]


def test_a_tensor_fed_twice_is_an_error():
    a = tf.placeholder(tf.float32, [], name="a")
    out = a * 2.0
    with MonitoredSession(hooks=[RecordingHook(feed_dict={a: 1.0})]) as sess:
        with pytest.raises(RuntimeError, match="Same tensor is fed by a SessionRunHook and user"):
            sess.run(out, {a: 3.0})
    two = [RecordingHook(feed_dict={a: 1.0}), RecordingHook(feed_dict={a: 2.0})]
    with MonitoredSession(hooks=two) as sess:
        with pytest.raises(RuntimeError, match="Same tensor is fed by two hooks"):
            sess.run(out)


def test_request_stop_from_a_hook():
    c = tf.constant(1.0)
    hook = RecordingHook(stop_after=3)
    runs = 0
    with MonitoredSession(hooks=[hook]) as sess:
        while not sess.should_stop():
            sess.run(c)
            runs += 1
        with pytest.raises(RuntimeError, match="Run called even after should_stop requested"):
            sess.run(c)
    assert runs == 3
    assert sess.should_stop()                   # a closed session should stop
    with pytest.raises(RuntimeError, match="closed MonitoredSession"):
        sess.run(c)


def test_graph_is_finalized_while_the_session_lives_and_unfinalized_after():
    tf.Variable(1.0, name="v")
    g = tf.get_default_graph()
    with MonitoredSession() as sess:
        assert g.finalized
        assert sess.graph is g
        with pytest.raises(RuntimeError, match="Graph is finalized"):
            tf.constant(2.0)
    assert not g.finalized
    tf.constant(3.0)                            # can be modified again


def test_out_of_range_ends_the_with_block_cleanly_and_end_is_called():
    q = tf.FIFOQueue(5, tf.float32, shapes=[[]])
    enqueue = q.enqueue_many([[1.0, 2.0]])
    close = q.close()
    x = q.dequeue()
    hook = RecordingHook()
    seen = []
    with MonitoredSession(hooks=[hook]) as sess:
        raw = hook.session
        raw.run(enqueue)
        raw.run(close)
        while not sess.should_stop():
            seen.append(sess.run(x))
    assert seen == [1.0, 2.0]
    assert hook.calls[-1] == "end"


def test_other_errors_propagate_and_end_is_not_called():
    p = tf.placeholder(tf.float32, [2])
    y = p * 2.0
    hook = RecordingHook()
    with pytest.raises(tf.errors.InvalidArgumentError):
        with MonitoredSession(hooks=[hook]) as sess:
            sess.run(y)                         # placeholder not fed
    assert "end" not in hook.calls
    assert sess._is_closed()


def test_run_step_fn():
    c = tf.placeholder(tf.float32, [])
    v = c + 4.0
    w = c + 0.5
    hook = RecordingHook()

    def step_fn(step_context):
        a = step_context.session.run(v, feed_dict={c: 0.5})   # without hooks
        if a <= 4.5:
            step_context.request_stop()
        return step_context.run_with_hooks(fetches=w, feed_dict={c: 0.1})

    with MonitoredSession(hooks=[hook]) as sess:
        assert not sess.should_stop()
        sess.run_step_fn(step_fn)               # raises StopIteration: `with` absorbs it
    assert hook.calls.count("before_run") == 0

    with MonitoredSession(hooks=[hook]) as sess:
        assert sess.run_step_fn(lambda step_context: step_context.run_with_hooks(
            w, feed_dict={c: 1.0})) == pytest.approx(1.5)
        with pytest.raises(ValueError, match="step_context"):
            sess.run_step_fn(lambda ctx: None)
    assert hook.calls.count("before_run") == 1


# -- the basic hooks ---------------------------------------------------------------------

def test_stop_at_step_hook_last_step_and_num_steps(tmp_path):
    with pytest.raises(ValueError, match="One of num_steps or last_step"):
        StopAtStepHook()
    with pytest.raises(ValueError, match="Only one of"):
        StopAtStepHook(num_steps=1, last_step=2)
    gs, w, loss, train = linear_model()
    with MonitoredSession(hooks=[StopAtStepHook(last_step=7)]) as sess:
        steps = 0
        while not sess.should_stop():
            sess.run(train)
            steps += 1
    assert steps == 7
    # num_steps counts from the global step the session starts with (restored: 7)
    hook = StopAtStepHook(num_steps=3)
    saver = Saver()
    with tf.Session() as s:
        s.run(tf.global_variables_initializer())
        s.run(gs.assign(10))
        path = saver.save(s, str(tmp_path / "model.ckpt"))
    creator = ChiefSessionCreator(checkpoint_filename_with_path=path)
    with MonitoredSession(session_creator=creator, hooks=[hook]) as sess:
        steps = 0
        while not sess.should_stop():
            sess.run(train)
            steps += 1
        assert steps == 3 and sess._tf_sess().run(gs) == 13


def test_stop_at_step_hook_needs_a_global_step():
    """TF's words first, then what to do -- and doing it makes the same hook work."""
    tf.Variable(1.0)
    with pytest.raises(RuntimeError, match="^Global step should be created to use "
                                           "StopAtStepHook. ") as e:
        MonitoredSession(hooks=[StopAtStepHook(last_step=3)])
    assert "tf.train.get_or_create_global_step()" in str(e.value)
    assert "minimize(loss, global_step=global_step)" in str(e.value)
    global_step = tf.train.get_or_create_global_step()
    train = tf.train.GradientDescentOptimizer(0.1).minimize(
        tf.square(tf.Variable(2.0) - 1.0), global_step=global_step)
    with MonitoredSession(hooks=[StopAtStepHook(last_step=3)]) as sess:
        runs = 0
        while not sess.should_stop():
            sess.run(train)
            runs += 1
    assert runs == 3


def test_nan_tensor_hook():
    x = tf.placeholder(tf.float32, [])
    loss = tf.sqrt(x)
    with pytest.raises(NanLossDuringTrainingError, match="NaN loss during training"):
        with MonitoredSession(hooks=[NanTensorHook(loss)]) as sess:
            assert sess.run(loss, {x: 4.0}) == 2.0
            sess.run(loss, {x: -1.0})
    with MonitoredSession(hooks=[NanTensorHook(loss, fail_on_nan_loss=False)]) as sess:
        sess.run(loss, {x: -1.0})
        assert sess.should_stop()


def test_logging_tensor_hook(caplog):
    with pytest.raises(ValueError, match="exactly one of every_n_iter and every_n_secs"):
        LoggingTensorHook({"a": "a"})
    with pytest.raises(ValueError, match="invalid every_n_iter"):
        LoggingTensorHook(["a"], every_n_iter=0)
    counter = tf.Variable(0, name="counter")
    bump = counter.assign_add(1)
    caplog.set_level(logging.INFO, logger=LOGGER)
    hooks = [LoggingTensorHook({"count": counter}, every_n_iter=2),
             LoggingTensorHook(["counter:0"], at_end=True),
             LoggingTensorHook({"c": "counter"}, every_n_iter=3,
                               formatter=lambda v: f"formatted {v['c']}")]
    with MonitoredSession(hooks=hooks) as sess:
        for _ in range(5):
            sess.run(bump)
    messages = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    counts = [m for m in messages if m.startswith("count = ")]
    # iterations 0, 2, 4 log the value read in that run (before or after the bump)
    assert len(counts) == 3 and "sec)" in counts[1]
    assert "counter:0 = 5" in messages
    assert sum(m.startswith("formatted ") for m in messages) == 2


def test_feed_fn_hook_and_final_ops_hook():
    p = tf.placeholder(tf.float32, [])
    v = tf.Variable(0.0)
    add = v.assign_add(p)
    final = FinalOpsHook({"v": v, "twice": v * 2.0})
    values = iter([1.0, 2.0, 3.0])
    with MonitoredSession(hooks=[FeedFnHook(lambda: {p: next(values)}), final]) as sess:
        for _ in range(3):
            sess.run(add)
    assert final.final_ops_values == {"v": 6.0, "twice": 12.0}


def test_step_counter_hook_writes_steps_per_second(tmp_path):
    gs, w, loss, train = linear_model()
    hook = StepCounterHook(every_n_steps=2, output_dir=str(tmp_path))
    with pytest.raises(ValueError, match="exactly one of every_n_steps and every_n_secs"):
        StepCounterHook(every_n_steps=None)
    with MonitoredSession(hooks=[hook]) as sess:
        for _ in range(7):
            sess.run(train)
    hook._summary_writer.flush()
    values = scalars(str(tmp_path), "global_step/sec")
    assert [step for step, _ in values] == [3, 5, 7]
    assert all(v > 0 for _, v in values)


def test_summary_saver_hook_writes_summaries_at_global_steps(tmp_path):
    gs, w, loss, train = linear_model()
    tf.summary.scalar("train_loss", loss)
    with pytest.raises(ValueError, match="Exactly one of scaffold or summary_op"):
        SummarySaverHook(save_steps=1)
    hook = SummarySaverHook(save_steps=2, output_dir=str(tmp_path),
                            summary_op=tf.summary.merge_all())
    with MonitoredSession(hooks=[hook]) as sess:
        for _ in range(6):
            sess.run(train)
    values = scalars(str(tmp_path), "train_loss")
    assert [step for step, _ in values] == [1, 3, 5]
    assert values[0][1] == pytest.approx(5.0)          # the loss before the first update


class CountingListener(CheckpointSaverListener):
    def __init__(self):
        self.events = []

    def begin(self):
        self.events.append("begin")

    def before_save(self, session, global_step_value):
        self.events.append(("before", int(global_step_value)))

    def after_save(self, session, global_step_value):
        self.events.append(("after", int(global_step_value)))

    def end(self, session, global_step_value):
        self.events.append(("end", int(global_step_value)))


def test_checkpoint_saver_hook_saves_every_n_steps_and_at_end(tmp_path):
    gs, w, loss, train = linear_model()
    listener = CountingListener()
    with pytest.raises(ValueError, match="both saver and scaffold"):
        CheckpointSaverHook(str(tmp_path), save_steps=1, saver=object(), scaffold=Scaffold())
    hook = CheckpointSaverHook(str(tmp_path), save_steps=3, listeners=[listener],
                               saver=Saver(max_to_keep=10))
    with MonitoredSession(hooks=[hook]) as sess:
        for _ in range(7):
            sess.run(train)
    assert listener.events == ["begin", ("before", 0), ("after", 0), ("before", 3),
                               ("after", 3), ("before", 6), ("after", 6), ("before", 7),
                               ("after", 7), ("end", 7)]
    from sandbox.train import checkpoint_management
    assert checkpoint_management.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-7")


def test_a_listener_can_stop_training(tmp_path):
    gs, w, loss, train = linear_model()

    class StopAt4(CheckpointSaverListener):
        def after_save(self, session, global_step_value):
            return global_step_value >= 4

    hook = CheckpointSaverHook(str(tmp_path), save_steps=2, listeners=[StopAt4()])
    with MonitoredTrainingSession(hooks=[hook]) as sess:
        while not sess.should_stop():
            sess.run(train)
        assert sess._tf_sess().run(gs) == 4        # (run() refuses once a stop is requested)


# -- Scaffold ----------------------------------------------------------------------------

def test_scaffold_builds_the_default_pieces_in_the_collections():
    v = tf.Variable(1.0, name="v")
    loc = tf.Variable(2.0, name="loc", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    tf.summary.scalar("v", v)
    scaffold = Scaffold().finalize()
    g = tf.get_default_graph()
    assert g.finalized
    assert g.get_collection(tf.GraphKeys.INIT_OP) == [scaffold.init_op]
    assert g.get_collection(tf.GraphKeys.READY_OP) == [scaffold.ready_op]
    assert g.get_collection(tf.GraphKeys.LOCAL_INIT_OP) == [scaffold.local_init_op]
    assert g.get_collection(tf.GraphKeys.SUMMARY_OP) == [scaffold.summary_op]
    assert g.get_collection(tf.GraphKeys.SAVERS) == [scaffold.saver]
    g._unsafe_unfinalize()
    with tf.Session() as sess:
        assert sorted(sess.run(scaffold.ready_op).tolist()) == [b"loc", b"v"]
        assert sess.run(scaffold.ready_for_local_init_op).tolist() == [b"v"]
        sess.run(scaffold.init_op)
        assert sess.run(scaffold.ready_op).tolist() == [b"loc"]
        sess.run(scaffold.local_init_op)
        assert sess.run(scaffold.ready_op).size == 0
        assert sess.run(loc) == 2.0
    # a second Scaffold reuses the collections' pieces; copy_from_scaffold copies them
    again = Scaffold().finalize()
    assert again.init_op is scaffold.init_op and again.saver is scaffold.saver
    g._unsafe_unfinalize()
    mine = tf.no_op(name="my_init")
    copy = Scaffold(init_op=mine, copy_from_scaffold=scaffold)
    assert copy.init_op is mine and copy.ready_op is scaffold.ready_op
    with pytest.raises(TypeError, match="copy_from_scaffold is not a Scaffold"):
        Scaffold(copy_from_scaffold="no")
    g.add_to_collection(tf.GraphKeys.INIT_OP, mine)
    with pytest.raises(RuntimeError, match='More than one item in the collection "init_op"'):
        Scaffold().finalize()


def test_scaffold_init_fn_and_init_feed_dict():
    p = tf.placeholder(tf.float32, [])
    v = tf.Variable(0.0, name="v")
    init = tf.group(v.assign(p))
    calls = []
    scaffold = Scaffold(init_op=init, init_feed_dict={p: 3.5},
                        init_fn=lambda scaffold, sess: calls.append(sess.run(v)))
    with MonitoredSession(session_creator=ChiefSessionCreator(scaffold=scaffold)) as sess:
        assert sess.run(v) == 3.5
    assert calls == [3.5]


# -- MonitoredTrainingSession ------------------------------------------------------------------

def test_monitored_training_session_default_hooks(tmp_path):
    linear_model()
    mine = RecordingHook()
    chief_only = RecordingHook()
    sess = MonitoredTrainingSession(checkpoint_dir=str(tmp_path), hooks=[mine],
                                    chief_only_hooks=[chief_only])
    types = [type(h) for h in sess._hooks]
    sess.close()
    assert types == [RecordingHook, StepCounterHook, SummarySaverHook, CheckpointSaverHook,
                     RecordingHook]
    sess = MonitoredTrainingSession(hooks=[mine], save_checkpoint_secs=None,
                                    chief_only_hooks=[chief_only])
    assert [type(h) for h in sess._hooks] == [RecordingHook, RecordingHook]
    sess.close()
    sess = MonitoredTrainingSession(checkpoint_dir=str(tmp_path), save_checkpoint_secs=None,
                                    save_summaries_steps=None, log_step_count_steps=0)
    assert sess._hooks == []
    sess.close()


def test_checkpoints_are_saved_and_restored_on_restart(tmp_path):
    ckpt = str(tmp_path)

    def train(last_step):
        tf.reset_default_graph()
        gs, w, loss, train_op = linear_model()
        tf.summary.scalar("train_loss", loss)
        with MonitoredTrainingSession(checkpoint_dir=ckpt, save_checkpoint_steps=5,
                                      save_summaries_steps=2, log_step_count_steps=None,
                                      hooks=[StopAtStepHook(last_step=last_step)]) as sess:
            first = sess.run(gs)
            while not sess.should_stop():
                sess.run(train_op)
            return first, sess._tf_sess().run(gs), sess._tf_sess().run(w)

    first, last, w_first = train(12)
    assert (first, last) == (0, 12)
    from sandbox.train import checkpoint_management
    assert checkpoint_management.latest_checkpoint(ckpt).endswith("model.ckpt-12")
    first, last, w_second = train(20)           # a new program: restores step 12 and w
    assert (first, last) == (12, 20)
    expected = np.array([1.0, 2.0]) * (1 - 0.8 ** 20)
    np.testing.assert_allclose(w_second, expected, rtol=1e-5)
    # summaries every 2 steps, from each program's first run (the one that fetched `first`)
    steps = [s for s, _ in scalars(ckpt, "train_loss")]
    assert steps == [0, 2, 4, 6, 8, 10, 12] + [12, 14, 16, 18, 20]


def test_non_chief_needs_the_chief_and_says_what_it_waits_for(caplog, monkeypatch):
    """Locally nobody initializes: the worker session creator waits and then gives up with
    a DeadlineExceededError that names the uninitialized variables."""
    monkeypatch.setattr(session_manager_module, "_POLL_SECS", 0.05)
    caplog.set_level(logging.INFO, logger=LOGGER)
    tf.Variable(1.0, name="w")
    tf.Variable(2.0, name="b")
    creator = WorkerSessionCreator(max_wait_secs=0.4, recovery_wait_secs=0.1)
    start = time.monotonic()
    with pytest.raises(tf.errors.DeadlineExceededError,
                       match="Variables not initialized: w, b.*chief"):
        MonitoredSession(session_creator=creator)
    assert time.monotonic() - start < 3
    lines = [r.getMessage() for r in caplog.records
             if r.getMessage().startswith("Waiting for model to be ready")]
    assert len(lines) >= 2
    assert lines[0] == ("Waiting for model to be ready.  Ready_for_local_init_op:  "
                        "Variables not initialized: w, b, ready: None")
    assert not tf.get_default_graph().finalized


def test_session_manager_prepare_and_recover(tmp_path):
    v = tf.Variable(5.0, name="v")
    with pytest.raises(ValueError, match="you must also pass a local_init_op"):
        SessionManager(ready_for_local_init_op=tf.constant(1))
    ready = tf.report_uninitialized_variables()
    sm = SessionManager(ready_op=ready)
    with pytest.raises(RuntimeError, match="no init_op or init_fn or local_init_op"):
        sm.prepare_session("")
    with pytest.raises(RuntimeError, match="did not make model ready.*Variables not "
                                           "initialized: v"):
        sm.prepare_session("", init_op=tf.no_op())
    sess = sm.prepare_session("", init_op=tf.global_variables_initializer())
    assert sess.run(v) == 5.0
    saver = Saver()
    sess.run(v.assign(7.0))
    saver.save(sess, str(tmp_path / "model.ckpt"), global_step=1)
    sess.close()
    sess, restored = sm.recover_session("", saver=saver, checkpoint_dir=str(tmp_path))
    assert restored and sess.run(v) == 7.0
    sess.close()
    sess, restored = sm.recover_session("", saver=saver, checkpoint_dir=str(tmp_path / "none"))
    assert not restored
    sess.close()


# -- recovery --------------------------------------------------------------------------------

class FlakySession:
    """A tf.Session whose run() fails once with a preemption error when `armed`."""

    def __init__(self, sess, plan):
        self._sess = sess
        self._plan = plan

    def __getattr__(self, name):
        return getattr(self._sess, name)

    def run(self, *args, **kwargs):
        if self._plan and self._plan[0] == "fail-run":
            self._plan.pop(0)
            raise tf.errors.UnavailableError(None, None, "Connection to /job:ps/task:0 lost")
        return self._sess.run(*args, **kwargs)

    def close(self):
        self._sess.close()


class FlakyCreator(SessionCreator):
    def __init__(self, inner, plan):
        self.inner = inner
        self.plan = plan
        self.created = 0

    def create_session(self):
        if self.plan and self.plan[0] == "fail-create":
            self.plan.pop(0)
            raise tf.errors.AbortedError(None, None, "the ps restarted")
        self.created += 1
        return FlakySession(self.inner.create_session(), self.plan)


def test_preemption_recreates_the_session_and_the_chief_restores_the_checkpoint(tmp_path, caplog):
    caplog.set_level(logging.INFO, logger=LOGGER)
    gs, w, loss, train = linear_model()
    plan = []
    creator = FlakyCreator(ChiefSessionCreator(checkpoint_dir=str(tmp_path)), plan)
    saver_hook = CheckpointSaverHook(str(tmp_path), save_steps=4)
    hook = RecordingHook()
    sess = MonitoredSession(session_creator=creator, hooks=[saver_hook, hook])
    for _ in range(6):
        sess.run(train)                               # checkpoints at steps 0 and 4
    assert sess.run(gs) == 6
    plan[:] = ["fail-run", "fail-create"]
    value = sess.run(gs)                              # fails, session re-created, re-run
    assert value == 4                                 # restored from model.ckpt-4
    assert creator.created == 2
    assert hook.calls.count("after_create_session") == 2
    assert not sess.should_stop()
    sess.run(train)
    assert sess.run(gs) == 5
    sess.close()
    messages = " ".join(r.getMessage() for r in caplog.records)
    assert "Connection to /job:ps/task:0 lost" in messages and "the ps restarted" in messages


def test_singular_monitored_session_does_not_recover():
    gs, w, loss, train = linear_model()
    sess = SingularMonitoredSession()
    assert isinstance(sess.raw_session(), tf.Session)
    assert sess.raw_session().run(gs) == 0
    sess.raw_session().close()
    with pytest.raises(RuntimeError, match="closed Session"):
        sess.run(train)
    sess.close()


def test_queue_runners_are_started_and_stopped():
    q = tf.FIFOQueue(10, tf.float32, shapes=[[]])
    counter = tf.Variable(0.0)
    enqueue = q.enqueue(counter.assign_add(1.0))
    add_queue_runner(QueueRunner(q, [enqueue]))
    x = q.dequeue()
    before = set(threading.enumerate())
    with MonitoredSession() as sess:
        got = [sess.run(x) for _ in range(5)]
    assert got == [1.0, 2.0, 3.0, 4.0, 5.0]
    deadline = time.monotonic() + 5
    while set(threading.enumerate()) - before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not set(threading.enumerate()) - before


# -- on a cluster ------------------------------------------------------------------------

@pytest.fixture(scope="module")
def cluster():
    from sandbox.cluster import LocalCluster
    with LocalCluster({"ps": 1, "worker": 2}) as c:
        yield c


def _build_replica(cluster, task_index):
    """Seed-style between-graph replica: variables on the ps, ops on this worker."""
    from sandbox.train.device_setter import replica_device_setter
    g = tf.Graph()
    with g.as_default():
        with tf.device(replica_device_setter(
                worker_device=f"/job:worker/task:{task_index}", cluster=cluster.cluster_spec)):
            gs = tf.train.get_or_create_global_step()
            w = tf.Variable(tf.zeros([3]), name="w")
            b = tf.Variable(0.0, name="b")
            x = tf.placeholder(tf.float32, [None, 3], name="x")
            loss = tf.reduce_mean(tf.square(tf.reduce_sum(x * w, 1) + b - 1.0))
            train = tf.train.GradientDescentOptimizer(0.05).minimize(loss, global_step=gs)
    return g, gs, train, loss, x


def test_chief_initializes_non_chief_waits_then_both_train(cluster, caplog, tmp_path):
    caplog.set_level(logging.INFO, logger=LOGGER)
    results, errors_seen = {}, []
    chief_may_start = threading.Event()
    batch = np.ones((4, 3), np.float32)

    def run(task_index):
        try:
            g, gs, train, loss, x = _build_replica(cluster, task_index)
            with g.as_default():
                is_chief = task_index == 0
                if is_chief:
                    chief_may_start.wait(10)
                with MonitoredTrainingSession(
                        master=cluster.target("worker", task_index), is_chief=is_chief,
                        checkpoint_dir=str(tmp_path) if is_chief else None,
                        hooks=[StopAtStepHook(last_step=40)], max_wait_secs=30) as sess:
                    mine = 0
                    while not sess.should_stop():
                        sess.run(train, {x: batch})
                        mine += 1
                    results[task_index] = (mine, int(sess._tf_sess().run(gs)))
        except Exception as e:          # reported below
            errors_seen.append(e)

    threads = [threading.Thread(target=run, args=(i,)) for i in (1, 0)]
    for t in threads:
        t.start()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not any(
            "Waiting for model to be ready" in r.getMessage() for r in caplog.records):
        time.sleep(0.05)
    chief_may_start.set()
    for t in threads:
        t.join(60)
    assert not errors_seen, errors_seen
    waiting = [r.getMessage() for r in caplog.records
               if r.getMessage().startswith("Waiting for model to be ready")]
    assert waiting and "Variables not initialized: global_step, w, b" in waiting[0]
    (mine0, end0), (mine1, end1) = results[0], results[1]
    assert mine0 > 0 and mine1 > 0
    assert min(end0, end1) >= 40
    assert mine0 + mine1 >= 40                  # every step was taken by one of the two
    from sandbox.train import checkpoint_management
    assert checkpoint_management.latest_checkpoint(str(tmp_path)) is not None


def test_ps_killed_and_restarted_training_resumes_from_the_last_checkpoint(tmp_path, caplog):
    """The chief's MonitoredTrainingSession sees UnavailableError when the ps dies, creates a
    new session once the ps is back, restores the last checkpoint and trains on."""
    from sandbox.cluster import LocalCluster
    from sandbox.train.device_setter import replica_device_setter
    caplog.set_level(logging.INFO, logger=LOGGER)
    done, failures, steps = threading.Event(), [], []
    with LocalCluster({"ps": 1, "worker": 1}) as c:
        with tf.device(replica_device_setter(worker_device="/job:worker/task:0",
                                             cluster=c.cluster_spec)):
            gs, w, loss, train = linear_model()

        def run():
            try:
                with MonitoredTrainingSession(
                        master=c.target("worker", 0), checkpoint_dir=str(tmp_path),
                        save_checkpoint_steps=5, save_summaries_steps=None,
                        log_step_count_steps=None,
                        hooks=[StopAtStepHook(last_step=20)]) as sess:
                    while not sess.should_stop():
                        _, step = sess.run([train, gs])
                        steps.append(int(step))
                        if len(steps) == 12:
                            c.kill("ps", 0)
                            c.restart("ps", 0)
            except Exception as e:
                failures.append(e)
            finally:
                done.set()

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        finished = done.wait(15)
    assert finished, "training hung after the ps restart"
    assert not failures, failures
    # sess.run([train, gs]) returns the step from before the run's update, as on TensorFlow
    # (global_step lives on the ps: tests/runtime/test_ref_fetch_order.py)
    assert steps[:12] == list(range(0, 12))
    assert steps[12] == 10                # restored model.ckpt-10, the next step starts there
    assert steps[-1] == 19                # the run that took the global step to last_step=20
    assert "Restored model from" in caplog.text
