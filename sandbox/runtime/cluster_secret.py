"""The cluster secret: the shared key every connection between tasks must prove it knows --
where a process finds it, and the handshake by which both ends of a connection prove they know
it (runtime/transport.py runs it on every new connection, before a single message is read).

Where a process finds it, in order:
  1. the secret of a server or LocalCluster started in this process for that address;
  2. $SANDBOX_CLUSTER_SECRET (hex or plain text) or the file named by $SANDBOX_CLUSTER_SECRET_FILE;
  3. ~/.sandbox/cluster_secret -- created (mode 0600) on first use, so that the tasks of a
     cluster started by hand in several terminals of one user find the same secret.
To run tasks on several machines, give every one of them the same secret (2.); make_secret()
makes a good one (print it with .hex()).

Anyone who can reach a task's port could send it work, so before a single message is read both
ends prove that they know the secret -- without ever sending it:

    server -> client   b"CHAL" + 32 random bytes                  (a fresh challenge)
    client -> server   b"ANSW" + HMAC-SHA256(secret, challenge)   (only a secret-holder can)
    server -> client   b"WELC" or b"FAIL"
    ... then the client challenges the server the same way.

A challenge is new every time, so an answer overheard once is useless later. Each end checks
the answer it received with hmac.compare_digest (constant time). The handshake is a few tiny
fixed-size binary records with a time limit (HANDSHAKE_TIMEOUT), so a peer that connects and
says nothing cannot hold a server thread. If the secrets differ, both ends raise
AuthenticationError and the connection is closed.
"""
import hmac
import os
import pathlib
import secrets as _secrets
import threading
import time

__all__ = ["default_secret", "register", "unregister", "secret_for", "make_secret",
           "parse_secret", "secret_from_env", "secret_from_file", "as_secret", "SECRET_ENV",
           "handshake", "HANDSHAKE_TIMEOUT", "AuthenticationError"]

HANDSHAKE_TIMEOUT = 10.0      # seconds for the whole handshake
SECRET_ENV = "SANDBOX_CLUSTER_SECRET"

_HOW_TO_SET = ("Every task and client of a cluster must use the same secret: pass the same "
               f"secret= to every server and client, or set {SECRET_ENV} (hex or plain text) "
               "in the environment of every process.")


class AuthenticationError(ConnectionError):
    """The peer did not prove it knows the cluster secret (or did not finish the handshake)."""


# -- secrets ---------------------------------------------------------------------------------
def make_secret():
    """32 random bytes: a fresh cluster secret (`make_secret().hex()` to write it down)."""
    return _secrets.token_bytes(32)


def parse_secret(text):
    """A secret written as text: 32 or more hex digits are decoded, anything else is used as
    plain text (UTF-8)."""
    text = text.strip()
    if not text:
        raise ValueError("the cluster secret is empty")
    try:
        return bytes.fromhex(text) if len(text) >= 32 else text.encode()
    except ValueError:
        return text.encode()


def secret_from_env(name=SECRET_ENV):
    """The secret in environment variable `name`, or None if it is not set."""
    value = os.environ.get(name)
    return parse_secret(value) if value else None


def secret_from_file(path):
    """The secret stored (as hex or text) in the file at `path`."""
    with open(path, encoding="utf-8") as f:
        return parse_secret(f.read())


def as_secret(secret):
    """`secret` (bytes, or text for parse_secret), or the one in the environment if it is
    None: as non-empty bytes."""
    if secret is None:
        secret = secret_from_env()
        if secret is None:
            raise ValueError(f"No cluster secret given. {_HOW_TO_SET}")
    if isinstance(secret, str):
        secret = parse_secret(secret)
    if not isinstance(secret, (bytes, bytearray)) or not secret:
        raise ValueError(f"The cluster secret must be non-empty bytes or str, not {secret!r}.")
    return bytes(secret)


# -- where a process finds it ----------------------------------------------------------------
_known = {}
_lock = threading.Lock()


