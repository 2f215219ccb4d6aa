"""tf.contrib: a TF 1.15 contrib module the sandbox does not have (aymericdamien's kmeans.py
reaches for tf.contrib.factorization) says so, and names what the sandbox's tf.contrib has."""
import pytest

import sandbox as tf


def test_a_tf115_contrib_module_that_is_not_here_says_so():
    with pytest.raises(AttributeError, match=r"TensorFlow 1.15's tf.contrib.factorization is "
                                             r"not part of the sandbox. Its tf.contrib has "
                                             r"crf, .*slim"):
        tf.contrib.factorization.KMeans
    assert not hasattr(tf.contrib, "learn")
    with pytest.raises(AttributeError, match=r"^module 'sandbox.contrib' has no attribute "
                                             r"'no_such_thing'$"):
        tf.contrib.no_such_thing
    assert tf.contrib.slim.conv2d and tf.contrib.rnn.BasicLSTMCell   # what is here still is
