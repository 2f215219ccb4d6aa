"""When a graph piece's sends go out (runtime/executor.py): sends next to each other travel
together, a quick op between them (OpDef.quick: Identity, a variable's reference, ...) does not
split them, and any other op -- above all one that may block, like _Recv -- is preceded by a
flush, so a peer never waits for a tensor that sits in our buffer."""
import numpy as np

from sandbox.runtime.executor import Executor, StepState


class RecordingRendezvous:
    def __init__(self):
        self.events = []

    def send(self, key, value, recv_device, tensor_name):
        self.events.append(("send", tensor_name))

    def flush(self, last=False):
        self.events.append(("last flush",) if last else ("flush",))

    def recv(self, key, send_device, tensor_name, step, node_name):
        self.events.append(("recv", tensor_name))
        return np.float32(5)


def node(name, op, inputs=(), **attr):
    return {"name": name, "op": op, "input": list(inputs), "attr": attr, "device": ""}


def send(name, tensor):
    return node(name, "_Send", [tensor], key=f"k-{name}", tensor_name=tensor,
                send_device="/job:ps/replica:0/task:0/device:CPU:0",
                recv_device="/job:worker/replica:0/task:0/device:CPU:0")


def test_a_quick_op_between_two_sends_does_not_split_them_and_a_recv_flushes_first():
    nodes = [
        node("a", "Const", value=np.float32(1), dtype="float32"),
        send("send_a", "a:0"),
        node("b", "Identity", ["a"], T="float32"),           # quick: no flush before it
        send("send_b", "b:0"),
        node("got", "_Recv", key="k-in", tensor_name="in:0",
             send_device="/job:worker/replica:0/task:0/device:CPU:0",
             recv_device="/job:ps/replica:0/task:0/device:CPU:0"),
        node("sum", "Add", ["got", "b"], T="float32"),
        send("send_sum", "sum:0"),
    ]
    rendezvous = RecordingRendezvous()
    executor = Executor(nodes, targets=["send_a", "send_b", "send_sum"])
    executor.run(step=StepState(rendezvous=rendezvous))
    assert rendezvous.events == [("send", "a:0"), ("send", "b:0"), ("flush",),
                                 ("recv", "in:0"), ("send", "sum:0"), ("last flush",)]
