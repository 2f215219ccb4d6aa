"""Special functions and einsum -- mirrors TensorFlow 1.x's python/ops/special_math_ops.py
(einsum, lbeta) and the special functions of python/ops/math_ops.py (lgamma, digamma,
polygamma, igamma, igammac), with the gradients of python/ops/math_grad.py.

einsum writes a product-and-sum of tensors as a string of subscripts, one letter per axis:

    tf.einsum('ij,jk->ik', a, b)     matmul            tf.einsum('bij,bjk->bik', a, b)  batch
    tf.einsum('ij->ji', a)           transpose         tf.einsum('ii->', a)             trace
    tf.einsum('i,j->ij', u, v)       outer product     tf.einsum('ij->j', a)            column sums

The kernel is NumPy's einsum. The gradient for one operand is again an einsum: the incoming
gradient (output subscripts) times the other operands, summed to that operand's subscripts --
placed on the diagonal where the operand repeats a letter ('ii'), and stretched along a letter
only it has (the 'j' of 'ij->i'). TF 1.15 refuses a repeated letter ("an axis appears more than
once"); the sandbox takes it. '...' must stand for the same dimensions in every operand (no
broadcasting of size-1 dimensions between operands).

The special functions use SciPy's kernels when SciPy is installed (imported only when the
graph runs), and plain Python ones otherwise (lgamma, digamma; igamma needs SciPy):

    lgamma(x)      log |Gamma(x)|;   d/dx = digamma(x)
    digamma(x)     Gamma'(x) / Gamma(x);   d/dx = polygamma(1, x)
    igamma(a, x)   P(a, x), the regularized lower incomplete gamma; igammac = 1 - P. d/dx is
                   x^(a-1) e^-x / Gamma(a); d/da is taken by central differences in float64
                   (TF has a kernel of its own for it).
    zeta(x, q)     the Hurwitz zeta function sum_n (n + q)^-x;  d/dq = -x zeta(x + 1, q)
    betainc(a, b, x)  the regularized incomplete beta function;  d/dx only, as TF's
"""
import math
import string

import numpy as np

from ..framework import dtypes as _dtypes
from ..framework import errors
from ..framework.graph import name_scope
from ..framework.op_def import OpDef, apply_op
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, unknown_shape
from . import basic_math_ops, math_ops
from .math_ops import _BinaryOp, _binary, _broadcasting, _UnaryOp, _unary, _unbroadcast

__all__ = ["einsum", "lgamma", "digamma", "polygamma", "igamma", "igammac", "lbeta", "zeta",
           "betainc"]


# -- einsum ---------------------------------------------------------------------------------

def _parse(equation, shapes):
    """(input subscripts, output subscripts) with '...' spelled out as letters, for operands
    of the given ranks. Implicit output (no '->'): the letters used once, sorted."""
    eq = equation.replace(" ", "")
    if "->" in eq:
        lhs, out = eq.split("->")
    else:
        lhs, out = eq, None
    ins = lhs.split(",")
    if len(ins) != len(shapes):
        raise ValueError(f"Got {len(shapes)} arguments for equation \"{equation}\", expecting "
                         f"{len(ins)}")
    used = set(c for c in eq if c.isalpha())
    spare = [c for c in string.ascii_letters if c not in used]
    ell_rank = 0
    for sub, rank in zip(ins, shapes):
        if "..." in sub and rank is not None:
            ell_rank = max(ell_rank, rank - (len(sub) - 3))
    ell = "".join(spare[:ell_rank])
    expanded = []
    for sub, rank in zip(ins, shapes):
        if "..." in sub:
            n = rank - (len(sub) - 3)
            sub = sub.replace("...", ell[ell_rank - n:] if n else "")
        expanded.append(sub)
    if out is None:
        letters = "".join(expanded)
        out = ell + "".join(sorted(c for c in set(letters) if letters.count(c) == 1
                                   and c not in ell))
    else:
        out = out.replace("...", ell)
    for c in out:
        if not any(c in s for s in expanded):
            raise ValueError(f"Output subscript {c} did not appear in the inputs of "
                             f"equation \"{equation}\"")
    return expanded, out


