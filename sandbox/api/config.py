"""`tf.config` -- the names of TensorFlow 1.15's tf.config namespace (TF's generated
api/_v1/config/__init__.py, python/framework/config.py) that make sense without GPUs.

In TF these read and set the *eager context*: the process-wide runtime that tf.function and
eager execution use, created ("initialized") the first time something needs its devices. A
TF-1 program's tf.Session does not use it: a Session takes its threads and its soft placement
from its own tf.ConfigProto. The sandbox has no eager context, so here the functions keep the
values TF would keep, and nothing else reads them:

    tf.config.threading.set_inter_op_parallelism_threads(2)   # recorded; a Session uses
    tf.config.threading.get_inter_op_parallelism_threads()    # ConfigProto(inter_op_...)  -> 2
    tf.config.set_soft_device_placement(True)                 # recorded; a Session uses
                                                              # ConfigProto(allow_soft_placement)
As in TF, the thread counts cannot change once the context is initialized, which listing the
logical devices does (RuntimeError).

Devices: each sandbox task has one device, its CPU, so

    tf.config.list_physical_devices()
    # [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    tf.config.list_logical_devices()
    # [LogicalDevice(name='/device:CPU:0', device_type='CPU')]

(tf.Session.list_devices() names the same device with its job and task). The CPU cannot be
hidden (set_visible_devices accepts it and changes nothing) nor given memory growth (ValueError,
as TF for a non-GPU device). The same functions are under tf.config.experimental.

Not here: splitting a device into logical devices (set_logical_device_configuration), the
optimizer and memory options, and experimental_connect_to_cluster (a cluster is
tf.train.Server's, sandbox/train/server_lib.py).
"""
import collections
import types

__all__ = ["LogicalDevice", "PhysicalDevice", "experimental", "get_soft_device_placement",
           "get_visible_devices", "list_logical_devices", "list_physical_devices",
           "set_soft_device_placement", "set_visible_devices", "threading"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])

_CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_CPU_LOGICAL = LogicalDevice(name="/device:CPU:0", device_type="CPU")


class _Context:
    """What TF's eager context would hold (python/eager/context.py), defaults as TF 1.x's."""

    def __init__(self):
        self.initialized = False
        self.inter_op_parallelism_threads = 0       # 0: the runtime chooses
        self.intra_op_parallelism_threads = 0
        self.soft_device_placement = False


_context = _Context()


# -- threads -------------------------------------------------------------------------------

def _set_threads(field, what, num_threads):
    if getattr(_context, field) == num_threads:
        return
    if _context.initialized:
        raise RuntimeError(f"{what} parallelism cannot be modified after initialization.")
    setattr(_context, field, int(num_threads))


def get_inter_op_parallelism_threads():
    """The number of ops that may run at once (0: the runtime chooses)."""
    return _context.inter_op_parallelism_threads


def set_inter_op_parallelism_threads(num_threads):
    """Records the number of ops that may run at once (0: the runtime chooses). A Session
    takes it from ConfigProto(inter_op_parallelism_threads=...) instead."""
    _set_threads("inter_op_parallelism_threads", "Inter op", num_threads)


def get_intra_op_parallelism_threads():
    """The number of threads one op may use (0: the runtime chooses)."""
    return _context.intra_op_parallelism_threads


def set_intra_op_parallelism_threads(num_threads):
    """Records the number of threads one op may use. A Session (a tf.train.Server) takes it
    from ConfigProto(intra_op_parallelism_threads=...) instead."""
    _set_threads("intra_op_parallelism_threads", "Intra op", num_threads)


threading = types.SimpleNamespace(
    get_inter_op_parallelism_threads=get_inter_op_parallelism_threads,
    set_inter_op_parallelism_threads=set_inter_op_parallelism_threads,
    get_intra_op_parallelism_threads=get_intra_op_parallelism_threads,
    set_intra_op_parallelism_threads=set_intra_op_parallelism_threads)


# -- soft placement --------------------------------------------------------------------------

def get_soft_device_placement():
    """Whether an op may move to another device when its own is missing (recorded only)."""
    return _context.soft_device_placement


def set_soft_device_placement(enabled):
    """Records soft placement. A Session takes it from ConfigProto(allow_soft_placement=...)."""
    _context.soft_device_placement = bool(enabled)


# -- devices ---------------------------------------------------------------------------------

def list_physical_devices(device_type=None):
    """The devices of this process: the sandbox's one CPU ([] for device_type 'GPU' ...)."""
    return [_CPU] if device_type in (None, _CPU.device_type) else []


def list_logical_devices(device_type=None):
    """The devices ops can be placed on: the CPU. Initializes the context, as in TF."""
    _context.initialized = True
    return [_CPU_LOGICAL] if device_type in (None, _CPU.device_type) else []


def get_visible_devices(device_type=None):
    """The physical devices the runtime may use: the CPU."""
    return list_physical_devices(device_type)


def set_visible_devices(devices, device_type=None):
    """Accepts PhysicalDevices from list_physical_devices; the CPU stays visible."""
    devices = [devices] if isinstance(devices, PhysicalDevice) else list(devices)
    for device in devices:
        if device not in list_physical_devices():
            raise ValueError(f"Unrecognized device: {device!r}. Pass devices from "
                             "tf.config.list_physical_devices().")


def get_memory_growth(device):
    """TF keeps memory growth for GPUs only: KeyError for the CPU."""
    raise KeyError(device)


def set_memory_growth(device, enable):
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


experimental = types.SimpleNamespace(
    get_memory_growth=get_memory_growth, set_memory_growth=set_memory_growth,
    get_visible_devices=get_visible_devices, set_visible_devices=set_visible_devices,
    list_logical_devices=list_logical_devices, list_physical_devices=list_physical_devices)
