"""Higher-order functions -- mirrors TensorFlow's python/ops/map_fn.py (tf.map_fn) and
python/ops/functional_ops.py (tf.foldl, tf.foldr, tf.scan), graph mode as in TF 1.x.

As in TF, each is ONE tf.while_loop (ops/while_v2.py) over the first dimension of `elems`:
every flat tensor of `elems` is unstacked into a tf.TensorArray (ops/tensor_array_ops.py)
before the loop; the loop's body reads element i of each, calls `fn` once (the body is built
once, so `fn` is called once while the graph is built), and -- map_fn and scan -- writes the
flat results into output TensorArrays (loop variables), which are stacked after the loop.
foldl and foldr carry the accumulator as a loop variable and return its final value.

So `elems` may be empty where TF's may: map_fn / scan give an empty result when the shape of
an element of the result is known when the graph is built (TF's "only static shapes are
supported when packing zero-size TensorArrays" otherwise), and a fold with an initializer
returns the initializer; without one, reading element 0 fails as in TF. `elems`, `dtype` and
`initializer` may be nested structures (lists, tuples, namedtuples, dicts).

Gradients flow through the TensorArrays' flows and the loop, as in TF. `parallel_iterations`,
`back_prop` and `swap_memory` are handed to tf.while_loop (which accepts them; its iterations
run one after the other). TF's variable-scope caching device is not set.
"""
from ..framework import dtypes as _dtypes
from ..framework.graph import get_default_graph
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .func_graph import FuncGraph, assert_same_structure, flatten, pack_sequence_as
from .while_v2 import while_loop

__all__ = ["map_fn", "foldl", "foldr", "scan", "vectorized_map"]


# -- shared pieces ----------------------------------------------------------------------------

def _check_callable(fn):
    if not callable(fn):
        raise TypeError(f"{getattr(fn, '__name__', fn)!r} is not callable. Please provide a "
                        "callable function.")


def _flat_elems(elems):
    """The flat tensors of `elems` (each at least 1-D)."""
    flat = [convert_to_tensor(e, name="elem") for e in flatten(elems)]
    if not flat:
        raise ValueError(f"elems must be a Tensor or (possibly nested) sequence of Tensors. "
                         f"Got {elems!r}, which does not contain any Tensors.")
    for e in flat:
        if e.get_shape().ndims == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    return flat


def _length(flat):
    """(n, n_static): the number of elements -- a Python int when the first dimension is
    known, else a tensor -- and the static dimension (None when unknown)."""
    from .array_ops import shape
    dims = [e.get_shape()[0] if e.get_shape().ndims else None for e in flat]
    dims = [None if d is None else getattr(d, "value", d) for d in dims]
    known = [d for d in dims if d is not None]
    if len(set(known)) > 1:
        raise ValueError(f"All elems must have the same first dimension, got {dims}.")
    n_static = known[0] if dims[0] is not None else None
    return (n_static if n_static is not None else shape(flat[0])[0]), n_static


def _unstacked(flat, n):
    """One TensorArray per flat tensor of elems, holding its elements."""
    from .tensor_array_ops import TensorArray
    tas = []
    for e in flat:
        shape = e.get_shape()
        ta = TensorArray(dtype=e.dtype.base_dtype, size=n, dynamic_size=False,
                         infer_shape=True,
                         element_shape=shape[1:] if shape.ndims else None)
        tas.append(ta.unstack(e))
    return tas


def _read(tas, structure, i):
    """Element i of elems, as `structure`."""
    return pack_sequence_as(structure, [ta.read(i) for ta in tas])


def _output_arrays(dtypes, n, infer_shape, element_shapes=None):
    from .tensor_array_ops import TensorArray
    shapes = element_shapes or [None] * len(dtypes)
    return [TensorArray(dtype=d, size=n, dynamic_size=False, infer_shape=infer_shape,
                        element_shape=s) for d, s in zip(dtypes, shapes)]


def _stacked(tas, n_static):
    """The output TensorArrays stacked, with the static number of elements when known (an
    empty map_fn / scan stacks zero elements of the shape its TensorArray learned from fn's
    writes, as TF's TensorArrayGatherV3 does)."""
    results = []
    for ta in tas:
        r = ta.stack()
        rest = r.get_shape()
        if rest.ndims:
            r.set_shape(TensorShape([n_static]).concatenate(rest[1:]))
        results.append(r)
    return results


def _loop(cond, body, loop_vars, n, parallel_iterations, back_prop, swap_memory):
    return while_loop(cond, body, loop_vars, parallel_iterations=parallel_iterations,
                      back_prop=back_prop, swap_memory=swap_memory, maximum_iterations=n)


def _flat_values(values, dtypes):
    return [convert_to_tensor(v, dtype=d) for v, d in zip(flatten(values), dtypes)]


# -- the functions ---------------------------------------------------------------------------

def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None):
    """[fn(elems[0]), fn(elems[1]), ...] stacked. `elems` may be a nested structure (fn gets
    one element of it, in that structure); `dtype` is the structure of fn's result when that
    differs from elems' (e.g. a tuple of dtypes)."""
    from .constant_op import constant
    _check_callable(fn)
    g = get_default_graph()
    with g.name_scope(name or "map"):
        flat = _flat_elems(elems)
        n, n_static = _length(flat)
        elems_ta = _unstacked(flat, n)
        out_structure = elems if dtype is None else dtype
        out_dtypes = [e.dtype.base_dtype for e in flat] if dtype is None else \
            [_dtypes.as_dtype(d).base_dtype for d in flatten(dtype)]
        accs = _output_arrays(out_dtypes, n, infer_shape)

        def compute(i, tas):
            out = fn(_read(elems_ta, elems, i))
            assert_same_structure(out_structure, out, "fn's result and `dtype` (or `elems` "
                                  "when no dtype is given)")
            return i + 1, [ta.write(i, v) for ta, v in zip(tas, _flat_values(out, out_dtypes))]
        _, accs = _loop(lambda i, _: i < n, compute, (constant(0), accs), n,
                        parallel_iterations or 10, back_prop, swap_memory)
        return pack_sequence_as(out_structure, _stacked(accs, n_static))


