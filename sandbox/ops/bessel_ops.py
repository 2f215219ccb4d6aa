"""Modified Bessel functions of the first kind -- mirrors TF 1.15's tf.math.bessel_i0e and
bessel_i1e (the BesselI0e, BesselI1e ops of python/ops/math_ops.py, kernels from Eigen's
SpecialFunctions), tf.math.bessel_i0 and bessel_i1 (python/ops/special_math_ops.py), and
their gradients in python/ops/math_grad.py.

    I0(x) = sum_k (x/2)^(2k) / (k!)^2          I1(x) = sum_k (x/2)^(2k+1) / (k! (k+1)!)

Both grow like e^|x| / sqrt(2 pi |x|), so TF computes the *exponentially scaled* ones,
i0e(x) = e^-|x| I0(x) and i1e(x) = e^-|x| I1(x), and builds the others from them, as TF 1.15:

    tf.math.bessel_i0(x) = exp(abs(x)) * bessel_i0e(x)     (ops bessel_i0/Exp, .../BesselI0e)

The kernels are Cephes' (i0e.c, i1e.c), as Eigen uses: a Chebyshev series in x/2 - 2 for
|x| <= 8, and one in 32/|x| - 2 times 1/sqrt(|x|) beyond. They run in float64 and round to
the input's dtype (TF's float32 kernels use shorter series; the values agree to ~1e-7).

Gradients (d/dx I0 = I1, d/dx I1 = I0 - I1/x):

    d i0e/dx = i1e(x) - sign(x) i0e(x)          d i1e/dx = i0e(x) - i1e(x) (sign(x) + 1/x)

and 0.5 at x = 0 for i1e, where the formula divides by zero. (TF 2.x has BesselI0/BesselI1
kernels of their own, whose gradient of bessel_i1 at 0 is 1.0; TF 1.15's, and the true
derivative, is 0.5.) Only under tf.math, as in TF 1.15: sandbox/api/math.py.
"""
import numpy as np

from ..framework.graph import name_scope
from ..framework.tensor import convert_to_tensor
from . import array_ops, basic_math_ops, comparison_ops, math_ops
from .math_ops import _FLOATS, _UnaryOp, _unary

__all__ = ["bessel_i0", "bessel_i0e", "bessel_i1", "bessel_i1e"]


# -- Cephes' Chebyshev coefficients (Eigen's generic_i0e / generic_i1e, double) ------------

_I0E_SMALL = [  # |x| <= 8: i0e(x) = chbevl(x/2 - 2, A)
    -4.41534164647933937950E-18, 3.33079451882223809783E-17, -2.43127984654795469359E-16,
    1.71539128555513303061E-15, -1.16853328779934516808E-14, 7.67618549860493561688E-14,
    -4.85644678311192946090E-13, 2.95505266312963983461E-12, -1.72682629144155570723E-11,
    9.67580903537323691224E-11, -5.18979560163526290666E-10, 2.65982372468238665035E-9,
    -1.30002500998624804212E-8, 6.04699502254191894932E-8, -2.67079385394061173391E-7,
    1.11738753912010371815E-6, -4.41673835845875056359E-6, 1.64484480707288970893E-5,
    -5.75419501008210370398E-5, 1.88502885095841655729E-4, -5.76375574538582365885E-4,
    1.63947561694133579842E-3, -4.32430999505057594430E-3, 1.05464603945949983183E-2,
    -2.37374148058994688156E-2, 4.93052842396707084878E-2, -9.49010970480476444210E-2,
    1.71620901522208775349E-1, -3.04682672343198398683E-1, 6.76795274409476084995E-1]
_I0E_LARGE = [  # |x| > 8: i0e(x) = chbevl(32/|x| - 2, B) / sqrt(|x|)
    -7.23318048787475395456E-18, -4.83050448594418207126E-18, 4.46562142029675999901E-17,
    3.46122286769746109310E-17, -2.82762398051658348494E-16, -3.42548561967721913462E-16,
    1.77256013305652638360E-15, 3.81168066935262242075E-15, -9.55484669882830764870E-15,
    -4.15056934728722208663E-14, 1.54008621752140982691E-14, 3.85277838274214270114E-13,
    7.18012445138366623367E-13, -1.79417853150680611778E-12, -1.32158118404477131188E-11,
    -3.14991652796324136454E-11, 1.18891471078464383424E-11, 4.94060238822496958910E-10,
    3.39623202570838634515E-9, 2.26666899049817806459E-8, 2.04891858946906374183E-7,
    2.89137052083475648297E-6, 6.88975834691682398426E-5, 3.36911647825569408990E-3,
    8.04490411014108831608E-1]
_I1E_SMALL = [  # |x| <= 8: i1e(x) = |x| chbevl(x/2 - 2, A)
    2.77791411276104639959E-18, -2.11142121435816608115E-17, 1.55363195773620046921E-16,
    -1.10559694773538630805E-15, 7.60068429473540693410E-15, -5.04218550472791168711E-14,
    3.22379336594557470981E-13, -1.98397439776494371520E-12, 1.17361862988909016308E-11,
    -6.66348972350202774223E-11, 3.62559028155211703701E-10, -1.88724975172282928790E-9,
    9.38153738649577178388E-9, -4.44505912879632808065E-8, 2.00329475355213526229E-7,
    -8.56872026469545474066E-7, 3.47025130813767847674E-6, -1.32731636560394358279E-5,
    4.78156510755005422638E-5, -1.61760815825896745588E-4, 5.12285956168575772895E-4,
    -1.51357245063125314899E-3, 4.15642294431288815669E-3, -1.05640848946261981558E-2,
    2.47264490306265168283E-2, -5.29459812080949914269E-2, 1.02643658689847095384E-1,
    -1.76416518357834055153E-1, 2.52587186443633654823E-1]
