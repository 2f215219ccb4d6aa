"""`tf.estimator.inputs` -- input functions over in-memory data (TF's
tensorflow_estimator/python/estimator/inputs/inputs.py): `numpy_input_fn` (numpy_io.py) and
`pandas_input_fn` (pandas_io.py), both through a queue filled by threads (queues.py)."""
from .numpy_io import numpy_input_fn
from .pandas_io import pandas_input_fn

__all__ = ["numpy_input_fn", "pandas_input_fn"]
