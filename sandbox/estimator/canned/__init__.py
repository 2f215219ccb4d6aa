"""The canned (premade) estimators -- mirrors TensorFlow's tensorflow_estimator/python/
estimator/canned/: Estimators whose model_fn is built from feature columns.

    head.py                  the loss, predictions and metrics of classifiers and regressors
    optimizers.py            optimizers by name ('Adagrad', 'Ftrl', 'Adam', 'RMSProp', 'SGD')
    dnn.py                   DNNClassifier, DNNRegressor
    linear.py                LinearClassifier, LinearRegressor
    dnn_linear_combined.py   DNNLinearCombinedClassifier, DNNLinearCombinedRegressor
"""
from .dnn import DNNClassifier, DNNRegressor
from .dnn_linear_combined import DNNLinearCombinedClassifier, DNNLinearCombinedRegressor
from .linear import LinearClassifier, LinearRegressor

__all__ = ["DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor",
           "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor"]
