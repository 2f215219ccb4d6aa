"""TensorFlow 1.15's own tests of tf.train.Server and tf.train.ClusterSpec, restated for the
sandbox. Each test names the TF test it restates (tensorflow/python/training/...):

  server_lib_test.py                          GrpcServerTest, ServerDefTest, ClusterSpecTest
  server_lib_sparse_job_test.py               SparseJobTest.testSparseJob
  server_lib_same_variables_no_clear_test.py  SameVariablesNoClearTest
  server_lib_same_variables_clear_test.py     SameVariablesClearTest
  server_lib_same_variables_clear_container_test.py  SameVariablesClearContainerTest
  server_lib_multiple_containers_test.py      MultipleContainersTest
  localhost_cluster_performance_test.py       CreateLocalClusterTest (servers in one process)

What the sandbox adds to TF's checks -- errors that name the job, the task and the address and
say what to do -- is tested beside the case it belongs to. Where TF's test needs something the
sandbox does not have, the docstring says what was changed.
"""
import pytest

import sandbox as tf
from bench.common import free_port
from sandbox.train.cluster_spec import ClusterDef, JobDef
from sandbox.train.server_lib import ServerDef


def local_text(address="localhost:2222"):
    return f'job {{\n  name: "local"\n  tasks {{\n    key: 0\n    value: "{address}"\n  }}\n}}\n'


# == ClusterSpecTest (server_lib_test.py) ====================================================
def test_string_conversion():
    """ClusterSpecTest.testStringConversion."""
    cluster_spec = tf.train.ClusterSpec({"ps": ["ps0:1111"],
                                         "worker": ["worker0:3333", "worker1:4444"]})
    assert str(cluster_spec) == ("ClusterSpec({'ps': ['ps0:1111'], 'worker': ['worker0:3333', "
                                 "'worker1:4444']})")


TWO_JOBS_TEXT = '''job {
  name: "ps"
  tasks {
    key: 0
    value: "ps0:2222"
  }
  tasks {
    key: 1
    value: "ps1:2222"
  }
}
job {
  name: "worker"
  tasks {
    key: 0
    value: "worker0:2222"
  }
  tasks {
    key: 1
    value: "worker1:2222"
  }
  tasks {
    key: 2
    value: "worker2:2222"
  }
}
'''


def test_proto_dict_def_equivalences():
    """ClusterSpecTest.testProtoDictDefEquivalences: the ClusterDef is the same from a dict,
    a ClusterSpec, a ClusterDef and as_dict() (assertProtoEquals becomes the text form)."""
    cluster_spec = tf.train.ClusterSpec({"ps": ["ps0:2222", "ps1:2222"],
                                         "worker": ["worker0:2222", "worker1:2222",
                                                    "worker2:2222"]})
    assert str(cluster_spec.as_cluster_def()) == TWO_JOBS_TEXT
    assert str(tf.train.ClusterSpec(cluster_spec).as_cluster_def()) == TWO_JOBS_TEXT
    assert str(tf.train.ClusterSpec(cluster_spec.as_cluster_def()).as_cluster_def()) == \
        TWO_JOBS_TEXT
    assert str(tf.train.ClusterSpec(cluster_spec.as_dict()).as_cluster_def()) == TWO_JOBS_TEXT


def test_proto_dict_def_equivalences_with_zero_worker():
    """ClusterSpecTest.testProtoDictDefEquivalencesWithZeroWorker."""
    cluster_spec = tf.train.ClusterSpec({"ps": ["ps0:2222", "ps1:2222"], "worker": []})
    expected = TWO_JOBS_TEXT[:TWO_JOBS_TEXT.index('job {\n  name: "worker"')] + \
        'job {\n  name: "worker"\n}\n'
    for spec in (cluster_spec, tf.train.ClusterSpec(cluster_spec),
                 tf.train.ClusterSpec(cluster_spec.as_cluster_def()),
                 tf.train.ClusterSpec(cluster_spec.as_dict())):
        assert str(spec.as_cluster_def()) == expected


