"""The basic training loop -- mirrors TensorFlow's tf.train.basic_train_loop
(python/training/basic_loops.py).

    def train_step(sess, train_op):
        sess.run(train_op)
    tf.train.basic_train_loop(sv, train_step, args=(train_op,), master=server.target)

It opens a session with the Supervisor (sv.managed_session) and calls train_step_fn until
the Supervisor says stop: train_step_fn (or another thread) calls sv.request_stop(), or a
step raises OutOfRangeError, which managed_session takes as the end of the input. An
AbortedError -- a task of the cluster restarted -- closes the session and starts over with a
new one.
"""
from ..framework import errors

__all__ = ["basic_train_loop"]


def basic_train_loop(supervisor, train_step_fn, args=None, kwargs=None, master=""):
    """Calls train_step_fn(session, *args, **kwargs) until supervisor.should_stop() -- TF's
    basic_train_loop; the session comes from supervisor.managed_session(master), made again
    after an AbortedError."""
    if args is None:
        args = []
    if kwargs is None:
        kwargs = {}
    should_retry = True
    while should_retry:
        try:
            should_retry = False
            with supervisor.managed_session(master) as sess:
                while not supervisor.should_stop():
                    train_step_fn(sess, *args, **kwargs)
        except errors.AbortedError:
            # A restart of one of the distributed servers: always run again.
            should_retry = True
