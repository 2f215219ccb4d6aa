"""Session and run configuration -- mirrors TensorFlow's protocol messages ConfigProto,
GPUOptions, GraphOptions, RunOptions and RunMetadata (core/protobuf/config.proto).

They behave like the protobuf messages TF-1 programs build: keyword construction, attribute
access, and a clear error for a field that does not exist.
"""
from ..framework.message import Message
from ..framework.step_stats import DeviceStepStats, NodeExecStats, StepStats

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RPCOptions",
           "RunOptions", "RunMetadata", "StepStats", "DeviceStepStats", "NodeExecStats"]

# Messages are plain records (framework/message.py); RunMetadata's step statistics are the
# framework's (framework/step_stats.py), where the runtime fills them.


class GPUOptions(Message):
    """Accepted for compatibility; simulated GPUs have no memory to manage."""
    _FIELDS = {"allow_growth": False, "per_process_gpu_memory_fraction": 0.0,
               "visible_device_list": "", "allocator_type": ""}


class OptimizerOptions(Message):
    _FIELDS = {"do_common_subexpression_elimination": False, "do_constant_folding": False,
               "opt_level": 0, "global_jit_level": 0}


class GraphOptions(Message):
    _FIELDS = {"optimizer_options": OptimizerOptions, "build_cost_model": 0,
               "infer_shapes": False, "place_pruned_graph": False, "enable_bfloat16_sendrecv": False}


class RPCOptions(Message):
    """How a distributed session talks to its master. `use_rpc_for_inprocess_master=True`
    sends a client's requests through the master's socket even when the master is in the
    client's own process (by default they are calls, as TF's LocalMaster makes them); the
    other fields are accepted for compatibility (the sandbox does not compress messages)."""
    _FIELDS = {"use_rpc_for_inprocess_master": False, "compression_algorithm": "",
               "compression_level": 0, "cache_rpc_response": False,
               "disable_session_connection_sharing": False}


class ConfigProto(Message):
    """Session configuration.

    log_device_placement  print every op's device when it is placed
    allow_soft_placement  put an op on an available device when its requested one does not exist
    device_count          e.g. {'GPU': 2}: how many simulated GPUs a local session / server has
    device_filters        the only tasks a distributed session may use, e.g. ['/job:ps', '/job:worker/task:0']
    operation_timeout_in_ms  default deadline for blocking operations of a distributed session
    """
    _FIELDS = {"device_count": dict, "intra_op_parallelism_threads": 0,
               "inter_op_parallelism_threads": 0, "use_per_session_threads": False,
               "allow_soft_placement": False, "log_device_placement": False,
               "device_filters": list, "operation_timeout_in_ms": 0,
               "gpu_options": GPUOptions, "graph_options": GraphOptions,
               "isolate_session_state": False, "placement_period": 0,
               "rpc_options": RPCOptions}


class RunOptions(Message):
    """Options for one Session.run: `timeout_in_ms` bounds the step; `trace_level=FULL_TRACE`
    asks for per-op timings in RunMetadata.step_stats."""
    NO_TRACE, SOFTWARE_TRACE, HARDWARE_TRACE, FULL_TRACE = 0, 1, 2, 3
    _FIELDS = {"trace_level": 0, "timeout_in_ms": 0, "inter_op_thread_pool": 0,
               "output_partition_graphs": False, "report_tensor_allocations_upon_oom": False}


class RunMetadata(Message):
    """Filled by Session.run when asked: step_stats (with FULL_TRACE), partition_graphs."""
    _FIELDS = {"step_stats": StepStats, "partition_graphs": list, "cost_graph": None}