def test_cluster_spec_accessors():
    """ClusterSpecTest.testClusterSpecAccessors, plus the sandbox's words for the ValueErrors:
    TF's text first, then the jobs or tasks there are."""
    original_dict = {"ps": ["ps0:2222", "ps1:2222"],
                     "worker": ["worker0:2222", "worker1:2222", "worker2:2222"],
                     "sparse": {0: "sparse0:2222", 3: "sparse3:2222"}}
    cluster_spec = tf.train.ClusterSpec(original_dict)
    assert cluster_spec.as_dict() == original_dict
    assert cluster_spec.num_tasks("ps") == 2
    assert cluster_spec.num_tasks("worker") == 3
    assert cluster_spec.num_tasks("sparse") == 2
    with pytest.raises(ValueError, match=r"^No such job in cluster: 'unknown'; its jobs are "
                                         r"\['ps', 'sparse', 'worker'\]$"):
        cluster_spec.num_tasks("unknown")
    assert cluster_spec.task_address("ps", 0) == "ps0:2222"
    assert cluster_spec.task_address("sparse", 0) == "sparse0:2222"
    with pytest.raises(ValueError, match="No such job in cluster: 'unknown'"):
        cluster_spec.task_address("unknown", 0)
    with pytest.raises(ValueError, match=r"^No task with index 2 in job 'sparse'; its tasks "
                                         r"are \[0, 3\]$"):
        cluster_spec.task_address("sparse", 2)
    assert cluster_spec.task_indices("ps") == [0, 1]
    assert cluster_spec.task_indices("worker") == [0, 1, 2]
    assert cluster_spec.task_indices("sparse") == [0, 3]
    with pytest.raises(ValueError, match="No such job in cluster: 'unknown'"):
        cluster_spec.task_indices("unknown")
    assert cluster_spec.job_tasks("ps") == ["ps0:2222", "ps1:2222"]
    assert cluster_spec.job_tasks("worker") == ["worker0:2222", "worker1:2222", "worker2:2222"]
    assert cluster_spec.job_tasks("sparse") == ["sparse0:2222", None, None, "sparse3:2222"]
    with pytest.raises(ValueError, match="No such job in cluster: 'unknown'"):
        cluster_spec.job_tasks("unknown")


def test_a_misspelt_job_gets_a_suggestion():
    cluster_spec = tf.train.ClusterSpec({"ps": ["a:1"], "worker": ["b:1", "b:2"]})
    with pytest.raises(ValueError) as e:
        cluster_spec.task_address("wroker", 0)
    assert str(e.value) == ("No such job in cluster: 'wroker'; its jobs are ['ps', 'worker'] "
                            "(did you mean 'worker'?)")
    with pytest.raises(ValueError, match=r"No task with index 3 in job 'worker'; its tasks "
                                         r"are \[0, 1\]"):
        cluster_spec.task_address("worker", 3)


def test_empty_cluster_spec_is_false():
    """ClusterSpecTest.testEmptyClusterSpecIsFalse."""
    assert not tf.train.ClusterSpec({})


def test_non_empty_cluster_spec_is_true():
    """ClusterSpecTest.testNonEmptyClusterSpecIsTrue: any string is an address to a
    ClusterSpec, even 'host:port' -- it is checked when a server starts."""
    spec = tf.train.ClusterSpec({"job": ["host:port"]})
    assert spec
    assert spec.task_address("job", 0) == "host:port"


@pytest.mark.parametrize("address", ["host:port", "localhost", "grpc://localhost:2222",
                                     "bad host:1", ":2222", "[::1", "localhost:99999", ""])
def test_any_string_is_an_address_to_a_cluster_spec(address):
    spec = tf.train.ClusterSpec({"ps": [address], "worker": {3: address}})
    assert spec.as_dict() == {"ps": [address], "worker": {3: address}}
    assert tf.train.ClusterSpec(spec.as_cluster_def()) == spec


