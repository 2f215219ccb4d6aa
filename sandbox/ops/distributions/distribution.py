"""The base class of every distribution -- mirrors TF 1.15's python/ops/distributions/
distribution.py (tf.distributions.Distribution, ReparameterizationType).

A distribution is a Python object holding tensors (its parameters); each method builds ops:

    dist = tf.distributions.Normal(loc=0., scale=[1., 2.])   # a batch of 2 normals
    dist.batch_shape            # TensorShape([2]): independent distributions side by side
    dist.event_shape            # TensorShape([]): the shape of one draw of one of them
    x = dist.sample([5], seed=1)          # [5, 2] = sample_shape + batch_shape + event_shape
    dist.log_prob(x)                      # [5, 2]

A subclass implements the underscore methods (_sample_n, _log_prob, _cdf, _entropy,
_mean ...); the public ones here open the name scopes (`Normal/log_prob/...`), convert the
value, and fall back as TF does: log_prob = log(prob) when only _prob exists (and back),
cdf from log_cdf, survival_function = 1 - cdf, stddev = sqrt(variance).

`reparameterization_type` says whether a sample is a differentiable function of the
parameters (FULLY_REPARAMETERIZED: Normal's loc + scale * eps, so a loss of samples has
gradients for loc and scale) or not (NOT_REPARAMETERIZED: Bernoulli, Categorical -- use
log_prob, as policy gradients do).
"""
import contextlib

import numpy as np

from ...framework import dtypes as _dtypes
from ...framework.graph import name_scope
from ...framework.tensor import convert_to_tensor
from ...framework.tensor_shape import TensorShape
from ...framework.tensor_util import constant_value
from .. import array_ops, basic_math_ops, reduction_ops
from ..slicing_ops import concat
from .kullback_leibler import kl_divergence
from .util import checked_params, dynamic_batch_shape, logits_probs, static_batch_shape

__all__ = ["ReparameterizationType", "FULLY_REPARAMETERIZED", "NOT_REPARAMETERIZED",
           "Distribution"]


class ReparameterizationType:
    """Whether samples can be written as a differentiable function of the parameters."""

    def __init__(self, rep_type):
        self._rep_type = rep_type

    def __repr__(self):
        return f"<Reparameterization Type: {self._rep_type}>"

    def __eq__(self, other):
        return self is other

    __hash__ = object.__hash__


FULLY_REPARAMETERIZED = ReparameterizationType("FULLY_REPARAMETERIZED")
NOT_REPARAMETERIZED = ReparameterizationType("NOT_REPARAMETERIZED")