def default_secret():
    secret = secret_from_env()
    if secret is not None:
        return secret
    if os.environ.get("SANDBOX_CLUSTER_SECRET_FILE"):
        path = pathlib.Path(os.environ["SANDBOX_CLUSTER_SECRET_FILE"])
        try:
            return secret_from_file(path)
        except OSError as e:
            raise ValueError(f"Cannot read the cluster secret from {path} "
                             f"($SANDBOX_CLUSTER_SECRET_FILE): {e.strerror}") from None
    path = pathlib.Path.home() / ".sandbox" / "cluster_secret"
    with _lock:
        if not path.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w") as f:
                f.write(make_secret().hex())
        return parse_secret(path.read_text())


def _key(address):
    host, port = address
    return ("127.0.0.1" if host in ("localhost", "127.0.0.1", "::1") else host, int(port))


def register(address, secret):
    """Remembers that the server at `address` (host, port) uses `secret`."""
    with _lock:
        _known[_key(address)] = secret


def unregister(address):
    with _lock:
        _known.pop(_key(address), None)


def secret_for(address):
    with _lock:
        secret = _known.get(_key(address))
    return secret if secret is not None else default_secret()


# -- the handshake ---------------------------------------------------------------------------
_CHALLENGE, _ANSWER, _WELCOME, _FAILURE = b"CHAL", b"ANSW", b"WELC", b"FAIL"
_NONCE_BYTES = 32


def handshake(sock, secret, is_server, peer, timeout):
    """Runs both challenges on the fresh socket `sock`; raises AuthenticationError, or
    ConnectionError if the peer went away (and leaves closing to the caller)."""
    deadline = time.monotonic() + timeout
    try:
        if is_server:
            _deliver_challenge(sock, secret, deadline, peer)
            _answer_challenge(sock, secret, deadline, peer)
        else:
            _answer_challenge(sock, secret, deadline, peer)
            _deliver_challenge(sock, secret, deadline, peer)
        sock.settimeout(None)
    except TimeoutError:
        raise AuthenticationError(f"{peer} did not complete the handshake within "
                                  f"{timeout:g} s (is it a sandbox task that has the cluster "
                                  "secret?).") from None
    except (EOFError, OSError) as e:
        if isinstance(e, AuthenticationError):
            raise
        # A secret that does not match is answered with a FAIL record (below), not a bare
        # close: a bare close means the task exited, or is exiting, meanwhile -- the caller
        # sees an unavailable task, not a refusal.
        raise ConnectionError(f"{peer} closed the connection during the handshake "
                              f"({_reason(e)}): the task may have exited or be shutting down; "
                              f"if it is running, check that it has the cluster secret. "
                              f"{_HOW_TO_SET}") from None


def _deliver_challenge(sock, secret, deadline, peer):
    challenge = os.urandom(_NONCE_BYTES)
    _send_record(sock, _CHALLENGE + challenge, deadline)
    answer = _recv_record(sock, len(_ANSWER) + 32, deadline)
    expected = _ANSWER + hmac.new(secret, challenge, "sha256").digest()
    if not hmac.compare_digest(answer, expected):
        try:
            _send_record(sock, _FAILURE, deadline)
        except OSError:
            pass
        raise AuthenticationError(f"{peer} failed the handshake: the cluster secret did not "
                                  f"match. {_HOW_TO_SET}")
    _send_record(sock, _WELCOME, deadline)


def _answer_challenge(sock, secret, deadline, peer):
    record = _recv_record(sock, len(_CHALLENGE) + _NONCE_BYTES, deadline)
    if record[:4] != _CHALLENGE:
        raise AuthenticationError(f"{peer} did not start the sandbox handshake (is it a "
                                  "sandbox task? is its secret set?)")
    _send_record(sock, _ANSWER + hmac.new(secret, record[4:], "sha256").digest(), deadline)
    if _recv_record(sock, len(_WELCOME), deadline) != _WELCOME:
        raise AuthenticationError(f"{peer} refused the connection: the cluster secret did not "
                                  f"match. {_HOW_TO_SET}")


def _send_record(sock, data, deadline):
    sock.settimeout(max(deadline - time.monotonic(), 1e-3))
    sock.sendall(data)


def _recv_record(sock, n, deadline):
    data = b""
    while len(data) < n:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError
        sock.settimeout(remaining)
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise EOFError("connection closed")
        data += chunk
    return data


def _reason(e):
    return "connection closed" if isinstance(e, EOFError) else (e.strerror or str(e))
