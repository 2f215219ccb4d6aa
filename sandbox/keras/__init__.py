"""`tf.keras` -- a working core of TensorFlow 1.15's tf.keras as TF-1 graph mode runs it: every
model is ops in the default graph, run by the Session that keras.backend keeps.

    model = tf.keras.Sequential([tf.keras.layers.Dense(64, activation='relu', input_shape=(784,)),
                                 tf.keras.layers.Dense(10, activation='softmax')])
    model.compile('adam', 'sparse_categorical_crossentropy', metrics=['accuracy'])
    model.fit(x_train, y_train, epochs=5, batch_size=32)
    model.evaluate(x_test, y_test)

    backend.py          get_session / set_session / clear_session, learning_phase, variables
                        (backend_core.py), and TF's K.* functions: tensor ones (backend_ops.py),
                        network ones (backend_nn.py: conv, pool, rnn, function, ctc ...)
    engine/             Layer, InputSpec, Model (compile, fit, evaluate, predict, summary;
                        several inputs and outputs; arrays, generators or a utils.Sequence:
                        training_generator.py), Sequential
    layers/             one module a family, as TF: core (Dense, Dropout, Masking, Permute ...),
                        convolutional (Conv1D-3D, transposed, separable, depthwise),
                        convolutional_reshaping (Cropping, ZeroPadding, UpSampling), pooling,
                        local, embeddings, normalization (BatchNormalization,
                        LayerNormalization), recurrent (SimpleRNN, LSTM, GRU, cells, CuDNN*),
                        convolutional_recurrent (ConvLSTM2D), wrappers (TimeDistributed,
                        Bidirectional), merge (Add, Concatenate, Dot ...), dense_attention,
                        advanced_activations (LeakyReLU, PReLU ...), noise, dense_features
    models.py, saving/  model.save('m.h5') / models.load_model, to_json / model_from_json,
                        save_weights / load_weights in HDF5 (TF 1.15's file layout)
    optimizers.py       SGD, Adam, RMSprop, Adagrad, Adadelta, Adamax, Nadam, Ftrl
    losses.py, metrics.py (functions and classes; metrics_confusion.py: AUC, Precision ...),
    activations.py, initializers.py, regularizers.py, constraints.py, callbacks.py (History,
    EarlyStopping, ModelCheckpoint, ReduceLROnPlateau, TensorBoard, CSVLogger ...), utils.py
    preprocessing/      image (ImageDataGenerator ...), sequence (pad_sequences ...), text
                        (Tokenizer ...)
    wrappers/           scikit_learn: KerasClassifier, KerasRegressor
    datasets/           mnist, fashion_mnist, cifar10, cifar100, imdb, reuters, boston_housing
                        (TF's files, read from the cache ~/.keras/datasets or fetched once)
"""
from . import (activations, backend, callbacks, constraints, datasets, initializers, layers,
               losses, metrics, models, optimizers, preprocessing, regularizers, utils,
               wrappers)
from .engine.base_layer import Input
from .engine.sequential import Sequential
from .engine.training import Model
from .saving.saving_utils import KERAS_VERSION as __version__

# deserialize finds layers and models by class name ('Functional': TF 2's name of Model)
layers.serialization.register(layers, Sequential=Sequential, Model=Model, Functional=Model)

__all__ = ["Sequential", "Model", "Input", "activations", "backend", "callbacks", "constraints",
           "datasets", "initializers", "layers", "losses", "metrics", "models", "optimizers",
           "preprocessing", "regularizers", "utils", "wrappers"]
