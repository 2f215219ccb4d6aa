"""How much of TensorFlow 1.15's TF-1 API the sandbox has (issue 27).

tests/data/tf115_api_names.txt lists TF 1.15's `tensorflow.compat.v1` names in issue 27's
families (written by bench/tf_api_names.py under TF 1.15: the top level, tf.layers, tf.data,
tf.metrics, tf.losses, the main names of tf.estimator, tf.gfile, tf.io.gfile, tf.logging,
tf.math, tf.random, tf.io, tf.debugging, tf.nn, tf.nn.rnn_cell, tf.train and five functions of
tf.contrib.layers), then tf.keras's namespaces (from TF's v1 API golden files: see the list's
header). This file looks each name up on `import sandbox as tf` and

  * writes the coverage table -- per family, names the sandbox has / names TF has, and the
    names still missing -- to tests/data/api_coverage.md (rewritten by the test whenever it
    changes; the README quotes it), and prints it (`pytest -s`, or run this file);
  * asserts that every name of REQUIRED is there. REQUIRED is a floor that only grows: the
    names that existed when it was pinned (issue 27, 17:40 UTC on the day the families were
    added); add names as they land, never remove one.

A name counts as present when looking it up raises nothing (sandbox.layers.dense exists, say),
whatever it does when called: the corpus in bench/corpus/ runs whole programs for that.
"""
import pathlib

import sandbox as tf

DATA = pathlib.Path(__file__).resolve().parent / "data"
NAMES_FILE = DATA / "tf115_api_names.txt"
TABLE_FILE = DATA / "api_coverage.md"


def read_names(path=NAMES_FILE):
    """[(family, dotted name)] of the list, in its order; '## family' lines open a family."""
    rows, family = [], None
    for line in path.read_text().splitlines():
        if line.startswith("## "):
            family = line[3:].strip()
        elif line.strip() and not line.startswith("#"):
            rows.append((family, line.strip()))
    return rows


def has(module, dotted):
    """Whether module.a.b.c exists for dotted 'a.b.c'."""
    obj = module
    for part in dotted.split("."):
        try:
            obj = getattr(obj, part)
        except Exception:                 # AttributeError, or a lazy attribute that fails
            return False
    return True


def coverage(module=tf, rows=None):
    """{family: (present names, missing names)}, families in the list's order."""
    out = {}
    for family, name in rows if rows is not None else read_names():
        present, missing = out.setdefault(family, ([], []))
        (present if has(module, name) else missing).append(name)
    return out


def table(cov):
    """The coverage as Markdown: a summary table, then each family's missing names."""
    total_have = sum(len(p) for p, _ in cov.values())
    total = sum(len(p) + len(m) for p, m in cov.values())
    lines = ["# The sandbox's coverage of TensorFlow 1.15's TF-1 API (issue 27)", "",
             "Written by tests/test_api_coverage.py from tests/data/tf115_api_names.txt "
             "(TF 1.15's `tf.compat.v1` names, listed by bench/tf_api_names.py): a name counts "
             "when `import sandbox as tf` has it.", "",
             "| family | sandbox has | TF 1.15 has | coverage |", "| --- | ---: | ---: | ---: |"]
    for family, (present, missing) in cov.items():
        n = len(present) + len(missing)
        name = "tf" if family == "top-level" else f"tf.{family}"
        lines.append(f"| {name} | {len(present)} | {n} | {100.0 * len(present) / n:.0f} % |")
    lines += [f"| **all** | **{total_have}** | **{total}** | "
              f"**{100.0 * total_have / total:.0f} %** |", "", "## Missing names", ""]
    for family, (_, missing) in cov.items():
        if missing:
            lines.append(f"- {'tf' if family == 'top-level' else 'tf.' + family} "
                         f"({len(missing)}): " + ", ".join(f"`{m}`" for m in missing))
    return "\n".join(lines) + "\n"


