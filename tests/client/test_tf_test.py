"""tf.test -- TF 1.15's test namespace (sandbox/api/test.py, sandbox/client/test_util.py,
sandbox/client/gradient_checker.py): TestCase's sessions and assertions, passing and failing,
the gradient checker, Benchmark, and a teacher's check of a student exercise."""
import collections
import contextlib
import io
import os
import unittest

import numpy as np

import sandbox as tf

Pair = collections.namedtuple("Pair", "a b")


def _run_case(case_class, *names):
    """Runs test methods of a TestCase class that pytest does not collect; their result."""
    result = unittest.TestResult()
    unittest.TestSuite([case_class(n) for n in names]).run(result)
    return result


# -- what a teacher writes ----------------------------------------------------------------

def student_softmax(logits):
    """A student's hand-in: softmax over the last axis, stabilised by the row maximum."""
    shifted = logits - tf.reduce_max(logits, axis=-1, keepdims=True)
    e = tf.exp(shifted)
    return e / tf.reduce_sum(e, axis=-1, keepdims=True)


class StudentSoftmaxCheck(tf.test.TestCase):
    """How a teacher checks the exercise: values, shapes, large inputs, gradients."""

    def testMatchesNumPy(self):
        logits = np.array([[1.0, 2.0, 3.0], [0.0, 0.0, 0.0]], np.float32)
        with self.cached_session():
            probs = student_softmax(tf.constant(logits))
            self.assertShapeEqual(logits, probs)
            expected = np.exp(logits) / np.exp(logits).sum(-1, keepdims=True)
            self.assertAllClose(expected, self.evaluate(probs))
            self.assertAllCloseAccordingToType(np.ones(2), tf.reduce_sum(probs, axis=-1))
            self.assertAllInRange(probs, 0.0, 1.0)

    def testLargeLogitsDoNotOverflow(self):
        with self.cached_session():
            probs = self.evaluate(student_softmax(tf.constant([[1000.0, 1000.0]])))
            self.assertAllEqual([[0.5, 0.5]], probs)

    def testGradient(self):
        with self.cached_session():
            x = tf.placeholder(tf.float64, [2, 3])
            err = tf.test.compute_gradient_error(x, [2, 3], student_softmax(x), [2, 3])
            self.assertLess(err, 1e-6)


# -- sessions, graphs, evaluate -----------------------------------------------------------

