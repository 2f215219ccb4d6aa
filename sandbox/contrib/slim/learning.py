"""slim.learning: create_train_op and the train loop -- mirrors TensorFlow 1.15's
contrib/slim/python/slim/learning.py (and the create_train_op of
contrib/training/python/training/training.py it wraps).

    total_loss = slim.losses.get_total_loss()
    train_op = slim.learning.create_train_op(total_loss, tf.train.AdamOptimizer(1e-3),
                                             clip_gradient_norm=4.0)
    final_loss = slim.learning.train(train_op, logdir, number_of_steps=1000)

create_train_op makes the UPDATE_OPS (batch norm's moving averages) run before the loss, takes
the gradients of the trainable variables (or variables_to_train), multiplies them by
gradient_multipliers, clips each to clip_gradient_norm (clip_by_norm, one tensor at a time),
adds '<var>_gradient' histograms and '<var>_gradient_norm' scalars with
summarize_gradients=True, and applies them, incrementing the global step. It returns the
*loss tensor* (checked for inf/NaN, named 'train_op/...'), which can only be fetched once
the update has run (its value is the loss the gradients were taken of, before the step); it
is also added to tf.GraphKeys.TRAIN_OP.

train is TF's Supervisor-based loop, on the sandbox's tf.train.Supervisor: the chief
restores the latest checkpoint of `logdir` or runs init_op (then init_fn(sess)), starts the
standard services (summaries every save_summaries_secs, checkpoints every
save_interval_secs) and queue runners, calls train_step_fn(sess, train_op, global_step,
kwargs) until the global step reaches number_of_steps (or an input queue runs out), saves a
final checkpoint and returns the last loss.
"""
import sys
import time

from ...framework.errors import AbortedError, OutOfRangeError
from ...framework.graph import (GraphKeys, control_dependencies, get_collection,
                                get_collection_ref, get_default_graph, name_scope)
from ...framework.indexed_slices import IndexedSlices
from ...ops import check_ops, clip_ops, comparison_ops, control_flow_ops, math_ops
from ...ops import summary_ops as summary
from ...ops.constant_op import constant
from ...ops.lookup_ops import tables_initializer
from ...ops.sparse_array_ops import _with_dependencies as with_dependencies
from ...ops.variables import (global_variables_initializer, local_variables_initializer,
                              report_uninitialized_variables, trainable_variables)
from ...platform import tf_logging as logging
from ...train import training_util
from ...train.optimizer import Optimizer
from ...train.saver import Saver
from ...train.supervisor import Supervisor
from ..layers.optimizers import multiply_gradients as _multiply

__all__ = ["create_train_op", "train", "train_step", "clip_gradient_norms",
           "multiply_gradients", "add_gradients_summaries"]

_USE_DEFAULT = 0
_USE_GLOBAL_STEP = 0


def clip_gradient_norms(gradients_to_variables, max_norm):
    """Each gradient clipped to norm max_norm on its own (tf.clip_by_norm)."""
    clipped = []
    for grad, var in gradients_to_variables:
        if isinstance(grad, IndexedSlices):
            grad = IndexedSlices(clip_ops.clip_by_norm(grad.values, max_norm), grad.indices,
                                 grad.dense_shape)
        elif grad is not None:
            grad = clip_ops.clip_by_norm(grad, max_norm)
        clipped.append((grad, var))
    return clipped


def multiply_gradients(grads_and_vars, gradient_multipliers):
    """The gradients of the variables in gradient_multipliers (keyed by variable or by its
    op name, 'conv1/weights') multiplied by their factor."""
    if not isinstance(grads_and_vars, list):
        raise ValueError("`grads_and_vars` must be a list.")
    if not gradient_multipliers:
        raise ValueError("`gradient_multipliers` is empty.")
    if not isinstance(gradient_multipliers, dict):
        raise ValueError("`gradient_multipliers` must be a dict.")
    by_variable = {}
    for grad, var in grads_and_vars:
        key = var if var in gradient_multipliers else var.op.name
        if key in gradient_multipliers:
            if grad is None:
                raise ValueError("Requested multiple of `None` gradient.")
            by_variable[var] = gradient_multipliers[key]
    return _multiply(grads_and_vars, by_variable)


def add_gradients_summaries(grads_and_vars):
    """A histogram '<var>_gradient' and a scalar '<var>_gradient_norm' per gradient."""
    summaries = []
    for grad, var in grads_and_vars:
        if grad is None:
            logging.info("Var %s has no gradient", var.op.name)
            continue
        values = grad.values if isinstance(grad, IndexedSlices) else grad
        summaries.append(summary.histogram(var.op.name + "_gradient", values))
        summaries.append(summary.scalar(var.op.name + "_gradient_norm",
                                        clip_ops.global_norm([values])))
    return summaries


