"""When a graph piece's sends go out on the fast path (runtime/step_channels.py): the tensors a
piece sends one after another wait in an outbox and travel to each task as one message, let go
as soon as the step waits (StepState.check, which every waiting kernel calls: a _Recv whose
tensor is not there yet, a queue's dequeue...) -- so a peer never waits for a tensor that sits
in our buffer -- or when the piece ends. On the plain route every send goes out at once."""
import numpy as np

from sandbox.runtime.executor import Executor, StepState
from sandbox.runtime.rendezvous import Rendezvous, StepRendezvous
from sandbox.runtime.step_channels import ChannelRendezvous
from sandbox.runtime.task_server import TraceRing

PS, W0, W1 = "/job:ps/replica:0/task:0", "/job:worker/replica:0/task:0", \
    "/job:worker/replica:0/task:1"


class _Peers:
    def __init__(self, sent):
        self.sent = sent

    def push(self, task, message):
        self.sent.append((task, [key for key, _ in message["items"]]))

    def simulate_link(self, task, message, step_id):
        pass


class _Pump:
    """A channel to nobody: everything goes through peers.push."""

    def takes(self, task, nbytes):
        return False


class _Worker:
    def __init__(self):
        self.task = PS
        self.sent = []
        self.peers = _Peers(self.sent)
        self.trace = TraceRing()
        self.rendezvous = Rendezvous(PS)


def node(name, op, inputs=(), **attr):
    return {"name": name, "op": op, "input": list(inputs), "attr": attr, "device": ""}


def send(name, tensor, to=W0):
    return node(name, "_Send", [tensor], key=f"k-{name}", tensor_name=tensor,
                send_device=f"{PS}/device:CPU:0", recv_device=f"{to}/device:CPU:0")


def recv(name, key, tensor):
    return node(name, "_Recv", key=key, tensor_name=tensor, send_device=f"{W0}/device:CPU:0",
                recv_device=f"{PS}/device:CPU:0")


def _piece():
    return [node("a", "Const", value=np.float32(1), dtype="float32"),
            send("send_a", "a:0"),
            node("b", "Identity", ["a"], T="float32"),
            send("send_b", "b:0", to=W1),
            send("send_b0", "b:0"),
            recv("got", "k-in", "in:0"),
            node("sum", "Add", ["got", "b"], T="float32"),
            send("send_sum", "sum:0")]


def test_sends_wait_until_the_step_waits_then_go_as_one_message_per_task():
    worker = _Worker()
    rendezvous = ChannelRendezvous(worker, 7, _Pump())
    executor = Executor(_piece(), targets=["send_a", "send_b", "send_b0", "send_sum"])
    # the tensor the _Recv waits for arrives only once our sends went out: were they held
    # back, this step would wait for ever (its peer waits for them first)
    worker.rendezvous.lend_waiter(7, lambda timeout: _answer_once(worker), lambda: None)
    executor.run(step=StepState(7, rendezvous=rendezvous))
    assert worker.sent == [(W0, ["k-send_a", "k-send_b0"]), (W1, ["k-send_b"])]
    assert worker.sent[2:] == []                     # sum waits in the outbox...
    rendezvous.flush(last=True)                      # ...until the piece ends
    assert worker.sent[2:] == [(W0, ["k-send_sum"])]
    assert [r.tensor for r in worker.trace.since(0)] == ["a:0", "b:0", "b:0", "sum:0"]


def _answer_once(worker):
    if worker.sent:                                  # our sends are out: the peer answers
        worker.rendezvous.cond.release()
        try:
            worker.rendezvous.send(7, "k-in", np.float32(5))
        finally:
            worker.rendezvous.cond.acquire()


def test_on_the_plain_route_every_send_goes_out_at_once():
    worker = _Worker()
    rendezvous = StepRendezvous(worker, 8)
    worker.rendezvous.send(8, "k-in", np.float32(5))
    nodes = _piece()
    Executor(nodes, targets=["send_a", "send_b", "send_b0", "send_sum"]).run(
        step=StepState(8, rendezvous=rendezvous))
    assert worker.sent == [(W0, ["k-send_a"]), (W1, ["k-send_b"]), (W0, ["k-send_b0"]),
                           (W0, ["k-send_sum"])]
