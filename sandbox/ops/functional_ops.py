"""Higher-order functions -- mirrors TensorFlow 1.x's python/ops/map_fn.py and functional_ops.py
(tf.map_fn, tf.foldl, tf.foldr, tf.scan).

Each is a tf.while_loop (while_v2.py) over the first dimension of `elems`: the loop counter i
picks `elems[i]` with tf.gather, `fn` runs once per element inside the loop's body, and the
results are stacked along a new first dimension. TF accumulates them in a TensorArray; these
were written before the sandbox had one (ops/tensor_array_ops.py), so map_fn and scan compute the first element's result before the loop
(from which the accumulator gets its shape) and concatenate the others to it -- the results
are the same, but `elems` must not be empty (the error says so), and `fn` is built twice
(once for element 0, once in the loop body). Gradients flow through, as through any loop.
"""
from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from .func_graph import flatten, pack_sequence_as
from .while_v2 import while_loop

__all__ = ["map_fn", "foldl", "foldr", "scan"]


def _elems(elems):
    flat = [convert_to_tensor(e) for e in flatten(elems)]
    if not flat:
        raise ValueError("elems must be a Tensor or (possibly nested) sequence of Tensors.")
    return flat


def _at(flat, structure, i):
    from .indexing_ops import gather
    return pack_sequence_as(structure, [gather(e, i) for e in flat])


def _length(flat, what):
    from .array_ops import shape
    n = flat[0].get_shape()
    if n.ndims == 0:
        raise ValueError(f"{what}: elems must be at least one-dimensional, got a scalar "
                         f"{flat[0].name}.")
    return shape(flat[0])[0]


def _not_empty(flat, name):
    """An Assert that elems has an element (run before element 0 is read)."""
    from .comparison_ops import greater
    from .logging_ops import Assert
    return Assert(greater(_length(flat, name), 0),
                  [f"{name}: elems is empty; the sandbox's {name} needs at least one element "
                   "(TF returns an empty tensor)."])


def _stacked_loop(fn, flat, elems, first, with_acc):
    """acc = [first] then fn(...) of elements 1 .. n-1 concatenated (map_fn, scan)."""
    from ..framework.tensor_shape import TensorShape
    from .array_ops import expand_dims
    from .constant_op import constant
    from .slicing_ops import concat
    n = _length(flat, "")
    first_flat = [convert_to_tensor(t) for t in flatten(first)]
    acc0 = [expand_dims(t, 0) for t in first_flat]
    invariants = [TensorShape([None]).concatenate(t.get_shape()) for t in first_flat]

    def body(i, last, acc):
        out = fn(pack_sequence_as(first, last), _at(flat, elems, i)) if with_acc else \
            fn(_at(flat, elems, i))
        out = [convert_to_tensor(t) for t in flatten(out)]
        return (i + 1, out, [concat([a, expand_dims(t, 0)], 0) for a, t in zip(acc, out)])

    _, _, acc = while_loop(lambda i, last, acc: i < n, body, [constant(1), first_flat, acc0],
                           shape_invariants=[TensorShape([]),
                                             [t.get_shape() for t in first_flat], invariants])
    return pack_sequence_as(first, acc)


def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None):
    """[fn(elems[0]), fn(elems[1]), ...] stacked (elems may be a nested structure; fn gets
    the same structure for one element)."""
    from .constant_op import constant
    g = get_default_graph()
    with g.name_scope(name or "map"):
        flat = _elems(elems)
        with g.control_dependencies([_not_empty(flat, "map_fn")]):
            first = fn(_at(flat, elems, constant(0)))
        return _stacked_loop(fn, flat, elems, first, with_acc=False)


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """[a1, a2, ...] where a_k = fn(a_{k-1}, elems[k]) (a_0 = initializer, or elems[0])."""
    from .array_ops import reverse_v2
    from .constant_op import constant
    g = get_default_graph()
    with g.name_scope(name or "scan"):
        flat = _elems(elems)
        if reverse:
            flat = [reverse_v2(e, [0]) for e in flat]
            elems = pack_sequence_as(elems, flat)
        with g.control_dependencies([_not_empty(flat, "scan")]):
            first = _at(flat, elems, constant(0))
            if initializer is not None:
                first = fn(initializer, first)
        result = _stacked_loop(fn, flat, elems, first, with_acc=True)
        if reverse:
            result = pack_sequence_as(result, [reverse_v2(t, [0]) for t in flatten(result)])
        return result


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """fn(...fn(fn(initializer, elems[0]), elems[1])..., elems[n-1])."""
    from .constant_op import constant
    g = get_default_graph()
    with g.name_scope(name or "foldl"):
        flat = _elems(elems)
        n = _length(flat, "foldl")
        if initializer is None:
            acc0, start = _at(flat, elems, constant(0)), 1
        else:
            acc0, start = initializer, 0
        structure = acc0

        def body(i, acc):
            out = fn(pack_sequence_as(structure, acc), _at(flat, elems, i))
            return i + 1, [convert_to_tensor(t) for t in flatten(out)]
        _, acc = while_loop(lambda i, acc: i < n, body,
                            [constant(start), [convert_to_tensor(t) for t in flatten(acc0)]])
        return pack_sequence_as(structure, acc)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """foldl over the reversed elems."""
    from .array_ops import reverse_v2
    g = get_default_graph()
    with g.name_scope(name or "foldr"):
        flat = [reverse_v2(e, [0]) for e in _elems(elems)]
        return foldl(fn, pack_sequence_as(elems, flat), initializer)