def create_train_op(total_loss, optimizer, global_step=_USE_GLOBAL_STEP, update_ops=None,
                    variables_to_train=None, clip_gradient_norm=0, summarize_gradients=False,
                    gate_gradients=Optimizer.GATE_OP, aggregation_method=None,
                    colocate_gradients_with_ops=False, gradient_multipliers=None,
                    check_numerics=True):
    """The loss, fetchable once one optimizer step has run (see the module docstring)."""
    if global_step is _USE_GLOBAL_STEP:
        global_step = training_util.get_or_create_global_step()
    global_update_ops = list(dict.fromkeys(get_collection(GraphKeys.UPDATE_OPS)))
    update_ops = global_update_ops if update_ops is None else list(dict.fromkeys(update_ops))
    if any(op not in update_ops for op in global_update_ops):
        logging.warning("update_ops in create_train_op does not contain all the update_ops "
                        "in GraphKeys.UPDATE_OPS")
    if update_ops:
        with control_dependencies(update_ops):
            barrier = control_flow_ops.no_op(name="update_barrier")
        total_loss = with_dependencies([barrier], total_loss)
    if variables_to_train is None:
        variables_to_train = trainable_variables()
    if not variables_to_train:
        raise ValueError("create_train_op: there are no variables to train (no trainable "
                         "variables, or variables_to_train is empty).")
    grads = optimizer.compute_gradients(
        total_loss, variables_to_train, gate_gradients=gate_gradients,
        aggregation_method=aggregation_method,
        colocate_gradients_with_ops=colocate_gradients_with_ops)
    if gradient_multipliers:
        with name_scope("multiply_grads"):
            grads = multiply_gradients(grads, gradient_multipliers)
    if clip_gradient_norm > 0:
        with name_scope("clip_grads"):
            grads = clip_gradient_norms(grads, clip_gradient_norm)
    if summarize_gradients:
        with name_scope("summarize_grads"):
            add_gradients_summaries(grads)
    grad_updates = optimizer.apply_gradients(grads, global_step=global_step)
    with name_scope("train_op"):
        if check_numerics:
            total_loss = check_ops.check_numerics(total_loss, "LossTensor is inf or nan")
        train_op = with_dependencies([grad_updates], total_loss)
    train_ops = get_collection_ref(GraphKeys.TRAIN_OP)
    if not any(train_op is t for t in train_ops):
        train_ops.append(train_op)
    return train_op


def train_step(sess, train_op, global_step, train_step_kwargs):
    """One step: runs train_op and the global step, logs every log_every_n_steps, and
    returns (total_loss, should_stop)."""
    start_time = time.time()
    total_loss, np_global_step = sess.run([train_op, global_step])
    time_elapsed = time.time() - start_time
    if "should_log" in train_step_kwargs and sess.run(train_step_kwargs["should_log"]):
        logging.info("global step %d: loss = %.4f (%.3f sec/step)", np_global_step,
                     total_loss, time_elapsed)
    should_stop = False
    if "should_stop" in train_step_kwargs:
        should_stop = bool(sess.run(train_step_kwargs["should_stop"]))
    return total_loss, should_stop


def _check_train_args(train_op, logdir, summary_op, saver, trace_every_n_steps,
                      sync_optimizer, number_of_steps):
    if train_op is None:
        raise ValueError("train_op cannot be None.")
    if logdir is None:
        if summary_op != _USE_DEFAULT:
            raise ValueError("Cannot provide summary_op because logdir=None")
        if saver is not None:
            raise ValueError("Cannot provide saver because logdir=None")
        if trace_every_n_steps is not None:
            raise ValueError("Cannot provide trace_every_n_steps because logdir=None")
    if sync_optimizer is not None:
        raise NotImplementedError("slim.learning.train: sync_optimizer is not supported by the "
                                  "sandbox; train synchronous replicas with "
                                  "tf.train.MonitoredTrainingSession and the optimizer's hook.")
    if trace_every_n_steps is not None:
        raise NotImplementedError("slim.learning.train: trace_every_n_steps is not supported "
                                  "by the sandbox; leave it at None.")
    if number_of_steps is not None and number_of_steps <= 0:
        raise ValueError("`number_of_steps` must be either None or a positive number.")


