"""Free TCP ports of 127.0.0.1, for tests that start servers on addresses of their own."""
import socket

_given = set()


def free_port():
    """A port nothing listens on right now -- and never one this process was given before:
    the kernel may hand out a just-released port again at once, and two servers of one test
    would then be given the same address."""
    while True:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        if port not in _given:
            _given.add(port)
            return port