# The floor: every name here was in the sandbox when it was pinned; the list only grows. One
# family a paragraph: its name and a colon, then its names relative to the family (`dense` is
# tf.layers.dense; the top level is `tf`). `python tests/test_api_coverage.py --pin` prints
# the block for what the sandbox has now.
# pinned 2026-11-28 19:31 UTC
REQUIRED_TEXT = """
tf: AUTO_REUSE AggregationMethod Assert AttrValue COMPILER_VERSION CXX11_ABI_FLAG
    ConditionalAccumulator ConditionalAccumulatorBase ConfigProto CriticalSection DType
    DeviceSpec Dimension Event FIFOQueue FixedLenFeature FixedLenSequenceFeature
    FixedLengthRecordReader GIT_VERSION GPUOptions GRAPH_DEF_VERSION
    GRAPH_DEF_VERSION_MIN_CONSUMER GRAPH_DEF_VERSION_MIN_PRODUCER GradientTape Graph GraphDef
    GraphKeys GraphOptions HistogramProto IdentityReader IndexedSlices IndexedSlicesSpec
    InteractiveSession LogMessage MONOLITHIC_BUILD MetaGraphDef Module NameAttrList NoGradient
    NodeDef NotDifferentiable OpError Operation OptimizerOptions OptionalSpec PaddingFIFOQueue
    Print PriorityQueue QUANTIZED_DTYPES QueueBase RaggedTensor RaggedTensorSpec
    RandomShuffleQueue ReaderBase RegisterGradient RunMetadata RunOptions Session SessionLog
    SparseConditionalAccumulator SparseFeature SparseTensor SparseTensorSpec SparseTensorValue
    Summary SummaryMetadata TFRecordReader Tensor TensorArray TensorArraySpec TensorInfo
    TensorShape TensorSpec TextLineReader TypeSpec UnconnectedGradients VERSION VarLenFeature
    Variable VariableAggregation VariableScope VariableSynchronization WholeFileReader abs
    accumulate_n acos acosh add add_check_numerics_ops add_n add_to_collection
    add_to_collections all_variables angle arg_max arg_min argmax argmin argsort as_dtype
    as_string asin asinh assert_equal assert_greater assert_greater_equal assert_integer
    assert_less assert_less_equal assert_near assert_negative assert_non_negative
    assert_non_positive assert_none_equal assert_positive assert_proper_iterable assert_rank
    assert_rank_at_least assert_rank_in assert_same_float_dtype assert_scalar assert_type
    assert_variables_initialized assign assign_add assign_sub atan atan2 atanh batch_gather
    batch_scatter_update batch_to_space batch_to_space_nd betainc bfloat16 bincount bitcast bool
    boolean_mask broadcast_dynamic_shape broadcast_static_shape broadcast_to case cast ceil
    check_numerics cholesky cholesky_solve clip_by_average_norm clip_by_global_norm clip_by_norm
    clip_by_value colocate_with complex complex128 complex64 concat cond confusion_matrix conj
    constant constant_initializer container control_dependencies control_flow_v2_enabled
    convert_to_tensor convert_to_tensor_or_indexed_slices convert_to_tensor_or_sparse_tensor cos
    cosh count_nonzero count_up_to create_partitioned_variables cross cumprod cumsum
    custom_gradient decode_base64 decode_compressed decode_csv decode_json_example decode_raw
    delete_session_tensor depth_to_space dequantize deserialize_many_sparse device diag
    diag_part digamma dimension_at_index dimension_value disable_control_flow_v2
    disable_eager_execution disable_resource_variables disable_tensor_equality
    disable_v2_behavior disable_v2_tensorshape div div_no_nan divide double dynamic_partition
    dynamic_stitch edit_distance einsum enable_control_flow_v2 enable_eager_execution
    enable_resource_variables enable_tensor_equality enable_v2_behavior enable_v2_tensorshape
    encode_base64 ensure_shape equal erf erfc executing_eagerly exp expand_dims expm1
    extract_image_patches extract_volume_patches eye fake_quant_with_min_max_args
    fake_quant_with_min_max_args_gradient fake_quant_with_min_max_vars
    fake_quant_with_min_max_vars_gradient fake_quant_with_min_max_vars_per_channel
    fake_quant_with_min_max_vars_per_channel_gradient fft fft2d fft3d fill fingerprint
    fixed_size_partitioner float16 float32 float64 floor floor_div floordiv floormod foldl foldr
    function gather gather_nd get_collection get_collection_ref get_default_graph
    get_default_session get_local_variable get_logger get_seed get_session_handle
    get_session_tensor get_static_value get_variable get_variable_scope global_norm
    global_variables global_variables_initializer glorot_normal_initializer
    glorot_uniform_initializer grad_pass_through gradients greater greater_equal group
    guarantee_const half hessians histogram_fixed_width histogram_fixed_width_bins identity
    identity_n ifft ifft2d ifft3d igamma igammac imag import_graph_def init_scope
    initialize_all_tables initialize_all_variables initialize_local_variables
    initialize_variables int16 int32 int64 int8 invert_permutation is_finite is_inf is_nan
    is_non_decreasing is_numeric_tensor is_strictly_increasing is_tensor is_variable_initialized
    lbeta less less_equal lgamma lin_space linspace local_variables local_variables_initializer
    log log1p log_sigmoid logical_and logical_not logical_or logical_xor make_ndarray
    make_template make_tensor_proto map_fn matching_files matmul matrix_band_part
    matrix_determinant matrix_diag matrix_diag_part matrix_inverse matrix_set_diag matrix_solve
    matrix_solve_ls matrix_square_root matrix_transpose matrix_triangular_solve maximum meshgrid
    min_max_variable_partitioner minimum mod model_variables moving_average_variables
    multinomial multiply name_scope negative newaxis no_gradient no_op no_regularizer norm
    not_equal numpy_function one_hot ones ones_initializer ones_like op_scope
    orthogonal_initializer pad parallel_stack parse_example parse_single_example
    parse_single_sequence_example parse_tensor placeholder placeholder_with_default polygamma
    pow print py_func py_function qint16 qint32 qint8 qr quantize quantize_v2 quantized_concat
    quint16 quint8 random_crop random_gamma random_normal random_normal_initializer
    random_poisson random_shuffle random_uniform random_uniform_initializer range rank read_file
    real realdiv reciprocal recompute_grad reduce_all reduce_any reduce_join reduce_logsumexp
    reduce_max reduce_mean reduce_min reduce_prod reduce_sum regex_replace
    register_tensor_conversion_function repeat report_uninitialized_variables
    required_space_to_batch_paddings reset_default_graph reshape resource
    resource_variables_enabled reverse reverse_sequence reverse_v2 rint roll round rsqrt
    saturate_cast scalar_mul scan scatter_add scatter_div scatter_max scatter_min scatter_mul
    scatter_nd scatter_nd_add scatter_nd_sub scatter_nd_update scatter_sub scatter_update
    searchsorted segment_max segment_mean segment_min segment_prod segment_sum self_adjoint_eig
    self_adjoint_eigvals sequence_mask serialize_many_sparse serialize_sparse serialize_tensor
    set_random_seed setdiff1d shape shape_n sigmoid sign sin sinh size slice sort space_to_batch
    space_to_batch_nd space_to_depth sparse_add sparse_concat sparse_fill_empty_rows sparse_mask
    sparse_matmul sparse_maximum sparse_merge sparse_minimum sparse_placeholder
    sparse_reduce_max sparse_reduce_max_sparse sparse_reduce_sum sparse_reduce_sum_sparse
    sparse_reorder sparse_reset_shape sparse_reshape sparse_retain sparse_segment_mean
    sparse_segment_sqrt_n sparse_segment_sum sparse_slice sparse_softmax sparse_split
    sparse_tensor_dense_matmul sparse_tensor_to_dense sparse_to_dense sparse_to_indicator
    sparse_transpose split sqrt square squared_difference squeeze stack stop_gradient
    strided_slice string string_join string_split string_strip string_to_hash_bucket
    string_to_hash_bucket_fast string_to_hash_bucket_strong string_to_number substr subtract svd
    switch_case tables_initializer tan tanh tensor_scatter_add tensor_scatter_nd_add
    tensor_scatter_nd_sub tensor_scatter_nd_update tensor_scatter_sub tensor_scatter_update
    tensordot tile timestamp to_bfloat16 to_complex128 to_complex64 to_double to_float to_int32
    to_int64 trace trainable_variables transpose truediv truncated_normal
    truncated_normal_initializer truncatediv truncatemod tuple uint16 uint32 uint64 uint8
    uniform_unit_scaling_initializer unique unique_with_counts unravel_index
    unsorted_segment_max unsorted_segment_mean unsorted_segment_min unsorted_segment_prod
    unsorted_segment_sqrt_n unsorted_segment_sum unstack variable_axis_size_partitioner
    variable_creator_scope variable_op_scope variable_scope variables_initializer
    variance_scaling_initializer variant vectorized_map verify_tensor_all_finite where where_v2
    while_loop write_file zeros zeros_initializer zeros_like zeta
layers: AveragePooling1D AveragePooling2D AveragePooling3D BatchNormalization Conv1D Conv2D
    Conv2DTranspose Conv3D Conv3DTranspose Dense Dropout Flatten InputSpec Layer MaxPooling1D
    MaxPooling2D MaxPooling3D SeparableConv1D SeparableConv2D average_pooling1d
    average_pooling2d average_pooling3d batch_normalization conv1d conv2d conv2d_transpose
    conv3d conv3d_transpose dense dropout flatten max_pooling1d max_pooling2d max_pooling3d
    separable_conv1d separable_conv2d
data: Dataset DatasetSpec FixedLengthRecordDataset Iterator Options TFRecordDataset
    TextLineDataset get_output_classes get_output_shapes get_output_types
    make_initializable_iterator make_one_shot_iterator
metrics: accuracy auc average_precision_at_k false_negatives false_negatives_at_thresholds
    false_positives false_positives_at_thresholds mean mean_absolute_error mean_cosine_distance
    mean_iou mean_per_class_accuracy mean_relative_error mean_squared_error mean_tensor
    percentage_below precision precision_at_k precision_at_thresholds precision_at_top_k recall
    recall_at_k recall_at_thresholds recall_at_top_k root_mean_squared_error
    sensitivity_at_specificity sparse_average_precision_at_k sparse_precision_at_k
    specificity_at_sensitivity true_negatives true_negatives_at_thresholds true_positives
    true_positives_at_thresholds
losses: Reduction absolute_difference add_loss compute_weighted_loss cosine_distance get_losses
    get_regularization_loss get_regularization_losses get_total_loss hinge_loss huber_loss
    log_loss mean_pairwise_squared_error mean_squared_error sigmoid_cross_entropy
    softmax_cross_entropy sparse_softmax_cross_entropy
estimator: Estimator EstimatorSpec ModeKeys RunConfig TrainSpec EvalSpec train_and_evaluate
    inputs.numpy_input_fn
gfile: Copy DeleteRecursively Exists FastGFile GFile Glob IsDirectory ListDirectory MakeDirs
    MkDir Open Remove Rename Stat Walk
io.gfile: GFile copy exists glob isdir listdir makedirs mkdir remove rename rmtree stat walk
logging: DEBUG ERROR FATAL INFO TaskLevelStatusMessage WARN debug error fatal flush
    get_verbosity info log log_every_n log_first_n log_if set_verbosity vlog warn warning
math: abs accumulate_n acos acosh add add_n angle argmax argmin asin asinh atan atan2 atanh
    bessel_i0 bessel_i0e bessel_i1 bessel_i1e betainc bincount ceil confusion_matrix conj cos
    cosh count_nonzero cumprod cumsum cumulative_logsumexp digamma divide divide_no_nan equal
    erf erfc exp expm1 floor floordiv floormod greater greater_equal igamma igammac imag
    in_top_k invert_permutation is_finite is_inf is_nan is_non_decreasing is_strictly_increasing
    l2_normalize lbeta less less_equal lgamma log log1p log_sigmoid log_softmax logical_and
    logical_not logical_or logical_xor maximum minimum mod multiply multiply_no_nan negative
    nextafter not_equal polygamma polyval pow real reciprocal reciprocal_no_nan reduce_all
    reduce_any reduce_euclidean_norm reduce_logsumexp reduce_max reduce_mean reduce_min
    reduce_prod reduce_std reduce_sum reduce_variance rint round rsqrt scalar_mul segment_max
    segment_mean segment_min segment_prod segment_sum sigmoid sign sin sinh softmax softplus
    softsign sqrt square squared_difference subtract tan tanh top_k truediv unsorted_segment_max
    unsorted_segment_mean unsorted_segment_min unsorted_segment_prod unsorted_segment_sqrt_n
    unsorted_segment_sum xdivy xlogy zero_fraction zeta
random: all_candidate_sampler categorical fixed_unigram_candidate_sampler gamma get_seed
    learned_unigram_candidate_sampler log_uniform_candidate_sampler multinomial normal poisson
    set_random_seed shuffle stateless_categorical stateless_multinomial stateless_normal
    stateless_truncated_normal stateless_uniform truncated_normal uniform
    uniform_candidate_sampler
io: FixedLenFeature FixedLenSequenceFeature PaddingFIFOQueue PriorityQueue QueueBase
    RandomShuffleQueue SparseFeature TFRecordCompressionType TFRecordOptions TFRecordWriter
    VarLenFeature decode_and_crop_jpeg decode_base64 decode_bmp decode_compressed decode_csv
    decode_gif decode_image decode_jpeg decode_json_example decode_png decode_raw
    deserialize_many_sparse encode_base64 encode_jpeg extract_jpeg_shape is_jpeg
    match_filenames_once matching_files parse_example parse_sequence_example
    parse_single_example parse_single_sequence_example parse_tensor read_file
    serialize_many_sparse serialize_sparse serialize_tensor tf_record_iterator write_file
    write_graph
debugging: Assert assert_all_finite assert_equal assert_greater assert_greater_equal
    assert_integer assert_less assert_less_equal assert_near assert_negative assert_non_negative
    assert_non_positive assert_none_equal assert_positive assert_proper_iterable assert_rank
    assert_rank_at_least assert_rank_in assert_same_float_dtype assert_scalar assert_shapes
    assert_type check_numerics get_log_device_placement is_finite is_inf is_nan
    is_non_decreasing is_numeric_tensor is_strictly_increasing set_log_device_placement
nn: all_candidate_sampler atrous_conv2d atrous_conv2d_transpose avg_pool avg_pool1d avg_pool2d
    avg_pool3d avg_pool_v2 batch_norm_with_global_normalization batch_normalization bias_add
    bidirectional_dynamic_rnn collapse_repeated compute_accidental_hits compute_average_loss
    conv1d conv1d_transpose conv2d conv2d_backprop_filter conv2d_backprop_input conv2d_transpose
    conv3d conv3d_backprop_filter conv3d_backprop_filter_v2 conv3d_transpose conv_transpose
    convolution crelu ctc_beam_search_decoder ctc_beam_search_decoder_v2 ctc_greedy_decoder
    ctc_loss ctc_loss_v2 ctc_unique_labels depth_to_space depthwise_conv2d
    depthwise_conv2d_backprop_filter depthwise_conv2d_backprop_input depthwise_conv2d_native
    depthwise_conv2d_native_backprop_filter depthwise_conv2d_native_backprop_input dilation2d
    dropout dynamic_rnn elu embedding_lookup embedding_lookup_sparse erosion2d
    fixed_unigram_candidate_sampler fractional_avg_pool fractional_max_pool fused_batch_norm
    in_top_k l2_loss l2_normalize leaky_relu learned_unigram_candidate_sampler
    local_response_normalization log_poisson_loss log_softmax log_uniform_candidate_sampler lrn
    max_pool max_pool1d max_pool2d max_pool3d max_pool_v2 max_pool_with_argmax moments nce_loss
    normalize_moments pool raw_rnn relu relu6 relu_layer safe_embedding_lookup_sparse
    sampled_softmax_loss scale_regularization_loss selu separable_conv2d sigmoid
    sigmoid_cross_entropy_with_logits softmax softmax_cross_entropy_with_logits
    softmax_cross_entropy_with_logits_v2 softplus softsign space_to_batch space_to_depth
    sparse_softmax_cross_entropy_with_logits static_bidirectional_rnn static_rnn
    static_state_saving_rnn sufficient_statistics swish tanh top_k uniform_candidate_sampler
    weighted_cross_entropy_with_logits weighted_moments with_space_to_batch xw_plus_b
    zero_fraction
nn.rnn_cell: BasicLSTMCell BasicRNNCell DeviceWrapper DropoutWrapper GRUCell LSTMCell
    LSTMStateTuple MultiRNNCell RNNCell ResidualWrapper
train: AdadeltaOptimizer AdagradDAOptimizer AdagradOptimizer AdamOptimizer BytesList Checkpoint
    CheckpointManager CheckpointSaverHook CheckpointSaverListener ChiefSessionCreator ClusterDef
    ClusterSpec Coordinator Example ExponentialMovingAverage Feature FeatureList FeatureLists
    Features FeedFnHook FinalOpsHook FloatList FtrlOptimizer GlobalStepWaiterHook
    GradientDescentOptimizer Int64List JobDef LoggingTensorHook LooperThread MomentumOptimizer
    MonitoredSession MonitoredTrainingSession NanLossDuringTrainingError NanTensorHook
    NewCheckpointReader Optimizer ProfilerHook ProximalAdagradOptimizer
    ProximalGradientDescentOptimizer QueueRunner RMSPropOptimizer Saver SaverDef Scaffold
    SecondOrStepTimer SequenceExample Server ServerDef SessionCreator SessionManager
    SessionRunArgs SessionRunContext SessionRunHook SessionRunValues SingularMonitoredSession
    StepCounterHook StopAtStepHook SummarySaverHook Supervisor SyncReplicasOptimizer VocabInfo
    WorkerSessionCreator add_queue_runner assert_global_step basic_train_loop batch batch_join
    checkpoint_exists checkpoints_iterator cosine_decay cosine_decay_restarts create_global_step
    exponential_decay export_meta_graph generate_checkpoint_state_proto get_checkpoint_mtimes
    get_checkpoint_state get_global_step get_or_create_global_step global_step import_meta_graph
    init_from_checkpoint input_producer inverse_time_decay latest_checkpoint limit_epochs
    linear_cosine_decay list_variables load_checkpoint load_variable match_filenames_once
    maybe_batch maybe_batch_join maybe_shuffle_batch maybe_shuffle_batch_join natural_exp_decay
    noisy_linear_cosine_decay piecewise_constant piecewise_constant_decay polynomial_decay
    range_input_producer remove_checkpoint replica_device_setter shuffle_batch
    shuffle_batch_join slice_input_producer start_queue_runners string_input_producer
    summary_iterator update_checkpoint_state warm_start write_graph
contrib.layers: flatten fully_connected xavier_initializer l2_regularizer
    variance_scaling_initializer
keras: Input Model Sequential
keras.layers: AbstractRNNCell Activation ActivityRegularization Add AdditiveAttention
    AlphaDropout Attention Average AveragePooling1D AveragePooling2D AveragePooling3D AvgPool1D
    AvgPool2D AvgPool3D BatchNormalization Bidirectional Concatenate Conv1D Conv2D
    Conv2DTranspose Conv3D Conv3DTranspose ConvLSTM2D Convolution1D Convolution2D
    Convolution2DTranspose Convolution3D Convolution3DTranspose Cropping1D Cropping2D Cropping3D
    CuDNNGRU CuDNNLSTM Dense DenseFeatures DepthwiseConv2D Dot Dropout ELU Embedding Flatten GRU
    GRUCell GaussianDropout GaussianNoise GlobalAveragePooling1D GlobalAveragePooling2D
    GlobalAveragePooling3D GlobalAvgPool1D GlobalAvgPool2D GlobalAvgPool3D GlobalMaxPool1D
    GlobalMaxPool2D GlobalMaxPool3D GlobalMaxPooling1D GlobalMaxPooling2D GlobalMaxPooling3D
    Input InputLayer InputSpec LSTM LSTMCell Lambda Layer LayerNormalization LeakyReLU
    LocallyConnected1D LocallyConnected2D Masking MaxPool1D MaxPool2D MaxPool3D MaxPooling1D
    MaxPooling2D MaxPooling3D Maximum Minimum Multiply PReLU Permute RNN ReLU RepeatVector
    Reshape SeparableConv1D SeparableConv2D SeparableConvolution1D SeparableConvolution2D
    SimpleRNN SimpleRNNCell Softmax SpatialDropout1D SpatialDropout2D SpatialDropout3D
    StackedRNNCells Subtract ThresholdedReLU TimeDistributed UpSampling1D UpSampling2D
    UpSampling3D Wrapper ZeroPadding1D ZeroPadding2D ZeroPadding3D add average concatenate
    deserialize dot maximum minimum multiply serialize subtract
keras.activations: deserialize elu exponential get hard_sigmoid linear relu selu serialize
    sigmoid softmax softplus softsign tanh
keras.backend: abs all any arange argmax argmin backend batch_dot batch_flatten batch_get_value
    batch_normalization batch_set_value bias_add binary_crossentropy cast cast_to_floatx
    categorical_crossentropy clear_session clip concatenate constant conv1d conv2d
    conv2d_transpose conv3d cos count_params ctc_batch_cost ctc_decode ctc_label_dense_to_sparse
    dot dropout dtype elu epsilon equal eval exp expand_dims eye flatten floatx foldl foldr
    function gather get_session get_uid get_value gradients greater greater_equal hard_sigmoid
    image_data_format in_test_phase in_top_k in_train_phase int_shape is_sparse l2_normalize
    learning_phase less less_equal log manual_variable_initialization map_fn max maximum mean
    min minimum moving_average_update name_scope ndim normalize_batch_in_training not_equal
    one_hot ones ones_like permute_dimensions placeholder pool2d pool3d pow print_tensor prod
    random_binomial random_normal random_normal_variable random_uniform random_uniform_variable
    relu repeat repeat_elements reset_uids reshape resize_images resize_volumes reverse rnn
    round separable_conv2d set_epsilon set_floatx set_image_data_format set_learning_phase
    set_session set_value shape sigmoid sign sin softmax softplus softsign
    sparse_categorical_crossentropy spatial_2d_padding spatial_3d_padding sqrt square squeeze
    stack std stop_gradient sum switch tanh temporal_padding to_dense transpose truncated_normal
    update update_add update_sub var variable zeros zeros_like
keras.callbacks: BaseLogger CSVLogger Callback EarlyStopping History LambdaCallback
    LearningRateScheduler ModelCheckpoint ProgbarLogger ReduceLROnPlateau RemoteMonitor
    TensorBoard TerminateOnNaN
keras.constraints: Constraint MaxNorm MinMaxNorm NonNeg UnitNorm deserialize get max_norm
    min_max_norm non_neg serialize unit_norm
keras.initializers: Constant Identity Initializer Ones Orthogonal RandomNormal RandomUniform
    TruncatedNormal VarianceScaling Zeros constant deserialize get glorot_normal glorot_uniform
    he_normal he_uniform identity lecun_normal lecun_uniform normal ones orthogonal
    random_normal random_uniform serialize truncated_normal uniform zeros
keras.losses: BinaryCrossentropy CategoricalCrossentropy CategoricalHinge CosineSimilarity Hinge
    Huber KLD KLDivergence LogCosh Loss MAE MAPE MSE MSLE MeanAbsoluteError
    MeanAbsolutePercentageError MeanSquaredError MeanSquaredLogarithmicError Poisson
    SparseCategoricalCrossentropy SquaredHinge binary_crossentropy categorical_crossentropy
    categorical_hinge cosine cosine_proximity cosine_similarity deserialize get hinge kld
    kullback_leibler_divergence logcosh mae mape mean_absolute_error
    mean_absolute_percentage_error mean_squared_error mean_squared_logarithmic_error mse msle
    poisson serialize sparse_categorical_crossentropy squared_hinge
keras.metrics: AUC Accuracy BinaryAccuracy BinaryCrossentropy CategoricalAccuracy
    CategoricalCrossentropy CategoricalHinge CosineSimilarity FalseNegatives FalsePositives
    Hinge KLD KLDivergence LogCoshError MAE MAPE MSE MSLE Mean MeanAbsoluteError
    MeanAbsolutePercentageError MeanIoU MeanRelativeError MeanSquaredError
    MeanSquaredLogarithmicError MeanTensor Metric Poisson Precision PrecisionAtRecall Recall
    RootMeanSquaredError SensitivityAtSpecificity SparseCategoricalAccuracy
    SparseCategoricalCrossentropy SparseTopKCategoricalAccuracy SpecificityAtSensitivity
    SquaredHinge Sum TopKCategoricalAccuracy TrueNegatives TruePositives binary_accuracy
    binary_crossentropy categorical_accuracy categorical_crossentropy cosine cosine_proximity
    deserialize get hinge kl_divergence kld kullback_leibler_divergence mae mape
    mean_absolute_error mean_absolute_percentage_error mean_squared_error
    mean_squared_logarithmic_error mse msle poisson serialize sparse_categorical_accuracy
    sparse_categorical_crossentropy sparse_top_k_categorical_accuracy squared_hinge
    top_k_categorical_accuracy
keras.models: Model Sequential clone_model load_model model_from_config model_from_json
    model_from_yaml save_model
keras.optimizers: Adadelta Adagrad Adam Adamax Ftrl Nadam Optimizer RMSprop SGD deserialize get
    serialize
keras.regularizers: L1L2 Regularizer deserialize get l1 l1_l2 l2 serialize
keras.utils: CustomObjectScope GeneratorEnqueuer HDF5Matrix OrderedEnqueuer Progbar Sequence
    SequenceEnqueuer convert_all_kernels_in_model custom_object_scope deserialize_keras_object
    get_custom_objects get_file get_source_inputs multi_gpu_model normalize plot_model
    serialize_keras_object to_categorical
keras.preprocessing.image: DirectoryIterator ImageDataGenerator Iterator NumpyArrayIterator
    apply_affine_transform apply_brightness_shift apply_channel_shift array_to_img img_to_array
    load_img random_brightness random_channel_shift random_rotation random_shear random_shift
    random_zoom save_img
keras.preprocessing.sequence: TimeseriesGenerator make_sampling_table pad_sequences skipgrams
keras.preprocessing.text: Tokenizer hashing_trick one_hot text_to_word_sequence
    tokenizer_from_json
keras.datasets.boston_housing: load_data
keras.datasets.cifar10: load_data
keras.datasets.cifar100: load_data
keras.datasets.fashion_mnist: load_data
keras.datasets.imdb: get_word_index load_data
keras.datasets.mnist: load_data
keras.datasets.reuters: get_word_index load_data
keras.wrappers.scikit_learn: KerasClassifier KerasRegressor
"""


