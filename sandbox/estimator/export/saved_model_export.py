"""Writing an Estimator's model as a SavedModel -- mirrors Estimator._export_all_saved_models
and Estimator._add_meta_graph_for_mode of tensorflow_estimator/python/estimator/estimator.py
(what Estimator.export_saved_model and its TF-1 name export_savedmodel do).

    export_dir = est.export_saved_model('export', serving_input_receiver_fn)
    # b'export/1700000000'

  1. the checkpoint: `checkpoint_path`, else the latest in model_dir; none is a ValueError
     ("Couldn't find trained model at <model_dir>.");
  2. a new graph: the global step, serving_input_receiver_fn() (a ServingInputReceiver), and
     the model_fn in PREDICT mode on the receiver's features;
  3. the signatures: export_lib.build_all_signature_defs of the receiver tensors (and their
     alternatives) and the spec's export_outputs (default: {'serving_default':
     PredictOutput(predictions)});
  4. in a session the checkpoint is restored with the scaffold's Saver (or a new sharded
     one), and sandbox/saved_model's SavedModelBuilder writes the graph under the tag
     'serve', the variables' values, the assets (collection ASSET_FILEPATHS) and the main op
     (the scaffold's local_init_op, else the local variables' initializer);
  5. all of it goes into export_dir_base/temp-<timestamp>, which is renamed to
     export_dir_base/<timestamp> when complete; assets_extra {dest: source} files are copied
     under assets.extra/ first. The timestamped directory is returned as bytes, as TF does.
"""
import os
import shutil

from ...client.session import Session
from ...framework import errors
from ...framework.graph import Graph, GraphKeys, get_collection
from ...ops.random_ops import set_random_seed
from ...saved_model.builder_impl import SavedModelBuilder
from ...train.monitored_session import Scaffold
from ...train.saver import Saver
from ..model_fn import ModeKeys
from . import export_lib

__all__ = ["export_all_saved_models"]


def export_all_saved_models(estimator, export_dir_base, input_receiver_fn_map,
                            assets_extra=None, as_text=False, checkpoint_path=None,
                            strip_default_attrs=True):
    """Writes the SavedModel of `estimator` (see the module docstring); returns its
    directory (bytes). `input_receiver_fn_map` is {ModeKeys.PREDICT: receiver_fn}: the
    sandbox exports PREDICT graphs only."""
    if not all(input_receiver_fn_map.values()):
        raise ValueError("An input_receiver_fn must be defined.")
    unsupported = [m for m in input_receiver_fn_map if m != ModeKeys.PREDICT]
    if unsupported:
        raise NotImplementedError(f"The sandbox exports PREDICT graphs only; given modes "
                                  f"{unsupported} (TF's TrainOutput/EvalOutput are not here).")
    if not checkpoint_path:
        checkpoint_path = estimator.latest_checkpoint()
    if not checkpoint_path:
        raise ValueError(f"Couldn't find trained model at {estimator.model_dir}.")
    export_dir = export_lib.get_timestamped_export_dir(export_dir_base)
    temp_export_dir = export_lib.get_temp_export_dir(export_dir)
    builder = SavedModelBuilder(temp_export_dir)
    save_variables = True
    if input_receiver_fn_map.get(ModeKeys.PREDICT):
        _add_meta_graph_for_mode(estimator, builder, input_receiver_fn_map, checkpoint_path,
                                 save_variables, mode=ModeKeys.PREDICT)
        save_variables = False
    if save_variables:
        raise ValueError(f"No valid modes for exporting found. Got "
                         f"{input_receiver_fn_map.keys()}.")
    builder.save(as_text)
    if assets_extra:
        assets_extra_path = os.path.join(temp_export_dir, b"assets.extra")
        for dest_relative, source in assets_extra.items():
            dest_absolute = os.path.join(assets_extra_path, export_lib._bytes(dest_relative))
            os.makedirs(os.path.dirname(dest_absolute), exist_ok=True)
            shutil.copyfile(source, dest_absolute)
    os.rename(temp_export_dir, export_dir)
    return export_dir


def _add_meta_graph_for_mode(estimator, builder, input_receiver_fn_map, checkpoint_path,
                             save_variables=True, mode=ModeKeys.PREDICT, export_tags=None):
    if export_tags is None:
        export_tags = export_lib.EXPORT_TAG_MAP[mode]
    input_receiver_fn = input_receiver_fn_map[mode]
    with Graph().as_default() as g:
        estimator._create_and_assert_global_step(g)
        set_random_seed(estimator.config.tf_random_seed)
        input_receiver = input_receiver_fn()
        spec = estimator._call_model_fn(features=input_receiver.features,
                                        labels=getattr(input_receiver, "labels", None),
                                        mode=mode, config=estimator.config)
        export_outputs = export_lib.get_export_outputs(spec.export_outputs, spec.predictions)
        signature_def_map = export_lib.build_all_signature_defs(
            input_receiver.receiver_tensors, export_outputs,
            getattr(input_receiver, "receiver_tensors_alternatives", None),
            serving_only=(mode == ModeKeys.PREDICT))
        with Session(config=estimator._session_config) as session:
            local_init_op = spec.scaffold.local_init_op
            if local_init_op is None:
                local_init_op = Scaffold.default_local_init_op()
            graph_saver = spec.scaffold.saver or Saver(sharded=True)
            try:
                graph_saver.restore(session, checkpoint_path)
            except errors.NotFoundError as e:
                raise ValueError(
                    "Could not load all requested variables from checkpoint. Please make sure "
                    "your model_fn does not expect variables that were not saved in the "
                    f"checkpoint.\n\nEncountered error with mode `{mode}` while restoring "
                    f"checkpoint from: `{checkpoint_path}`. Full Traceback:\n\n{e}") from None
            kwargs = dict(tags=export_tags, signature_def_map=signature_def_map,
                          assets_collection=get_collection(GraphKeys.ASSET_FILEPATHS),
                          main_op=local_init_op, saver=graph_saver, strip_default_attrs=True)
            if save_variables:
                builder.add_meta_graph_and_variables(session, **kwargs)
            else:
                builder.add_meta_graph(**kwargs)
