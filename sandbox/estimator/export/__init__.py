"""`tf.estimator.export` -- mirrors TensorFlow 1.x's tensorflow_estimator/python/estimator/
export/ (export_lib.py, export.py, export_output.py): what Estimator.export_saved_model needs.

    feature_spec = tf.feature_column.make_parse_example_spec(columns)
    fn = tf.estimator.export.build_parsing_serving_input_receiver_fn(feature_spec)
    export_dir = estimator.export_saved_model('export', fn)    # b'export/1700000000'

    export.py              ServingInputReceiver, TensorServingInputReceiver and the two
                           builders of serving_input_receiver_fns (parsing, raw)
    export_output.py       ExportOutput: ClassificationOutput, RegressionOutput, PredictOutput
                           (EstimatorSpec(export_outputs=...): one signature each)
    export_lib.py          the default export_outputs, build_all_signature_defs, the
                           timestamped export directory
    saved_model_export.py  the export itself (Estimator._export_all_saved_models): not
                           imported here; estimator.py uses it
"""
from .export import (ServingInputReceiver, TensorServingInputReceiver,
                     build_parsing_serving_input_receiver_fn,
                     build_raw_serving_input_receiver_fn)
from .export_output import ClassificationOutput, ExportOutput, PredictOutput, RegressionOutput

__all__ = ["ServingInputReceiver", "TensorServingInputReceiver",
           "build_parsing_serving_input_receiver_fn", "build_raw_serving_input_receiver_fn",
           "ExportOutput", "ClassificationOutput", "PredictOutput", "RegressionOutput"]