def required(text=REQUIRED_TEXT):
    """The dotted names of REQUIRED_TEXT."""
    names, family = [], None
    for word in text.split():
        if word.endswith(":"):
            family = word[:-1]
        else:
            names.append(word if family == "tf" else f"{family}.{word}")
    return names


REQUIRED = required()


def pin_text(cov, width=96):
    """REQUIRED_TEXT for the names the sandbox has now (`cov` from coverage())."""
    out = []
    for family, (present, _) in cov.items():
        if not present:
            continue
        line = "tf:" if family == "top-level" else f"{family}:"
        prefix = "" if family == "top-level" else family + "."
        for name in present:
            word = name[len(prefix):]
            if len(line) + 1 + len(word) > width:
                out.append(line)
                line = "   "
            line += " " + word
        out.append(line)
    return "\n".join(out)


def test_the_list_is_tf_115s_and_has_every_family():
    from bench.tf_api_names import KERAS_FAMILIES
    rows = read_names()
    families = [f for f, _ in rows]
    assert NAMES_FILE.read_text().startswith("# TensorFlow 1.15")
    assert list(dict.fromkeys(families)) == [
        "top-level", "layers", "data", "metrics", "losses", "estimator", "gfile", "io.gfile",
        "logging", "math", "random", "io", "debugging", "nn", "nn.rnn_cell", "train",
        "contrib.layers"] + [f"keras.{path}".rstrip(".") for path in KERAS_FAMILIES]
    from bench.tf_api_names import FAMILIES              # the script that wrote the list
    assert list(dict.fromkeys(families)) == [family for family, _, _ in FAMILIES]
    names = {n for _, n in rows}
    # names every TF-1 tutorial uses, and private names never listed
    assert {"cond", "layers.dense", "train.AdamOptimizer", "data.Dataset",
            "nn.rnn_cell.BasicLSTMCell", "estimator.inputs.numpy_input_fn",
            "contrib.layers.flatten", "io.gfile.exists", "keras.layers.Dense",
            "keras.callbacks.EarlyStopping", "keras.preprocessing.sequence.pad_sequences"} <= names
    assert not [n for n in names if any(p.startswith("_") for p in n.split("."))]
    assert len(names) == len(rows)                            # no name twice


