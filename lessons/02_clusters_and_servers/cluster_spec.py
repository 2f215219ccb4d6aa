"""Lesson 2 -- ClusterSpec: the description of a cluster that every task is given.

    python lessons/02_clusters_and_servers/cluster_spec.py

A cluster is a set of jobs; a job is a list of tasks; a task is one process at "host:port".
A ClusterSpec only describes: nothing is started or contacted until a tf.train.Server is.
"""
import sandbox as tf

# 1. The usual form: a dict of lists. Task i of a job is the i-th address of its list.
cluster = tf.train.ClusterSpec({
    "ps": ["ps0.example.com:2222"],
    "worker": ["worker0.example.com:2222", "worker1.example.com:2222",
               "worker2.example.com:2222"]})
print("cluster:", cluster)
print("jobs:", cluster.jobs)
print("num_tasks('worker'):", cluster.num_tasks("worker"))
print("task_indices('worker'):", cluster.task_indices("worker"))
print("job_tasks('worker'):", cluster.job_tasks("worker"))
print("task_address('worker', 2):", cluster.task_address("worker", 2))
print("as_dict():", cluster.as_dict())
print("as_cluster_def():")               # the protocol buffer a Server is really given
print(cluster.as_cluster_def())

# 2. The sparse form: a dict of dicts {task_index: address}. Worker 2 only needs to know the
#    ps and itself: it never talks to the other workers.
sparse = tf.train.ClusterSpec({"ps": ["ps0.example.com:2222"],
                               "worker": {2: "worker2.example.com:2222"}})
print("sparse:", sparse)
print("sparse num_tasks('worker'):", sparse.num_tasks("worker"))
print("sparse task_indices('worker'):", sparse.task_indices("worker"))
print("sparse job_tasks('worker'):", sparse.job_tasks("worker"))    # None where unknown
print("sparse as_dict():", sparse.as_dict())

# 3. The same cluster, three ways to write it.
same = tf.train.ClusterSpec({"ps": {0: "ps0.example.com:2222"},
                             "worker": {0: "worker0.example.com:2222",
                                        1: "worker1.example.com:2222",
                                        2: "worker2.example.com:2222"}})
print("dict of dicts == dict of lists:", same == cluster)
print("ClusterSpec(as_cluster_def()) == cluster:",
      tf.train.ClusterSpec(cluster.as_cluster_def()) == cluster)

# 4. What the tutorials' flags become: --ps_hosts and --worker_hosts, comma-separated.
ps_hosts = "localhost:2222".split(",")
worker_hosts = "localhost:2223,localhost:2224".split(",")
print("from flags:", tf.train.ClusterSpec({"ps": ps_hosts, "worker": worker_hosts}))

# 5. Asking for what is not there is a ValueError.
for ask in (lambda: cluster.task_address("worker", 3), lambda: cluster.num_tasks("chief"),
            lambda: sparse.task_address("worker", 0)):
    try:
        ask()
    except ValueError as e:
        print("ValueError:", e)
