"""ProfilerHook -- mirrors the ProfilerHook of TF 1.15's
python/training/basic_session_run_hooks.py.

    hook = tf.train.ProfilerHook(save_steps=100, output_dir="/tmp/profile")
    with tf.train.MonitoredTrainingSession(hooks=[hook]) as sess:
        while not sess.should_stop():
            sess.run(train_op)            # every 100 steps: /tmp/profile/timeline-<step>.json

Every N steps (or seconds) the hook asks for a full trace of the step
(RunOptions(trace_level=FULL_TRACE)); after the step it turns the RunMetadata's step_stats
into a Chrome trace (client/timeline.py) and writes it to `output_dir/timeline-<step>.json`,
<step> being the global step after the traced step. Open it in chrome://tracing or
https://ui.perfetto.dev.

TF also adds the RunMetadata to the event file of `output_dir` for TensorBoard; the sandbox's
event files cannot hold run metadata (summary/writer.py), so only the JSON is written.
"""
import os

from ..client.config import RunOptions
from ..client.timeline import Timeline
from .basic_session_run_hooks import SecondOrStepTimer, _get_or_create_global_step_read, \
    _no_global_step
from .session_manager import logger
from .session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["ProfilerHook"]


class ProfilerHook(SessionRunHook):
    """Captures a full trace every N steps or seconds and writes it as a Chrome trace
    `timeline-{global_step}.json` in `output_dir`. Exactly one of save_steps and save_secs."""

    def __init__(self, save_steps=None, save_secs=None, output_dir="", show_dataflow=True,
                 show_memory=False):
        self._output_dir = output_dir
        self._output_file = os.path.join(output_dir, "timeline-{}.json")
        self._show_dataflow = show_dataflow
        self._show_memory = show_memory
        self._timer = SecondOrStepTimer(every_secs=save_secs, every_steps=save_steps)

    def begin(self):
        self._next_step = None
        self._global_step_tensor = _get_or_create_global_step_read()
        if self._global_step_tensor is None:
            raise RuntimeError(_no_global_step("ProfilerHook"))

    def before_run(self, run_context):
        # The first step only learns the global step: tracing waits N steps from there.
        self._request_summary = (self._next_step is not None and
                                 self._timer.should_trigger_for_step(self._next_step))
        options = (RunOptions(trace_level=RunOptions.FULL_TRACE)
                   if self._request_summary else None)
        return SessionRunArgs({"global_step": self._global_step_tensor}, options=options)

    def after_run(self, run_context, run_values):
        stale_global_step = run_values.results["global_step"]
        if self._next_step is None:
            self._timer.update_last_triggered_step(stale_global_step)
        global_step = stale_global_step + 1
        if self._request_summary:
            global_step = run_context.session.run(self._global_step_tensor)
            self._timer.update_last_triggered_step(global_step)
            self._save(global_step, self._output_file.format(global_step),
                       run_values.run_metadata.step_stats, run_context.session.graph)
        self._next_step = global_step + 1

    def _save(self, step, save_path, step_stats, graph):
        logger.info("Saving timeline for %d into '%s'.", step, save_path)
        if self._output_dir:
            os.makedirs(self._output_dir, exist_ok=True)
        trace = Timeline(step_stats, graph=graph)
        with open(save_path, "w") as f:
            f.write(trace.generate_chrome_trace_format(show_dataflow=self._show_dataflow,
                                                       show_memory=self._show_memory))
