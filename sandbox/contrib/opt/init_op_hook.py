"""The session hook of TF 1.15's ElasticAverageOptimizer and AGNOptimizer
(contrib/opt/python/training/elastic_average_optimizer.py, agn_optimizer.py): in begin() it
builds the initialization ops (local variables; the global ones on the chief; the optimizer's
own get_init_op), and once its session is created it runs the optimizer's -- each worker's
local copies start from the global values.
"""
from ...ops import variables
from ...train.session_run_hook import SessionRunHook

__all__ = ["InitOpHook"]


class InitOpHook(SessionRunHook):
    """Runs optimizer.get_init_op(task_index) once the session is created."""

    def __init__(self, optimizer, is_chief, task_index):
        self._optimizer = optimizer
        self._is_chief = is_chief
        self._task_index = task_index

    def begin(self):
        self._local_init_op = variables.local_variables_initializer()
        self._global_init_op = None
        if self._is_chief:
            self._global_init_op = variables.global_variables_initializer()
        self._variable_init_op = self._optimizer.get_init_op(self._task_index)

    def after_create_session(self, session, coord):
        session.run(self._variable_init_op)