def test_two_tasks_may_share_an_address_in_a_cluster_spec():
    """TF does not compare addresses; the second server to listen there fails to start."""
    spec = tf.train.ClusterSpec({"ps": ["localhost:2222"], "worker": ["localhost:2222"]})
    assert spec.task_address("worker", 0) == spec.task_address("ps", 0)


def test_eq():
    """ClusterSpecTest.testEq."""
    assert tf.train.ClusterSpec({}) == tf.train.ClusterSpec({})
    assert tf.train.ClusterSpec({"job": ["host:2222"]}) == \
        tf.train.ClusterSpec({"job": ["host:2222"]})
    assert tf.train.ClusterSpec({"job": {0: "host:2222"}}) == \
        tf.train.ClusterSpec({"job": ["host:2222"]})


def test_ne():
    """ClusterSpecTest.testNe."""
    assert tf.train.ClusterSpec({}) != tf.train.ClusterSpec({"job": ["host:2223"]})
    assert tf.train.ClusterSpec({"job1": ["host:2222"]}) != \
        tf.train.ClusterSpec({"job2": ["host:2222"]})
    assert tf.train.ClusterSpec({"job": ["host:2222"]}) != \
        tf.train.ClusterSpec({"job": ["host:2223"]})
    assert tf.train.ClusterSpec({"job": ["host:2222", "host:2223"]}) != \
        tf.train.ClusterSpec({"job": ["host:2223", "host:2222"]})


@pytest.mark.parametrize("cluster, words", [
    ("ps:2222", ["`cluster` must be a dictionary"]),
    ({"ps": "localhost:2222"}, ["The tasks for job 'ps' must be a list or a dictionary"]),
    ({1: ["a:1"]}, ["Job name 1 must be bytes or unicode"]),
    ({"ps": [2222]}, ["Task address 2222", "job 'ps', task 0", "must be bytes or unicode"]),
])
def test_type_errors_keep_tfs_words(cluster, words):
    """server_lib.py ClusterSpec.__init__ / _make_cluster_def: TypeError for what is not a
    dict of jobs, not a list or dict of tasks, not a string name or address."""
    with pytest.raises(TypeError) as e:
        tf.train.ClusterSpec(cluster)
    for word in words:
        assert word in str(e.value)


# == ServerDefTest (server_lib_test.py) ======================================================
def test_server_def_local_server():
    """ServerDefTest.testLocalServer: the ServerDef's text form, and the round trip
    ClusterDef -> ClusterSpec -> ClusterDef."""
    cluster_def = tf.train.ClusterSpec({"local": ["localhost:2222"]}).as_cluster_def()
    server_def = ServerDef(cluster=cluster_def, job_name="local", task_index=0,
                           protocol="grpc")
    assert str(server_def) == ("cluster {\n" + "".join(
        "  " + line + "\n" for line in local_text().splitlines()) + "}\n"
        'job_name: "local"\nprotocol: "grpc"\n')
    assert tf.train.ClusterSpec(cluster_def).as_cluster_def() == cluster_def


def test_server_def_two_processes():
    """ServerDefTest.testTwoProcesses."""
    cluster_def = tf.train.ClusterSpec({"local": ["localhost:2222", "localhost:2223"]}) \
        .as_cluster_def()
    server_def = ServerDef(cluster=cluster_def, job_name="local", task_index=1,
                           protocol="grpc")
    assert cluster_def == ClusterDef([JobDef("local", {0: "localhost:2222",
                                                       1: "localhost:2223"})])
    assert str(server_def).endswith('job_name: "local"\ntask_index: 1\nprotocol: "grpc"\n')
    assert tf.train.ClusterSpec(cluster_def).as_cluster_def() == cluster_def


