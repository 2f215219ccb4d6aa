"""Step statistics -- mirrors TensorFlow's StepStats messages (core/framework/step_stats.proto)
and the part of its StepStatsCollector (core/common_runtime/step_stats_collector.cc) that
files each op's timing under its device.

`sess.run(train_op, options=tf.RunOptions(trace_level=tf.RunOptions.FULL_TRACE),
run_metadata=run_metadata)` fills `run_metadata.step_stats`:

    StepStats.dev_stats          one DeviceStepStats per device the step ran on
      DeviceStepStats.device     '/job:ps/replica:0/task:0/device:CPU:0'
      DeviceStepStats.node_stats one NodeExecStats per op run there: its name, type, start
                                 (microseconds since the epoch) and duration

client/timeline.py turns them into a Chrome trace. The executor measures; a local session
(runtime/direct_session.py) and a remote one (runtime/remote_session.py, with what every task
sent back to the master) both hand their rows to `fill_step_stats`.
"""
from .message import Message

__all__ = ["StepStats", "DeviceStepStats", "NodeExecStats", "fill_step_stats"]


class NodeExecStats(Message):
    _FIELDS = {"node_name": "", "op": "", "all_start_micros": 0, "op_start_rel_micros": 0,
               "op_end_rel_micros": 0, "all_end_rel_micros": 0, "timeline_label": "",
               "thread_id": 0, "extra": dict}


class DeviceStepStats(Message):
    _FIELDS = {"device": "", "node_stats": list}


class StepStats(Message):
    _FIELDS = {"dev_stats": list}


def fill_step_stats(step_stats, rows):
    """Adds to `step_stats` one DeviceStepStats per device of `rows`, each row one op run:
    (device, node name, op type, start ns, end ns), times from time.time_ns()."""
    by_device = {}
    for device, name, op, begin_ns, end_ns in rows:
        micros = max(1, (end_ns - begin_ns) // 1000)
        node = NodeExecStats(node_name=name, op=op, all_start_micros=int(begin_ns // 1000),
                             op_end_rel_micros=micros, all_end_rel_micros=micros,
                             timeline_label=f"{name} = {op}()")
        by_device.setdefault(device, []).append(node)
    for device, nodes in by_device.items():
        step_stats.dev_stats.append(DeviceStepStats(device=device, node_stats=nodes))
