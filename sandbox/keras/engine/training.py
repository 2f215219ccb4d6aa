"""The Keras Model -- mirrors TensorFlow 1.15's python/keras/engine/training.py (compile, fit,
evaluate, predict) and network.py (the functional API: Model(inputs, outputs), layers,
weights, summary, save_weights / load_weights), as TF-1 graph mode runs them.

    inputs = keras.Input(shape=(4,))
    h = keras.layers.Dense(16, activation='relu')(inputs)
    model = keras.Model(inputs, keras.layers.Dense(3, activation='softmax')(h))
    model.compile('adam', 'sparse_categorical_crossentropy', metrics=['accuracy'])
    history = model.fit(x, y, epochs=5)       # history.history: {'loss': [...], 'acc': [...]}

Everything is ops in the model's graph. compile adds the target placeholder
('dense_1_target'), the loss ('loss/dense_1_loss/...') and the metrics; the first fit adds the
training step (the optimizer's update ops, under 'training'); then each batch is one
Session.run of those ops, fed the batch and keras_learning_phase=True (evaluate and predict
leave it False, so Dropout is off). The Session is keras.backend.get_session()'s.

Saving (TF's network.py and saving/): get_config / from_config / to_json describe the
layers (engine/network_config.py); save('m.h5') writes the config, the weights and the
optimizer's state to one HDF5 file (keras/saving/hdf5_format.py), keras.models.load_model
reads it back; save_weights / load_weights write a TensorFlow checkpoint, or HDF5 when the
path ends in .h5 / .keras / .hdf5 (or save_format='h5').

Batches from a Python generator or a keras.utils.Sequence (an ImageDataGenerator's flow, a
TimeseriesGenerator ...): fit / evaluate / predict given one, and fit_generator /
evaluate_generator / predict_generator, run engine/training_generator.py's loop, a batch per
Session.run.

Models of several inputs and outputs (keras.Model([a, b], [out1, out2])) take lists or dicts
(by layer name) of arrays, and compile takes a loss per output (engine/training_utils.py);
engine/network.py finds the layers between the inputs and the outputs.
"""
import os
import time

import numpy as np

from ...framework.graph import get_default_graph
from ...ops import array_ops, constant_op, math_ops, reduction_ops
from ...ops.control_flow_ops import group
from ...train.saver import Saver
from .. import backend as K
from .. import callbacks as cbks
from .. import losses as losses_module
from .. import metrics as metrics_module
from .. import optimizers
from ..utils import print_summary
from . import subclassed, training_generator, training_utils
from .base_layer import Layer
from .network import map_graph_network
from .network_config import get_network_config, reconstruct_from_config

__all__ = ["Model"]

_NOT_COMPILED = ("You must compile your model before training/testing. Use "
                 "`model.compile(optimizer, loss)`.")