def test_has_follows_dotted_names():
    assert has(tf, "train.AdamOptimizer") and has(tf, "Session")
    assert not has(tf, "train.NoSuchOptimizer") and not has(tf, "no_such_module.x")


def test_coverage_table_is_written_and_required_names_are_present(capsys):
    cov = coverage()
    text = table(cov)
    if not TABLE_FILE.exists() or TABLE_FILE.read_text() != text:
        TABLE_FILE.write_text(text)
    with capsys.disabled():
        print("\n" + text.split("\n## Missing names")[0])
    listed = {n for _, n in read_names()}
    assert not [n for n in REQUIRED if n not in listed], "REQUIRED names not in TF 1.15's list"
    missing = [n for n in REQUIRED if not has(tf, n)]
    assert not missing, (f"{len(missing)} names the sandbox had when REQUIRED was pinned are "
                         f"gone: {', '.join(missing)}")
    have = sum(len(p) for p, _ in cov.values())
    assert have >= len(REQUIRED)


# -- the corpus's table (bench/bench_corpus.py) shows why a program failed, and goes on ------

def test_the_corpus_table_shows_the_first_line_of_a_failure():
    from bench.bench_corpus import failure_reason, rows_of, run_program
    traceback = ("Traceback (most recent call last):\n"
                 '  File "prog.py", line 3, in <module>\n'
                 "    tf.layers.dense(x, 10)\n"
                 "AttributeError: module 'sandbox.layers' has no attribute 'dense'\n"
                 "second line of the message\n")
    assert failure_reason("Warning: noise\n" + traceback, 1) == \
        "AttributeError: module 'sandbox.layers' has no attribute 'dense'"
    assert failure_reason("", 3) == "exit code 3"
    assert failure_reason("worker 1 died\n", 1) == "worker 1 died"
    gone = run_program("/no/such/python", "mnist_mlp_layers", "sandbox", 1, None, 10)
    assert not gone["ok"] and gone["error"].startswith("cannot start /no/such/python")
    row, = rows_of({"mnist_mlp_layers": (gone, None)})
    assert row["sandbox"] == "FAILED" and row["sb acc"] == "-"
    assert row["why / note"].startswith("cannot start") and "no TensorFlow" in row["why / note"]


def test_required_reads_families_and_the_top_level():
    assert required("tf: cond Session\nlayers: dense\n   conv2d\nnn.rnn_cell: LSTMCell") == [
        "cond", "Session", "layers.dense", "layers.conv2d", "nn.rnn_cell.LSTMCell"]
    cov = {"top-level": (["cond"], ["case"]),
           "io.gfile": (["io.gfile.exists", "io.gfile.glob"], [])}
    assert required(pin_text(cov)) == ["cond", "io.gfile.exists", "io.gfile.glob"]


if __name__ == "__main__":
    import sys
    print(pin_text(coverage()) if "--pin" in sys.argv else table(coverage()))
