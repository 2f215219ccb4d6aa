"""A free TCP port of 127.0.0.1, for tests that start servers on addresses of their own."""
import socket


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
