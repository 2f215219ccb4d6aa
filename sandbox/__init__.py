"""sandbox -- a teaching sandbox for distributed TensorFlow 1.x.

Change one line of a TF-1 program, `import tensorflow as tf` -> `import sandbox as tf`, and it
runs on the sandbox's own small dataflow engine: graphs are built first and run later by a
Session, every op records where it is placed, and (with a cluster) variables live on parameter
servers in other processes.

This module is only the facade: it re-exports the TF-1 names from the packages that hold them.
"""
from .framework import dtypes
from .framework import errors
from .framework.errors import OpError
from .framework.dtypes import *                      # noqa: F401,F403  tf.float32, tf.as_dtype ...
from .framework.device_spec import DeviceSpec
from .framework.graph import *                       # noqa: F401,F403  tf.Graph, tf.name_scope ...
from .framework.operation import Operation
from .framework.tensor import Tensor, convert_to_tensor, is_tensor
from .framework.tensor_conversion_registry import register_tensor_conversion_function
from .framework.tensor_shape import (TensorShape, Dimension, dimension_value,  # noqa: F401
                                    dimension_at_index)
from .framework.tensor_util import get_static_value   # noqa: F401
from .framework.tensor_proto import *                # noqa: F401,F403  tf.make_tensor_proto ...
from .framework.importer import *                    # noqa: F401,F403  tf.import_graph_def
from .framework.op_def import RegisterGradient, NotDifferentiable, no_gradient, \
    NotDifferentiable as NoGradient     # TF 1.15's old name
from .client.config import *                         # noqa: F401,F403  tf.ConfigProto ...
from .client.session import Session, InteractiveSession, get_default_session
from .ops.constant_op import *                       # noqa: F401,F403
from .ops.control_flow_ops import *                  # noqa: F401,F403
from .ops.cond_v2 import cond, case                  # noqa: F401  (functional If: ops/cond_v2.py)
from .ops.while_v2 import while_loop                 # noqa: F401
from .ops.state_ops import assign, assign_add, assign_sub, is_variable_initialized, \
    scatter_update, scatter_add, scatter_sub, scatter_mul, scatter_div, scatter_max, \
    scatter_min, scatter_nd_update, scatter_nd_add, scatter_nd_sub
from .ops.state_ops import batch_scatter_update  # noqa: F401  (TF 1.15's tf.batch_scatter_update)
from .ops.variables import *                         # noqa: F401,F403
from .ops.lookup_ops import tables_initializer, initialize_all_tables  # noqa: F401
from .ops.gradients import gradients, AggregationMethod, UnconnectedGradients
from .ops.gradient_tape import GradientTape
from .ops.module import Module
from .ops.def_function import function
from .ops.session_ops import get_session_handle, get_session_tensor, delete_session_tensor
from .ops.critical_section_ops import CriticalSection
from .ops.math_ops import *                          # noqa: F401,F403
from .ops.basic_math_ops import *                    # noqa: F401,F403  tf.exp, tf.maximum ...
from .ops.comparison_ops import *                    # noqa: F401,F403  tf.equal, tf.where ...
from .ops.reduction_ops import *                     # noqa: F401,F403  tf.reduce_sum ...
from .ops.matmul_ops import *                        # noqa: F401,F403  tf.matmul
from .ops.array_ops import *                         # noqa: F401,F403
from .ops.slicing_ops import *                       # noqa: F401,F403  tf.concat, tf.slice ...
from .ops.indexing_ops import *                      # noqa: F401,F403  tf.gather, t[1:3] ...
from .ops.random_ops import *                        # noqa: F401,F403
from .ops.init_ops import *                          # noqa: F401,F403
from .ops.variable_scope import *                    # noqa: F401,F403
from .ops.partitioned_variables import (fixed_size_partitioner,  # noqa: F401
                                        min_max_variable_partitioner,
                                        variable_axis_size_partitioner)
