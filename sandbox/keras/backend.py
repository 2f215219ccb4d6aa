"""keras.backend -- mirrors TensorFlow 1.15's python/keras/backend.py (the graph-mode parts).

In TF-1 graph mode every Keras model is ops in the default graph, and Keras runs them with one
Session that this module keeps:

    sess = keras.backend.get_session()       # the default session, or one Keras made
    keras.backend.set_session(tf.Session(cluster.target('worker', 0)))   # run on a cluster
    keras.backend.clear_session()            # a fresh default graph, names start again

`get_session()` also initializes the variables that Keras has not initialized yet (the
layers' weights, the optimizer's slots), as TF 1.15 does. `learning_phase()` is the bool
placeholder 'keras_learning_phase' (default False) that fit feeds True: Dropout obeys it.
Layer names come from a per-graph counter: 'dense', 'dense_1', ... (zero-based, as Keras).

The tensor functions (K.sum, K.dot, K.batch_dot, K.switch ...) are in backend_ops.py, the
network ones (K.conv2d, K.pool2d, K.rnn, K.function, K.ctc_batch_cost ...) in backend_nn.py,
the session, learning phase, variables and config in backend_core.py; this module re-exports
the three, so `keras.backend.X` is TF 1.15's name for all of them.
"""
from . import backend_core as _backend_core
from . import backend_nn as _backend_nn
from . import backend_ops as _backend_ops
from .backend_core import *  # noqa: F401,F403 -- K.get_session, K.variable, K.floatx ...
from .backend_core import _learning_phase_feed, _state, unique_object_name  # noqa: F401 (layers')
from .backend_nn import *  # noqa: F401,F403 -- K.conv2d, K.rnn, K.function ... (TF's names)
from .backend_ops import *  # noqa: F401,F403 -- K.sum, K.dot, K.switch ... (TF's names)

__all__ = _backend_core.__all__ + _backend_ops.__all__ + _backend_nn.__all__
