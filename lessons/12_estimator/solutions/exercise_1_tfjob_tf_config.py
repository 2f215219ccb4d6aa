"""Lesson 12, exercise 1 -- the TF_CONFIG that Kubeflow's TFJob gives each pod.

A TFJob (Kubeflow's training operator) names how many replicas of each type it wants:

    apiVersion: kubeflow.org/v1
    kind: TFJob
    metadata: {name: mnist, namespace: default}
    spec:
      tfReplicaSpecs:
        Chief:     {replicas: 1, template: ...}
        Worker:    {replicas: 2, template: ...}
        PS:        {replicas: 1, template: ...}
        Evaluator: {replicas: 1, template: ...}

and starts one pod per replica, every pod running the same program, each with its own
TF_CONFIG environment variable. The operator writes, for pod `index` of `replica_type`:

    "cluster": every replica type but the Evaluator, in lower case, each a list of
               "<name>-<type>-<i>.<namespace>.svc:<port>" (port 2222 unless the pod says);
    "task":    {"type": <replica type in lower case>, "index": <index>};
    "environment": "cloud".

TODO: make tf_config() write what the operator writes. The starter puts the evaluator in the
cluster: the chief and the workers would then count a task that never starts a server.

Run it:   python lessons/12_estimator/exercise_1_tfjob_tf_config.py
Check it: pytest lessons/12_estimator -k exercise_1
"""
import json
import os

import sandbox as tf

TFJOB = {"name": "mnist", "namespace": "default", "port": 2222,
         "replicaSpecs": {"Chief": 1, "Worker": 2, "PS": 1, "Evaluator": 1}}


def tf_config(tfjob, replica_type, index):
    """The TF_CONFIG (JSON text) of pod `index` of `replica_type` ("Chief", "Worker", "PS",
    "Evaluator"), as the TFJob operator writes it."""
    cluster = {}
    for rtype, replicas in tfjob["replicaSpecs"].items():
        if rtype == "Evaluator":           # the evaluator is not part of the training cluster
            continue
        rt = rtype.lower()
        cluster[rt] = ["%s-%s-%d.%s.svc:%d" % (tfjob["name"], rt, i, tfjob["namespace"],
                                                tfjob["port"]) for i in range(replicas)]
    return json.dumps({"cluster": cluster,
                       "task": {"type": replica_type.lower(), "index": index},
                       "environment": "cloud"}, sort_keys=True)


def main():
    for replica_type, replicas in TFJOB["replicaSpecs"].items():
        for index in range(replicas):
            os.environ["TF_CONFIG"] = tf_config(TFJOB, replica_type, index)
            config = tf.estimator.RunConfig()       # reads TF_CONFIG, as in every pod
            print("pod %s-%s-%d" % (TFJOB["name"], replica_type.lower(), index))
            print("  TF_CONFIG=%s" % os.environ["TF_CONFIG"])
            print("  RunConfig: task %s %d, master %r, is_chief %s, %d ps, %d worker replicas, "
                  "global id %s, jobs it sees %s"
                  % (config.task_type, config.task_id, config.master, config.is_chief,
                     config.num_ps_replicas, config.num_worker_replicas,
                     config.global_id_in_cluster, sorted(config.cluster_spec.jobs)))


if __name__ == "__main__":
    main()
