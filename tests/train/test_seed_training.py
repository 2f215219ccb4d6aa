"""The seed's network trained on real MNIST in a local Session (short runs; bench/ has the
full-length ones)."""
import numpy as np
import pytest

import sandbox as tf
from sandbox.examples.tutorials.mnist import input_data
from sandbox.experiments import build_seed_model, train_locally


@pytest.fixture(scope="module")
def mnist(request):
    from conftest import MNIST_DIR
    if not (MNIST_DIR / "train-images-idx3-ubyte.gz").exists():
        pytest.skip("full MNIST not available")
    return input_data.read_data_sets(str(MNIST_DIR), one_hot=True, seed=0)


def test_seed_graph_is_the_seeds():
    model = build_seed_model()
    names = {op.name for op in model.graph.get_operations()}
    assert {"input/x-input", "input/y-input", "weights/Variable", "weights/Variable_1",
            "biases/Variable", "softmax/Sigmoid", "softmax/Softmax", "cross_entropy/Mean",
            "global_step"} <= names
    assert model.global_step.dtype.base_dtype == tf.float32    # get_variable + constant init


def test_seed_sgd_learns(mnist):
    result = train_locally(mnist, epochs=2, optimizer="sgd", learning_rate=0.001,
                           progress=False)
    costs = [h["cost"] for h in result["history"]]
    assert result["steps"] == 2 * (mnist.train.num_examples // 100)
    assert np.isfinite(costs).all()
    # the seed's slow start: cost falls but accuracy is still low after 2 epochs
    first_batches = train_locally(mnist, epochs=1, optimizer="sgd", learning_rate=0.0,
                                  progress=False)["final_cost"]
    assert costs[-1] < first_batches


def test_seed_adam_variant_reaches_good_accuracy(mnist):
    result = train_locally(mnist, epochs=1, optimizer="adam", learning_rate=1e-3,
                           progress=False)
    assert result["test_accuracy"] >= 0.75
