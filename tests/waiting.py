"""Waiting in tests for something another thread or process does."""
import time


def wait_until(predicate, timeout=10.0):
    """True as soon as predicate() is; False if it is still false after `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.05)
    return predicate()