class Einsum(OpDef):
    """np.einsum(equation, *inputs)."""

    def shape(op):
        shapes = [t.get_shape() for t in op.inputs]
        if any(s.ndims is None for s in shapes):
            return unknown_shape()
        ins, out = _parse(op.get_attr("equation"), [s.ndims for s in shapes])
        size = {}
        for sub, s in zip(ins, shapes):
            if len(sub) != s.ndims:
                raise ValueError(f"Input has {s.ndims} dimensions but subscripts '{sub}' "
                                 f"name {len(sub)} (equation \"{op.get_attr('equation')}\")")
            for c, d in zip(sub, s.as_list()):
                if d is None or d == 1 and size.get(c) is not None:
                    continue
                if size.get(c) not in (None, 1) and d != size[c]:
                    raise ValueError(f"Expected dimension {size[c]} at axis {sub.index(c)} "
                                     f"of the input shaped {s} but got dimension {d}")
                size[c] = d
        return TensorShape([size.get(c) for c in out])

    def kernel(*inputs, equation="", N=None, T=None):
        ins, out = _parse(equation, [x.ndim for x in inputs])
        try:
            return np.asarray(np.einsum(",".join(ins) + "->" + out, *inputs),
                              dtype=inputs[0].dtype)
        except ValueError as e:
            raise errors.InvalidArgumentError(None, None, f"einsum \"{equation}\": {e}"
                                              ) from None

    def gradient(op, grad):
        n = len(op.inputs)
        return [apply_op("EinsumGrad", [grad] + list(op.inputs),
                         {"equation": op.get_attr("equation"), "index": i,
                          "T": grad.dtype.base_dtype}, name="EinsumGrad")
                for i in range(n)]


class EinsumGrad(OpDef):
    """The gradient of einsum for operand `index`: an einsum of the output's gradient with
    the other operands, put back on the operand's own subscripts."""
    differentiable = False

    def shape(op):
        return op.inputs[1 + op.get_attr("index")].get_shape()

    def kernel(grad, *inputs, equation="", index=0, T=None):
        ins, out = _parse(equation, [x.ndim for x in inputs])
        target = ins[index]
        others = [(s, x) for i, (s, x) in enumerate(zip(ins, inputs)) if i != index]
        avail = set(out).union(*[set(s) for s, _ in others])
        letters = "".join(dict.fromkeys(target))          # distinct, in order
        reduced = "".join(c for c in letters if c in avail)
        subs = ",".join([out] + [s for s, _ in others]) + "->" + reduced
        value = np.einsum(subs, grad, *[x for _, x in others])
        x = inputs[index]
        size = {c: x.shape[target.index(c)] for c in letters}
        # stretch along the letters only this operand has
        full = value.reshape([size[c] if c in reduced else 1 for c in letters])
        full = np.broadcast_to(full, [size[c] for c in letters])
        if len(letters) == len(target):
            result = full
        else:                           # a repeated letter: put it on the diagonal
            result = np.zeros(x.shape, dtype=np.result_type(full))
            grids = np.indices([size[c] for c in letters], sparse=True)
            pos = {c: g for c, g in zip(letters, grids)}
            result[tuple(pos[c] for c in target)] = full
        return np.asarray(result, dtype=grad.dtype).reshape(x.shape)


def einsum(equation, *inputs, **kwargs):
    """A product-and-sum of the inputs written as subscripts: einsum('ij,jk->ik', a, b) is
    a @ b. See the module docstring for the common forms."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise TypeError(f"invalid keyword arguments for this function: "
                        f"{', '.join(sorted(kwargs))}")
    with name_scope(name, "einsum", list(inputs)) as scope:
        xs = [convert_to_tensor(x, name="inputs") for x in inputs]
        if not xs:
            raise ValueError("einsum needs at least one input")
        dtype = xs[0].dtype.base_dtype
        for x in xs[1:]:
            if x.dtype.base_dtype != dtype:
                raise TypeError(f"einsum inputs must have one dtype, got {dtype.name} and "
                                f"{x.dtype.base_dtype.name}")
        if not isinstance(equation, str):
            raise TypeError("equation must be a string")
        if all(x.get_shape().ndims is not None for x in xs):
            _parse(equation, [x.get_shape().ndims for x in xs])     # errors now, as TF's
        return apply_op("Einsum", xs, {"equation": equation, "N": len(xs), "T": dtype},
                        name=scope, output_dtypes=[dtype])


# -- special functions ----------------------------------------------------------------------

def _scipy_special():
    try:
        import scipy.special as special
    except ImportError:                 # pragma: no cover - depends on the environment
        return None
    return special


def _np_lgamma(x):
    special = _scipy_special()
    if special is not None:
        return special.gammaln(x)
    f = np.vectorize(lambda v: math.inf if v <= 0 and v == int(v) else math.lgamma(v),
                     otypes=[np.float64])
    return f(x)


def _np_digamma(x):
    """psi(x); +inf at 0 and the negative integers (TF's value there)."""
    x = np.asarray(x, dtype=np.float64)
    pole = (x <= 0) & (x == np.floor(x))
    special = _scipy_special()
    if special is not None:
        out = special.psi(np.where(pole, 1.0, x))
    else:
        # reflection for x < 0.5, then recurrence up to 6 and the asymptotic series
        y = np.where(pole, 1.0, x)
        refl = y < 0.5
        z = np.where(refl, 1.0 - y, y)
        acc = np.zeros_like(z)
        while np.any(z < 6):
            small = z < 6
            acc = acc - np.where(small, 1.0 / z, 0.0)
            z = np.where(small, z + 1, z)
        inv2 = 1.0 / (z * z)
        out = acc + np.log(z) - 0.5 / z - inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 / 252))
        out = np.where(refl, out - np.pi / np.tan(np.pi * y), out)
    return np.where(pole, np.inf, out)


