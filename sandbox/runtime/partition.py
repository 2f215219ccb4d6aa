"""Graph partitioning -- mirrors TensorFlow's Partition (core/graph/graph_partition.cc).

After placement every node has a device. The master cuts the graph into one piece per device,
and wherever an edge crosses from device S to device D it inserts a pair of ops:

    producer --(S)--> _Send          _Recv --(D)--> consumer
                         \\__ key ___/

Both carry the same rendezvous key; at run time the _Send pushes the tensor into the
rendezvous of D's task and the _Recv takes it from there. A control edge that crosses devices
is carried the same way with a dummy tensor. Each tensor is sent to a device at most once,
however many ops there read it.

Feeds and fetches stay at the boundary: a piece is told which fed tensors it reads and which
tensors it must return to the master.
"""
from .executor import normalize_tensor_name, parse_input, task_of
from .rendezvous import make_key

__all__ = ["partition", "Piece", "task_of"]


class Piece:
    """The part of a step's graph that runs on one device."""

    def __init__(self, device):
        self.device = device
        self.nodes = []
        self.feeds = []         # fed tensor names this piece reads
        self.fetches = []       # tensor names this piece returns
        self.targets = []       # op names this piece must run (incl. its _Send ops)

    def as_dict(self):
        return {"device": self.device, "nodes": self.nodes, "feeds": self.feeds,
                "fetches": self.fetches, "targets": self.targets}


def partition(node_defs, feeds, fetches, targets):
    """Splits placed `node_defs` into {device: Piece}, adding _Send/_Recv pairs."""
    device_of = {nd["name"]: nd["device"] for nd in node_defs}
    fed = {normalize_tensor_name(f) for f in feeds}
    pieces = {}

    def piece(device):
        if device not in pieces:
            pieces[device] = Piece(device)
        return pieces[device]

    recv_for = {}        # (tensor or ^op, dst device) -> name of the _Recv in dst

    def cross(src_name, index, dst_device):
        """Returns the _Recv name that brings src_name:index (or ^src_name) to dst_device."""
        src_device = device_of[src_name]
        tensor = f"{src_name}:{index}" if index is not None else f"^{src_name}"
        cache_key = (tensor, dst_device)
        if cache_key in recv_for:
            return recv_for[cache_key]
        safe_dst = dst_device.replace("/", "_").replace(":", "_").strip("_")
        base = f"{src_name}/_{'send' if index is not None else 'ctrl'}_{index or 0}_to_{safe_dst}"
        key = make_key(src_device, dst_device, tensor)
        attrs = {"key": key, "tensor_name": tensor, "send_device": src_device,
                 "recv_device": dst_device}
        if index is not None:
            send_inputs = [f"{src_name}:{index}"]
            send = {"name": base + "/_Send", "op": "_Send", "input": send_inputs,
                    "device": src_device, "attr": dict(attrs)}
        else:
            send = {"name": base + "/_Send", "op": "_SendControl", "input": [f"^{src_name}"],
                    "device": src_device, "attr": dict(attrs)}
        recv = {"name": base + "/_Recv", "op": "_Recv", "input": [], "device": dst_device,
                "attr": dict(attrs)}
        piece(src_device).nodes.append(send)
        piece(src_device).targets.append(send["name"])
        piece(dst_device).nodes.append(recv)
        recv_for[cache_key] = recv["name"]
        return recv["name"]

    for nd in node_defs:
        device = nd["device"]
        new_inputs = []
        for text in nd["input"]:
            src, index = parse_input(text)
            if index is not None and f"{src}:{index}" in fed:
                name = f"{src}:{index}"
                if name not in piece(device).feeds:
                    piece(device).feeds.append(name)
                new_inputs.append(text)
            elif device_of[src] == device:
                new_inputs.append(text)
            elif index is None:
                new_inputs.append("^" + cross(src, None, device))
            else:
                new_inputs.append(f"{cross(src, index, device)}:0")
        piece(device).nodes.append({**nd, "input": new_inputs})

    for name in fetches:
        name = normalize_tensor_name(name)
        if name in fed:
            continue
        piece(device_of[parse_input(name)[0]]).fetches.append(name)
    for name in targets:
        piece(device_of[name]).targets.append(name)
    # Keep each piece's nodes in dependency order: a _Recv has no inputs, so it can go first.
    return pieces
