"""`tf.train` -- mirrors TensorFlow 1.x's tf.train namespace (python/training/).

Optimizers (GradientDescentOptimizer, MomentumOptimizer, AdagradOptimizer, RMSPropOptimizer,
AdamOptimizer) turn a loss into an update op; the global step counts training steps;
exponential_decay makes a learning rate that shrinks as the global step grows.
"""
# Later issues add to this package: Saver, checkpoint helpers, MonitoredTrainingSession and
# its hooks, Supervisor, replica_device_setter, SyncReplicasOptimizer, queue runners.
from .optimizer import Optimizer
from .gradient_descent import GradientDescentOptimizer
from .momentum import MomentumOptimizer
from .adagrad import AdagradOptimizer
from .rmsprop import RMSPropOptimizer
from .adam import AdamOptimizer
from .training_util import global_step, get_global_step, create_global_step, \
    get_or_create_global_step, assert_global_step
from .learning_rate_decay import *                   # noqa: F401,F403  exponential_decay ...
from .cluster_spec import ClusterSpec, ClusterDef, JobDef
from .device_setter import replica_device_setter, GreedyLoadBalancingStrategy, byte_size_load_fn
from .coordinator import Coordinator, LooperThread
from .queue_runner import QueueRunner, add_queue_runner, start_queue_runners
from .session_run_hook import SessionRunHook, SessionRunArgs, SessionRunContext, \
    SessionRunValues
from .basic_session_run_hooks import SecondOrStepTimer, LoggingTensorHook, StopAtStepHook, \
    CheckpointSaverListener, CheckpointSaverHook, StepCounterHook, NanLossDuringTrainingError, \
    NanTensorHook, SummarySaverHook, GlobalStepWaiterHook, FinalOpsHook, FeedFnHook
from .session_manager import SessionManager
from .monitored_session import Scaffold, MonitoredTrainingSession, SessionCreator, \
    ChiefSessionCreator, WorkerSessionCreator, MonitoredSession, SingularMonitoredSession
from .supervisor import Supervisor
from .sync_replicas_optimizer import SyncReplicasOptimizer
from .saver import Saver, SaverDef, export_meta_graph, import_meta_graph
from .checkpoint import Checkpoint, CheckpointManager
from .checkpoint_management import latest_checkpoint, get_checkpoint_state, \
    checkpoint_exists, get_checkpoint_mtimes, update_checkpoint_state, \
    generate_checkpoint_state_proto, remove_checkpoint, meta_graph_filename, list_variables, \
    load_variable, load_checkpoint
from ..framework.tensor_bundle import NewCheckpointReader
from .checkpoint_utils import init_from_checkpoint, checkpoints_iterator
from .warm_starting_util import VocabInfo, warm_start
from .profiler_hook import ProfilerHook
from .graph_io import write_graph
from .basic_loops import basic_train_loop
from .summary_iterator import summary_iterator
from ..platform.example_proto import Example, Features, Feature, BytesList, FloatList, \
    Int64List, SequenceExample, FeatureList, FeatureLists
from ..summary.writer import FileWriter as SummaryWriter

__all__ = ["Optimizer", "GradientDescentOptimizer", "MomentumOptimizer", "AdagradOptimizer",
           "RMSPropOptimizer", "AdamOptimizer", "global_step", "get_global_step",
           "create_global_step", "get_or_create_global_step", "assert_global_step",
           "exponential_decay", "ClusterSpec", "ClusterDef", "JobDef", "Server", "ServerDef",
           "replica_device_setter", "GreedyLoadBalancingStrategy", "byte_size_load_fn",
           "Coordinator", "LooperThread", "QueueRunner", "add_queue_runner",
           "start_queue_runners",
           "SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues",
           "SecondOrStepTimer", "LoggingTensorHook", "StopAtStepHook", "CheckpointSaverListener",
           "CheckpointSaverHook", "StepCounterHook", "NanLossDuringTrainingError",
           "NanTensorHook", "SummarySaverHook", "GlobalStepWaiterHook", "FinalOpsHook",
           "FeedFnHook", "SessionManager", "Scaffold", "MonitoredTrainingSession",
           "SessionCreator", "ChiefSessionCreator", "WorkerSessionCreator", "MonitoredSession",
           "SingularMonitoredSession", "Supervisor", "SyncReplicasOptimizer",
           "Saver", "SaverDef", "Checkpoint", "CheckpointManager", "export_meta_graph", "import_meta_graph", "latest_checkpoint",
           "get_checkpoint_state", "checkpoint_exists",
           "get_checkpoint_mtimes", "update_checkpoint_state", "generate_checkpoint_state_proto",
           "remove_checkpoint", "meta_graph_filename", "list_variables", "load_variable",
           "load_checkpoint", "NewCheckpointReader", "SummaryWriter", "Example", "Features",
           "Feature", "BytesList", "FloatList", "Int64List", "SequenceExample", "FeatureList",
           "FeatureLists", "init_from_checkpoint",
           "checkpoints_iterator", "write_graph", "basic_train_loop", "summary_iterator",
           "VocabInfo", "warm_start", "ProfilerHook"]


# The families of issue 27: each module names what it adds in its own __all__.
from . import adadelta as _adadelta, ftrl as _ftrl, input as _input, \
    learning_rate_decay as _learning_rate_decay, moving_averages as _moving_averages, \
    proximal_gradient_descent as _proximal_gradient_descent, \
    proximal_adagrad as _proximal_adagrad, adagrad_da as _adagrad_da
from .adadelta import *                              # noqa: F401,F403  AdadeltaOptimizer
from .ftrl import *                                  # noqa: F401,F403  FtrlOptimizer
from .input import *                                 # noqa: F401,F403  tf.train.batch ...
from .moving_averages import *                       # noqa: F401,F403  ExponentialMovingAverage
from .proximal_gradient_descent import ProximalGradientDescentOptimizer
from .proximal_adagrad import ProximalAdagradOptimizer
from .adagrad_da import AdagradDAOptimizer
__all__ += [name for module in (_adadelta, _ftrl, _input, _learning_rate_decay, _moving_averages,
                                _proximal_gradient_descent, _proximal_adagrad, _adagrad_da)
            for name in module.__all__ if name not in __all__]


def __getattr__(name):
    # The server pulls in the whole distributed runtime; load it only when a program uses it,
    # so that `import sandbox` stays fast.
    if name in ("Server", "ServerDef"):
        from . import server_lib
        return getattr(server_lib, name)
    raise AttributeError(f"module 'sandbox.train' has no attribute {name!r}")