def test_server_def_two_jobs():
    """ServerDefTest.testTwoJobs."""
    cluster_def = tf.train.ClusterSpec({"ps": ["ps0:2222", "ps1:2222"],
                                        "worker": ["worker0:2222", "worker1:2222",
                                                   "worker2:2222"]}).as_cluster_def()
    server_def = ServerDef(cluster=cluster_def, job_name="worker", task_index=2,
                           protocol="grpc")
    assert str(server_def) == "cluster {\n" + "".join(
        "  " + line + "\n" for line in TWO_JOBS_TEXT.splitlines()) + "}\n" + \
        'job_name: "worker"\ntask_index: 2\nprotocol: "grpc"\n'
    assert tf.train.ClusterSpec(cluster_def).as_cluster_def() == cluster_def


def test_server_def_dense_and_sparse_jobs():
    """ServerDefTest.testDenseAndSparseJobs."""
    cluster_def = tf.train.ClusterSpec({"ps": ["ps0:2222", "ps1:2222"],
                                        "worker": {0: "worker0:2222", 2: "worker2:2222"}}) \
        .as_cluster_def()
    assert cluster_def.job[1] == JobDef("worker", {0: "worker0:2222", 2: "worker2:2222"})
    assert '    key: 2\n    value: "worker2:2222"' in str(cluster_def)
    assert "key: 1\n    value: \"worker" not in str(cluster_def)
    assert tf.train.ClusterSpec(cluster_def).as_cluster_def() == cluster_def
    assert tf.train.ClusterSpec(cluster_def).as_dict()["worker"] == {0: "worker0:2222",
                                                                     2: "worker2:2222"}


# == Server: its definition, configuration and the addresses it starts with ==================
def test_set_configuration():
    """GrpcServerTest.testSetConfiguration: create_local_server(config=...) and
    Server(server_def, config=...) keep the config as the ServerDef's default session config
    (a simulated GPU has no memory to share: the field is only kept)."""
    config = tf.ConfigProto(gpu_options=tf.GPUOptions(per_process_gpu_memory_fraction=0.1))
    server = tf.train.Server.create_local_server(config=config, start=False)
    try:
        assert server.server_def.default_session_config.gpu_options \
            .per_process_gpu_memory_fraction == 0.1
    finally:
        server.stop()
    cluster_def = tf.train.ClusterSpec({"localhost": ["localhost:0"]}).as_cluster_def()
    server_def = ServerDef(cluster=cluster_def, job_name="localhost", task_index=0,
                           protocol="grpc")
    server = tf.train.Server(server_def, config=config, start=False)
    try:
        assert server.server_def.default_session_config.gpu_options \
            .per_process_gpu_memory_fraction == 0.1
        assert server_def.default_session_config is None     # TF merges into a copy
    finally:
        server.stop()


def test_create_local_server_is_job_local():
    """server_lib.py create_local_server (1.15): one task of job "local" at localhost:0."""
    server = tf.train.Server.create_local_server()
    try:
        assert server.server_def.job_name == "local"
        assert str(server.server_def) == "cluster {\n" + "".join(
            "  " + line + "\n" for line in local_text("localhost:0").splitlines()) + "}\n" + \
            'job_name: "local"\nprotocol: "grpc"\n'
        with tf.Session(server.target) as sess:
            assert sess.list_devices()[0] == "/job:local/replica:0/task:0/device:CPU:0"
    finally:
        server.stop()


def test_invalid_hostname():
    """GrpcServerTest.testInvalidHostname: an address without a port fails when the server
    starts, with an InvalidArgumentError about the port -- which names the task and what to
    write."""
    with pytest.raises(tf.errors.InvalidArgumentError, match="port") as e:
        tf.train.Server({"local": ["localhost"]}, job_name="local", task_index=0)
    assert str(e.value) == (
        'Could not parse port for local server from "localhost": the ClusterSpec\'s address '
        "of job 'local', task 0 (/job:local/replica:0/task:0) is 'localhost'; an address must "
        "be 'host:port' with a port number, e.g. 'localhost:2222' or 'localhost:0' for any "
        "free port.")