def _np_polygamma(n, x):
    special = _scipy_special()
    if special is None:
        raise errors.UnimplementedError(None, None, "polygamma needs SciPy "
                                        "(pip install scipy)")
    return special.polygamma(n, x)


class Lgamma(_UnaryOp):
    """y = log|Gamma(x)|; dy/dx = digamma(x)"""
    def kernel(x, T=None):
        return _np_lgamma(x).astype(x.dtype)

    def gradient(op, grad):
        return [math_ops.multiply(grad, digamma(op.inputs[0]))]


class Digamma(_UnaryOp):
    """y = psi(x) = d/dx log Gamma(x); dy/dx = polygamma(1, x)"""
    def kernel(x, T=None):
        return _np_digamma(x).astype(x.dtype)

    def gradient(op, grad):
        x = op.inputs[0]
        one = convert_to_tensor(1, dtype=x.dtype.base_dtype)
        return [math_ops.multiply(grad, polygamma(one, x))]


class Polygamma(_BinaryOp):
    """z = polygamma(a, x), the a-th derivative of digamma; d/dx = polygamma(a + 1, x)"""
    kernel = _broadcasting(lambda a, x: _np_polygamma(a, x).astype(x.dtype))

    def gradient(op, grad):
        a, x = op.inputs
        gx = math_ops.multiply(grad, polygamma(math_ops.add(a, 1), x))
        return [None, _unbroadcast(gx, x, a)]


def _np_igamma(a, x):
    special = _scipy_special()
    if special is None:
        raise errors.UnimplementedError(None, None, "igamma needs SciPy (pip install scipy)")
    return special.gammainc(a, x)


class Igamma(_BinaryOp):
    """z = P(a, x), the regularized lower incomplete gamma function."""
    kernel = _broadcasting(lambda a, x: _np_igamma(a, x).astype(x.dtype))

    def gradient(op, grad):
        return _igamma_grads(op, grad, 1.0)


class Igammac(_BinaryOp):
    """z = Q(a, x) = 1 - P(a, x)."""
    kernel = _broadcasting(lambda a, x: (1.0 - _np_igamma(a, x)).astype(x.dtype))

    def gradient(op, grad):
        return _igamma_grads(op, grad, -1.0)


def _igamma_grads(op, grad, sign):
    a, x = op.inputs
    # dP/dx = exp(-x + (a - 1) log x - lgamma(a))
    log_dx = math_ops.subtract(math_ops.add(math_ops.negative(x), math_ops.multiply(
        math_ops.subtract(a, 1.0), basic_math_ops.log(x))), lgamma(a))
    gx = math_ops.multiply(grad, math_ops.multiply(basic_math_ops.exp(log_dx), sign))
    da = apply_op("IgammaGradA", [a, x], {"T": a.dtype.base_dtype}, name="IgammaGradA")
    ga = math_ops.multiply(grad, math_ops.multiply(da, sign))
    return [_unbroadcast(ga, a, x), _unbroadcast(gx, x, a)]