class Distribution:
    """A batch of probability distributions; subclasses fill in the underscore methods."""

    # The parameters whose shape is the batch shape (param_shapes): ("loc", "scale") ...
    _shape_params = None

    def __init__(self, dtype, reparameterization_type, validate_args, allow_nan_stats,
                 parameters=None, graph_parents=None, name=None):
        graph_parents = [] if graph_parents is None else graph_parents
        for i, t in enumerate(graph_parents):
            if t is None or not hasattr(t, "graph"):
                raise ValueError(f"Graph parent item {i} is not a Tensor; {t}.")
        if not name or name[-1] != "/":          # not yet a scope: make it one ("Normal/")
            with name_scope(name or type(self).__name__) as name:
                pass
        self._dtype = dtype
        self._reparameterization_type = reparameterization_type
        self._allow_nan_stats = allow_nan_stats
        self._validate_args = validate_args
        self._parameters = {k: v for k, v in (parameters or {}).items()
                            if not k.startswith("__") and k != "self"}
        self._graph_parents = graph_parents
        self._name = name

    def _init_params(self, parameters, values, checks=None,
                     reparameterization_type=FULLY_REPARAMETERIZED):
        """The constructor the distributions of float parameters share (Normal, Uniform,
        Gamma ...): in the scope `parameters["name"]`, each of `values` ({"loc": loc, ...})
        becomes an Identity named after it ("Normal/loc"), kept as self._loc ..., after the
        assertions `checks(*tensors)` when validate_args; they must share one float dtype."""
        validate_args = parameters["validate_args"]
        what = f"{type(self).__name__}({', '.join(values)})"
        with name_scope(parameters["name"], values=list(values.values())) as name:
            tensors, dtype = checked_params(what, values, checks if validate_args else None)
        for key, tensor in zip(values, tensors):
            setattr(self, "_" + key, tensor)
        Distribution.__init__(self, dtype=dtype, reparameterization_type=reparameterization_type,
                              validate_args=validate_args,
                              allow_nan_stats=parameters["allow_nan_stats"],
                              parameters=parameters, graph_parents=tensors, name=name)

    def _init_logits_probs(self, parameters, multidimensional, dtype=None):
        """The constructor of the distributions given logits or probs (Bernoulli,
        Categorical, Multinomial): self._logits and self._probs, each from the other
        (util.logits_probs); samples of `dtype` (default: probs' dtype), not
        reparameterizable."""
        with name_scope(parameters["name"], values=[parameters["logits"],
                                                    parameters["probs"]]) as name:
            self._logits, self._probs = logits_probs(
                logits=parameters["logits"], probs=parameters["probs"],
                multidimensional=multidimensional,
                validate_args=parameters["validate_args"], name=name)
        Distribution.__init__(
            self, dtype=self._probs.dtype if dtype is None else _dtypes.as_dtype(dtype),
            reparameterization_type=NOT_REPARAMETERIZED,
            validate_args=parameters["validate_args"],
            allow_nan_stats=parameters["allow_nan_stats"], parameters=parameters,
            graph_parents=[self._logits, self._probs], name=name)

    # -- what the distribution is -----------------------------------------------------

    @classmethod
    def param_shapes(cls, sample_shape, name="DistributionParamShapes"):
        """{parameter: shape} that makes sample() of this shape (a dict of int32 tensors)."""
        with name_scope(name, values=[sample_shape]):
            return cls._param_shapes(sample_shape)

    @classmethod
    def param_static_shapes(cls, sample_shape):
        """param_shapes as TensorShapes, for a shape known while building."""
        if isinstance(sample_shape, TensorShape):
            if not sample_shape.is_fully_defined():
                raise ValueError("TensorShape sample_shape must be fully defined")
            sample_shape = sample_shape.as_list()
        static = {}
        for param, shape in cls.param_shapes(sample_shape).items():
            value = constant_value(shape)
            if value is None:
                raise ValueError("sample_shape must be a fully-defined TensorShape or "
                                 "list/tuple")
            static[param] = TensorShape([int(d) for d in value])
        return static

    @classmethod
    def _param_shapes(cls, sample_shape):
        if cls._shape_params is None:
            raise NotImplementedError("_param_shapes not implemented")
        return {param: convert_to_tensor(sample_shape, dtype=_dtypes.int32)
                for param in cls._shape_params}

    @property
    def name(self):
        """The name scope (ending in '/') of the ops this distribution makes."""
        return self._name

    @property
    def parameters(self):
        """The arguments the distribution was made with, as a dict."""
        return dict(self._parameters)

    @property
    def dtype(self):
        """The dtype of the samples."""
        return self._dtype

    @property
    def reparameterization_type(self):
        return self._reparameterization_type

    @property
    def allow_nan_stats(self):
        """True: an undefined statistic (the mean of a StudentT with df <= 1) is NaN;
        False: building it raises / its op fails."""
        return self._allow_nan_stats

    @property
    def validate_args(self):
        """True: the parameters (and values) are checked by assertion ops."""
        return self._validate_args

    def copy(self, **override_parameters_kwargs):
        """A new distribution of this type, with some parameters replaced."""
        parameters = dict(self.parameters, **override_parameters_kwargs)
        return type(self)(**parameters)

    # -- shapes --------------------------------------------------------------------------

    def batch_shape_tensor(self, name="batch_shape_tensor"):
        with self._name_scope(name):
            if self.batch_shape.is_fully_defined():
                return convert_to_tensor(self.batch_shape.as_list(), dtype=_dtypes.int32,
                                         name="batch_shape")
            return self._batch_shape_tensor()

    @property
    def batch_shape(self):
        """The shape of the batch of independent distributions (a TensorShape)."""
        return TensorShape(self._batch_shape())

    def event_shape_tensor(self, name="event_shape_tensor"):
        with self._name_scope(name):
            if self.event_shape.is_fully_defined():
                return convert_to_tensor(self.event_shape.as_list(), dtype=_dtypes.int32,
                                         name="event_shape")
            return self._event_shape_tensor()

    @property
    def event_shape(self):
        """The shape of one draw of one distribution of the batch (a TensorShape)."""
        return TensorShape(self._event_shape())

    def _batch_shape(self):
        """The broadcast of the parameters' shapes (the graph parents); a distribution whose
        parameters hold event dims too (Categorical, Dirichlet) says otherwise."""
        return static_batch_shape(*self._graph_parents)

    def _batch_shape_tensor(self):
        return dynamic_batch_shape(*self._graph_parents)

    def _event_shape_tensor(self):
        return convert_to_tensor([], dtype=_dtypes.int32)

    def _event_shape(self):
        return TensorShape([])

    def is_scalar_event(self, name="is_scalar_event"):
        with self._name_scope(name):
            return convert_to_tensor(self.event_shape.ndims == 0, name="is_scalar_event")

    def is_scalar_batch(self, name="is_scalar_batch"):
        with self._name_scope(name):
            return convert_to_tensor(self.batch_shape.ndims == 0, name="is_scalar_batch")

    # -- sampling ----------------------------------------------------------------------

    def sample(self, sample_shape=(), seed=None, name="sample"):
        """Draws samples of shape sample_shape + batch_shape + event_shape (one draw of each
        distribution when sample_shape is ())."""
        with self._name_scope(name, values=[sample_shape]):
            sample_shape = convert_to_tensor(sample_shape, dtype=_dtypes.int32,
                                             name="sample_shape")
            static = constant_value(sample_shape)
            if sample_shape.get_shape().ndims not in (None, 0, 1):
                raise ValueError(f"sample_shape must be a scalar or a vector, got shape "
                                 f"{sample_shape.get_shape()}.")
            if static is not None:                 # known while building: constants
                static = static.reshape(-1)
                sample_shape = convert_to_tensor(static, dtype=_dtypes.int32)
                n = convert_to_tensor(int(np.prod(static)), dtype=_dtypes.int32)
            else:                                  # 0-D or 1-D -> 1-D
                sample_shape = array_ops.reshape(sample_shape, [-1])
                n = reduction_ops.reduce_prod(sample_shape)
            samples = self._sample_n(n, seed)                       # [n] + batch + event
            final_shape = concat([sample_shape, array_ops.shape(samples)[1:]], 0)
            samples = array_ops.reshape(samples, final_shape)
            if static is not None:
                sample_dims = TensorShape([int(d) for d in static])
            else:                                  # known length, unknown values: [?, ?]
                length = sample_shape.get_shape().as_list()[0] \
                    if sample_shape.get_shape().ndims == 1 else None
                sample_dims = TensorShape([None] * length) if length is not None else None
            if sample_dims is not None and self.batch_shape.ndims is not None \
                    and self.event_shape.ndims is not None:
                samples.set_shape(sample_dims.concatenate(self.batch_shape)
                                  .concatenate(self.event_shape))
            return samples

    def _sample_n(self, n, seed=None):
        raise NotImplementedError(f"sample_n is not implemented: {type(self).__name__}")

    # -- densities, with TF's fallbacks --------------------------------------------------

    def _call(self, name, value, method, fallback, fallback_fn):
        with self._name_scope(name, values=[value]):
            value = convert_to_tensor(value, name="value", preferred_dtype=self.dtype)
            try:
                return getattr(self, method)(value)
            except NotImplementedError as original:
                try:
                    return fallback_fn(getattr(self, fallback)(value))
                except NotImplementedError:
                    raise original from None

    def log_prob(self, value, name="log_prob"):
        """log p(value): shape sample_shape(value) + batch_shape."""
        return self._call(name, value, "_log_prob", "_prob", basic_math_ops.log)

    def prob(self, value, name="prob"):
        """p(value), the density (or mass)."""
        return self._call(name, value, "_prob", "_log_prob", basic_math_ops.exp)

    def log_cdf(self, value, name="log_cdf"):
        """log P[X <= value]."""
        return self._call(name, value, "_log_cdf", "_cdf", basic_math_ops.log)

    def cdf(self, value, name="cdf"):
        """P[X <= value]."""
        return self._call(name, value, "_cdf", "_log_cdf", basic_math_ops.exp)

    def log_survival_function(self, value, name="log_survival_function"):
        """log P[X > value]."""
        return self._call(name, value, "_log_survival_function", "_cdf",
                          lambda cdf: basic_math_ops.log1p(-cdf))

    def survival_function(self, value, name="survival_function"):
        """P[X > value] = 1 - cdf(value)."""
        return self._call(name, value, "_survival_function", "_cdf", lambda cdf: 1. - cdf)

    def quantile(self, value, name="quantile"):
        """The x with cdf(x) = value."""
        with self._name_scope(name, values=[value]):
            value = convert_to_tensor(value, name="value", preferred_dtype=self.dtype)
            return self._quantile(value)

    def _not_implemented(self, what):
        raise NotImplementedError(f"{what} is not implemented: {type(self).__name__}")

    def _log_prob(self, value):
        self._not_implemented("log_prob")

    def _prob(self, value):
        self._not_implemented("prob")

    def _log_cdf(self, value):
        self._not_implemented("log_cdf")

    def _cdf(self, value):
        self._not_implemented("cdf")

    def _log_survival_function(self, value):
        self._not_implemented("log_survival_function")

    def _survival_function(self, value):
        self._not_implemented("survival_function")

    def _quantile(self, value):
        self._not_implemented("quantile")

    # -- statistics ----------------------------------------------------------------------

    def entropy(self, name="entropy"):
        """Shannon entropy in nats."""
        with self._name_scope(name):
            return self._entropy()

    def mean(self, name="mean"):
        with self._name_scope(name):
            return self._mean()

    def mode(self, name="mode"):
        with self._name_scope(name):
            return self._mode()

    def variance(self, name="variance"):
        """Var = E[(X - E[X])**2] (from stddev when only _stddev exists)."""
        with self._name_scope(name):
            try:
                return self._variance()
            except NotImplementedError as original:
                try:
                    return basic_math_ops.square(self._stddev())
                except NotImplementedError:
                    raise original from None

    def stddev(self, name="stddev"):
        """sqrt(Var) (from variance when only _variance exists)."""
        with self._name_scope(name):
            try:
                return self._stddev()
            except NotImplementedError as original:
                try:
                    return basic_math_ops.sqrt(self._variance())
                except NotImplementedError:
                    raise original from None

    def covariance(self, name="covariance"):
        with self._name_scope(name):
            return self._covariance()

    def _entropy(self):
        self._not_implemented("entropy")

    def _mean(self):
        self._not_implemented("mean")

    def _mode(self):
        self._not_implemented("mode")

    def _variance(self):
        self._not_implemented("variance")

    def _stddev(self):
        self._not_implemented("stddev")

    def _covariance(self):
        self._not_implemented("covariance")

    def cross_entropy(self, other, name="cross_entropy"):
        """H[self, other] = entropy(self) + KL(self || other)."""
        with self._name_scope(name):
            return self._cross_entropy(other)

    def _cross_entropy(self, other):
        return self.entropy() + kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    def kl_divergence(self, other, name="kl_divergence"):
        """KL(self || other), from the registered KL functions (kullback_leibler.py)."""
        with self._name_scope(name):
            return kl_divergence(self, other, allow_nan_stats=self.allow_nan_stats)

    # -- the name scope of each method: "Normal/log_prob/" -------------------------------

    @contextlib.contextmanager
    def _name_scope(self, name=None, values=None):
        with name_scope(self.name):
            with name_scope(name, values=list(values or []) + self._graph_parents) as scope:
                yield scope

    def __str__(self):
        batch = f" batch_shape={self.batch_shape}" if self.batch_shape.ndims is not None else ""
        event = f" event_shape={self.event_shape}" if self.event_shape.ndims is not None else ""
        return (f'tf.distributions.{type(self).__name__}("{self.name[:-1]}"{batch}{event} '
                f"dtype={self.dtype.name})")

    def __repr__(self):
        return (f"<tf.distributions.{type(self).__name__} '{self.name[:-1]}' "
                f"batch_shape={self.batch_shape} event_shape={self.event_shape} "
                f"dtype={self.dtype.name}>")