class SessionTest(tf.test.TestCase):
    graphs = []

    def testGraphIsolationA(self):
        self._check_fresh_graph()

    def testGraphIsolationB(self):
        self._check_fresh_graph()

    def _check_fresh_graph(self):
        g = tf.get_default_graph()
        self.assertEqual([], g.get_operations())
        self.assertEqual(87654321, g.seed)           # TF's DEFAULT_GRAPH_SEED
        self.assertNotIn(g, SessionTest.graphs)
        SessionTest.graphs.append(g)
        self.assertEqual("c:0", tf.constant(1.0, name="c").name)

    def testCachedSessionIsReusedWithinATest(self):
        with self.cached_session() as s1:
            self.assertIs(tf.get_default_session(), s1)
            self.assertIs(s1.graph, tf.get_default_graph())
            c = tf.constant(2.0)
        with self.cached_session() as s2:
            self.assertIs(s1, s2)
            self.assertEqual(2.0, c.eval())
        with self.test_session() as s3:                  # the deprecated name: the same one
            self.assertIs(s1, s3)
        self.assertIsNone(tf.get_default_session())
        self.assertFalse(s1._closed)                      # closed only in tearDown
        self.tearDown()
        self.assertTrue(s1._closed)

    def testCachedSessionRefusesAnotherGraph(self):
        with self.cached_session():
            pass
        with self.assertRaisesRegex(ValueError, "graph used to get the cached session"):
            with self.cached_session(graph=tf.Graph()):
                pass

    def testSessionIsNewAndClosed(self):
        with self.session() as s1:
            self.assertIs(tf.get_default_session(), s1)
            c = tf.constant([1, 2])
            self.assertAllEqual([1, 2], c.eval())
        self.assertTrue(s1._closed)
        with self.session() as s2:
            self.assertIsNot(s1, s2)

    def testSessionOnAnotherGraph(self):
        g = tf.Graph()
        with g.as_default():
            c = tf.constant(3.0)
        with self.session(graph=g) as sess:
            self.assertIs(sess.graph, g)
            self.assertIs(tf.get_default_graph(), g)
            self.assertEqual(3.0, self.evaluate(c))
        with self.test_session(graph=g) as sess:
            self.assertIs(sess.graph, g)

    def testDevicesAreConstrainedAsTf115(self):
        with self.session():                        # use_gpu=False: ops pinned to the CPU
            self.assertEqual("/device:CPU:0", tf.constant(1.0).op.device)
        with self.session(use_gpu=True):
            self.assertEqual("", tf.constant(1.0).op.device)

    def testEvaluateNestedStructures(self):
        a = tf.constant([1.0, 2.0])
        b = tf.constant(3)
        with self.cached_session():
            got = self.evaluate({"a": a, "rest": [b, (a, b)], "pair": Pair(a=b, b=a)})
        self.assertAllEqual([1.0, 2.0], got["a"])
        self.assertEqual(3, got["rest"][0])
        self.assertIsInstance(got["rest"][1], tuple)
        self.assertIsInstance(got["pair"], Pair)
        self.assertAllClose({"a": [1.0, 2.0], "rest": [3, (np.array([1.0, 2.0]), 3)],
                             "pair": Pair(a=3, b=[1.0, 2.0])}, got)

    def testEvaluateWithoutADefaultSessionUsesTheCachedOne(self):
        self.assertIsNone(tf.get_default_session())
        self.assertEqual(5, self.evaluate(tf.constant(5)))
        self.assertIsNotNone(self._cached_session)

    def testTensorsAreEvaluatedByTheAssertions(self):
        with self.cached_session():
            x = tf.constant([1.0, 2.0])
            self.assertAllClose(x, [1.0, 2.0])
            self.assertAllEqual(x, x)
            self.assertAllGreater(x, 0.5)
            self.assertDTypeEqual(x, np.float32)

    def testGetTempDir(self):
        d = self.get_temp_dir()
        self.assertEqual(d, self.get_temp_dir())
        self.assertTrue(os.path.isdir(d))
        self.assertStartsWith(d, tf.test.get_temp_dir())
        self.assertTrue(os.path.isdir(tf.test.get_temp_dir()))


def test_a_method_named_test_session_is_skipped_and_threads_are_checked():
    class Inner(tf.test.TestCase):
        def testThreadFails(self):
            t = self.checkedThread(target=lambda: 1 / 0)
            t.start()
            t.join()

        def testThreadNotJoined(self):
            self.checkedThread(target=lambda: None).start()

        def testThreadOk(self):
            out = []
            t = self.checkedThread(target=out.append, args=(7,))
            t.start()
            t.join()
            self.assertEqual([7], out)

    assert "test_session" not in unittest.TestLoader().getTestCaseNames(Inner)
    result = _run_case(Inner, "test_session", "testThreadFails", "testThreadNotJoined",
                       "testThreadOk")
    assert [r for _, r in result.skipped] == ["Not a test."]
    failures = {case._testMethodName: text for case, text in result.failures}
    assert set(failures) == {"testThreadFails", "testThreadNotJoined"}
    assert "Error in checkedThread: division by zero" in failures["testThreadFails"]
    assert "A checked thread was not joined." in failures["testThreadNotJoined"]
    assert not result.errors


# -- assertions, passing and failing ------------------------------------------------------