from .ops.clip_ops import *                          # noqa: F401,F403
from .ops.data_flow_ops import *                    # noqa: F401,F403  tf.FIFOQueue ...
from .ops.accumulator_ops import *                  # noqa: F401,F403  tf.ConditionalAccumulator
from .ops.summary_ops import *                       # noqa: F401,F403  TF 0.x scalar_summary ...
from .ops.check_ops import *                         # noqa: F401,F403  tf.assert_equal ...
from .ops.logging_ops import *                       # noqa: F401,F403  tf.Print, tf.print
from .ops.script_ops import *                        # noqa: F401,F403  tf.py_func
from .ops.functional_ops import *                    # noqa: F401,F403  tf.map_fn
from .framework.indexed_slices import *              # noqa: F401,F403  tf.IndexedSlices
from .framework.node_def import *                    # noqa: F401,F403  tf.NodeDef
from .framework.sparse_tensor import *               # noqa: F401,F403  tf.SparseTensor ...
from .ops.sparse_ops import *                        # noqa: F401,F403  tf.sparse_to_dense ...
from .ops.sparse_math_ops import *                   # noqa: F401,F403  tf.sparse_reduce_sum ...
from .ops.sparse_array_ops import *                  # noqa: F401,F403  tf.sparse_concat ...
from .ops.sparse_reduce_ops import *                 # noqa: F401,F403  tf.sparse_softmax ...
# -- more array, math and linear-algebra ops (issue 27): each module's __all__ -------------
# (a helper adds its star imports here)
from .ops.linalg_ops import *                        # noqa: F401,F403  tf.eye, tf.norm ...
from .ops.matrix_decomposition_ops import *          # noqa: F401,F403  tf.qr, tf.svd ...
from .ops.diag_ops import *                          # noqa: F401,F403  tf.diag, tf.trace ...
from .ops.manip_ops import *                         # noqa: F401,F403  tf.roll, tf.broadcast_to ...
from .ops.sort_ops import *                          # noqa: F401,F403  tf.sort, tf.setdiff1d ...
from .ops.segment_ops import *                       # noqa: F401,F403  tf.segment_mean ...
from .ops.partition_ops import *                     # noqa: F401,F403  tf.dynamic_partition ...
from .ops.space_ops import *                         # noqa: F401,F403  tf.space_to_depth ...
from .ops.special_math_ops import *                  # noqa: F401,F403  tf.einsum, tf.lgamma ...
from .ops.random_extra_ops import *                  # noqa: F401,F403  tf.random_gamma ...
from .ops.custom_gradient import *                   # noqa: F401,F403  tf.custom_gradient ...
from .ops.template import *                          # noqa: F401,F403  tf.make_template
from .ops.string_ops import *                        # noqa: F401,F403  tf.string_join ...
from .ops.string_hash_ops import *                   # noqa: F401,F403  tf.string_to_hash_bucket ...
from .ops.tensor_scatter_ops import *                # noqa: F401,F403  tf.tensor_scatter_add ...
from .ops.histogram_ops import *                     # noqa: F401,F403  tf.histogram_fixed_width
from .ops.reader_ops import *                        # noqa: F401,F403  tf.TextLineReader ...
from .ops.parsing_csv_ops import *                   # noqa: F401,F403  tf.decode_csv
from .ops.gradients_impl import *                    # noqa: F401,F403  tf.hessians
from .ops.tensor_array_ops import *                  # noqa: F401,F403  tf.TensorArray
from .ops.tensor_serialization_ops import *          # noqa: F401,F403  tf.serialize_tensor ...
from .ops.encode_ops import *                        # noqa: F401,F403  tf.encode_base64 ...
from .ops.edit_distance_ops import *                 # noqa: F401,F403  tf.edit_distance
from .ops.switch_case_ops import *                   # noqa: F401,F403  tf.switch_case
from .ops.complex_ops import *                       # noqa: F401,F403  tf.complex, tf.real ...
from .ops.fft_ops import *                           # noqa: F401,F403  tf.fft ...
from .ops.quantize_ops import *                      # noqa: F401,F403  tf.quantize ...
from .framework.type_spec import *                   # noqa: F401,F403  tf.TensorSpec ...
from .ops.tensor_array_spec import TensorArraySpec  # noqa: F401
from .data.optional_ops import OptionalSpec          # noqa: F401
from . import nn
from . import train
from . import summary
from . import app
from . import flags
from . import version
from . import layers
from . import data
from . import metrics
from . import losses
from . import feature_column
from . import saved_model
from . import profiler
from .platform import gfile
from .platform import tf_logging as logging
from .api import debugging, io, math, python_io, random, sparse
from .api import strings  # noqa: F401  tf.strings
from .api import image  # noqa: F401  tf.image
from .api import audio  # noqa: F401  tf.audio
from .api import spectral  # noqa: F401  tf.spectral
from .api import ragged  # noqa: F401  tf.ragged
from .ops.ragged import RaggedTensor, RaggedTensorSpec  # noqa: F401  tf.RaggedTensor ...
from .api import (bitwise, config, distributions, graph_util, linalg, lookup,  # noqa: F401
                  manip, nest, quantization, queue, sets, signal)
from .api import test  # noqa: F401  tf.test
from .api import initializers  # noqa: F401  tf.initializers
from .api import dtypes  # noqa: F401,F811  tf.dtypes: the DTypes and cast, complex ...
from .api.math import (acos, acosh, asin, asinh, atan, atan2, atanh,  # noqa: F401
                       confusion_matrix, cosh, cumprod, erfc, log_sigmoid, segment_sum, sinh,
                       tan, unsorted_segment_sum, divide_no_nan as div_no_nan)
from .ops.parsing_ops import (FixedLenFeature, VarLenFeature, parse_example,  # noqa: F401
                              parse_single_example, FixedLenSequenceFeature, SparseFeature)
from .ops.parsing_sequence_ops import parse_single_sequence_example  # noqa: F401
from .api.io import decode_raw, matching_files, read_file, write_file  # noqa: F401
from .platform.tf_logging import get_logger  # noqa: F401
from .framework.v2_compat import *                   # noqa: F401,F403  disable_v2_behavior ...
from . import compat                                 # tf.compat.v1 is the sandbox itself
# tf.contrib, tf.keras, tf.estimator and the protobufs (tf.Summary ...) load on first use,
# as TF's LazyLoader does: lazy_loader.py
from .lazy_loader import __getattr__                 # noqa: F401
from .version import *                               # noqa: F401,F403  tf.VERSION ...
