"""The normal distribution function, its log and its inverse -- mirrors TF 1.15's
python/ops/distributions/special_math.py (ndtr, log_ndtr, ndtri), built of erf/erfc, log and
polynomials so that gradients flow.

    ndtr(x)     = P[Z <= x] for Z ~ N(0, 1) = 0.5 * erfc(-x / sqrt(2))
    ndtri(p)    = the x with ndtr(x) = p (Cephes' rational approximations, as TF)
    log_ndtr(x) = log(ndtr(x)), accurate far into both tails: -ndtr(-x) above 5 (float32;
                  8 for float64), the asymptotic series of the tail below -10 (-20).
"""
import numpy as np

from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from .. import array_ops, basic_math_ops, comparison_ops
from ..manip_ops import where_v2
from ..math_extra_ops import erfc

__all__ = ["ndtr", "ndtri", "log_ndtr"]

# Where log_ndtr switches method, per dtype: (lower, upper), TF's numbers.
_LOG_NDTR_SEGMENTS = {_dtypes.float32: (-10., 5.), _dtypes.float64: (-20., 8.)}


def _float_x(x, what):
    x = convert_to_tensor(x, name="x")
    if x.dtype.base_dtype not in _LOG_NDTR_SEGMENTS:
        raise TypeError(f"x.dtype={x.dtype} is not handled by {what}: use float32 or "
                        "float64.")
    return x


def ndtr(x, name="ndtr"):
    """The standard normal distribution function, P[Z <= x]."""
    with name_scope(name, values=[x]):
        return _ndtr(_float_x(x, "ndtr"))


def _ndtr(x):
    half_sqrt_2 = convert_to_tensor(0.5 * np.sqrt(2.), dtype=x.dtype.base_dtype,
                                    name="half_sqrt_2")
    w = x * half_sqrt_2
    z = basic_math_ops.abs(w)
    y = where_v2(comparison_ops.less(z, half_sqrt_2), 1. + basic_math_ops.erf(w),
                 where_v2(comparison_ops.greater(w, 0.), 2. - erfc(z), erfc(z)))
    return 0.5 * y


# Cephes' coefficients of ndtri: for 0.135 < p < 0.865 (p0 / q0), and the tails, where
# z = sqrt(-2 log p) is below 8 (p1 / q1) or not (p2 / q2).
_NDTRI_P0 = [-1.23916583867381258016E0, 1.39312609387279679503E1, -5.66762857469070293439E1,
             9.80010754185999661536E1, -5.99633501014107895267E1]
_NDTRI_Q0 = [-1.18331621121330003142E0, 1.59056225126211695515E1, -8.20372256168333339912E1,
             2.00260212380060660359E2, -2.25462687854119370527E2, 8.63602421390890590575E1,
             4.67627912898881538453E0, 1.95448858338141759834E0, 1.0]
_NDTRI_P1 = [-8.57456785154685413611E-4, -3.50424626827848203418E-2, -1.40256079171354495875E-1,
             2.18663306850790267539E0, 1.46849561928858024014E1, 4.40805073893200834700E1,
             5.71628192246421288162E1, 3.15251094599893866154E1, 4.05544892305962419923E0]
_NDTRI_Q1 = [-9.33259480895457427372E-4, -3.80806407691578277194E-2, -1.42182922854787788574E-1,
             2.50464946208309415979E0, 1.50425385692907503408E1, 4.13172038254672030440E1,
             4.53907635128879210584E1, 1.57799883256466749731E1, 1.0]
_NDTRI_P2 = [6.23974539184983293730E-9, 2.65806974686737550832E-6, 3.01581553508235416007E-4,
             1.23716634817820021358E-2, 2.01485389549179081538E-1, 1.33303460815807542389E0,
             3.93881025292474443415E0, 6.91522889068984211695E0, 3.23774891776946035970E0]
_NDTRI_Q2 = [6.79019408009981274425E-9, 2.89247864745380683936E-6, 3.28014464682127739104E-4,
             1.34204006088543189037E-2, 2.16236993594496635890E-1, 1.37702099489081330271E0,
             3.67983563856160859403E0, 6.02427039364742014255E0, 1.0]


