"""Kinds of traffic -- what a message between two tasks is for.

TensorFlow's runtime does not label the tensors it sends; it only moves them. The views read
each message's purpose off where it goes and what TF-1 programs name its tensor:

  pull     a parameter, sent by the task that holds the variable to a task that computes with
           it: `w1/read:0` (the read op of a tf.Variable), or anything a ps sends a worker
  push     a gradient, sent to the task that holds the variable: `gradients/.../MatMul_1:0`
  sync     SyncReplicasOptimizer's machinery: the token a worker dequeues from the ps's token
           queue at the end of each step (TF names that op just `QueueDequeueV2`: a queue
           dequeued on a ps and sent to a worker), the `sync_rep_local_step` sent with every
           gradient to the accumulators, and anything named after the sync optimizer
  control  requests between masters and workers (RunGraph, RegisterGraph, CreateSession...)
           and control edges: `^w1/Assign` means "run after w1/Assign", no data
  other    anything else: the initial values the chief sends the ps once, activations between
           the workers of a model split across tasks, a shared queue's elements...

Delays the sandbox adds on purpose (a straggler's extra time, a slow link's wait) are not
traffic: kind_of returns None for them, and the swim lanes draw them as spans.
"""
import re

__all__ = ["KINDS", "kind_of", "job_of", "NOT_TRAFFIC"]

KINDS = ("pull", "push", "sync", "control", "other")
NOT_TRAFFIC = ("straggle", "link_delay")
_DEQUEUE = re.compile(r"(^|/)QueueDequeue(Many|UpTo)?(V2)?(_\d+)?:\d+$")
_SYNC_WORDS = ("sync_rep", "sync_token", "sync_replicas", "SyncReplicas", "grad_accum",
               "Accumulator")


def job_of(task):
    """'/job:ps/replica:0/task:0' or 'ps:0' -> 'ps' ('' for 'client' or other names)."""
    if task.startswith("/job:"):
        return task[len("/job:"):].split("/", 1)[0]
    if ":" in task:
        return task.split(":", 1)[0]
    return ""


def kind_of(record_kind, src, dst, tensor):
    """The kind (one of KINDS) of a trace record, or None if it is not traffic.
    `record_kind` is the trace's: "send", "recv", or a request method such as "RunGraph"."""
    if record_kind in NOT_TRAFFIC:
        return None
    if record_kind not in ("send", "recv"):
        return "control"
    if tensor.startswith("^"):
        return "control"
    if any(word in tensor for word in _SYNC_WORDS):
        return "sync"
    src_job = job_of(src)
    if _DEQUEUE.search(tensor) and src_job == "ps" and job_of(dst) != "ps":
        return "sync"
    if tensor.startswith("gradients") or "/gradients" in tensor or "_grad/" in tensor:
        return "push"
    if "/read:" in tensor or "ReadVariableOp" in tensor or src_job == "ps":
        return "pull"
    return "other"
