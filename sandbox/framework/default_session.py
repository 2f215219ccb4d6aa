"""The default session -- mirrors the default-session stack of TensorFlow 1.x's
python/framework/ops.py (`_default_session_stack`, `get_default_session`,
`_eval_using_default_session`, `_run_using_default_session`).

`t.eval()` and `op.run()` are methods of the framework's Tensor and Operation, but a Session
lives two layers up (sandbox/client/session.py), and the framework may not import it. So, as in
TensorFlow, the framework keeps only a stack: `with sess.as_default():` pushes the session
here, and Tensor.eval asks this module for the innermost one -- any object with `.graph` and
`.run(fetches, feed_dict)` will do. An InteractiveSession is the default of every thread until
it is closed (`_global_default_session`).

    with tf.Session() as sess:      # Session.__enter__ pushes sess onto this stack
        print(c.eval())             # Tensor.eval -> eval_using_default_session -> sess.run(c)
"""
import threading

__all__ = ["get_default_session", "session_for", "eval_using_default_session",
           "run_using_default_session", "set_log_device_placement", "get_log_device_placement"]


class _DefaultSessionStack(threading.local):
    def __init__(self):
        self.stack = []


_default_session_stack = _DefaultSessionStack()
_global_default_session = [None]      # InteractiveSession installs itself here


def get_default_session():
    """The innermost `with sess.as_default()` session of this thread, else None."""
    if _default_session_stack.stack:
        return _default_session_stack.stack[-1]
    return _global_default_session[0]


def _reset_default_session_stack():
    """tf.reset_default_graph forgets the InteractiveSession's default (its graph is gone)."""
    _global_default_session[0] = None


def session_for(session, graph, what):
    """The session that Tensor.eval / Operation.run / Variable.load should use (`session`, else
    the default one), with TF's errors when there is none or it runs another graph."""
    if session is None:
        session = get_default_session()
        if session is None:
            raise ValueError(f"Cannot {what} using `eval()`/`run()`: No default session is "
                             "registered. Use `with sess.as_default():`, `with tf.Session() as "
                             "sess:`, or pass an explicit session, e.g. `t.eval(session=sess)`.")
    if session.graph is not graph:
        raise ValueError(f"Cannot use the given session to {what}: the tensor's graph is "
                         "different from the session's graph. Pass an explicit session whose "
                         "graph holds the tensor.")
    return session


def eval_using_default_session(tensor, feed_dict, graph, session=None):
    """Tensor.eval: runs `tensor` in `session` (default: the default session)."""
    return session_for(session, graph, f"evaluate tensor {tensor.name!r}").run(tensor, feed_dict)


def run_using_default_session(operation, feed_dict, graph, session=None):
    """Operation.run: runs `operation` in `session` (default: the default session)."""
    session_for(session, graph, f"run operation {operation.name!r}").run(operation, feed_dict)


# -- what a Session made without a config logs (tf.debugging.set_log_device_placement) --------
# In TF a flag of the process's context, whose ConfigProto such a Session takes.
_log_device_placement = [False]


def set_log_device_placement(enabled):
    """Whether Sessions made without a config log where each op is placed."""
    _log_device_placement[0] = bool(enabled)


def get_log_device_placement():
    """The setting of set_log_device_placement (False until set)."""
    return _log_device_placement[0]
