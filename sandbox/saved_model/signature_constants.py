"""The keys and method names of SignatureDefs -- TF's python/saved_model/
signature_constants.py (tf.saved_model.signature_constants.X, and tf.saved_model.X).

A signature names a graph's inputs and outputs for a caller that has no Python code of the
model: TensorFlow Serving's Predict, Classify and Regress APIs each expect their method name
and, for Classify and Regress, the input and output keys below."""
__all__ = ["CLASSIFY_INPUTS", "CLASSIFY_METHOD_NAME", "CLASSIFY_OUTPUT_CLASSES",
           "CLASSIFY_OUTPUT_SCORES", "DEFAULT_SERVING_SIGNATURE_DEF_KEY", "PREDICT_INPUTS",
           "PREDICT_METHOD_NAME", "PREDICT_OUTPUTS", "REGRESS_INPUTS", "REGRESS_METHOD_NAME",
           "REGRESS_OUTPUTS"]

DEFAULT_SERVING_SIGNATURE_DEF_KEY = "serving_default"

CLASSIFY_INPUTS = "inputs"
CLASSIFY_METHOD_NAME = "tensorflow/serving/classify"
CLASSIFY_OUTPUT_CLASSES = "classes"
CLASSIFY_OUTPUT_SCORES = "scores"

PREDICT_INPUTS = "inputs"
PREDICT_METHOD_NAME = "tensorflow/serving/predict"
PREDICT_OUTPUTS = "outputs"

REGRESS_INPUTS = "inputs"
REGRESS_METHOD_NAME = "tensorflow/serving/regress"
REGRESS_OUTPUTS = "outputs"

SUPPORTED_TRAIN_METHOD_NAME = "tensorflow/supervised/training"
SUPPORTED_EVAL_METHOD_NAME = "tensorflow/supervised/eval"