class AssertionsTest(tf.test.TestCase):

    @contextlib.contextmanager
    def fails(self, *fragments):
        """The block must fail with an AssertionError whose message holds each fragment."""
        with self.assertRaises(AssertionError) as cm:
            yield
        text = str(cm.exception)
        for fragment in fragments:
            self.assertIn(fragment, text)

    def testAssertAllClose(self):
        self.assertAllClose([1.0, 2.0], np.array([1.0, 2.0 + 1e-7]))
        self.assertAllClose(1.0, 1.0 + 1e-7)
        self.assertAllClose({"x": [1.0], "y": (2.0, [3.0, 4.0])},
                            {"x": [1.0], "y": (2.0, [3.0, 4.0])})
        self.assertAllClose([1.0, 1.1], [1.0, 1.0], atol=0.2)
        with self.fails("not close where = (array([1]),)", "not close lhs = [2.]",
                        "not close rhs = [2.1]", "dtype = float64, shape = (3,)",
                        "Mismatched value: a is different from b."):
            self.assertAllClose([1.0, 2.0, 3.0], [1.0, 2.1, 3.0])
        with self.fails("Mismatched value: a[y][1] is different from b[y][1]", "teacher's"):
            self.assertAllClose({"x": 1.0, "y": (2.0, [3.0, 4.0])},
                                {"x": 1.0, "y": (2.0, [3.0, 5.0])}, msg="teacher's note")
        with self.fails("Shape mismatch: expected (2,), got (1, 2)"):
            self.assertAllClose([1.0, 2.0], [[1.0, 2.0]])
        with self.fails("not close lhs = nan"):
            self.assertAllClose(np.nan, 1.0)
        with self.assertRaisesRegex(ValueError, "Can't compare dict to non-dict"):
            self.assertAllClose({"x": 1.0}, [1.0])
        self.assertAllClose([1.0, {"k": 2.0}], [1.0, {"k": 2.0}])
        with self.fails("Mismatched value: a[1][k] is different from b[1][k]"):
            self.assertAllClose([1.0, {"k": 2.0}], [1.0, {"k": 3.0}])
        with self.fails("Shape mismatch: expected (1,), got (2,) with contents"):
            self.assertAllClose([1.0, [{"k": 2.0}]], [1.0, [{"k": 2.0}, 3.0]])
        with self.fails("mismatched keys"):
            self.assertAllClose({"x": 1.0}, {"y": 1.0})

    def testAssertAllCloseAccordingToType(self):
        half = np.array([1.0, 2.0], np.float16)
        self.assertAllCloseAccordingToType(half, np.array([1.0005, 2.0], np.float16))
        with self.fails("not close"):                 # 5e-4 is too far for float64
            self.assertAllCloseAccordingToType([1.0, 2.0], [1.0005, 2.0])
        with self.fails("not close"):
            self.assertAllCloseAccordingToType(half, np.array([1.01, 2.0], np.float16))
        self.assertAllCloseAccordingToType(np.float32(1.0), np.float32(1.0 + 1e-6),
                                           float_rtol=1e-5)

    def testAssertNotAllClose(self):
        self.assertNotAllClose([1.0, 2.0], [1.0, 2.5])
        with self.fails("The two values are close at all elements. note"):
            self.assertNotAllClose([1.0, 2.0], [1.0, 2.0], msg="note")

    def testAssertAllEqual(self):
        self.assertAllEqual([[1, 2], [3, 4]], np.array([[1, 2], [3, 4]]))
        self.assertAllEqual([np.nan, 1.0], [np.nan, 1.0])
        self.assertAllEqual([b"a", b"b"], np.array([b"a", b"b"], dtype=object))
        with self.fails("not equal where = (array([1]), array([0]))", "not equal lhs = array([3])",
                        "not equal rhs = array([5])"):
            self.assertAllEqual([[1, 2], [3, 4]], [[1, 2], [5, 4]])
        with self.fails("Shape mismatch: expected (2,), got (3,)"):
            self.assertAllEqual([1, 2], [1, 2, 3])
        self.assertNotAllEqual([1, 2], [1, 3])
        with self.fails("The two values are equal at all elements."):
            self.assertNotAllEqual([1, 2], [1, 2])

    def testAssertNearAndArrayNear(self):
        self.assertNear(1.0, 1.05, 0.1)
        self.assertNear(float("inf"), float("inf"), 0.0)
        with self.fails("1.000000 != 1.500000 +/- 0.100000 (why)"):
            self.assertNear(1.0, 1.5, 0.1, msg="why")
        self.assertArrayNear([1.0, 2.0], [1.01, 1.99], 0.02)
        with self.fails("2.000000 != 2.500000 +/- 0.100000"):
            self.assertArrayNear([1.0, 2.0], [1.0, 2.5], 0.1)
        with self.fails("2 != 3"):
            self.assertArrayNear([1.0, 2.0], [1.0, 2.0, 3.0], 0.1)
        self.assertNDArrayNear(np.ones(3), np.ones(3) + 1e-3, 0.01)
        with self.fails():
            self.assertNDArrayNear(np.ones(3), np.zeros(3), 0.01)

    def testAssertAllGreaterLess(self):
        a = [1, 2, 3]
        self.assertAllGreater(a, 0)
        self.assertAllGreaterEqual(a, 1)
        self.assertAllLess(a, 4)
        self.assertAllLessEqual(a, 3)
        with self.fails("not greater than 1"):
            self.assertAllGreater(a, 1)
        with self.fails("not greater than or equal to 2"):
            self.assertAllGreaterEqual(a, 2)
        with self.fails("not less than 3"):
            self.assertAllLess(a, 3)
        with self.fails("not less than or equal to 2"):
            self.assertAllLessEqual(a, 2)

    def testAssertAllInRangeAndInSet(self):
        x = np.array([[0.0, 0.5], [1.0, 0.25]])
        self.assertAllInRange(x, 0.0, 1.0)
        with self.fails("2 of the 4 element(s) are outside the range (0.0, 1.0). ",
                        "[0 0] : 0.0", "[1 0] : 1.0"):
            self.assertAllInRange(x, 0.0, 1.0, open_lower_bound=True, open_upper_bound=True)
        with self.fails("1 of the 2 element(s) are NaN.", "[1] : nan"):
            self.assertAllInRange([0.5, np.nan], 0.0, 1.0)
        with self.fails("does not have an ordered numeric type"):
            self.assertAllInRange([b"a"], 0, 1)
        self.assertAllInSet([[1, 2], [2, 1]], {1, 2})
        with self.fails("1 unique element(s) are not in the set [1, 2]: [3]"):
            self.assertAllInSet([1, 2, 3, 3], [1, 2])

    def testAssertShapeDTypeDeviceStartsWith(self):
        t = tf.placeholder(tf.float32, [None, 3])
        self.assertShapeEqual(np.zeros((2, 3)), tf.zeros([2, 3]))
        with self.fails("not equal lhs = array([2, 3])", "not equal rhs = array([3, 2])"):
            self.assertShapeEqual(np.zeros((2, 3)), tf.zeros([3, 2]))
        with self.fails():
            self.assertShapeEqual(np.zeros((2, 3)), t)      # [2, 3] vs [None, 3]
        with self.assertRaisesRegex(TypeError, "np_array must be a Numpy ndarray"):
            self.assertShapeEqual([1, 2], t)
        self.assertDTypeEqual(np.zeros(2, np.int32), np.int32)
        self.assertDTypeEqual([1.0], tf.float64)
        with self.fails("int32", "float32"):
            self.assertDTypeEqual(np.zeros(2, np.int32), np.float32)
        self.assertDeviceEqual("/gpu:0", "/device:GPU:0")
        self.assertDeviceEqual("/job:worker/cpu:0", "/job:worker/device:CPU:0")
        with self.fails("Devices /device:CPU:0 and /device:GPU:0 are not equal. None"):
            self.assertDeviceEqual("/cpu:0", "/gpu:0")
        self.assertStartsWith("gradients/MatMul_grad", "gradients/")
        with self.fails("'MatMul' does not start with 'gradients/' : 'hint'"):
            self.assertStartsWith("MatMul", "gradients/", msg="hint")

    def testAssertProtoEquals(self):
        self.assertProtoEquals(tf.ConfigProto(allow_soft_placement=True),
                               tf.ConfigProto(allow_soft_placement=True))
        with self.fails():
            self.assertProtoEquals(tf.ConfigProto(), tf.ConfigProto(allow_soft_placement=True))
        with self.assertRaises(NotImplementedError):
            self.assertProtoEquals("allow_soft_placement: true", tf.ConfigProto())

    def testAssertRaisesOpErrorWithAFailedAssertion(self):
        x = tf.placeholder(tf.int32, [2])
        check = tf.assert_equal(x, [1, 2], message="x must be [1, 2]")
        with self.cached_session() as sess:
            sess.run(check, {x: [1, 2]})
            with self.assertRaisesOpError("x must be"):
                sess.run(check, {x: [1, 3]})
            with self.assertRaisesOpError(lambda e: isinstance(e, tf.errors.InvalidArgumentError)):
                sess.run(check, {x: [0, 0]})
            with self.fails("Exception of type", "x must be [1, 2]"):
                with self.assertRaisesOpError("something else"):
                    sess.run(check, {x: [1, 3]})
            with self.fails("OpError not raised"):
                with self.assertRaisesOpError("x must be"):
                    sess.run(check, {x: [1, 2]})

    def testAssertRaisesOpErrorWithAMissingFeed(self):
        x = tf.placeholder(tf.float32, [2], name="x")
        y = 2.0 * x
        with self.cached_session():
            with self.assertRaisesOpError("You must feed a value for placeholder tensor 'x'"):
                self.evaluate(y)
            with self.assertRaisesOpError(r"Caused by: x"):      # the node's name is searched
                y.eval()
            with self.fails("Exception of type <class 'ValueError'>"):   # not an OpError
                with self.assertRaisesOpError("boom"):
                    raise ValueError("boom")

    def testAssertRaisesWithPredicateMatch(self):
        with self.assertRaisesWithPredicateMatch(ValueError, "ba+d"):
            raise ValueError("a baaad value")
        with self.assertRaisesWithPredicateMatch(KeyError, lambda e: e.args == ("k",)):
            raise KeyError("k")
        with self.fails("Exception of type <class 'KeyError'>"):
            with self.assertRaisesWithPredicateMatch(ValueError, "k"):
                raise KeyError("k")
        with self.fails("ValueError not raised"):
            with self.assertRaisesWithPredicateMatch(ValueError, "k"):
                pass


