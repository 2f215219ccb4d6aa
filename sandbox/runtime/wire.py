"""The wire format -- how the sandbox's tasks send each other messages, as DATA: no pickle,
only JSON and raw bytes of allowed dtypes, so the worst a peer can send is a wrong *value*,
never code to run. It has two parts, each explained in its own file:

    runtime/wire_codec.py    a message <-> a JSON header and raw buffers: what a message may
                             hold, the dtype and shape checks, Limits       (encode, decode)
    runtime/wire_frames.py   one message is one frame on a socket: prefix, buffer table,
                             header, buffers        (send_message, recv_message, FrameReader)

This module only names both, for the code that speaks of the `wire` (runtime/transport.py,
train/meta_graph.py).
"""
from .wire_codec import (DEFAULT_LIMITS, MAX_BUFFERS, MAX_DEPTH, MAX_FRAME_BYTES,
                         MAX_HEADER_BYTES, PREFIX_BYTES, FrameError, Limits, decode, encode)
from .wire_frames import (MAGIC, VERSION, FrameReader, frame_bytes, message_nbytes, recv_message,
                          send_message, table_bytes)

__all__ = ["FrameError", "Limits", "DEFAULT_LIMITS", "MAGIC", "VERSION", "MAX_HEADER_BYTES",
           "MAX_BUFFERS", "MAX_FRAME_BYTES", "MAX_DEPTH", "encode", "decode", "send_message",
           "recv_message", "message_nbytes", "FrameReader", "PREFIX_BYTES", "table_bytes",
           "frame_bytes"]
