"""What a served model outputs -- mirrors TensorFlow's python/saved_model/model_utils/
export_output.py (tf.estimator.export.ExportOutput, ClassificationOutput, RegressionOutput,
PredictOutput; tensorflow_estimator's export/export_output.py re-exports them).

A model_fn names its outputs for serving in EstimatorSpec(export_outputs={key: output}); at
export each one becomes a SignatureDef of the SavedModel under its key, its inputs the
serving input receiver's tensors:

    ClassificationOutput(scores=probabilities, classes=class_strings)
        a Classify signature: one string input (serialized tf.Examples), string 'classes'
        and/or float 'scores'
    RegressionOutput(value=predictions)
        a Regress signature: one string input, float 'outputs'
    PredictOutput({'probabilities': p, ...})    (or a single Tensor: key 'output')
        a Predict signature: any inputs, any outputs

as_signature_def raises ValueError (TF's messages) when the receiver does not fit -- e.g. a
Classify signature fed raw float features; the export then leaves that signature out.
TF's TrainOutput and EvalOutput (signatures of TRAIN / EVAL graphs) are not here.
"""
from ...framework import dtypes
from ...framework.tensor import Tensor
from ...saved_model import signature_def_utils

__all__ = ["ExportOutput", "ClassificationOutput", "RegressionOutput", "PredictOutput"]


def _single_string_input_error(kind, receiver_tensors):
    return ValueError(
        f"{kind} signatures can only accept a single tensor input of type tf.string. Please "
        "check to make sure that you have structured the serving_input_receiver_fn so that it "
        "creates a single string placeholder. If your model function expects multiple inputs, "
        "then use `tf.io.parse_example()` to parse the string into multiple tensors.\n "
        f"Received: {receiver_tensors}")


def _single_string_input(kind, receiver_tensors):
    if len(receiver_tensors) != 1:
        raise _single_string_input_error(kind, receiver_tensors)
    (_, examples), = receiver_tensors.items()
    if dtypes.as_dtype(examples.dtype) != dtypes.string:
        raise _single_string_input_error(kind, receiver_tensors)
    return examples


class ExportOutput:
    """An output of a model that can be served (typically one per head)."""

    _SEPARATOR_CHAR = "/"

    def as_signature_def(self, receiver_tensors):
        """The SignatureDef of this output, with `receiver_tensors` ({key: Tensor}) as its
        inputs."""
        raise NotImplementedError("ExportOutput.as_signature_def is abstract: use "
                                  "ClassificationOutput, RegressionOutput or PredictOutput.")

    def _check_output_key(self, key, error_label):
        if isinstance(key, tuple):              # multi-head models: ('head', 'key')
            key = self._SEPARATOR_CHAR.join(key)
        if not isinstance(key, str):
            raise ValueError(f"{error_label} output key must be a string; got {key}.")
        return key

    def _wrap_and_check_outputs(self, outputs, single_output_default_name, error_label=None):
        if not isinstance(outputs, dict):
            outputs = {single_output_default_name: outputs}
        output_dict = {}
        for key, value in outputs.items():
            error_name = error_label or single_output_default_name
            key = self._check_output_key(key, error_name)
            if not isinstance(value, Tensor):
                raise ValueError(f"{error_name} output value must be a Tensor; got {value}.")
            output_dict[key] = value
        return output_dict


class ClassificationOutput(ExportOutput):
    """The output of a classification head: float `scores` and/or string `classes` (at least
    one). Both given: zipped, each score that of the class at the same index."""

    def __init__(self, scores=None, classes=None):
        if scores is not None and not (isinstance(scores, Tensor) and
                                       scores.dtype.is_floating):
            raise ValueError(f"Classification scores must be a float32 Tensor; got {scores}")
        if classes is not None and not (isinstance(classes, Tensor) and
                                        dtypes.as_dtype(classes.dtype) == dtypes.string):
            raise ValueError(f"Classification classes must be a string Tensor; got {classes}")
        if scores is None and classes is None:
            raise ValueError("Cannot create a ClassificationOutput with empty arguments. At "
                             "least one of `scores` and `classes` must be defined.")
        self._scores = scores
        self._classes = classes

    @property
    def scores(self):
        return self._scores

    @property
    def classes(self):
        return self._classes

    def as_signature_def(self, receiver_tensors):
        examples = _single_string_input("Classification", receiver_tensors)
        return signature_def_utils.classification_signature_def(examples, self.classes,
                                                                self.scores)


class RegressionOutput(ExportOutput):
    """The output of a regression head: a float `value`."""

    def __init__(self, value):
        if not (isinstance(value, Tensor) and value.dtype.is_floating):
            raise ValueError(f"Regression output value must be a float32 Tensor; got {value}")
        self._value = value

    @property
    def value(self):
        return self._value

    def as_signature_def(self, receiver_tensors):
        examples = _single_string_input("Regression", receiver_tensors)
        return signature_def_utils.regression_signature_def(examples, self.value)


class PredictOutput(ExportOutput):
    """The output of a generic prediction head: a Tensor (key 'output') or a dict of string
    to Tensor."""

    _SINGLE_OUTPUT_DEFAULT_NAME = "output"

    def __init__(self, outputs):
        self._outputs = self._wrap_and_check_outputs(
            outputs, self._SINGLE_OUTPUT_DEFAULT_NAME, error_label="Prediction")

    @property
    def outputs(self):
        return self._outputs

    def as_signature_def(self, receiver_tensors):
        return signature_def_utils.predict_signature_def(receiver_tensors, self.outputs)