class Model(Layer):
    """A graph of layers from `inputs` to `outputs` (a tensor or a list of tensors each),
    with the training methods."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if args else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        super().__init__(name=kwargs.pop("name", None), **kwargs)
        self._graph = get_default_graph()
        self._layers = []
        self.inputs, self.outputs = [], []
        self.optimizer = self.loss = None
        self._compiled = self._graph_compiled = False
        self._train_op = self._saver = None
        self.stop_training = False
        self.history = None
        # a subclassed Model: its layers are its attributes and its graph is what call()
        # builds (engine/subclassed.py), on the first data it is given or called on
        self._subclassed = inputs is None and type(self).call is not Layer.call
        self._shapes_known = True           # summary() shows the layers' output shapes
        if inputs is not None:
            self._init_graph_network(inputs, outputs)
        elif type(self) is Model:
            raise ValueError("keras.Model() needs `inputs` and `outputs` (the functional "
                             "API), or subclass it and define `call` (a subclassed model)")

    # -- the network ---------------------------------------------------------------------------
    def _init_graph_network(self, inputs, outputs):
        inputs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        self._layers = map_graph_network(self._graph, inputs, outputs)
        self.inputs, self.outputs = inputs, outputs
        self.built = True

    def _layer_of(self, tensor):
        return K._state(self._graph)["history"][id(tensor)][1]

    @property
    def input_names(self):
        return [self._layer_of(t).name for t in self.inputs]

    @property
    def output_names(self):
        if self._subclassed:                       # no layer of the model makes them
            return [f"output_{i + 1}" for i in range(len(self.outputs))]
        return [self._layer_of(t).name for t in self.outputs]

    def _model_layers(self):
        return self._nested_layers() if self._subclassed else self._layers

    @property
    def layers(self):
        return list(self._model_layers())

    def _one_or_list(self, tensors, what):
        if not tensors:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return tensors[0] if len(tensors) == 1 else list(tensors)

    @property
    def input(self):
        return self._one_or_list(self.inputs, "input")

    @property
    def output(self):
        return self._one_or_list(self.outputs, "output")

    @property
    def input_shape(self):
        shapes = [tuple(t.get_shape().as_list()) for t in self.inputs]
        return self._one_or_list(shapes, "input")

    @property
    def output_shape(self):
        shapes = [tuple(t.get_shape().as_list()) for t in self.outputs]
        return self._one_or_list(shapes, "output")

    def get_layer(self, name=None, index=None):
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only "
                                 f"has {len(self.layers)} layers.")
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError("No such layer: " + str(name))

    def _gather(self, attribute):
        found, seen = [], set()
        for layer in self._layers:
            for w in getattr(layer, attribute):
                if id(w) not in seen:
                    seen.add(id(w))
                    found.append(w)
        return found

    @property
    def trainable_weights(self):
        if self._subclassed:                       # its own weights, then its layers'
            return Layer.trainable_weights.fget(self)
        return self._gather("trainable_weights") if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self._subclassed:
            return Layer.non_trainable_weights.fget(self)
        if self.trainable:
            return self._gather("non_trainable_weights")
        return self._gather("weights")

    @property
    def weights(self):
        return self.trainable_weights + self.non_trainable_weights

    trainable_variables = trainable_weights
    variables = weights

    @property
    def losses(self):
        if self._subclassed:
            return Layer.losses.fget(self)
        return [loss for layer in self._layers for loss in layer.losses]

    @property
    def updates(self):
        if self._subclassed:
            return Layer.updates.fget(self)
        return [update for layer in self._layers for update in layer.updates]

    def _checkpoint_dependencies(self):
        """What tf.train.Checkpoint saves of it: a subclassed model's layers by attribute,
        a functional model's as TF 1.15 tracks them ('layer_with_weights-0' for each layer
        with weights, then 'layer-0' for each layer); then the optimizer, once compiled."""
        if self._subclassed:
            deps = Layer._checkpoint_dependencies(self)
        else:
            weighted = [layer for layer in self._layers if layer.weights]
            deps = [(f"layer_with_weights-{i}", layer) for i, layer in enumerate(weighted)]
            deps += [(f"layer-{i}", layer) for i, layer in enumerate(self._layers)]
        if self.optimizer is not None:
            deps.append(("optimizer", self.optimizer))
        return deps

    def count_params(self):
        return int(sum(np.prod(w.get_shape().as_list()) for w in self.weights))

    def __call__(self, inputs, *args, **kwargs):
        """The model applied to new inputs, as a layer: each of its layers is called again,
        in order, on what the layers before it made of `inputs` -- with the same weights
        (a model inside a model: a GAN's generator and discriminator, a pretrained base).
        Keras records the call, so a Model(inputs, outputs) around it has it as a layer.
        A subclassed model runs its call() (engine/subclassed.py)."""
        if self._subclassed:
            return subclassed.call_model(self, inputs, *args, **kwargs)
        if not self.built:
            raise ValueError(f"Model {self.name} is not built yet: give its first layer an "
                             "`input_shape` before calling it on new inputs.")
        new = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        if len(new) != len(self.inputs):
            raise ValueError(f"Model {self.name} expects {len(self.inputs)} input(s), but it "
                             f"received {len(new)} input tensors.")
        history = K._state(self._graph)["history"]
        made = {id(old): tensor for old, tensor in zip(self.inputs, new)}

        def again(tensor):                      # what the layers make of the new inputs
            if id(tensor) not in made:
                _, layer, layer_inputs = history[id(tensor)]
                args = ([again(t) for t in layer_inputs]
                        if isinstance(layer_inputs, (list, tuple)) else again(layer_inputs))
                made[id(tensor)] = layer(args)
            return made[id(tensor)]

        outputs = [again(t) for t in self.outputs]
        result = outputs[0] if len(outputs) == 1 else outputs
        self._inbound.append((inputs, result))
        for output in outputs:
            K._state(output.graph)["history"][id(output)] = (output, self, inputs)
        return result

    def summary(self, line_length=None, positions=None, print_fn=None):
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by "
                             "calling `build()` or calling `fit()` with some data, or specify "
                             "an `input_shape` argument in the first layer(s) for automatic "
                             "build.")
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn)

    # -- compile -------------------------------------------------------------------------------
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                sample_weight_mode=None, weighted_metrics=None, target_tensors=None, **kwargs):
        """Chooses the optimizer, the loss(es) and the metrics (see training_utils.py for
        several outputs); adds the loss and metric ops once the model is built (at once, or
        on the first fit of a Sequential without an input shape)."""
        if kwargs:
            raise TypeError(f"Invalid keyword argument(s) in `compile`: {set(kwargs)}")
        if loss is None:
            raise ValueError("The model cannot be compiled because it has no loss to optimize.")
        self.optimizer = optimizers.get(optimizer)
        self.loss = loss
        self.loss_weights = loss_weights
        if not isinstance(loss, (list, tuple, dict)):
            self._loss_fn = losses_module.get(loss)
        self._metric_specs = metrics or []
        self._compiled, self._graph_compiled, self._train_op = True, False, None
        # the weights that training updates are those trainable NOW (TF 1.15 collects them
        # in compile): a GAN's discriminator, compiled and then frozen (trainable = False)
        # inside the combined model, still learns in its own train_on_batch
        self._collected_trainable_weights = self.trainable_weights if self.built else None
        if self.built:
            self._compile_graph()

    def _compile_graph(self):
        if self._graph_compiled:
            return
        graph = self._graph
        names = self.output_names
        single = len(self.outputs) == 1
        self._loss_fns = [losses_module.get(spec) for spec in
                          training_utils.per_output(self.loss, names, "loss")]
        weights = training_utils.per_output(self.loss_weights, names, "loss_weights", 1.0)
        metric_lists = training_utils.per_output_metrics(self._metric_specs, names)
        with graph.as_default():
            self.targets = [K.placeholder(ndim=out.get_shape().ndims,
                                          dtype=out.dtype.base_dtype, name=name + "_target")
                            for out, name in zip(self.outputs, names)]
            # each example's weight: ones unless fit/evaluate feed sample or class weights
            self.sample_weights = [constant_op.placeholder_with_default(
                array_ops.ones(array_ops.shape(out)[:1]), [None], name=name + "_sample_weights")
                for out, name in zip(self.outputs, names)]
            per_output = []
            with graph.name_scope("loss"):
                total = None
                for out, target, name, fn, weight, examples in zip(
                        self.outputs, self.targets, names, self._loss_fns, weights,
                        self.sample_weights):
                    with graph.name_scope(name + "_loss"):
                        value = training_utils.weighted_loss(fn, target, out, examples)
                    per_output.append(value)
                    term = value if weight == 1.0 else value * float(weight)
                    total = term if total is None else total + term
                for extra in training_utils.fed_by(self.losses, self.inputs + self.targets):
                    total = total + math_ops.cast(extra, total.dtype.base_dtype)
            self.total_loss = total
            self.metrics_names, self._metric_tensors = ["loss"], []
            if not single:
                self.metrics_names += [name + "_loss" for name in names]
                self._metric_tensors += per_output
            self._stateful_metrics = {}        # position in [loss, metrics...] -> Metric
            with graph.name_scope("metrics"):
                for out, target, name, fn, specs in zip(self.outputs, self.targets, names,
                                                        self._loss_fns, metric_lists):
                    for spec in specs:
                        metric_name, metric = metrics_module.resolve(spec, fn, out)
                        if not single:
                            metric_name = name + "_" + metric_name
                        stateful = getattr(metric, "__self__", None)     # AUC().batch_value
                        with graph.name_scope(metric_name):
                            if isinstance(stateful, metrics_module.Metric):
                                # as TF 1.15: updated by each batch, reset by each epoch
                                # (and evaluation), reported as its value so far
                                self._stateful_metrics[1 + len(self._metric_tensors)] = \
                                    stateful
                                value = stateful(target, out)
                            else:
                                value = reduction_ops.reduce_mean(
                                    math_ops.cast(metric(target, out), K.floatx()))
                            self._metric_tensors.append(value)
                        self.metrics_names.append(metric_name)
        self._graph_compiled = True

    def _make_train_function(self):
        if self._train_op is None:
            with self._graph.as_default(), self._graph.name_scope("training"):
                if self._collected_trainable_weights is None:     # built by the first fit
                    self._collected_trainable_weights = self.trainable_weights
                step = self.optimizer.get_updates(self.total_loss,
                                                  self._collected_trainable_weights)
                self._train_op = group(step, *training_utils.fed_by(
                    self.updates, self.inputs + self.targets))
        return self._train_op

    def build(self, input_shape=None):
        """A subclassed model: builds call() on placeholders of `input_shape` (batch axis
        first). A functional model is built already."""
        if self._subclassed:
            subclassed.build(self, input_shape)
        self.built = True

    # -- data ----------------------------------------------------------------------------------
    def _build_from_data(self, x):
        raise ValueError("This model has not yet been built: give its first layer an "
                         "`input_shape`.")

    def _standardize(self, x, y=None, need_y=True):
        """x (and y) as lists of arrays, one per input (output), checked against the model's
        placeholders."""
        if x is None:
            raise ValueError("Please provide as model inputs a single array or a list of "
                             "arrays.")
        if self._subclassed and not self.inputs:
            arrays = x if isinstance(x, (list, tuple)) else [x]
            subclassed.build_from_data(self, training_utils.standardize_arrays(
                x, [f"input_{i + 1}" for i in range(len(arrays))], "input"))
        elif not self.built:
            xs = training_utils.standardize_arrays(x, ["input"], "input")
            self._build_from_data(xs[0])
        xs = training_utils.standardize_arrays(x, self.input_names, "input")
        if self._compiled:
            self._compile_graph()
        xs = [self._check_input(inp, array) for inp, array in zip(self.inputs, xs)]
        if not need_y:
            training_utils.check_array_lengths(xs, [])
            return xs, None
        if y is None:
            raise ValueError("You must provide targets (`y`) to train or evaluate a model.")
        ys = training_utils.standardize_arrays(y, self.output_names, "target")
        ys = [self._check_target(i, array) for i, array in enumerate(ys)]
        training_utils.check_array_lengths(xs, ys)
        return xs, ys

    @staticmethod
    def _check_input(inp, x):
        expected = inp.get_shape().as_list()
        if x.ndim == 1 and len(expected) == 2:
            x = x[:, None]
        if x.ndim != len(expected) or any(e is not None and e != a
                                           for e, a in zip(expected[1:], x.shape[1:])):
            what = (f"{len(expected)} dimensions" if x.ndim != len(expected)
                    else f"shape {tuple(expected[1:])}")
            raise ValueError(f"Error when checking input: expected {inp.op.name} to have {what} "
                             "but got array with shape "
                             f"{x.shape if x.ndim != len(expected) else x.shape[1:]}")
        return x.astype(inp.dtype.as_numpy_dtype, copy=False)

    def _check_target(self, i, y):
        target, loss_fn = self.targets[i], self._loss_fns[i]
        out_shape = self.outputs[i].get_shape().as_list()
        if y.ndim == len(out_shape) - 1:
            y = y[..., None]
        sparse = loss_fn in (losses_module.sparse_categorical_crossentropy,) or \
            isinstance(loss_fn, losses_module.SparseCategoricalCrossentropy)
        if not sparse and y.ndim == len(out_shape) and out_shape[-1] not in (None, y.shape[-1]):
            loss_name = getattr(loss_fn, "__name__", type(loss_fn).__name__)
            raise ValueError(f"A target array with shape {y.shape} was passed for an output of "
                             f"shape {tuple(out_shape)} while using as loss `{loss_name}`. This "
                             "loss expects targets to have the same shape as the output.")
        return y.astype(target.dtype.as_numpy_dtype, copy=False)

    def _run_batches(self, fetches, xs, ys, batch_size, training, index=None, on_batch=None,
                     weights=None):
        """Runs `fetches` on each batch; returns the batch-size-weighted means of the
        scalars (or the concatenated arrays, a list per output, when ys is None). A callback
        that sets model.stop_training in on_batch_end stops the epoch there, as in TF."""
        session = K.get_session()
        n = len(xs[0])
        index = np.arange(n) if index is None else index
        feed_phase = K._learning_phase_feed(training)
        sums, outs, seen = None, [], 0
        for b, start in enumerate(range(0, n, batch_size)):
            take = index[start:start + batch_size]
            feed = {inp: x[take] for inp, x in zip(self.inputs, xs)}
            feed.update(feed_phase)
            if ys is not None:
                feed.update((t, y[take]) for t, y in zip(self.targets, ys))
                feed.update((p, w[take]) for p, w in zip(self.sample_weights, weights or ())
                            if w is not None)
            values = session.run(fetches, feed)
            if ys is None:
                outs.append(values)
                continue
            scalars = [float(v) for v in values if v is not None]
            sums = np.zeros(len(scalars)) if sums is None else sums
            sums += np.array(scalars) * len(take)
            seen += len(take)
            last = scalars
            if on_batch is not None:
                on_batch(b, len(take), scalars)
                if self.stop_training:
                    break
        if ys is None:
            return [np.concatenate([o[i] for o in outs]) if outs else np.zeros((0,))
                    for i in range(len(fetches))]
        means = [float(v) for v in sums / max(seen, 1)]
        for i in self._stateful_metrics if sums is not None else ():
            means[i] = float(last[i])             # a stateful metric: its value so far
        return means

    def _reset_metrics(self):
        """Starts the stateful metrics (AUC, Precision ...) again: at each epoch and
        evaluation, as TF 1.15's training loops do."""
        for metric in getattr(self, "_stateful_metrics", {}).values():
            metric.reset_states()

    def _check_compiled(self):
        if not self._compiled:
            raise RuntimeError(_NOT_COMPILED)

    # -- fit / evaluate / predict --------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose=1, callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_freq=1, max_queue_size=10, workers=1, use_multiprocessing=False,
            **kwargs):
        """Trains for `epochs` epochs of batches of `batch_size` (32); returns the History.
        `x` may be a generator or a keras.utils.Sequence of batches (engine/
        training_generator.py): then y, sample_weight and validation_split may not be
        given."""
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        if training_generator.is_generator_or_sequence(x):
            training_generator.check_generator_arguments(y, sample_weight, validation_split)
            return self.fit_generator(x, steps_per_epoch, epochs, verbose, callbacks,
                                      validation_data, validation_steps, validation_freq,
                                      class_weight, max_queue_size, workers,
                                      use_multiprocessing, shuffle, initial_epoch)
        if training_generator.is_generator_or_sequence(validation_data):
            raise NotImplementedError("validation_data as a generator or Sequence needs x as "
                                      "one too in the sandbox's keras (fit_generator)")
        if steps_per_epoch:
            raise NotImplementedError("steps_per_epoch with arrays is not in the sandbox's "
                                      "keras: give a batch_size (or a generator)")
        self._check_compiled()
        with self._graph.as_default():
            xs, ys = self._standardize(x, y)
            ws = training_utils.sample_weights(ys, self.output_names, sample_weight,
                                               class_weight)
            val = None
            if validation_data is not None:
                if len(validation_data) not in (2, 3):
                    raise ValueError("When passing validation_data, it must contain 2 (x_val, "
                                     "y_val) or 3 (x_val, y_val, val_sample_weights) items, "
                                     f"however it contains {len(validation_data)} items")
                val_xs, val_ys = self._standardize(*validation_data[:2])
                val = (val_xs, val_ys, training_utils.sample_weights(
                    val_ys, self.output_names, (list(validation_data) + [None])[2]))
            elif validation_split and 0.0 < validation_split < 1.0:
                split_at = int(len(xs[0]) * (1.0 - validation_split))
                tail = (lambda arrays: None if arrays is None else
                        [None if a is None else a[split_at:] for a in arrays])
                head = (lambda arrays: None if arrays is None else
                        [None if a is None else a[:split_at] for a in arrays])
                val = (tail(xs), tail(ys), tail(ws))
                xs, ys, ws = head(xs), head(ys), head(ws)
            return self._fit_loop(xs, ys, val, batch_size or 32, epochs, verbose, callbacks,
                                  shuffle, initial_epoch, ws)

    def _fit_loop(self, xs, ys, val, batch_size, epochs, verbose, callbacks, shuffle,
                  initial_epoch, weights=None):
        train_op = self._make_train_function()
        fetches = [train_op, self.total_loss] + self._metric_tensors
        names = list(self.metrics_names)
        out_names = names + (["val_" + n for n in names] if val is not None else [])
        n = len(xs[0])
        self.history = cbks.History()          # after the user's callbacks, as in TF 1.15:
        callback_list = list(callbacks or []) + [self.history]    # it sees what they add
        if verbose:
            callback_list.append(cbks.ProgbarLogger(verbose))
        callback_list = cbks.CallbackList(callback_list)
        callback_list.set_model(self)
        callback_list.set_params({"batch_size": batch_size, "epochs": epochs, "steps": None,
                                  "samples": n, "verbose": verbose,
                                  "do_validation": val is not None, "metrics": out_names})
        if verbose:
            print(f"Train on {n} samples" +
                  (f", validate on {len(val[0][0])} samples" if val is not None else ""))
        self.stop_training = False
        callback_list.on_train_begin()
        for epoch in range(initial_epoch, epochs):
            callback_list.on_epoch_begin(epoch, {})
            started = time.time()
            index = np.arange(n)
            if shuffle:
                np.random.shuffle(index)

            def on_batch(batch, size, values):
                logs = {"batch": batch, "size": size, **dict(zip(names, values))}
                callback_list.on_batch_end(batch, logs)

            self._reset_metrics()
            means = self._run_batches(fetches, xs, ys, batch_size, True, index, on_batch,
                                      weights)
            logs = dict(zip(names, means))
            if val is not None:
                self._reset_metrics()
                val_means = self._run_batches([self.total_loss] + self._metric_tensors,
                                              val[0], val[1], batch_size, False,
                                              weights=val[2])
                logs.update(("val_" + n, v) for n, v in zip(names, val_means))
            self._epoch_seconds = time.time() - started
            callback_list.on_epoch_end(epoch, logs)
            if self.stop_training:
                break
        callback_list.on_train_end()
        return self.history

    def evaluate(self, x=None, y=None, batch_size=None, verbose=1, sample_weight=None,
                 steps=None, callbacks=None, max_queue_size=10, workers=1,
                 use_multiprocessing=False):
        """The loss (and metrics) over the data, learning phase 0: a scalar, or a list in the
        order of model.metrics_names. `x` may be a generator or a Sequence of batches."""
        self._check_compiled()
        if training_generator.is_generator_or_sequence(x):
            training_generator.check_generator_arguments(y, sample_weight)
            return self.evaluate_generator(x, steps, callbacks, max_queue_size, workers,
                                           use_multiprocessing, verbose)
        with self._graph.as_default():
            xs, ys = self._standardize(x, y)
            started = time.time()
            self._reset_metrics()
            means = self._run_batches(
                [self.total_loss] + self._metric_tensors, xs, ys, batch_size or 32, False,
                weights=training_utils.sample_weights(ys, self.output_names, sample_weight))
            if verbose:
                print(cbks.progress_line(len(xs[0]), time.time() - started,
                                         dict(zip(self.metrics_names, means)),
                                         self.metrics_names, verbose))
        return means[0] if len(means) == 1 else means

    def predict(self, x, batch_size=None, verbose=0, steps=None, callbacks=None,
                max_queue_size=10, workers=1, use_multiprocessing=False):
        """The model's outputs for the inputs, batch by batch, learning phase 0 (a list of
        arrays for a model of several outputs). `x` may be a generator or a Sequence of
        batches (x, or tuples whose first element is x)."""
        if training_generator.is_generator_or_sequence(x):
            return self.predict_generator(x, steps, callbacks, max_queue_size, workers,
                                          use_multiprocessing, verbose)
        with self._graph.as_default():
            xs, _ = self._standardize(x, need_y=False)
            outs = self._run_batches(list(self.outputs), xs, None, batch_size or 32, False)
        return outs[0] if len(outs) == 1 else outs

    # -- generators and Sequences (engine/training_generator.py) -------------------------------
    def fit_generator(self, generator, steps_per_epoch=None, epochs=1, verbose=1,
                      callbacks=None, validation_data=None, validation_steps=None,
                      validation_freq=1, class_weight=None, max_queue_size=10, workers=1,
                      use_multiprocessing=False, shuffle=True, initial_epoch=0):
        """Trains on the batches of a generator or Sequence, steps_per_epoch of them an epoch
        (len(sequence) by default); validation_data: arrays, a Sequence, or a generator with
        validation_steps."""
        with self._graph.as_default():
            return training_generator.fit_generator(
                self, generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                verbose=verbose, callbacks=callbacks, validation_data=validation_data,
                validation_steps=validation_steps, validation_freq=validation_freq,
                class_weight=class_weight, max_queue_size=max_queue_size, workers=workers,
                use_multiprocessing=use_multiprocessing, shuffle=shuffle,
                initial_epoch=initial_epoch, steps_name="steps_per_epoch")

    def evaluate_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                           workers=1, use_multiprocessing=False, verbose=0):
        """The loss (and metrics) over `steps` batches of the generator or Sequence."""
        with self._graph.as_default():
            return training_generator.evaluate_generator(
                self, generator, steps=steps, verbose=verbose, callbacks=callbacks,
                max_queue_size=max_queue_size, workers=workers,
                use_multiprocessing=use_multiprocessing)

    def predict_generator(self, generator, steps=None, callbacks=None, max_queue_size=10,
                          workers=1, use_multiprocessing=False, verbose=0):
        """The outputs for `steps` batches of the generator or Sequence, concatenated."""
        with self._graph.as_default():
            return training_generator.predict_generator(
                self, generator, steps=steps, verbose=verbose, callbacks=callbacks,
                max_queue_size=max_queue_size, workers=workers,
                use_multiprocessing=use_multiprocessing)

    def train_on_batch(self, x, y):
        self._check_compiled()
        with self._graph.as_default():
            xs, ys = self._standardize(x, y)
            fetches = [self._make_train_function(), self.total_loss] + self._metric_tensors
            self._reset_metrics()                  # (TF 1.15: reset_metrics=True)
            means = self._run_batches(fetches, xs, ys, len(xs[0]), True)
        return means[0] if len(means) == 1 else means

    def test_on_batch(self, x, y):
        self._check_compiled()
        with self._graph.as_default():
            xs, ys = self._standardize(x, y)
            self._reset_metrics()
            means = self._run_batches([self.total_loss] + self._metric_tensors, xs, ys,
                                      len(xs[0]), False)
        return means[0] if len(means) == 1 else means

    def predict_on_batch(self, x):
        xs = training_utils.standardize_arrays(x, self.input_names, "input")
        return self.predict(x, batch_size=len(xs[0]))

    # -- config ------------------------------------------------------------------------------
    def get_config(self):
        """The functional model's layers and connections (engine/network_config.py)."""
        if self._subclassed:
            raise NotImplementedError(
                f"{type(self).__name__} is a subclassed model: its graph is the code of its "
                "`call`, which has no config. Save its weights (save_weights) and make it "
                "again with its class.")
        from ..layers.serialization import serialize
        return get_network_config(self, serialize)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A new model, with new weights, of the layers that `config` describes."""
        from ..layers.serialization import deserialize
        inputs, outputs = reconstruct_from_config(
            config, lambda data: deserialize(data, custom_objects=custom_objects))
        return cls(inputs=inputs, outputs=outputs, name=config.get("name"))

    def to_json(self, **kwargs):
        """The model's config as JSON (keras.models.model_from_json reads it); `kwargs` go to
        json.dumps."""
        from ..saving import saving_utils
        return saving_utils.model_to_json(self, **kwargs)

    def to_yaml(self, **kwargs):
        """The model's config as YAML (keras.models.model_from_yaml reads it; needs PyYAML);
        `kwargs` go to yaml.dump."""
        from ..saving import model_config, saving_utils
        return model_config.model_to_yaml(saving_utils.model_config_for_file(self), **kwargs)

    def save(self, filepath, overwrite=True, include_optimizer=True, save_format=None,
             signatures=None, options=None):
        """Saves the model -- config, weights, optimizer state -- to the HDF5 file
        `filepath` (keras/saving/save.py says why any path means HDF5 in TF 1.x)."""
        from ..saving import save
        save.save_model(self, filepath, overwrite, include_optimizer, save_format)

    # -- weights -------------------------------------------------------------------------------
    def _get_saver(self):
        if self._saver is None:
            with self._graph.as_default():
                self._saver = Saver({v.op.name: v for v in self.weights})
        return self._saver

    def save_weights(self, filepath, overwrite=True, save_format=None):
        """Writes the weights to a TensorFlow checkpoint with the prefix `filepath`, or to an
        HDF5 file when `filepath` ends in .h5 / .keras / .hdf5 or save_format='h5'."""
        from ..saving import hdf5_format
        if save_format is None:
            save_format = "h5" if hdf5_format.is_hdf5_filepath(filepath) else "tf"
        save_format = str(save_format).lower().strip()
        if save_format in ("h5", "hdf5", "keras"):
            hdf5_format.save_weights_to_hdf5(self, filepath, overwrite)
            return
        if save_format not in ("tf", "tensorflow"):
            raise ValueError(f"Unknown format \"{save_format}\". Was expecting one of "
                             '{"tf", "h5"}.')
        # TF's format: an object-based checkpoint with the model as its root (keys such as
        # 'layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE'), named the latest of its
        # directory, as TF 1.15's Keras writes it
        from ...train import checkpoint, checkpoint_management
        with self._graph.as_default():
            path = checkpoint.ObjectGraphSaver(self).write(str(filepath), K.get_session())
        checkpoint_management.update_checkpoint_state(
            os.path.dirname(path) or ".", path, [path], save_relative_paths=True)

    def load_weights(self, filepath, by_name=False):
        """Reads the weights back from the checkpoint `filepath` (as save_weights wrote it),
        or from an HDF5 file (.h5 / .keras / .hdf5, or a file that is HDF5): in the order of
        model.layers, or with by_name=True into the layers of the same names."""
        from ..saving import hdf5_format
        if hdf5_format.is_hdf5_filepath(filepath) or hdf5_format.is_hdf5_file(filepath):
            hdf5_format.load_weights_from_hdf5(self, filepath, by_name)
            return
        if by_name:
            raise NotImplementedError("Weights may only be loaded by name from HDF5 files "
                                      "(.h5), not from TensorFlow checkpoints.")
        from ...train import checkpoint
        with self._graph.as_default():
            if checkpoint.is_object_based(str(filepath)):      # by the model's objects
                checkpoint.ObjectGraphSaver(self).restore(str(filepath)).run_restore_ops(
                    K.get_session())
            else:                                             # an older, name-based one
                self._get_saver().restore(K.get_session(), str(filepath))
