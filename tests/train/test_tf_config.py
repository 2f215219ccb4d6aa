"""TF_CONFIG parsing: TFConfigClusterResolver and task_from_tf_config (sandbox/train/tf_config.py)."""
import json

import pytest

from sandbox.train.tf_config import TFConfigClusterResolver, format_master_url, task_from_tf_config
from sandbox.train.cluster_spec import ClusterSpec

CLUSTER = {"chief": ["localhost:2222"], "worker": ["localhost:2223", "localhost:2224"],
           "ps": ["localhost:2225"], "evaluator": ["localhost:2226"]}


def set_config(monkeypatch, config):
    monkeypatch.setenv("TF_CONFIG", config if isinstance(config, str) else json.dumps(config))


def env(config):
    return {"TF_CONFIG": config if isinstance(config, str) else json.dumps(config)}


# -- the resolver -------------------------------------------------------------------------------
def test_worker(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "worker", "index": 1}})
    r = TFConfigClusterResolver()
    assert r.task_type == "worker" and r.task_id == 1
    assert r.rpc_layer is None and r.environment == ""
    spec = r.cluster_spec()
    assert isinstance(spec, ClusterSpec)
    assert spec.jobs == ["chief", "worker", "ps"]  # TF_CONFIG's order; no evaluator
    assert spec.as_dict()["worker"] == CLUSTER["worker"]
    assert r.master() == "grpc://localhost:2224"
    assert r.master("ps", 0) == "grpc://localhost:2225"
    assert r.master(rpc_layer="grpc+verbs") == "grpc+verbs://localhost:2224"
    assert r.num_accelerators() == {}


def test_chief(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "chief", "index": 0},
                             "rpc_layer": "grpc", "environment": "cloud"})
    r = TFConfigClusterResolver()
    assert (r.task_type, r.task_id, r.rpc_layer, r.environment) == ("chief", 0, "grpc", "cloud")
    assert "evaluator" not in r.cluster_spec().jobs
    assert r.master() == "grpc://localhost:2222"


def test_ps(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "ps", "index": "0"}})
    r = TFConfigClusterResolver()
    assert r.task_type == "ps" and r.task_id == 0  # a string index is converted, as TF does
    assert r.master() == "grpc://localhost:2225"


def test_evaluator_sees_only_itself(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "evaluator", "index": 0}})
    r = TFConfigClusterResolver()
    assert r.cluster_spec().as_dict() == {"evaluator": ["localhost:2226"]}
    assert r.master() == ""  # a single-task cluster: run in process


def test_evaluator_outside_the_cluster(monkeypatch):
    cluster = {k: v for k, v in CLUSTER.items() if k != "evaluator"}
    set_config(monkeypatch, {"cluster": cluster, "task": {"type": "evaluator", "index": 0}})
    r = TFConfigClusterResolver()
    assert r.cluster_spec().as_dict() == {} and r.master() == ""


def test_overrides(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "worker", "index": 1},
                             "rpc_layer": "grpc"})
    r = TFConfigClusterResolver(task_type="ps", task_id=0, rpc_layer="myrpc", environment="e")
    assert (r.task_type, r.task_id, r.rpc_layer, r.environment) == ("ps", 0, "myrpc", "e")
    assert r.master() == "myrpc://localhost:2225"
    r.task_type, r.task_id, r.rpc_layer = "worker", 0, None
    assert r.master() == "grpc://localhost:2223"
    assert "task_type='worker'" in repr(r)


def test_reads_environment_each_time(monkeypatch):
    r = TFConfigClusterResolver()
    monkeypatch.delenv("TF_CONFIG", raising=False)
    assert r.cluster_spec() == ClusterSpec({}) and r.task_type is None and r.task_id is None
    assert r.master() == ""
    set_config(monkeypatch, {"cluster": {"worker": ["a:1", "a:2"]},
                             "task": {"type": "worker", "index": 1}})
    assert r.master() == "grpc://a:2"


def test_single_task_master_is_empty(monkeypatch):
    set_config(monkeypatch, {"cluster": {"worker": ["localhost:2222"]},
                             "task": {"type": "worker", "index": 0}})
    assert TFConfigClusterResolver().master() == ""


def test_session_master_wins(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "worker", "index": 0},
                             "session_master": "grpc://elsewhere:9"})
    assert TFConfigClusterResolver().master() == "grpc://elsewhere:9"


def test_master_without_task(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER})
    r = TFConfigClusterResolver()
    with pytest.raises(RuntimeError, match="task_type and task_id"):
        r.master()
    assert r.master("worker", 0) == "grpc://localhost:2223"
    with pytest.raises(ValueError, match="No such job in cluster: 'nope'"):
        r.master("nope", 0)


def test_sparse_cluster_from_json(monkeypatch):
    set_config(monkeypatch, {"cluster": {"worker": {"1": "localhost:2223"},
                                         "ps": ["localhost:2222"]},
                             "task": {"type": "worker", "index": 1}})
    r = TFConfigClusterResolver()
    assert r.cluster_spec().as_dict() == {"worker": {1: "localhost:2223"},
                                          "ps": ["localhost:2222"]}
    assert r.master() == "grpc://localhost:2223"


def test_format_master_url():
    assert format_master_url("h:1") == "h:1"
    assert format_master_url("h:1", "grpc") == "grpc://h:1"


