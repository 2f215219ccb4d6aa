"""`tf.estimator` -- mirrors TensorFlow 1.x's Estimator (tensorflow_estimator/python/estimator/).

An Estimator runs a program's model_fn in fresh graphs and monitored sessions, alone or as one
task of a cluster described by TF_CONFIG:

    model_fn.py        EstimatorSpec (what a model_fn returns), ModeKeys (TRAIN/EVAL/PREDICT)
    run_config.py      RunConfig: checkpoint settings and this process's task, from TF_CONFIG
    estimator.py       Estimator: train, evaluate, predict, checkpoints in model_dir
    evaluation.py      one evaluation pass: metrics over local variables, restore, final ops
    training.py        TrainSpec, EvalSpec, train_and_evaluate: what each task type does
    inputs/            tf.estimator.inputs.numpy_input_fn: arrays through a queue
    export/            tf.estimator.export: serving input receivers and export outputs,
                       for Estimator.export_saved_model (a SavedModel for serving)
    canned/            the premade Estimators: DNNClassifier, LinearRegressor ... built from
                       tf.feature_column columns and a head
"""
from . import export, inputs
from .estimator import Estimator, VocabInfo, WarmStartSettings
from .model_fn import EstimatorSpec, ModeKeys
from .run_config import RunConfig
from .training import TrainSpec, EvalSpec, train_and_evaluate
from .canned import (DNNClassifier, DNNRegressor, LinearClassifier, LinearRegressor,
                     DNNLinearCombinedClassifier, DNNLinearCombinedRegressor)

__all__ = ["Estimator", "EstimatorSpec", "ModeKeys", "RunConfig", "TrainSpec", "EvalSpec",
           "train_and_evaluate", "inputs", "export", "DNNClassifier", "DNNRegressor",
           "LinearClassifier", "LinearRegressor", "DNNLinearCombinedClassifier",
           "DNNLinearCombinedRegressor", "VocabInfo", "WarmStartSettings"]