def _polynomial(var, coeffs):
    """coeffs[0] + var * (coeffs[1] + var * (...)), by Horner's rule (TF's order)."""
    coeffs = np.array(coeffs, var.dtype.as_numpy_dtype)
    result = array_ops.zeros_like(var)
    for c in coeffs[::-1]:
        result = c + result * var
    return result


def ndtri(p, name="ndtri"):
    """The inverse of ndtr: the x with P[Z <= x] = p; -inf at 0, inf at 1."""
    with name_scope(name, values=[p]):
        p = _float_x(p, "ndtri")
        lt, gt = comparison_ops.less_equal, comparison_ops.greater
        np_dtype = p.dtype.as_numpy_dtype
        maybe_complement_p = where_v2(gt(p, -np.expm1(-2.)), 1. - p, p)
        sanitized_mcp = where_v2(lt(maybe_complement_p, 0.),
                                 array_ops.fill(array_ops.shape(p), np.array(0.5, np_dtype)),
                                 maybe_complement_p)
        w = sanitized_mcp - 0.5               # the middle: a rational function of w**2
        ww = w ** 2
        x_for_big_p = w + w * ww * (_polynomial(ww, _NDTRI_P0) / _polynomial(ww, _NDTRI_Q0))
        x_for_big_p *= -np.sqrt(2. * np.pi)
        z = basic_math_ops.sqrt(-2. * basic_math_ops.log(sanitized_mcp))   # the tails
        first_term = z - basic_math_ops.log(z) / z
        x_for_small_p = first_term - (_polynomial(1. / z, _NDTRI_P2)
                                      / _polynomial(1. / z, _NDTRI_Q2) / z)
        x_otherwise = first_term - (_polynomial(1. / z, _NDTRI_P1)
                                    / _polynomial(1. / z, _NDTRI_Q1) / z)
        x = where_v2(gt(sanitized_mcp, np.exp(-2.)), x_for_big_p,
                     where_v2(comparison_ops.greater_equal(z, 8.0), x_for_small_p,
                              x_otherwise))
        x = where_v2(gt(p, 1. - np.exp(-2.)), x, -x)
        infinity = array_ops.fill(array_ops.shape(p), np.array(np.inf, np_dtype))
        return where_v2(lt(p, 0.0), -infinity,
                        where_v2(comparison_ops.greater_equal(p, 1.0), infinity, x))


def log_ndtr(x, series_order=3, name="log_ndtr"):
    """log(ndtr(x)), accurate in the tails (the asymptotic series of `series_order` terms
    below the lower segment)."""
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if not 0 <= series_order <= 30:
        raise ValueError(f"series_order must be in [0, 30], got {series_order}.")
    with name_scope(name, values=[x]):
        x = _float_x(x, "log_ndtr")
        lower, upper = _LOG_NDTR_SEGMENTS[x.dtype.base_dtype]
        return where_v2(
            comparison_ops.greater(x, upper), -_ndtr(-x),       # log(1 - e) ~ -e
            where_v2(comparison_ops.greater(x, lower),
                     basic_math_ops.log(_ndtr(basic_math_ops.maximum(x, lower))),
                     _log_ndtr_lower(basic_math_ops.minimum(x, lower), series_order)))


def _log_ndtr_lower(x, series_order):
    """log ndtr(x) for x << -1: log(phi(x) / -x) + log(1 - 1/x^2 + 3/x^4 - 15/x^6 ...)."""
    x_2 = basic_math_ops.square(x)
    log_scale = -0.5 * x_2 - basic_math_ops.log(-x) - 0.5 * np.log(2. * np.pi)
    dtype = x.dtype.as_numpy_dtype
    series, x_2n, sign = 1., x_2, -1.
    for n in range(1, series_order + 1):
        double_factorial = np.prod(np.arange(2 * n - 1, 0, -2, dtype=np.float64))
        series = series + sign * np.array(double_factorial, dtype) / x_2n
        x_2n, sign = x_2n * x_2, -sign
    return log_scale + basic_math_ops.log(series)