@pytest.mark.parametrize("address, words", [
    ("host:port", ["Could not interpret \"host:port\" as a host-port pair",
                   "job 'ps', task 1 (/job:ps/replica:0/task:1)", "with a port number"]),
    ("grpc://localhost:2222", ["write 'localhost:2222', without the protocol prefix"]),
    ("local/host:2222", ["cannot hold a '/'"]),
    ("localhost:70000", ["a port is a number in 0..65535"]),
])
def test_every_address_of_the_cluster_is_read_when_a_server_starts(address, words):
    """grpc_channel.cc ValidateHostPortPair, run by GrpcServer::Init for every task: a server
    does not start in a cluster where another task's address has no port to dial."""
    spec = tf.train.ClusterSpec({"ps": {1: address}, "worker": ["localhost:0"]})
    with pytest.raises(tf.errors.InvalidArgumentError) as e:
        tf.train.Server(spec, job_name="worker", task_index=0)
    for word in words:
        assert word in str(e.value), (word, str(e.value))


def test_an_address_that_cannot_be_bound_names_the_task():
    """TF fails with UnknownError 'Could not start gRPC server'; the sandbox's server listens at
    the host of its address, so a host that is not this machine cannot be listened at."""
    with pytest.raises(tf.errors.UnknownError) as e:
        tf.train.Server({"ps": ["host.invalid:2222"]})
    text = str(e.value)
    assert text.startswith("Could not start the server of job 'ps', task 0 "
                           "(/job:ps/replica:0/task:0) at host.invalid:2222")
    assert "must be this machine" in text


def test_two_servers_same_port():
    """GrpcServerTest.testTwoServersSamePort: a server at the address of a running one fails
    with UnknownError, which says the port is in use."""
    server = tf.train.Server.create_local_server()
    try:
        with pytest.raises(tf.errors.UnknownError, match="in use.*another server") as e:
            tf.train.Server({"local_2": [server.target[len("grpc://"):]]})
        assert "job 'local_2', task 0" in str(e.value)
    finally:
        server.stop()


def test_job_and_task_not_in_the_cluster():
    """grpc_server_lib.cc GetPort: an unknown job is an InternalError, an unknown task an
    InvalidArgumentError (TF's types and first words); both list what the cluster has."""
    spec = tf.train.ClusterSpec({"ps": ["localhost:0"], "worker": ["localhost:0"] * 2})
    with pytest.raises(tf.errors.InternalError, match=r'^Job "chief" was not defined in '
                                                      r"cluster: its jobs are \['ps', 'worker'\]"):
        tf.train.Server(spec, job_name="chief", task_index=0, start=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r'^Task 3 was not defined in job '
                                                             r'"worker": its tasks are \[0, 1\]'):
        tf.train.Server(spec, job_name="worker", task_index=3, start=False)
    with pytest.raises(ValueError, match="No such job in cluster: 'chief'"):
        tf.train.Server(spec, job_name="chief", start=False)        # _make_server_def


def test_unknown_protocol():
    """server_lib.cc NewServer: NotFoundError 'No server factory registered ...'."""
    with pytest.raises(tf.errors.NotFoundError, match="No server factory registered.*"
                                                      "'grpc\\+verbs'.*use 'grpc'"):
        tf.train.Server({"local": ["localhost:0"]}, protocol="grpc+verbs", start=False)


def test_a_task_that_cannot_be_dialled_names_its_address():
    """The first connection to a task that is not there: UnavailableError naming the task and
    its address, and what to check."""
    port = free_port()
    spec = tf.train.ClusterSpec({"ps": [f"localhost:{port}"], "worker": ["localhost:0"]})
    worker = tf.train.Server(spec, job_name="worker", task_index=0)
    try:
        with pytest.raises(tf.errors.UnavailableError) as e:
            worker._impl.peers.call("/job:ps/replica:0/task:0", "Ping")
        assert str(e.value).startswith(f"/job:ps/replica:0/task:0 at localhost:{port} is "
                                       "unavailable")
        assert f"is localhost:{port} its address in the ClusterSpec?" in str(e.value)
    finally:
        worker.stop()
