"""`tf.test.TestCase` -- mirrors TensorFlow 1.15's TensorFlowTestCase
(tensorflow/python/framework/test_util.py), graph mode only.

A TF-1 test is a unittest.TestCase with a fresh default graph and a few helpers:

    class SquareTest(tf.test.TestCase):
        def testSquare(self):
            with self.cached_session():              # a Session on this test's graph, default
                x = tf.square([2.0, 3.0])
                self.assertAllClose([4.0, 9.0], self.evaluate(x))

  * setUp resets the default graph (and seeds `random`, NumPy and the graph with TF's
    DEFAULT_GRAPH_SEED), so every test method builds into an empty graph;
  * session() opens a new Session, closed at the end of its `with`; cached_session() (and the
    deprecated test_session()) hand out the same Session for the whole test, closed in
    tearDown; each makes its session and its graph the defaults;
  * evaluate(tensors) runs a (nested) structure of tensors in the default session;
  * the assertions compare NumPy values or tensors (a tensor is evaluated first):
    assertAllClose walks nested dicts, lists and tuples and, on failure, says where the values
    differ ("not close where = ...", lhs, rhs, difference, tolerance).
"""
import collections.abc
import contextlib
import math
import os
import random
import re
import tempfile
import threading
import unittest

import numpy as np

from ..framework import device_spec as pydev
from ..framework import errors
from ..framework.default_session import get_default_session
from ..framework.graph import _default_graph_stack, reset_default_graph
from ..framework.tensor import Tensor
from ..framework.tensor_util import is_tensor_like
from ..ops.random_ops import DEFAULT_GRAPH_SEED, set_random_seed
from .config import ConfigProto
from .session import Session

__all__ = ["TensorFlowTestCase", "TestCase", "is_gpu_available", "gpu_device_name",
           "get_temp_dir"]

_temp_dir = [None]


def get_temp_dir():
    """A temporary directory for this process's tests (TF: googletest.GetTempDir()), made once
    and shared by every test of the process."""
    if _temp_dir[0] is None or not os.path.isdir(_temp_dir[0]):
        _temp_dir[0] = tempfile.mkdtemp(prefix="sandbox_test_")
    return _temp_dir[0]


def is_gpu_available(cuda_only=False, min_cuda_compute_capability=None):
    """False: the sandbox has no real GPU (its 'GPU' devices are simulated)."""
    return False


def gpu_device_name():
    """'' -- the name of a real GPU device, and there is none."""
    return ""


class _NotATestMethod:
    """Wraps the method named test_session so that test loaders (unittest's, and pytest's,
    which uses it) do not collect it as a test: seen on the class it is not callable, seen on
    an instance it is the bound method. TF collects it and skips it in setUp ("Not a test."),
    which shows as one skipped test per class; setUp still does that when asked to run it."""

    def __init__(self, function):
        self.__func__ = function
        self.__doc__ = function.__doc__
        self.__name__ = function.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        return self.__func__.__get__(instance, owner)

    def __repr__(self):
        return "<method %s of TestCase (not a test)>" % self.__name__


