"""The switches between TensorFlow 1 and 2 behaviour -- mirrors TensorFlow's
python/compat/v2_compat.py (disable_v2_behavior, enable_v2_behavior) and the switches it
flips: eager execution, resource variables, control flow v2, TF 2's TensorShape, elementwise ==.

Under TensorFlow 2 a TF-1 program runs after

    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()

and many published programs start that way. The sandbox *is* TF-1 graph mode, so with the
import changed to `import sandbox as tf` they keep running: every `disable_*` is accepted and
changes nothing, and the queries say what the sandbox does. Where TensorFlow would switch to a
behaviour the sandbox does not have (eager execution, TF 2 as a whole, TF 2's TensorShape,
elementwise ==), the `enable_*` raises an error that says so, instead of running on with
another meaning than the program asked for. Two requests change nothing and are accepted,
because the numbers a program computes are the same either way: control flow stays the sandbox's
functional If/While (TF's control flow v2, see ops/cond_v2.py), and variables stay reference
variables (VariableV2).
"""

__all__ = ["disable_v2_behavior", "enable_v2_behavior", "disable_eager_execution",
           "enable_eager_execution", "executing_eagerly", "control_flow_v2_enabled",
           "enable_control_flow_v2", "disable_control_flow_v2", "resource_variables_enabled",
           "enable_resource_variables", "disable_resource_variables", "enable_tensor_equality",
           "disable_tensor_equality", "enable_v2_tensorshape", "disable_v2_tensorshape"]


def _not_here(what, instead):
    return NotImplementedError(f"{what}: the sandbox runs TensorFlow 1 graphs only (graph mode, "
                               f"Session.run). {instead}")


def disable_v2_behavior():
    """Accepted: the sandbox always behaves as TF 1 (graph mode, ref variables, Dimension)."""


def enable_v2_behavior():
    raise _not_here("tf.enable_v2_behavior()", "Remove the call; write the program in TF-1 "
                    "style (placeholders, a Session), as `import tensorflow.compat.v1 as tf` "
                    "with tf.disable_v2_behavior() would run it.")


def disable_eager_execution():
    """Accepted: the sandbox never executes eagerly."""


def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    raise _not_here("tf.enable_eager_execution()", "Remove the call, build the graph, and "
                    "run it with sess.run(...).")


def executing_eagerly():
    """False: ops build a graph, a Session runs it."""
    return False


def control_flow_v2_enabled():
    """True: tf.cond and tf.while_loop build TF 2's functional If and While ops."""
    return True


def enable_control_flow_v2():
    """Accepted: the sandbox's control flow is already v2."""


def disable_control_flow_v2():
    """Accepted: control flow stays the functional If/While (the same numbers as TF 1's
    Switch/Merge; see ops/cond_v2.py)."""


def resource_variables_enabled():
    """False: variables are TF 1's reference variables (VariableV2)."""
    return False


def enable_resource_variables():
    """Accepted: variables stay reference variables (VariableV2); a program computes the same
    numbers with either in a step that reads a variable once."""


def disable_resource_variables():
    """Accepted: variables are reference variables already."""


def enable_tensor_equality():
    raise _not_here("tf.enable_tensor_equality()", "Tensors compare by identity here, as in "
                    "TF 1 (a Tensor can be a dict key); use tf.equal(a, b) for elementwise "
                    "equality.")


def disable_tensor_equality():
    """Accepted: Tensors compare by identity, as in TF 1."""


def enable_v2_tensorshape():
    raise _not_here("tf.enable_v2_tensorshape()", "A TensorShape's dims are Dimension objects, "
                    "as in TF 1; use shape.as_list() for plain ints (None where unknown).")


def disable_v2_tensorshape():
    """Accepted: a TensorShape's dims are Dimension objects, as in TF 1."""
