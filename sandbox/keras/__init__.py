"""`tf.keras` -- a working core of TensorFlow 1.15's tf.keras as TF-1 graph mode runs it: every
model is ops in the default graph, run by the Session that keras.backend keeps.

    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation='relu', input_shape=(784,)),
                                 tf.keras.layers.Dense(10, activation='softmax')])
    model.compile('adam', 'sparse_categorical_crossentropy', metrics=['accuracy'])
    model.fit(x_train, y_train, epochs=5, batch_size=32)
    model.evaluate(x_test, y_test)

    backend.py          get_session / set_session / clear_session, learning_phase, variables
    engine/             Layer, Model (compile, fit, evaluate, predict, summary; several
                        inputs and outputs), Sequential
    layers/             Dense, Dropout, Flatten, Activation, Reshape, Lambda, Input,
                        Conv1D, Conv2D, Max/AveragePooling1D/2D, Global*Pooling1D/2D,
                        Embedding, BatchNormalization, SimpleRNN, LSTM, GRU,
                        Bidirectional, Concatenate, Add ... (merge layers)
    models.py, saving/  model.save('m.h5') / models.load_model, to_json / model_from_json,
                        save_weights / load_weights in HDF5 (TF 1.15's file layout)
    optimizers.py       SGD, Adam, RMSprop, Adagrad (on top of tf.train's optimizers)
    losses.py, metrics.py (functions and classes), activations.py, initializers.py,
    regularizers.py, callbacks.py, utils.py
    datasets/mnist.py   load_data(path) from local files only
"""
from . import (activations, backend, callbacks, datasets, initializers, layers, losses,
               metrics, models, optimizers, regularizers, utils)
from .engine.base_layer import Input
from .engine.sequential import Sequential
from .engine.training import Model
from .saving.saving_utils import KERAS_VERSION as __version__

# deserialize finds layers and models by class name ('Functional': TF 2's name of Model)
layers.serialization.register(layers, Sequential=Sequential, Model=Model, Functional=Model)

__all__ = ["Sequential", "Model", "Input", "activations", "backend", "callbacks", "datasets",
           "initializers", "layers", "losses", "metrics", "models", "optimizers", "regularizers",
           "utils"]