# -- the gradient checker -----------------------------------------------------------------

class GradientCheckerTest(tf.test.TestCase):

    def testErrorsOfSomeOpsAreSmall(self):
        with self.cached_session():
            x = tf.placeholder(tf.float64, [2, 3])
            for y, y_shape in [(tf.tanh(x), [2, 3]), (tf.reduce_sum(x * x, 1), [2]),
                               (tf.nn.softmax(x), [2, 3]), (tf.transpose(x), [3, 2])]:
                self.assertLess(tf.test.compute_gradient_error(x, [2, 3], y, y_shape), 1e-3)
            w = tf.constant(np.arange(12.0).reshape(3, 4))
            self.assertLess(tf.test.compute_gradient_error(x, [2, 3], tf.matmul(x, w), [2, 4]),
                            1e-3)

    def testJacobiansHaveTfShapesAndValues(self):
        with self.cached_session():
            x = tf.placeholder(tf.float64, [2, 3])
            y = tf.reduce_sum(x, 1)
            jacob_t, jacob_n = tf.test.compute_gradient(x, [2, 3], y, [2])
            self.assertEqual((6, 2), jacob_t.shape)               # x_size rows, y_size columns
            self.assertEqual((6, 2), jacob_n.shape)
            self.assertAllClose([[1, 0]] * 3 + [[0, 1]] * 3, jacob_t)
            self.assertAllClose(jacob_t, jacob_n)

    def testAListOfXsAndInitValues(self):
        with self.cached_session():
            a = tf.constant(np.ones((2, 3)))
            b = tf.constant(np.ones((3, 4)))
            result = tf.test.compute_gradient([a, b], [[2, 3], [3, 4]], tf.matmul(a, b), [2, 4],
                                              x_init_value=[np.ones((2, 3)), np.ones((3, 4))])
            self.assertIsInstance(result, list)
            self.assertEqual([((6, 8), (6, 8)), ((12, 8), (12, 8))],
                             [(t.shape, n.shape) for t, n in result])
            self.assertLess(tf.test.compute_gradient_error(
                [a, b], [[2, 3], [3, 4]], tf.matmul(a, b), [2, 4]), 1e-3)

    def testSparseGradientVariableAndExtraFeeds(self):
        with self.cached_session():
            v = tf.Variable(np.ones((4, 2)))
            ids = tf.placeholder(tf.int32, [2])
            y = tf.nn.embedding_lookup(v, ids)              # an IndexedSlices gradient
            err = tf.test.compute_gradient_error(
                v, [4, 2], y, [2, 2], init_targets=[tf.global_variables_initializer()],
                extra_feed_dict={ids: [0, 2]})
            self.assertLess(err, 1e-3)

    def testAWrongGradientIsCaught(self):
        with self.cached_session():
            x = tf.placeholder(tf.float64, [3])
            y = tf.stop_gradient(x) * x                     # true derivative is 2x
            jacob_t, jacob_n = tf.test.compute_gradient(x, [3], y, [3],
                                                        x_init_value=np.array([1.0, 2.0, 3.0]))
            self.assertAllClose(np.diag([1.0, 2.0, 3.0]), jacob_t)
            self.assertAllClose(np.diag([2.0, 4.0, 6.0]), jacob_n, atol=1e-6)
            with self.fails_with("not close"):
                self.assertAllClose(jacob_n, jacob_t)

    def testNeedsADefaultSession(self):
        x = tf.placeholder(tf.float64, [2])
        with self.assertRaisesRegex(ValueError, "default session"):
            tf.test.compute_gradient(x, [2], tf.tanh(x), [2])

    @contextlib.contextmanager
    def fails_with(self, fragment):
        with self.assertRaises(AssertionError) as cm:
            yield
        self.assertIn(fragment, str(cm.exception))


