"""Version constants -- mirrors TensorFlow's python/framework/versions.py (`tf.VERSION`,
`tf.__version__`, `tf.version.VERSION`, `tf.GRAPH_DEF_VERSION` ...).

The sandbox speaks the TF-1 API of TensorFlow 1.15; the suffix says it is not TensorFlow.
Saver writes this version into every meta graph (train/saver.py, as TF's meta_info_def does).

Two kinds of constants:

  * The GraphDef versions describe the *format* of a graph (core/public/version.h): a
    GraphDef records the version that produced it, and a consumer refuses graphs older than
    its MIN_PRODUCER. The sandbox speaks TF 1.15's format, so these are TF 1.15's numbers.
  * The others describe a *build* of TensorFlow's C++ library: the git commit it came from,
    the compiler, the C++ ABI, whether it was linked as one library. The sandbox has no C++
    library, so it says so honestly rather than copying TF 1.15's build (which was
    GIT_VERSION 'v1.15.0-rc3-22-g590d6ee', COMPILER_VERSION '7.3.1 20180303',
    CXX11_ABI_FLAG 0, MONOLITHIC_BUILD 0): no git version ('unknown', what TF reports when
    built outside git), the compiler that built the Python interpreter the sandbox runs on,
    and 0 for the C++ flags.
"""
import platform

__all__ = ["VERSION", "__version__", "GIT_VERSION", "COMPILER_VERSION", "CXX11_ABI_FLAG",
           "MONOLITHIC_BUILD", "GRAPH_DEF_VERSION", "GRAPH_DEF_VERSION_MIN_CONSUMER",
           "GRAPH_DEF_VERSION_MIN_PRODUCER"]

VERSION = "1.15.0-sandbox"      # the TF-1 API level the sandbox speaks
__version__ = VERSION

# The graph format: TF 1.15's core/public/version.h.
GRAPH_DEF_VERSION = 134
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

# The build: the sandbox's own (see above).
GIT_VERSION = "unknown"
COMPILER_VERSION = platform.python_compiler()
CXX11_ABI_FLAG = 0
MONOLITHIC_BUILD = 0
