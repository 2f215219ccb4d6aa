"""tf.train.summary_iterator -- mirrors TensorFlow's python/summary/summary_iterator.py.

Reads back an event file (as tf.summary.FileWriter writes it, sandbox/summary/writer.py):
each TFRecord of the file is parsed into an Event protocol buffer (tensorboardX's event_pb2,
the class the writer uses), so a program can look at what it logged:

    for event in tf.train.summary_iterator(path):
        for value in event.summary.value:
            if value.tag == 'loss':
                print(event.step, value.simple_value)
"""
from ..platform.tf_record import tf_record_iterator

__all__ = ["summary_iterator"]


class _SummaryIterator:
    """Yields the Event protocol buffers of the event file at `path`."""

    def __init__(self, path):
        from tensorboardX.proto import event_pb2
        self._event_class = event_pb2.Event
        self._records = tf_record_iterator(path)

    def __iter__(self):
        return self

    def __next__(self):
        return self._event_class.FromString(next(self._records))

    next = __next__


def summary_iterator(path):
    """An iterator over the Event protocol buffers of the event file at `path` (written by a
    tf.summary.FileWriter): the file-version event first, then one per add_summary /
    add_graph / add_session_log ..."""
    return _SummaryIterator(path)