class IgammaGradA(_BinaryOp):
    """dP(a, x)/da by central differences in float64 (TF: a kernel of its own)."""
    differentiable = False

    def kernel(a, x, T=None):
        a64, x64 = np.asarray(a, np.float64), np.asarray(x, np.float64)
        h = 1e-6 * np.maximum(1.0, np.abs(a64))
        d = (_np_igamma(a64 + h, x64) - _np_igamma(a64 - h, x64)) / (2 * h)
        return np.asarray(d, dtype=a.dtype)


_FLOATS = (_dtypes.float16, _dtypes.float32, _dtypes.float64)


def _special(name):
    special = _scipy_special()
    if special is None:
        raise errors.UnimplementedError(None, None, f"{name} needs SciPy (pip install scipy)")
    return getattr(special, name)


class Zeta(_BinaryOp):
    """z = zeta(x, q) = sum over n >= 0 of (n + q)^-x"""
    kernel = _broadcasting(lambda x, q: _special("zeta")(x, q).astype(x.dtype))

    def gradient(op, grad):
        x, q = op.inputs
        gq = math_ops.multiply(grad, math_ops.multiply(math_ops.negative(x),
                                                       zeta(math_ops.add(x, 1.0), q)))
        return [None, _unbroadcast(gq, q, x)]


class Betainc(OpDef):
    """I_x(a, b), the regularized incomplete beta function (a, b, x broadcast)."""

    def shape(op):
        from .math_ops import _broadcast_static_shape as bss
        a, b, x = (t.get_shape() for t in op.inputs)
        return bss(bss(a, b), x)

    def kernel(a, b, x, T=None):
        return np.asarray(_special("betainc")(a, b, x), dtype=x.dtype)

    def gradient(op, grad):
        a, b, x = op.inputs
        # dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b)
        log_beta = math_ops.subtract(math_ops.add(lgamma(a), lgamma(b)),
                                     lgamma(math_ops.add(a, b)))
        log_dx = math_ops.subtract(math_ops.add(
            math_ops.multiply(math_ops.subtract(a, 1.0), basic_math_ops.log(x)),
            math_ops.multiply(math_ops.subtract(b, 1.0), basic_math_ops.log1p(
                math_ops.negative(x)))), log_beta)
        return [None, None, _unbroadcast(math_ops.multiply(grad, basic_math_ops.exp(log_dx)),
                                         x)]


def zeta(x, q, name=None):
    """The Hurwitz zeta function: sum over n >= 0 of (n + q)^-x."""
    return _binary("Zeta", x, q, name, allowed=_FLOATS)


def betainc(a, b, x, name=None):
    """I_x(a, b) = B(x; a, b) / B(a, b), the regularized incomplete beta function."""
    with name_scope(name, "Betainc", [a, b, x]) as scope:
        x = convert_to_tensor(x, name="x")
        dtype = x.dtype.base_dtype
        a = convert_to_tensor(a, dtype=dtype, name="a")
        b = convert_to_tensor(b, dtype=dtype, name="b")
        return apply_op("Betainc", [a, b, x], {"T": dtype}, name=scope, output_dtypes=[dtype])


def lgamma(x, name=None):
    """log |Gamma(x)| entry by entry (+inf at 0 and the negative integers)."""
    return _unary("Lgamma", x, name)


def digamma(x, name=None):
    """psi(x), the derivative of lgamma."""
    return _unary("Digamma", x, name)


def polygamma(a, x, name=None):
    """The a-th derivative of digamma at x (a: whole numbers, of x's dtype)."""
    return _binary("Polygamma", a, x, name, allowed=_FLOATS)


def igamma(a, x, name=None):
    """P(a, x) = gamma(a, x) / Gamma(a), the regularized lower incomplete gamma function."""
    return _binary("Igamma", a, x, name, allowed=_FLOATS)


def igammac(a, x, name=None):
    """Q(a, x) = 1 - P(a, x), the regularized upper incomplete gamma function."""
    return _binary("Igammac", a, x, name, allowed=_FLOATS)


def lbeta(x, name=None):
    """log |Beta(x)| along the last axis: sum(lgamma(x)) - lgamma(sum(x))."""
    from .reduction_ops import reduce_sum
    with name_scope(name, "lbeta", [x]):
        x = convert_to_tensor(x, name="x")
        return math_ops.subtract(reduce_sum(lgamma(x), -1), lgamma(reduce_sum(x, -1)))
