"""Strategies for placing variables on parameter servers -- mirrors TF 1.15's
contrib/training/python/training/device_setter.py (`tf.contrib.training.RandomStrategy`,
`GreedyLoadBalancingStrategy`, `byte_size_load_fn`).

A `ps_strategy` is what `tf.train.replica_device_setter` asks, for every op that goes to a ps
(a variable), which ps task it goes to. Its default is round robin: tasks 0, 1, 2, 0, ... in the
order the variables are created -- so a model whose big and small variables alternate can put
all the big ones on one ps. The two strategies here choose otherwise:

    cluster = {"ps": [...3 tasks...], "worker": [...]}
    greedy = tf.contrib.training.GreedyLoadBalancingStrategy(
        3, tf.contrib.training.byte_size_load_fn)
    with tf.device(tf.train.replica_device_setter(cluster=cluster, ps_strategy=greedy)):
        ...                        # each variable goes to the ps with the fewest bytes so far

  * GreedyLoadBalancingStrategy(num_tasks, load_fn): the task whose total load is smallest at
    the moment the variable is created (ties: the lowest task index), then adds the variable's
    load -- `byte_size_load_fn`, the bytes of its value, is the usual measure. The result
    depends on the order in which the variables are created.
  * RandomStrategy(num_ps_tasks, seed=0): a fingerprint of the op's name -- the MD5 digest of
    "<op name>_<seed>" read as a number, modulo the number of tasks. Not random at all:
    every worker (each builds its own graph) computes the same task for the same variable,
    which is what between-graph replication needs; a different seed reshuffles.

The device function consults the strategy for every op of a ps type (TF's STANDARD_PS_OPS),
the optimizer's slots too (they then follow their variable by colocation, but the strategy
has seen them: the round-robin counter and the greedy loads move on).

The greedy strategy and byte_size_load_fn live beside replica_device_setter
(sandbox/train/device_setter.py, which `tf.train` also exports them from); this module adds
RandomStrategy and gives the three their TF 1.15 home.
"""
import hashlib

from ...train.device_setter import GreedyLoadBalancingStrategy, byte_size_load_fn

__all__ = ["RandomStrategy", "GreedyLoadBalancingStrategy", "byte_size_load_fn"]


class RandomStrategy:
    """A ps task for each op from a hash of its name: deterministic, the same on every worker.

    This may spread the variables better than round robin when there are many of them (round
    robin can put every variable of one kind on the same ps). The hash is MD5 -- not Python's
    hash(), which changes from one process to the next -- of "<op name>_<seed>".
    """

    def __init__(self, num_ps_tasks, seed=0):
        """Creates a new `RandomStrategy` over `num_ps_tasks` ps tasks."""
        self._num_tasks = num_ps_tasks
        self._seed = seed

    def __call__(self, op):
        """Chooses a ps task index for the given `Operation`."""
        name = op["name"] if isinstance(op, dict) else op.name   # a NodeDef is a dict here
        key = ("%s_%d" % (name, self._seed)).encode("utf-8")
        n = int(hashlib.md5(key).hexdigest(), 16)
        return int(n % self._num_tasks)
