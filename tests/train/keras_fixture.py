"""What the tf.keras tests share: `fresh_keras`, a fresh default graph and Keras session
around each test, with the seeds fixed (a module imports it and asks for it with
`pytestmark = pytest.mark.usefixtures("fresh_keras")`), and the fixed weights the tests and
TF's scripts give their layers (`fixed`, `set_fixed_weights`)."""
import numpy as np
import pytest

import sandbox as tf


@pytest.fixture
def fresh_keras():
    tf.keras.backend.clear_session()
    tf.set_random_seed(0)
    np.random.seed(0)
    yield
    tf.keras.backend.clear_session()


def fixed(shape, k):
    n = int(np.prod(shape))
    return (0.5 * np.sin(np.arange(n) * 0.37 + k)).reshape(shape).astype(np.float32)


def set_fixed_weights(model):
    """Layer i, weight j <- fixed(shape, 10 i + j): the same values as in TF's script."""
    for i, layer in enumerate(model.layers):
        layer.set_weights([fixed(w.shape, 10 * i + j) for j, w in enumerate(layer.get_weights())])
