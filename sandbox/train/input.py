"""Queue-based input -- mirrors TensorFlow 1.x's python/training/input.py (string_input_producer, batch, shuffle_batch ...).

(Being written: issue 27.)
"""

__all__ = []