class TensorFlowTestCase(unittest.TestCase):
    """Base class for tests that build and run graphs (tf.test.TestCase)."""

    def __init__(self, methodName="runTest"):
        super().__init__(methodName)
        self._threads = []
        self._tempdir = None
        self._cached_session = None
        self._cached_graph = None
        self._cached_config = None
        self._cached_force_gpu = False

    # -- set-up and tear-down --------------------------------------------------------
    def setUp(self):
        super().setUp()
        self._ClearCachedSession()
        random.seed(DEFAULT_GRAPH_SEED)
        np.random.seed(DEFAULT_GRAPH_SEED)
        # A test that failed inside `with g.as_default():` may have left the stack non-empty
        # (TF: ops._default_graph_stack.reset()).
        del _default_graph_stack.stack[:]
        reset_default_graph()
        set_random_seed(DEFAULT_GRAPH_SEED)
        # Avoid running the poorly named test_session method as a test (as TF does).
        if self.id().endswith(".test_session"):
            self.skipTest("Not a test.")

    def tearDown(self):
        for thread in self._threads:
            thread.check_termination()
        self._ClearCachedSession()
        super().tearDown()

    def _ClearCachedSession(self):  # noqa: N802 -- TF's name
        if self._cached_session is not None:
            self._cached_session.close()
            self._cached_session = None

    def get_temp_dir(self):
        """A temporary directory of this test: the same one for every call within a test, a
        new one for the next test (inside the process's tf.test.get_temp_dir())."""
        if not self._tempdir:
            self._tempdir = tempfile.mkdtemp(dir=get_temp_dir())
        return self._tempdir

    # -- sessions ----------------------------------------------------------------------
    def _create_session(self, graph, config, force_gpu):
        allow_soft_placement = not force_gpu
        if config is None:
            config = ConfigProto(allow_soft_placement=allow_soft_placement)
        elif not allow_soft_placement and config.allow_soft_placement:
            copy = ConfigProto()
            copy.CopyFrom(config)
            copy.allow_soft_placement = False
            config = copy
        return Session(graph=graph, config=config)

    @contextlib.contextmanager
    def _constrain_devices_and_set_default(self, sess, use_gpu, force_gpu):
        with sess.graph.as_default(), sess.as_default():
            if force_gpu:
                with sess.graph.device(gpu_device_name() or "/device:GPU:0"):
                    yield sess
            elif use_gpu:
                yield sess
            else:
                with sess.graph.device("/device:CPU:0"):
                    yield sess

    @contextlib.contextmanager
    def session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        """A new Session on `graph` (default: the default graph), made the default session and
        its graph the default graph; closed when the `with` block ends."""
        with self._create_session(graph, config, force_gpu) as sess:
            with self._constrain_devices_and_set_default(sess, use_gpu, force_gpu):
                yield sess

    @contextlib.contextmanager
    def cached_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        """The same Session for every call within one test (closed in tearDown), made the
        default session and its graph the default graph."""
        sess = self._get_cached_session(graph, config, force_gpu,
                                        crash_if_inconsistent_args=True)
        with self._constrain_devices_and_set_default(sess, use_gpu, force_gpu) as cached:
            yield cached

    @_NotATestMethod
    @contextlib.contextmanager
    def test_session(self, graph=None, config=None, use_gpu=False, force_gpu=False):
        """Deprecated: use session() or cached_session(). With no graph, the cached
        session; with one, a new session on it."""
        if self.id().endswith(".test_session"):
            self.skipTest('Tests that have the name "test_session" are automatically skipped '
                          "by TensorFlow test fixture, as the name is reserved for creating "
                          "sessions within tests. Please rename your test if you have a test "
                          "with this name.")
        if graph is None:
            sess = self._get_cached_session(graph, config, force_gpu,
                                            crash_if_inconsistent_args=False)
            with self._constrain_devices_and_set_default(sess, use_gpu, force_gpu) as cached:
                yield cached
        else:
            with self.session(graph, config, use_gpu, force_gpu) as sess:
                yield sess

    def _get_cached_session(self, graph=None, config=None, force_gpu=False,
                            crash_if_inconsistent_args=True):
        if self._cached_session is None:
            sess = self._create_session(graph=graph, config=config, force_gpu=force_gpu)
            self._cached_session = sess
            self._cached_graph = graph
            self._cached_config = config
            self._cached_force_gpu = force_gpu
            return sess
        if crash_if_inconsistent_args and self._cached_graph is not graph:
            raise ValueError("The graph used to get the cached session is different than the "
                             "one that was used to create the session. Maybe create a new "
                             "session with self.session()")
        if crash_if_inconsistent_args and self._cached_config is not config:
            raise ValueError("The config used to get the cached session is different than "
                             "the one that was used to create the session. Maybe create a new "
                             "session with self.session()")
        if crash_if_inconsistent_args and self._cached_force_gpu is not force_gpu:
            raise ValueError("The force_gpu value used to get the cached session is different "
                             "than the one that was used to create the session. Maybe create "
                             "a new session with self.session()")
        return self._cached_session

    def evaluate(self, tensors):
        """The values of `tensors` -- a tensor, or lists, tuples, dicts and namedtuples of them,
        nested -- run in the default session (else in the test's cached session)."""
        sess = get_default_session()
        if sess is None:
            with self.test_session() as sess:
                return sess.run(tensors)
        return sess.run(tensors)

    # -- threads -----------------------------------------------------------------------
    class _CheckedThread:
        """A Thread whose exception fails the test when it is joined (see checkedThread)."""

        def __init__(self, testcase, target, args=None, kwargs=None):
            self._testcase = testcase
            self._target = target
            self._args = () if args is None else args
            self._kwargs = {} if kwargs is None else kwargs
            self._thread = threading.Thread(target=self._protected_run)
            self._exception = None
            self._is_thread_joined = False

        def _protected_run(self):
            try:
                self._target(*self._args, **self._kwargs)
            except Exception as e:  # noqa: BLE001 -- reported by join()
                self._exception = e

        def start(self):
            self._thread.start()

        def join(self):
            self._is_thread_joined = True
            self._thread.join()
            if self._exception is not None:
                self._testcase.fail("Error in checkedThread: %s" % str(self._exception))

        def is_alive(self):
            return self._thread.is_alive()

        def check_termination(self):
            if self._is_thread_joined:
                if self.is_alive():
                    raise RuntimeError("Thread was not joined with main thread, and is still "
                                       "running when the test finished.")
            else:
                self._testcase.fail("A checked thread was not joined.")

    def checkedThread(self, target, args=None, kwargs=None):  # noqa: N802
        """A thread wrapper (start, join) whose target's exception fails the test at join();
        tearDown fails the test if a checked thread was never joined."""
        ret = TensorFlowTestCase._CheckedThread(self, target, args, kwargs)
        self._threads.append(ret)
        return ret

    # -- assertions: scalars and sequences ---------------------------------------------
    def assertNear(self, f1, f2, err, msg=None):  # noqa: N802
        """|f1 - f2| <= err."""
        # f1 == f2 is needed here as we might have: f1, f2 = inf, inf
        self.assertTrue(f1 == f2 or math.fabs(f1 - f2) <= err, "%f != %f +/- %f%s" % (
            f1, f2, err, " (%s)" % msg if msg is not None else ""))

    def assertArrayNear(self, farray1, farray2, err, msg=None):  # noqa: N802
        """Same length and |f1 - f2| <= err element by element."""
        self.assertEqual(len(farray1), len(farray2), msg=msg)
        for f1, f2 in zip(farray1, farray2):
            self.assertNear(float(f1), float(f2), err, msg=msg)

    def _NDArrayNear(self, ndarray1, ndarray2, err):  # noqa: N802
        return np.linalg.norm(ndarray1 - ndarray2) < err

    def assertNDArrayNear(self, ndarray1, ndarray2, err, msg=None):  # noqa: N802
        """The norm of the difference is below err."""
        self.assertTrue(self._NDArrayNear(ndarray1, ndarray2, err), msg=msg)

    def assertStartsWith(self, actual, expected_start, msg=None):  # noqa: N802
        if not actual.startswith(expected_start):
            fail_msg = "%r does not start with %r" % (actual, expected_start)
            fail_msg += " : %r" % (msg) if msg else ""
            self.fail(fail_msg)

    def assertProtoEquals(self, expected_message_maybe_ascii, message, msg=None):  # noqa: N802
        """Sandbox messages are plain records, not protobufs: this compares a message with a
        message of its type (or a dict -- a graph_def -- with a dict). The text format of
        protobuf (a string) is not parsed."""
        if isinstance(expected_message_maybe_ascii, (str, bytes)):
            raise NotImplementedError(
                "assertProtoEquals: the sandbox's messages have no protobuf text format; "
                "compare with a message built in Python instead, e.g. "
                "tf.ConfigProto(allow_soft_placement=True).")
        if type(expected_message_maybe_ascii) is not type(message):
            raise AssertionError("Can't compare protos of type %s and %s." % (
                type(expected_message_maybe_ascii), type(message)))
        self.assertEqual(expected_message_maybe_ascii, message, msg=msg)

    # -- assertions: arrays and tensors ------------------------------------------------
    def _GetNdArray(self, a):  # noqa: N802
        if is_tensor_like(a):
            a = self.evaluate(a)
        if not isinstance(a, np.ndarray):
            try:
                return np.array(a)
            except ValueError as e:
                if "inhomogeneous shape" in str(e):
                    return np.array(a, dtype=object)
                raise
        return a

    def _assertArrayLikeAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        # Small arrays are printed in the message; large ones would make it unreadable.
        if a.shape != b.shape and (b.ndim <= 3 or b.size < 500):
            shape_mismatch_msg = ("Shape mismatch: expected %s, got %s with contents "
                                  "%s.") % (a.shape, b.shape, b)
        else:
            shape_mismatch_msg = "Shape mismatch: expected %s, got %s." % (a.shape, b.shape)
        self.assertEqual(a.shape, b.shape, shape_mismatch_msg)

        msgs = [msg]
        if not np.allclose(a, b, rtol=rtol, atol=atol):
            # numpy.allclose adds the relative difference (rtol * abs(b)) and the absolute one
            # (atol) and compares the sum with |a - b|; say which elements violate it.
            cond = np.logical_or(np.abs(a - b) > atol + rtol * np.abs(b),
                                 np.isnan(a) != np.isnan(b))
            if a.ndim:
                x = a[np.where(cond)]
                y = b[np.where(cond)]
                msgs.append("not close where = {}".format(np.where(cond)))
            else:
                # np.where is broken for scalars
                x, y = a, b
            msgs.append("not close lhs = {}".format(x))
            msgs.append("not close rhs = {}".format(y))
            msgs.append("not close dif = {}".format(np.abs(x - y)))
            msgs.append("not close tol = {}".format(atol + rtol * np.abs(y)))
            msgs.append("dtype = {}, shape = {}".format(a.dtype, a.shape))
            np.testing.assert_allclose(a, b, rtol=rtol, atol=atol,
                                       err_msg="\n".join(str(m) for m in msgs), equal_nan=True)

    def _assertAllCloseRecursive(self, a, b, rtol=1e-6, atol=1e-6, path=None,  # noqa: N802
                                 msg=None):
        path = path or []
        path_str = (("[" + "][".join(str(p) for p in path) + "]") if path else "")
        msg = msg if msg else ""

        # namedtuples are compared as dicts
        if hasattr(a, "_asdict"):
            a = a._asdict()
        if hasattr(b, "_asdict"):
            b = b._asdict()
        a_is_dict = isinstance(a, collections.abc.Mapping)
        if a_is_dict != isinstance(b, collections.abc.Mapping):
            raise ValueError("Can't compare dict to non-dict, a%s vs b%s. %s" % (
                path_str, path_str, msg))
        if a_is_dict:
            self.assertItemsEqual(
                a.keys(), b.keys(),
                msg="mismatched keys: a%s has keys %s, but b%s has keys %s. %s" % (
                    path_str, a.keys(), path_str, b.keys(), msg))
            for k in a:
                path.append(k)
                self._assertAllCloseRecursive(a[k], b[k], rtol=rtol, atol=atol, path=path,
                                              msg=msg)
                del path[-1]
        elif isinstance(a, (list, tuple)):
            # Compare a, b as ndarrays first; if they are not arrays, walk the sequences.
            try:
                a_as_ndarray = self._GetNdArray(a)
                b_as_ndarray = self._GetNdArray(b)
                self._assertArrayLikeAllClose(
                    a_as_ndarray, b_as_ndarray, rtol=rtol, atol=atol,
                    msg="Mismatched value: a%s is different from b%s. %s" % (
                        path_str, path_str, msg))
            except (ValueError, TypeError):
                if len(a) != len(b):
                    raise ValueError("Mismatched length: a%s has %d items, but b%s has %d "
                                     "items. %s" % (path_str, len(a), path_str, len(b), msg))
                for idx, (a_ele, b_ele) in enumerate(zip(a, b)):
                    path.append(str(idx))
                    self._assertAllCloseRecursive(a_ele, b_ele, rtol=rtol, atol=atol,
                                                  path=path, msg=msg)
                    del path[-1]
        else:
            # a and b are ndarray-like
            try:
                self._assertArrayLikeAllClose(
                    a, b, rtol=rtol, atol=atol,
                    msg=("Mismatched value: a%s is different from b%s. %s" % (
                        path_str, path_str, msg)))
            except TypeError as e:
                msg = ("Error: a%s has %s, but b%s has %s. %s" % (
                    path_str, type(a), path_str, type(b), msg))
                e.args = ((e.args[0] + " : " + msg,) + e.args[1:])
                raise

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Two (nested) structures of arrays or tensors have near values: |a - b| <= atol +
        rtol * |b| element-wise (numpy.allclose), shapes equal. A layer of the structures can
        be a dict, namedtuple, tuple or list. Raises ValueError when only one of a[p], b[p] is
        a dict or their lengths differ."""
        self._assertAllCloseRecursive(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertAllCloseAccordingToType(self, a, b, rtol=1e-6, atol=1e-6,  # noqa: N802
                                      float_rtol=1e-6, float_atol=1e-6, half_rtol=1e-3,
                                      half_atol=1e-3, bfloat16_rtol=1e-2, bfloat16_atol=1e-2,
                                      msg=None):
        """assertAllClose with the tolerances widened for the less precise of the two
        dtypes: at least float_rtol/float_atol for float32, half_rtol/half_atol (1e-3) for
        float16."""
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        # types with lower tol are put later to overwrite previous ones.
        if a.dtype == np.float32 or b.dtype == np.float32 or \
                a.dtype == np.complex64 or b.dtype == np.complex64:
            rtol = max(rtol, float_rtol)
            atol = max(atol, float_atol)
        if a.dtype == np.float16 or b.dtype == np.float16:
            rtol = max(rtol, half_rtol)
            atol = max(atol, half_atol)
        self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):  # noqa: N802
        """Some element of a is not close to b's."""
        try:
            self.assertAllClose(a, b, rtol=rtol, atol=atol, msg=msg)
        except AssertionError:
            return
        raise AssertionError("The two values are close at all elements. %s" % (msg or ""))

    def assertAllEqual(self, a, b, msg=None):  # noqa: N802
        """Same shape and equal values (NaN equals NaN for floats)."""
        msg = msg if msg else ""
        a = self._GetNdArray(a)
        b = self._GetNdArray(b)
        # Arbitrary bounds so that we don't print giant tensors.
        if b.ndim <= 3 or b.size < 500:
            self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s."
                             " Contents: %r. \n%s." % (a.shape, b.shape, b, msg))
        else:
            self.assertEqual(a.shape, b.shape, "Shape mismatch: expected %s, got %s."
                             " %s" % (a.shape, b.shape, msg))
        same = (a == b)
        if np.issubdtype(a.dtype, np.floating):
            same = np.logical_or(same, np.logical_and(np.isnan(a), np.isnan(b)))
        msgs = [msg]
        if not np.all(same):
            diff = np.logical_not(same)
            if a.ndim:
                x = a[np.where(diff)]
                y = b[np.where(diff)]
                msgs.append("not equal where = {}".format(np.where(diff)))
            else:
                # np.where is broken for scalars
                x, y = a, b
            msgs.append("not equal lhs = %r" % x)
            msgs.append("not equal rhs = %r" % y)
            np.testing.assert_array_equal(a, b, err_msg="\n".join(msgs))

    def assertNotAllEqual(self, a, b, msg=None):  # noqa: N802
        try:
            self.assertAllEqual(a, b)
        except AssertionError:
            return
        raise AssertionError("The two values are equal at all elements. %s" % (msg or ""))

    def assertAllGreater(self, a, comparison_target):  # noqa: N802
        """Every element of a is > comparison_target."""
        a = self._GetNdArray(a)
        self.assertGreater(np.min(a), comparison_target)

    def assertAllLess(self, a, comparison_target):  # noqa: N802
        """Every element of a is < comparison_target."""
        a = self._GetNdArray(a)
        self.assertLess(np.max(a), comparison_target)

    def assertAllGreaterEqual(self, a, comparison_target):  # noqa: N802
        """Every element of a is >= comparison_target."""
        a = self._GetNdArray(a)
        self.assertGreaterEqual(np.min(a), comparison_target)

    def assertAllLessEqual(self, a, comparison_target):  # noqa: N802
        """Every element of a is <= comparison_target."""
        a = self._GetNdArray(a)
        self.assertLessEqual(np.max(a), comparison_target)

    def _format_subscripts(self, subscripts, value, limit=10, indent=2):
        """'[i, j] : value' lines for the first `limit` of `subscripts` (np.where's form)."""
        lines = []
        subscripts = np.transpose(subscripts)
        prefix = " " * indent
        if np.ndim(subscripts) == 1:
            subscripts = [subscripts]
        for subscript in subscripts[:limit]:
            lines.append(prefix + str(subscript) + " : " + str(value[tuple(subscript)]))
        if len(subscripts) > limit:
            lines.append(prefix + "...")
        return lines

    def assertAllInRange(self, target, lower_bound, upper_bound,  # noqa: N802
                         open_lower_bound=False, open_upper_bound=False):
        """Every element of target is in [lower_bound, upper_bound] (the open ends as asked);
        NaN and non-numeric dtypes fail."""
        target = self._GetNdArray(target)
        if not (np.issubdtype(target.dtype, np.floating) or
                np.issubdtype(target.dtype, np.integer)):
            raise AssertionError("The value of %s does not have an ordered numeric type, "
                                 "instead it has type: %s" % (target, target.dtype))
        nan_subscripts = np.where(np.isnan(target))
        if np.size(nan_subscripts):
            raise AssertionError(
                "%d of the %d element(s) are NaN. Subscripts(s) and value(s) of the NaN "
                "element(s):\n" % (len(nan_subscripts[0]), np.size(target)) +
                "\n".join(self._format_subscripts(nan_subscripts, target)))
        range_str = (("(" if open_lower_bound else "[") + str(lower_bound) + ", " +
                     str(upper_bound) + (")" if open_upper_bound else "]"))
        violations = (np.less_equal(target, lower_bound) if open_lower_bound
                      else np.less(target, lower_bound))
        violations = np.logical_or(
            violations, np.greater_equal(target, upper_bound) if open_upper_bound
            else np.greater(target, upper_bound))
        violation_subscripts = np.where(violations)
        if np.size(violation_subscripts):
            raise AssertionError(
                "%d of the %d element(s) are outside the range %s. " % (
                    len(violation_subscripts[0]), np.size(target), range_str) +
                "Subscript(s) and value(s) of the offending elements:\n" +
                "\n".join(self._format_subscripts(violation_subscripts, target)))

    def assertAllInSet(self, target, expected_set):  # noqa: N802
        """Every element of target is in expected_set (a list, tuple or set)."""
        target = self._GetNdArray(target)
        diff = np.setdiff1d(target.flatten(), list(expected_set))
        if np.size(diff):
            raise AssertionError("%d unique element(s) are not in the set %s: %s" % (
                np.size(diff), expected_set, diff))

    def assertDTypeEqual(self, target, expected_dtype):  # noqa: N802
        """target's NumPy dtype is expected_dtype (np.float32, or tf.float32)."""
        target = self._GetNdArray(target)
        expected = getattr(expected_dtype, "as_numpy_dtype", expected_dtype)
        self.assertEqual(target.dtype, expected)

    def assertShapeEqual(self, np_array, tf_tensor, msg=None):  # noqa: N802
        """A NumPy array's shape equals a tensor's static shape (TF 1.15's argument order:
        the array first, then the Tensor)."""
        if not isinstance(np_array, (np.ndarray, np.generic)):
            raise TypeError("np_array must be a Numpy ndarray or Numpy scalar")
        if not isinstance(tf_tensor, Tensor):
            raise TypeError("tf_tensor must be a Tensor")
        self.assertAllEqual(np_array.shape, tf_tensor.get_shape().as_list(), msg=msg)

    def assertDeviceEqual(self, device1, device2, msg=None):  # noqa: N802
        """Two device names (or DeviceSpecs) name the same device, once made canonical
        ('/gpu:0' and '/device:GPU:0' are equal)."""
        device1 = pydev.canonical_name(device1)
        device2 = pydev.canonical_name(device2)
        self.assertEqual(device1, device2,
                         "Devices %s and %s are not equal. %s" % (device1, device2, msg))

    # -- assertions: exceptions --------------------------------------------------------
    @contextlib.contextmanager
    def assertRaisesWithPredicateMatch(self, exception_type,  # noqa: N802
                                       expected_err_re_or_predicate):
        """A context manager: its block must raise `exception_type` whose message matches
        the regular expression (re.search) -- or for which the predicate returns True. An
        OpError's message is searched together with the names of its op."""
        if callable(expected_err_re_or_predicate):
            predicate = expected_err_re_or_predicate
        else:
            def predicate(e):
                err_str = e.message if isinstance(e, errors.OpError) else str(e)
                if isinstance(e, errors.OpError):
                    op = e.op
                    name = e._node_def_name() if e.node_def else None
                    if op is None and name:
                        err_str += "\nCaused by: " + str(name)
                    while op is not None:
                        err_str += "\nCaused by: " + op.name
                        op = getattr(op, "_original_op", None)
                return re.search(expected_err_re_or_predicate, err_str)
        try:
            yield
            self.fail(exception_type.__name__ + " not raised")
        except Exception as e:  # noqa: BLE001 -- judged below
            if not isinstance(e, exception_type) or not predicate(e):
                raise AssertionError("Exception of type %s: %s" % (str(type(e)), str(e))) \
                    from e

    def assertRaisesOpError(self, expected_err_re_or_predicate):  # noqa: N802
        """assertRaisesWithPredicateMatch(tf.errors.OpError, ...): the block must fail while
        running a graph, with a matching message."""
        return self.assertRaisesWithPredicateMatch(errors.OpError,
                                                   expected_err_re_or_predicate)

    def assertRaisesIncompatibleShapesError(  # noqa: N802
            self, exception_type=errors.InvalidArgumentError):
        return self.assertRaisesWithPredicateMatch(
            exception_type, r"Incompatible shapes|Dimensions must be equal|"
            r"required broadcastable shapes")

    # Python 3 names of unittest's old methods, as TF keeps them.
    assertRaisesRegexp = unittest.TestCase.assertRaisesRegex  # noqa: N815
    assertItemsEqual = unittest.TestCase.assertCountEqual  # noqa: N815


TestCase = TensorFlowTestCase
