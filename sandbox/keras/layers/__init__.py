"""keras.layers -- mirrors TensorFlow 1.15's python/keras/layers/ (the part the sandbox has:
core.py, convolutional.py, pooling.py, embeddings.py, normalization.py, recurrent.py,
wrappers.py and merge.py), and serialization.py: serialize / deserialize by class name."""
from ..engine.base_layer import Input, InputLayer, Layer
from .convolutional import (AveragePooling2D, AvgPool2D, Conv1D, Conv2D, Convolution1D,
                            Convolution2D, MaxPool2D, MaxPooling2D)
from .core import Activation, Dense, Dropout, Flatten, Lambda, Reshape
from .embeddings import Embedding
from .merge import (Add, Average, Concatenate, Maximum, Minimum, Multiply, Subtract, add,
                    average, concatenate, maximum, minimum, multiply, subtract)
from .normalization import BatchNormalization
from .pooling import (AveragePooling1D, AvgPool1D, GlobalAveragePooling1D,
                      GlobalAveragePooling2D, GlobalAvgPool1D, GlobalAvgPool2D,
                      GlobalMaxPool1D, GlobalMaxPool2D, GlobalMaxPooling1D, GlobalMaxPooling2D,
                      MaxPool1D, MaxPooling1D)
from .recurrent import GRU, LSTM, RNN, GRUCell, LSTMCell, SimpleRNN, SimpleRNNCell
from .serialization import deserialize, serialize
from .wrappers import Bidirectional

__all__ = ["Layer", "Input", "InputLayer", "Dense", "Dropout", "Flatten", "Activation",
           "Reshape", "Lambda", "Conv1D", "Conv2D", "Convolution1D", "Convolution2D",
           "MaxPooling2D", "MaxPool2D", "AveragePooling2D", "AvgPool2D", "MaxPooling1D",
           "MaxPool1D", "AveragePooling1D", "AvgPool1D", "GlobalAveragePooling1D",
           "GlobalAvgPool1D", "GlobalMaxPooling1D", "GlobalMaxPool1D",
           "GlobalAveragePooling2D", "GlobalAvgPool2D", "GlobalMaxPooling2D", "GlobalMaxPool2D",
           "Embedding", "BatchNormalization", "RNN", "SimpleRNN", "LSTM", "GRU",
           "SimpleRNNCell", "LSTMCell", "GRUCell", "Bidirectional", "Add", "Subtract",
           "Multiply", "Average", "Maximum", "Minimum", "Concatenate", "add", "subtract",
           "multiply", "average", "maximum", "minimum", "concatenate", "serialize", "deserialize"]