def vectorized_map(fn, elems):
    """fn applied to each element of `elems` (along axis 0), the results stacked -- TF's
    parallel_for.vectorized_map. TensorFlow vectorizes fn's ops (pfor) to compute every
    element at once; the sandbox runs map_fn's loop: the same values, one element at a time.
    The structure and dtypes of fn's result are learned by building fn once on a placeholder
    element in a scratch function graph (which captures what fn uses of this graph)."""
    from .constant_op import placeholder
    _check_callable(fn)
    flat = _flat_elems(elems)
    probe = FuncGraph("vectorized_map_probe", get_default_graph())
    with probe.building():
        sample = pack_sequence_as(elems, [placeholder(e.dtype.base_dtype, e.get_shape()[1:])
                                          for e in flat])
        out = fn(sample)
        out_dtypes = pack_sequence_as(out, [convert_to_tensor(t).dtype.base_dtype
                                            for t in flatten(out)])
    return map_fn(fn, elems, dtype=out_dtypes, name="vectorized_map")


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
         swap_memory=False, infer_shape=True, reverse=False, name=None):
    """[a_1, a_2, ..., a_n] where a_k = fn(a_{k-1}, elems[k-1]) and a_0 = initializer (without
    one, a_1 = elems[0] and fn starts at elems[1]); reverse=True goes from the last element to
    the first, and the result keeps elems' order. The accumulator may be nested."""
    _check_callable(fn)
    g = get_default_graph()
    with g.name_scope(name or "scan"):
        flat = _flat_elems(elems)
        n, n_static = _length(flat)
        elems_ta = _unstacked(flat, n)
        structure = elems if initializer is None else initializer
        if initializer is None:
            a_flat = [ta.read(n - 1 if reverse else 0) for ta in elems_ta]
            start = 1
        else:
            a_flat = [convert_to_tensor(t) for t in flatten(initializer)]
            start = 0
        a_dtypes = [a.dtype.base_dtype for a in a_flat]
        accs = _output_arrays(a_dtypes, n, infer_shape,
                              [a.get_shape() if infer_shape else None for a in a_flat])
        if initializer is None:
            accs = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(accs, a_flat)]

        def compute(i, a, tas):
            out = fn(pack_sequence_as(structure, a), _read(elems_ta, elems, i))
            assert_same_structure(structure, out, "fn's result and `initializer` (or `elems` "
                                  "when no initializer is given)")
            out = _flat_values(out, a_dtypes)
            return (i - 1 if reverse else i + 1), out, [ta.write(i, v) for ta, v in
                                                        zip(tas, out)]
        if reverse:
            i0, cond = n - 1 - start, (lambda i, _a, _t: i >= 0)
        else:
            i0, cond = start, (lambda i, _a, _t: i < n)
        _, _, accs = _loop(cond, compute, (convert_to_tensor(i0, dtype=_dtypes.int32),
                                           a_flat, accs), n, parallel_iterations, back_prop,
                           swap_memory)
        return pack_sequence_as(structure, _stacked(accs, n_static))


def _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory, reverse):
    """fn applied from the first element to the last (foldl) or the last to the first (foldr)."""
    _check_callable(fn)
    flat = _flat_elems(elems)
    n, _ = _length(flat)
    elems_ta = _unstacked(flat, n)
    if initializer is None:
        i0 = n - 1 if reverse else 1
        a = _read(elems_ta, elems, i0 if reverse else 0)
    else:
        i0 = n if reverse else 0
        a = initializer
    structure = a
    a_flat = [convert_to_tensor(t) for t in flatten(a)]
    a_dtypes = [t.dtype.base_dtype for t in a_flat]

    def compute(i, acc):
        if reverse:
            i = i - 1
        out = fn(pack_sequence_as(structure, acc), _read(elems_ta, elems, i))
        assert_same_structure(structure, out, "fn's result and the accumulator")
        return (i if reverse else i + 1), _flat_values(out, a_dtypes)
    cond = (lambda i, _: i > 0) if reverse else (lambda i, _: i < n)
    _, a_flat = _loop(cond, compute, (convert_to_tensor(i0, dtype=_dtypes.int32), a_flat), n,
                      parallel_iterations, back_prop, swap_memory)
    return pack_sequence_as(structure, a_flat)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """fn(...fn(fn(initializer, elems[0]), elems[1])..., elems[n-1]) (without an initializer,
    elems[0] is the first accumulator). The accumulator may be nested."""
    g = get_default_graph()
    with g.name_scope(name or "foldl"):
        return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory,
                     reverse=False)


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True,
          swap_memory=False, name=None):
    """fn(...fn(fn(initializer, elems[n-1]), elems[n-2])..., elems[0]) (without an
    initializer, elems[n-1] is the first accumulator)."""
    g = get_default_graph()
    with g.name_scope(name or "foldr"):
        return _fold(fn, elems, initializer, parallel_iterations, back_prop, swap_memory,
                     reverse=True)