# -- malformed TF_CONFIG --------------------------------------------------------------------------
@pytest.mark.parametrize("text, words", [
    ('{"cluster": {"worker": ["a:1"]', ["TF_CONFIG is not valid JSON", "line 1", "Expected"]),
    ("cluster=worker", ["TF_CONFIG is not valid JSON"]),
    ("{'cluster': {}}", ["TF_CONFIG is not valid JSON"]),
    ('["a:1"]', ["TF_CONFIG must be a JSON object", "list"]),
    ('{"cluster": ["a:1"]}', ["TF_CONFIG['cluster'] must be a JSON object"]),
    ('{"task": "worker"}', ["TF_CONFIG['task'] must be a JSON object"]),
])
def test_bad_json(monkeypatch, text, words):
    set_config(monkeypatch, text)
    for call in (lambda: TFConfigClusterResolver().cluster_spec(),
                 lambda: task_from_tf_config(env(text))):
        with pytest.raises(ValueError) as e:
            call()
        for word in words:
            assert word in str(e.value)


def test_bad_cluster_names_tf_config(monkeypatch):
    set_config(monkeypatch, {"cluster": {"worker": ["localhost"]}})
    # as in TF, any string is an address until a server starts (test_tf_server_lib_cases.py)
    assert TFConfigClusterResolver().cluster_spec().task_address("worker", 0) == "localhost"
    set_config(monkeypatch, {"cluster": {"worker": [5]}})
    with pytest.raises(TypeError, match=r"TF_CONFIG\['cluster'\].*Task address 5"):
        TFConfigClusterResolver().cluster_spec()


@pytest.mark.parametrize("task, words", [
    ({"type": "worker", "index": -1}, ["TF_CONFIG['task']['index']", "-1"]),
    ({"type": "worker", "index": 1.5}, ["TF_CONFIG['task']['index']", "1.5"]),
    ({"type": "worker", "index": "one"}, ["TF_CONFIG['task']['index']", "'one'"]),
    ({"type": 3, "index": 0}, ["TF_CONFIG['task']['type']", "3"]),
    ({"type": "", "index": 0}, ["TF_CONFIG['task']['type']"]),
])
def test_bad_task(monkeypatch, task, words):
    config = {"cluster": CLUSTER, "task": task}
    set_config(monkeypatch, config)
    with pytest.raises(ValueError) as e:
        r = TFConfigClusterResolver()
        r.task_type, r.task_id
    for word in words:
        assert word in str(e.value)
    with pytest.raises(ValueError):
        task_from_tf_config(env(config))


# -- task_from_tf_config ------------------------------------------------------------------------
@pytest.mark.parametrize("job, index, address", [
    ("chief", 0, "localhost:2222"), ("worker", 0, "localhost:2223"),
    ("worker", 1, "localhost:2224"), ("ps", 0, "localhost:2225")])
def test_task_from_tf_config(job, index, address):
    spec, job_name, task_index = task_from_tf_config(
        env({"cluster": CLUSTER, "task": {"type": job, "index": index}}))
    assert (job_name, task_index) == (job, index)
    assert spec.jobs == ["chief", "worker", "ps"]
    assert spec.task_address(job_name, task_index) == address


def test_task_from_tf_config_evaluator():
    spec, job, index = task_from_tf_config(
        env({"cluster": CLUSTER, "task": {"type": "evaluator", "index": 0}}))
    assert (spec.as_dict(), job, index) == ({"evaluator": ["localhost:2226"]}, "evaluator", 0)
    cluster = {"worker": ["a:1"]}
    spec, job, index = task_from_tf_config(env({"cluster": cluster,
                                                "task": {"type": "evaluator"}}))
    assert (spec, job, index) == (ClusterSpec({}), "evaluator", 0)


def test_task_from_tf_config_reads_os_environ_by_default(monkeypatch):
    set_config(monkeypatch, {"cluster": CLUSTER, "task": {"type": "ps", "index": 0}})
    spec, job, index = task_from_tf_config()
    assert (job, index) == ("ps", 0) and spec.num_tasks("worker") == 2


@pytest.mark.parametrize("environ", [{}, {"TF_CONFIG": ""}, {"TF_CONFIG": "  "},
                                     {"TF_CONFIG": "{}"}, {"TF_CONFIG": '{"rpc_layer": "grpc"}'}])
def test_no_cluster(environ):
    assert task_from_tf_config(environ) == (ClusterSpec({}), None, None)


def test_single_task_needs_no_task_section():
    spec, job, index = task_from_tf_config(env({"cluster": {"worker": {"3": "a:1"}}}))
    assert (job, index) == ("worker", 3) and spec.as_dict() == {"worker": {3: "a:1"}}
    spec, job, index = task_from_tf_config(env({"cluster": {"worker": ["a:1"]},
                                                "task": {"type": "worker"}}))
    assert (job, index) == ("worker", 0)


@pytest.mark.parametrize("config, words", [
    ({"cluster": CLUSTER}, ["no 'task'", '"type": "worker"']),
    ({"cluster": CLUSTER, "task": {"index": 0}}, ["TF_CONFIG['task'] has no 'type'"]),
    ({"cluster": CLUSTER, "task": {"type": "master", "index": 0}},
     ["'master'", "not a job in TF_CONFIG['cluster']", "'chief'"]),
    ({"cluster": CLUSTER, "task": {"type": "worker", "index": 2}},
     ["index'] is 2", "job 'worker'", "[0, 1]"]),
    ({"cluster": CLUSTER, "task": {"type": "worker"}}, ["no 'index'", "job 'worker' has 2"]),
    ({"task": {"type": "worker", "index": 0}}, ["'worker'", "not a job"]),
])
def test_task_from_tf_config_errors(config, words):
    with pytest.raises(ValueError) as e:
        task_from_tf_config(env(config))
    for word in words:
        assert word in str(e.value), (word, str(e.value))