def _default_step_kwargs(global_step, number_of_steps, log_every_n_steps):
    with name_scope("train_step"):
        kwargs = {"should_stop": (comparison_ops.greater_equal(global_step, number_of_steps)
                                  if number_of_steps else constant(False))}
        if log_every_n_steps > 0:
            kwargs["should_log"] = comparison_ops.equal(
                math_ops.floormod(global_step, log_every_n_steps), 0)
    return kwargs


def train(train_op, logdir, train_step_fn=train_step, train_step_kwargs=_USE_DEFAULT,
          log_every_n_steps=1, graph=None, master="", is_chief=True, global_step=None,
          number_of_steps=None, init_op=_USE_DEFAULT, init_feed_dict=None,
          local_init_op=_USE_DEFAULT, init_fn=None, ready_op=_USE_DEFAULT,
          summary_op=_USE_DEFAULT, save_summaries_secs=600, summary_writer=_USE_DEFAULT,
          startup_delay_steps=0, saver=None, save_interval_secs=600, sync_optimizer=None,
          session_config=None, session_wrapper=None, trace_every_n_steps=None,
          ignore_live_threads=False):
    """Runs train_op until number_of_steps; returns the last loss (module docstring)."""
    _check_train_args(train_op, logdir, summary_op, saver, trace_every_n_steps,
                      sync_optimizer, number_of_steps)
    graph = graph or get_default_graph()
    with graph.as_default():
        if global_step is None:
            global_step = training_util.get_or_create_global_step()
        saver = saver or Saver()
        with name_scope("init_ops"):
            if init_op is _USE_DEFAULT:
                init_op = global_variables_initializer()
            if ready_op is _USE_DEFAULT:
                ready_op = report_uninitialized_variables()
            if local_init_op is _USE_DEFAULT:
                local_init_op = control_flow_ops.group(local_variables_initializer(),
                                                       tables_initializer())
        if summary_op is _USE_DEFAULT:
            summary_op = summary.merge_all()
        if summary_writer is _USE_DEFAULT:
            summary_writer = Supervisor.USE_DEFAULT
        if train_step_kwargs is _USE_DEFAULT:
            train_step_kwargs = _default_step_kwargs(global_step, number_of_steps,
                                                     log_every_n_steps)
    sv = Supervisor(graph=graph, is_chief=is_chief, logdir=logdir, init_op=init_op,
                    init_feed_dict=init_feed_dict, local_init_op=local_init_op,
                    ready_op=ready_op, summary_op=summary_op, summary_writer=summary_writer,
                    global_step=global_step, saver=saver,
                    save_summaries_secs=save_summaries_secs,
                    save_model_secs=save_interval_secs, init_fn=init_fn)
    if summary_writer is not None:
        train_step_kwargs["summary_writer"] = sv.summary_writer
    total_loss = None
    should_retry = True
    while should_retry:
        should_retry = False
        try:
            total_loss = _run_supervised(sv, train_op, global_step, train_step_fn,
                                         train_step_kwargs, master, is_chief, logdir,
                                         min(startup_delay_steps, number_of_steps or sys.maxsize),
                                         session_config, session_wrapper, ignore_live_threads)
        except AbortedError:
            logging.info("Retrying training!")      # a restarted server: start again
            should_retry = True
    return total_loss


def _run_supervised(sv, train_op, global_step, train_step_fn, train_step_kwargs, master,
                    is_chief, logdir, wait_for_step, session_config, session_wrapper,
                    ignore_live_threads):
    """One managed session of train(): the loop itself."""
    total_loss = None
    with sv.managed_session(master, start_standard_services=False,
                            config=session_config) as sess:
        logging.info("Starting Session.")
        if session_wrapper is not None:
            sess = session_wrapper(sess)
        if is_chief:
            if logdir:
                sv.start_standard_services(sess)
        elif wait_for_step > 0:
            # A worker waits for the chief's first startup_delay_steps steps.
            while training_util.global_step(sess, global_step) < wait_for_step:
                time.sleep(1.0)
        threads = sv.start_queue_runners(sess)
        logging.info("Starting Queues.")
        try:
            while not sv.should_stop():
                total_loss, should_stop = train_step_fn(sess, train_op, global_step,
                                                        train_step_kwargs)
                if should_stop:
                    logging.info("Stopping Training.")
                    sv.request_stop()
                    break
        except OutOfRangeError as e:
            logging.info("Caught OutOfRangeError. Stopping Training. %s", e)
        if logdir and sv.is_chief:
            logging.info("Finished training! Saving model to disk.")
            sv.saver.save(sess, sv.save_path, global_step=sv.global_step)
            sv.stop(threads, close_summary_writer=True, ignore_live_threads=ignore_live_threads)
    return total_loss
