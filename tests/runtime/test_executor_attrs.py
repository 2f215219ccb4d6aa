"""How the executor binds a kernel to its node's attrs (runtime/kernel_attrs.py): an attr the
kernel never reads (most kernels accept the dtype `T` and ignore it) or one equal to the
kernel's default is not passed, so most kernels are called directly; every other attr is."""
import numpy as np

from sandbox.runtime.executor import Executor
from sandbox.runtime.kernel_attrs import attrs_to_pass, positional_attrs


def kernel(x, y, transpose=False, scale=1.0, T=None):
    return (x.T if transpose else x) * scale + y


def test_attrs_the_kernel_ignores_or_that_equal_its_defaults_are_left_out():
    assert attrs_to_pass(kernel, {"T": "float32", "transpose": False, "scale": 1.0}) == {}


def test_attrs_the_kernel_reads_with_other_values_are_passed():
    assert attrs_to_pass(kernel, {"T": "float32", "transpose": True, "scale": 2.0}) == \
        {"transpose": True, "scale": 2.0}


def test_required_and_unknown_attrs_are_passed_as_they_are():
    def needs(x, key, T=None):
        return key

    assert attrs_to_pass(needs, {"key": "k", "other": 1, "T": "int32"}) == \
        {"key": "k", "other": 1}


def test_an_attr_read_only_by_a_nested_function_counts_as_read():
    def outer(x, factor=1):
        return (lambda: x * factor)()

    assert attrs_to_pass(outer, {"factor": 3}) == {"factor": 3}


def test_a_matmul_with_transpose_a_still_transposes():
    nodes = [
        {"name": "a", "op": "Const", "input": [], "attr": {
            "value": np.arange(6, dtype=np.float32).reshape(3, 2), "dtype": "float32"}},
        {"name": "b", "op": "Const", "input": [], "attr": {
            "value": np.ones((3, 1), np.float32), "dtype": "float32"}},
        {"name": "mm", "op": "MatMul", "input": ["a", "b"], "attr": {
            "transpose_a": True, "transpose_b": False, "T": "float32"}},
    ]
    (out,) = Executor(nodes, fetches=["mm:0"]).run()
    np.testing.assert_array_equal(out, [[6.0], [9.0]])


def test_a_kernel_that_is_no_plain_function_gets_every_attr():
    import functools

    bound = functools.partial(kernel, transpose=True)
    assert attrs_to_pass(bound, {"T": "float32", "scale": 1.0}) == {"T": "float32", "scale": 1.0}


def test_attrs_go_by_position_after_the_inputs_defaults_filling_the_gaps():
    def send(ctx, step, value, key, tensor_name, flag=False, T=None):
        return value

    assert positional_attrs(send, 3, {"key": "k", "tensor_name": "t"}) == ("k", "t")
    assert positional_attrs(send, 3, {"key": "k", "tensor_name": "t", "T": 1}) == \
        ("k", "t", False, 1)
    assert positional_attrs(send, 3, {}) == ()


def test_attrs_that_cannot_go_by_position_stay_keywords():
    def keyword_only(x, *, scale):
        return x * scale

    def needs_key(ctx, step, value, key, tensor_name):
        return value

    assert positional_attrs(keyword_only, 1, {"scale": 2}) is None
    assert positional_attrs(needs_key, 3, {"tensor_name": "t"}) is None     # key missing
    assert positional_attrs(needs_key, 3, {"key": "k", "other": 1}) is None