# -- the module's functions, main, Benchmark ----------------------------------------------

def test_module_functions():
    assert tf.test.TestCase.__mro__[1] is unittest.TestCase
    assert tf.test.is_gpu_available() is False
    assert tf.test.is_gpu_available(cuda_only=True) is False
    assert tf.test.gpu_device_name() == ""
    assert tf.test.is_built_with_cuda() is False
    assert tf.test.is_built_with_gpu_support() is False
    assert tf.test.is_built_with_rocm() is False
    assert tf.test.mock is unittest.mock
    assert os.path.isfile(tf.test.test_src_dir_path("client/test_util.py"))


def test_main_runs_unittest_main():
    with tf.test.mock.patch("unittest.main") as main:
        tf.test.main(["prog", "-v"])
    main.assert_called_once_with(module="__main__", argv=["prog", "-v"])


def test_benchmark_reports_and_main_runs_benchmarks():
    class AddBenchmark(tf.test.Benchmark):
        def benchmarkAdd(self):
            with tf.Graph().as_default(), tf.Session() as sess:
                c = tf.constant(1.0) + 1.0
                self.values = self.run_op_benchmark(sess, c, min_iters=3, name="add",
                                                    extras={"note": "small"})

        def benchmarkReport(self):
            self.report_benchmark(iters=5, wall_time=0.25, extras={"x": 1.5})

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        bench = AddBenchmark()
        bench.benchmarkAdd()
        bench.benchmarkReport()
    text = out.getvalue()
    assert 'name: "AddBenchmark.add"' in text and "iters: 3" in text
    assert 'name: "AddBenchmark.benchmarkReport"' in text and "wall_time: 0.25" in text
    assert 'key: "x"' in text and "double_value: 1.5" in text
    assert set(bench.values) == {"iters", "wall_time", "extras", "name", "throughput"}
    assert bench.values["iters"] == 3 and bench.values["wall_time"] >= 0
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tf.test.main(["prog", "--benchmarks=AddBenchmark.benchmarkRep"])
    assert out.getvalue().count("entry {") == 1


def test_report_benchmark_outside_a_benchmark_method_names_its_class():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        tf.test.Benchmark().report_benchmark(iters=1, name="manual")
    assert 'name: "Benchmark.manual"' in out.getvalue()