_I1E_LARGE = [  # |x| > 8: i1e(x) = chbevl(32/|x| - 2, B) / sqrt(|x|)
    7.51729631084210481353E-18, 4.41434832307170791151E-18, -4.65030536848935832153E-17,
    -3.20952592199342395980E-17, 2.96262899764595013876E-16, 3.30820231092092828324E-16,
    -1.88035477551078244854E-15, -3.81440307243700780478E-15, 1.04202769841288027642E-14,
    4.27244001671195135429E-14, -2.10154184277266431302E-14, -4.08355111109219731823E-13,
    -7.19855177624590851209E-13, 2.03562854414708950722E-12, 1.41258074366137813316E-11,
    3.25260358301548823856E-11, -1.89749581235054123450E-11, -5.58974346219658380687E-10,
    -3.83538038596423702205E-9, -2.63146884688951950684E-8, -2.51223623787020892529E-7,
    -3.88256480887769039346E-6, -1.10588938762623716291E-4, -9.76109749136146840777E-3,
    7.78576235018280120474E-1]


def _chbevl(t, coefficients):
    """Cephes' chbevl: the Chebyshev series sum' c_i T_i(t/2), by Clenshaw's recurrence
    (coefficients highest order first)."""
    b0, b1, b2 = np.full_like(t, coefficients[0]), np.zeros_like(t), np.zeros_like(t)
    for c in coefficients[1:]:
        b2, b1 = b1, b0
        b0 = t * b1 - b2 + c
    return 0.5 * (b0 - b2)


def _scaled(x, small, large, odd):
    """e^-|x| I_n(x) from the two Cephes series; `odd` (I1) multiplies the small-|x| series
    by |x| and gives the result the sign of x."""
    y = np.abs(np.asarray(x, dtype=np.float64))
    with np.errstate(divide="ignore", invalid="ignore"):
        near = _chbevl(y / 2.0 - 2.0, small) * (y if odd else 1.0)
        far = _chbevl(32.0 / y - 2.0, large) / np.sqrt(y)
    out = np.where(y <= 8.0, near, far)
    if odd:
        out = np.where(np.asarray(x) < 0, -out, out)
    return out.astype(x.dtype)


class BesselI0e(_UnaryOp):
    """y = exp(-|x|) I0(x)"""
    def kernel(x, T=None):
        return _scaled(x, _I0E_SMALL, _I0E_LARGE, odd=False)

    def gradient(op, grad):
        x, y = op.inputs[0], op.outputs[0]
        partial = math_ops.subtract(bessel_i1e(x), math_ops.multiply(basic_math_ops.sign(x), y))
        return [math_ops.multiply(grad, partial)]


class BesselI1e(_UnaryOp):
    """y = exp(-|x|) I1(x)"""
    def kernel(x, T=None):
        return _scaled(x, _I1E_SMALL, _I1E_LARGE, odd=True)

    def gradient(op, grad):
        # As TF 1.15's math_grad: x is replaced by eps where |x| <= eps (the formula divides
        # by x), and the gradient there is the limit 0.5.
        x, y = op.inputs[0], op.outputs[0]
        dtype = x.dtype.base_dtype
        eps = np.finfo(dtype.as_numpy_dtype).eps
        zeros = array_ops.zeros_like(x)
        not_tiny = comparison_ops.greater(basic_math_ops.abs(x), eps)
        safe_x = comparison_ops.where(not_tiny, x, math_ops.add(zeros, eps))
        dy_dx = math_ops.subtract(
            bessel_i0e(safe_x),
            math_ops.multiply(y, math_ops.add(basic_math_ops.sign(safe_x),
                                              basic_math_ops.reciprocal(safe_x))))
        half = math_ops.add(zeros, np.asarray(0.5, dtype.as_numpy_dtype))
        return [math_ops.multiply(grad, comparison_ops.where(not_tiny, dy_dx, half))]


def bessel_i0e(x, name=None):
    """exp(-|x|) I0(x), the exponentially scaled modified Bessel function of order 0."""
    return _unary("BesselI0e", x, name, allowed=_FLOATS)


def bessel_i1e(x, name=None):
    """exp(-|x|) I1(x), the exponentially scaled modified Bessel function of order 1."""
    return _unary("BesselI1e", x, name, allowed=_FLOATS)


def _unscaled(scaled_fn, x, name, default_name):
    with name_scope(name, default_name, [x]):
        x = convert_to_tensor(x, name="x")
        return math_ops.multiply(basic_math_ops.exp(basic_math_ops.abs(x)), scaled_fn(x))


def bessel_i0(x, name=None):
    """I0(x), the modified Bessel function of order 0: exp(|x|) * bessel_i0e(x)."""
    return _unscaled(bessel_i0e, x, name, "bessel_i0")


def bessel_i1(x, name=None):
    """I1(x), the modified Bessel function of order 1: exp(|x|) * bessel_i1e(x)."""
    return _unscaled(bessel_i1e, x, name, "bessel_i1")
