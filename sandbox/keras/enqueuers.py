"""Batches read ahead by threads -- mirrors the enqueuers of TensorFlow 1.15's
python/keras/utils/data_utils.py (keras.utils re-exports them): SequenceEnqueuer, the base;
OrderedEnqueuer, for a keras.utils.Sequence; GeneratorEnqueuer, for a Python generator.

    enqueuer = OrderedEnqueuer(sequence, shuffle=True)
    enqueuer.start(workers=2, max_queue_size=10)      # threads fill a queue of batches
    batches = enqueuer.get()                          # an endless generator over the queue
    x, y = next(batches)
    enqueuer.stop()

OrderedEnqueuer yields the Sequence's batches in their order (a new random order each pass
with shuffle=True), one pass after the other, calling on_epoch_end() between passes;
GeneratorEnqueuer yields what the generator yields, in the order the threads took it. An
exception raised while reading a batch is raised again by get(). Only threads: TF's
use_multiprocessing=True (worker processes) is refused with an error that says so.
"""
import queue
import random
import threading
from concurrent.futures import ThreadPoolExecutor

__all__ = ["SequenceEnqueuer", "OrderedEnqueuer", "GeneratorEnqueuer"]


class SequenceEnqueuer:
    """The base class: start() begins reading into a queue, get() yields from it, stop()."""

    def __init__(self, sequence, use_multiprocessing=False):
        if use_multiprocessing:
            raise NotImplementedError("The sandbox's keras enqueuers read with threads only: "
                                      "pass use_multiprocessing=False.")
        self.sequence = sequence
        self.use_multiprocessing = use_multiprocessing
        self.workers = 0
        self.queue = None
        self.run_thread = None
        self.stop_signal = None

    def is_running(self):
        return self.stop_signal is not None and not self.stop_signal.is_set()

    def start(self, workers=1, max_queue_size=10):
        """Starts `workers` threads that keep up to max_queue_size batches ready."""
        self.workers = max(1, workers)
        self.queue = queue.Queue(max_queue_size)
        self.stop_signal = threading.Event()
        self.run_thread = threading.Thread(target=self._run, daemon=True,
                                           name=f"{type(self).__name__}-reader")
        self.run_thread.start()

    def stop(self, timeout=None):
        """Stops the threads and empties the queue."""
        self.stop_signal.set()
        with self.queue.mutex:
            self.queue.queue.clear()
            self.queue.unfinished_tasks = 0
            self.queue.not_full.notify_all()
        self.run_thread.join(timeout)

    def _put(self, item):
        """Puts a (ok, value) pair in the queue unless stopped; False once stopped."""
        while not self.stop_signal.is_set():
            try:
                self.queue.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def get(self):
        """An endless generator of the batches (raises what reading a batch raised)."""
        while self.is_running() or not self.queue.empty():
            try:
                ok, value = self.queue.get(timeout=0.1)
            except queue.Empty:
                continue
            if not ok:
                self.stop()
                raise value
            yield value

    def _run(self):
        raise NotImplementedError


class OrderedEnqueuer(SequenceEnqueuer):
    """Reads a keras.utils.Sequence, its batches in order (shuffled each pass if shuffle)."""

    def __init__(self, sequence, use_multiprocessing=False, shuffle=False):
        super().__init__(sequence, use_multiprocessing)
        self.shuffle = shuffle

    def _run(self):
        with ThreadPoolExecutor(self.workers) as pool:
            while not self.stop_signal.is_set():
                order = list(range(len(self.sequence)))
                if self.shuffle:
                    random.shuffle(order)
                futures = [pool.submit(self.sequence.__getitem__, i) for i in order]
                for future in futures:
                    try:
                        item = (True, future.result())
                    except Exception as e:              # raised again by get()
                        item = (False, e)
                    if not self._put(item) or not item[0]:
                        for rest in futures:
                            rest.cancel()
                        return
                self.sequence.on_epoch_end()


class GeneratorEnqueuer(SequenceEnqueuer):
    """Reads a Python generator; `workers` threads take turns at it (one at a time)."""

    def __init__(self, generator, use_multiprocessing=False, random_seed=None):
        super().__init__(generator, use_multiprocessing)
        self.random_seed = random_seed
        self._lock = threading.Lock()

    def _run(self):
        threads = [threading.Thread(target=self._read, daemon=True)
                   for _ in range(self.workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.stop_signal.set()               # the generator is exhausted (or failed)

    def _read(self):
        while not self.stop_signal.is_set():
            try:
                with self._lock:                 # a generator is not thread-safe
                    item = (True, next(self.sequence))
            except StopIteration:
                return
            except Exception as e:                  # raised again by get()
                self._put((False, e))
                return
            if not self._put(item):
                return
