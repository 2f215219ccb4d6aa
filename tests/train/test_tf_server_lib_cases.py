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
import threading
import time

import numpy as np
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
                                         r"\['ps', 'worker', 'sparse'\]$"):
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
            assert sess.list_devices()[0].name == "/job:local/replica:0/task:0/device:CPU:0"
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


# == GrpcServerTest (server_lib_test.py): sessions on a local server =========================
@pytest.fixture(scope="module")
def cached_server():
    """GrpcServerTest's `self._cached_server = server_lib.Server.create_local_server()`."""
    server = tf.train.Server.create_local_server()
    yield server
    server.stop()


def rpc_config():
    """GrpcServerTest._useRPCConfig: the client's requests go through the master's socket even
    though the master is in this process."""
    return tf.ConfigProto(rpc_options=tf.RPCOptions(use_rpc_for_inprocess_master=True))


def test_run_step(cached_server):
    """GrpcServerTest.testRunStep."""
    with tf.Session(cached_server.target) as sess:
        c = tf.constant([[2, 1]])
        d = tf.constant([[1], [2]])
        e = tf.matmul(c, d)
        assert sess.run(e).tolist() == [[4]]


def test_multiple_sessions(cached_server):
    """GrpcServerTest.testMultipleSessions."""
    e = tf.matmul(tf.constant([[2, 1]]), tf.constant([[1], [2]]))
    sess_1 = tf.Session(cached_server.target)
    sess_2 = tf.Session(cached_server.target)
    assert sess_1.run(e).tolist() == [[4]]
    assert sess_2.run(e).tolist() == [[4]]
    sess_1.close()
    sess_2.close()


def test_reset_fails(cached_server):
    """GrpcServerTest.testResetFails: an unknown target is a NotFoundError, a target with no
    server times out with the config's operation_timeout_in_ms, and resetting a container
    nobody uses leaves the variables as they were (the sessions are closed, as TF's
    Master::Reset closes them)."""
    with tf.container("test0"):
        v0 = tf.Variable(1.0, name="v0")
    v1 = tf.Variable(2.0, name="v1")
    with pytest.raises(tf.errors.NotFoundError, match="No session factory registered"):
        tf.Session.reset("nonexistent", ["test0"])
    with pytest.raises(tf.errors.DeadlineExceededError):
        tf.Session.reset("grpc://localhost:0", ["test0"],
                         config=tf.ConfigProto(operation_timeout_in_ms=5))
    sess = tf.Session(cached_server.target)
    sess.run(tf.global_variables_initializer())
    assert sess.run(v0) == 1.0 and sess.run(v1) == 2.0
    tf.Session.reset(cached_server.target, ["test1"])
    with pytest.raises(tf.errors.AbortedError, match="Session.reset"):
        sess.run(v0)
    sess = tf.Session(cached_server.target)
    assert sess.run(v0) == 1.0 and sess.run(v1) == 2.0
    sess.close()
    tf.Session.reset(cached_server.target)                   # leave the server empty


def test_a_target_with_no_server_fails_at_once_without_a_timeout():
    """Where TF's client waits for ever for a master that is not there, the sandbox says so at
    once (with operation_timeout_in_ms it waits that long, as TF does, then
    DeadlineExceededError)."""
    port = free_port()
    with pytest.raises(tf.errors.UnavailableError, match=f"localhost:{port}"):
        with tf.Session(f"grpc://localhost:{port}") as sess:
            sess.run(tf.constant(1))
    with pytest.raises(tf.errors.DeadlineExceededError, match="operation_timeout_in_ms=300"):
        config = tf.ConfigProto(operation_timeout_in_ms=300)
        with tf.Session(f"grpc://localhost:{port}", config=config) as sess:
            sess.run(tf.constant(1))


@pytest.mark.parametrize("size", [(1000, 3000)])
def test_large_constant_fetch_and_feed(cached_server, size):
    """GrpcServerTest.testLargeConstant, testLargeFetch, testLargeFeed, through the master's
    socket (RPCOptions); 12 MB tensors instead of TF's 120 MB, which say the same here."""
    const_val = np.full(size, 0.5, dtype=np.float32)
    with tf.Session(cached_server.target, config=rpc_config()) as sess:
        assert sess.run(tf.shape(tf.constant(const_val))).tolist() == list(size)
        assert np.array_equal(sess.run(tf.fill(list(size), 0.5)), const_val)
        p = tf.placeholder(tf.float32, shape=list(size))
        min_val, max_val = sess.run([tf.reduce_min(p), tf.reduce_max(p)], {p: const_val})
        assert min_val == 0.5 and max_val == 0.5
        assert type(sess._runtime.peers).__name__ == "Peers"       # a socket, not a call
    with tf.Session(cached_server.target) as sess:
        assert type(sess._runtime.peers).__name__ == "InProcessMaster"


def test_close_cancels_blocking_operation(cached_server):
    """GrpcServerTest.testCloseCancelsBlockingOperation: TF's words, 'Session::Close'."""
    sess = tf.Session(cached_server.target, config=rpc_config())
    q = tf.FIFOQueue(10, [tf.float32])
    enqueue_op = q.enqueue(37.0)
    dequeue_t = q.dequeue()
    sess.run(enqueue_op)
    sess.run(dequeue_t)
    failures = []

    def blocking_dequeue():
        try:
            sess.run(dequeue_t)
        except tf.errors.CancelledError as e:
            failures.append(e)

    thread = threading.Thread(target=blocking_dequeue)
    thread.start()
    time.sleep(0.5)
    sess.close()
    thread.join(10)
    assert not thread.is_alive()
    assert len(failures) == 1 and "Session::Close" in failures[0].message


def test_interactive_session(cached_server):
    """GrpcServerTest.testInteractiveSession."""
    sess = tf.InteractiveSession(cached_server.target)
    c = tf.constant(42.0)
    assert c.eval() == 42.0
    sess.close()


def test_timeout_raises_exception(cached_server):
    """GrpcServerTest.testTimeoutRaisesException."""
    q = tf.FIFOQueue(1, [tf.float32])
    blocking_t = q.dequeue()
    for config in (None, rpc_config()):
        with tf.Session(cached_server.target, config=config) as sess:
            with pytest.raises(tf.errors.DeadlineExceededError):
                sess.run(blocking_t, options=tf.RunOptions(timeout_in_ms=1000))


def test_extend_after_queue_runners(cached_server):
    """GrpcServerTest.testExtendAfterQueueRunners: the graph grows after queue runners
    started (input_producer is a queue and a QueueRunner that fills it; the sandbox has no
    input_producer, so the test builds those two itself)."""
    with tf.Session(cached_server.target) as sess:
        queue = tf.FIFOQueue(32, [tf.float32], shapes=[[]])
        tf.train.add_queue_runner(tf.train.QueueRunner(queue, [queue.enqueue(0.0)]))
        var = tf.Variable(1.0, dtype=tf.float32, trainable=False, name="var")
        sess.run(tf.global_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        sess.run(var.assign(3.0))
        assert sess.run(var) == 3.0
        coord.request_stop()
        sess.run(queue.close(cancel_pending_enqueues=True))
        coord.join(threads)
    tf.Session.reset(cached_server.target)


def test_isolate_session_state(cached_server):
    """GrpcServerTest.testIsolateSessionState."""
    init_value = tf.placeholder(tf.int32)
    v = tf.Variable(init_value, validate_shape=False, name="v")
    sharing_config = tf.ConfigProto(isolate_session_state=False)
    sharing_sess_0 = tf.Session(cached_server.target, config=sharing_config)
    sharing_sess_1 = tf.Session(cached_server.target, config=sharing_config)
    isolate_config = tf.ConfigProto(isolate_session_state=True)
    isolate_sess_0 = tf.Session(cached_server.target, config=isolate_config)
    isolate_sess_1 = tf.Session(cached_server.target, config=isolate_config)
    for sess in [sharing_sess_0, sharing_sess_1, isolate_sess_0, isolate_sess_1]:
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v)
    sharing_sess_0.run(v.initializer, feed_dict={init_value: 86})
    assert sharing_sess_0.run(v) == 86 and sharing_sess_1.run(v) == 86
    for sess in (isolate_sess_0, isolate_sess_1):
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v)
    sharing_sess_1.run(v.initializer, feed_dict={init_value: [86, 99]})
    assert sharing_sess_0.run(v).tolist() == [86, 99]
    assert sharing_sess_1.run(v).tolist() == [86, 99]
    isolate_sess_0.run(v.initializer, feed_dict={init_value: 37})
    assert sharing_sess_0.run(v).tolist() == [86, 99]
    assert isolate_sess_0.run(v) == 37
    with pytest.raises(tf.errors.FailedPreconditionError):
        isolate_sess_1.run(v)
    isolate_sess_1.run(v.initializer, feed_dict={init_value: [19, 86]})
    assert sharing_sess_0.run(v).tolist() == [86, 99]
    assert isolate_sess_0.run(v) == 37
    assert isolate_sess_1.run(v).tolist() == [19, 86]
    for sess in (sharing_sess_0, sharing_sess_1, isolate_sess_0, isolate_sess_1):
        sess.close()
    tf.Session.reset(cached_server.target)


def test_shape_changing_isolate_state(cached_server):
    """GrpcServerTest.testShapeChangingIsolateState."""
    sharing_config = tf.ConfigProto(isolate_session_state=False)
    isolate_config = tf.ConfigProto(isolate_session_state=True)
    with tf.Graph().as_default():
        w_vector = tf.Variable([1, 2, 3], name="w")
        with tf.Session(cached_server.target, config=sharing_config) as sess:
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(w_vector)
            sess.run(w_vector.initializer)
            assert sess.run(w_vector).tolist() == [1, 2, 3]
    with tf.Graph().as_default():
        w_vector = tf.Variable([4, 5, 6], name="w")
        with tf.Session(cached_server.target, config=sharing_config) as sess:
            assert sess.run(w_vector).tolist() == [1, 2, 3]
            sess.run(w_vector.initializer)
            assert sess.run(w_vector).tolist() == [4, 5, 6]
    with tf.Graph().as_default():
        w_scalar = tf.Variable(86, name="w")
        with tf.Session(cached_server.target, config=sharing_config) as sess:
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(w_scalar.initializer)
    with tf.Graph().as_default():
        w_scalar = tf.Variable(37, name="w")
        with tf.Session(cached_server.target, config=isolate_config) as sess:
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(w_scalar)
            sess.run(w_scalar.initializer)
            assert sess.run(w_scalar) == 37
    tf.Session.reset(cached_server.target)


# == the single-test files of server_lib ====================================================
def test_sparse_job():
    """server_lib_sparse_job_test.py SparseJobTest.testSparseJob."""
    server = tf.train.Server({"local": {37: "localhost:0"}})
    try:
        with tf.device("/job:local/task:37"):
            a = tf.constant(1.0)
        with tf.Session(server.target) as sess:
            assert sess.run(a) == 1.0
    finally:
        server.stop()


def test_same_variables_no_clear():
    """server_lib_same_variables_no_clear_test.py: a second session finds the variables the
    first one initialized, by name."""
    server = tf.train.Server.create_local_server()
    try:
        with tf.Session(server.target) as sess_1:
            v0 = tf.Variable([[2, 1]], name="v0")
            v1 = tf.Variable([[1], [2]], name="v1")
            v2 = tf.matmul(v0, v1)
            sess_1.run([v0.initializer, v1.initializer])
            assert sess_1.run(v2).tolist() == [[4]]
        with tf.Session(server.target) as sess_2:
            new_v0 = tf.get_default_graph().get_tensor_by_name("v0:0")
            new_v1 = tf.get_default_graph().get_tensor_by_name("v1:0")
            assert sess_2.run(tf.matmul(new_v0, new_v1)).tolist() == [[4]]
    finally:
        server.stop()


def test_same_variables_clear():
    """server_lib_same_variables_clear_test.py: Session.reset(target) aborts the sessions on
    that master and frees the variables."""
    server = tf.train.Server.create_local_server()
    try:
        v0 = tf.Variable([[2, 1]], name="v0")
        v1 = tf.Variable([[1], [2]], name="v1")
        v2 = tf.matmul(v0, v1)
        sess_1 = tf.Session(server.target)
        sess_2 = tf.Session(server.target)
        sess_1.run(tf.global_variables_initializer())
        assert sess_1.run(v2).tolist() == [[4]]
        assert sess_2.run(v2).tolist() == [[4]]
        tf.Session.reset(server.target)
        with pytest.raises(tf.errors.AbortedError):
            sess_2.run(v2)
        sess_2 = tf.Session(server.target)
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess_2.run(v2)
        sess_2.run(tf.global_variables_initializer())
        assert sess_2.run(v2).tolist() == [[4]]
        sess_2.close()
    finally:
        server.stop()


def test_same_variables_clear_container():
    """server_lib_same_variables_clear_container_test.py: a task's default container is named
    after its job, so resetting container "local0" clears server0's variables only."""
    server0 = tf.train.Server({"local0": ["localhost:0"]}, protocol="grpc", start=True)
    server1 = tf.train.Server({"local1": ["localhost:0"]}, protocol="grpc", start=True)
    try:
        with tf.Graph().as_default():
            v0 = tf.Variable(1.0, name="v0")
            v1 = tf.Variable(2.0, name="v0")
            sess_0 = tf.Session(server0.target)
            sess_1 = tf.Session(server1.target)
            sess_0.run(v0.initializer)
            sess_1.run(v1.initializer)
            assert sess_0.run(v0) == 1.0 and sess_1.run(v1) == 2.0
            tf.Session.reset(server0.target, ["local0"])
            sess = tf.Session(server0.target)
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(v0)
            sess.run(v0.initializer)
            assert sess_1.run(v1) == 2.0
            tf.Session.reset(server1.target, ["local1"])
            sess = tf.Session(server1.target)
            with pytest.raises(tf.errors.FailedPreconditionError):
                sess.run(v1)
            assert tf.Session(server0.target).run(v0) == 1.0
    finally:
        server0.stop()
        server1.stop()


def test_multiple_containers():
    """server_lib_multiple_containers_test.py: tf.container puts variables in named
    containers; resetting one aborts the sessions and clears that container only."""
    with tf.container("test0"):
        v0 = tf.Variable(1.0, name="v0")
    with tf.container("test1"):
        v1 = tf.Variable(2.0, name="v0")
    assert v0.op.get_attr("container") == "test0" and v1.op.get_attr("container") == "test1"
    server = tf.train.Server.create_local_server()
    try:
        sess = tf.Session(server.target)
        sess.run(tf.global_variables_initializer())
        assert sess.run(v0) == 1.0 and sess.run(v1) == 2.0
        tf.Session.reset(server.target, ["test0"])
        with pytest.raises(tf.errors.AbortedError):
            sess.run(v1)
        sess = tf.Session(server.target)
        with pytest.raises(tf.errors.FailedPreconditionError):
            sess.run(v0)
        assert sess.run(v1) == 2.0
    finally:
        server.stop()


def test_create_local_cluster():
    """localhost_cluster_performance_test.py CreateLocalClusterTest: tf.test.create_local_cluster
    starts 2 workers and 2 ps servers of one cluster in this process; variables initialized
    through one worker are read through the other. Negative counts are refused (TF's quietly
    start no server)."""
    with pytest.raises(ValueError, match="num_ps must be an int >= 0, got -1"):
        tf.test.create_local_cluster(num_workers=1, num_ps=-1)
    workers, ps_servers = tf.test.create_local_cluster(num_workers=2, num_ps=2)
    try:
        cluster = workers[0].server_def.cluster
        assert [s.server_def.job_name for s in workers + ps_servers] == ["worker"] * 2 + ["ps"] * 2
        assert [s.server_def.cluster for s in workers + ps_servers] == [cluster] * 4
        assert len({s.target for s in workers + ps_servers}) == 4
        worker_sessions = [tf.Session(w.target) for w in workers]
        with tf.device("/job:ps/task:0"):
            var0 = tf.Variable(0.0)
        with tf.device("/job:ps/task:1"):
            var1 = tf.Variable(1.0)
        worker_sessions[0].run([var0.initializer, var1.initializer])
        with tf.device("/job:ps/task:0"):
            var2 = tf.Variable(2.0)
        with tf.device("/job:ps/task:1"):
            var3 = tf.Variable(3.0)
        worker_sessions[1].run([var2.initializer, var3.initializer])
        assert var0.eval(session=worker_sessions[1]) == 0.0
        assert var1.eval(session=worker_sessions[1]) == 1.0
        assert var2.eval(session=worker_sessions[0]) == 2.0
        assert var3.eval(session=worker_sessions[0]) == 3.0
        for sess in worker_sessions:
            sess.close()
    finally:
        for server in workers + ps_servers:
            server.stop()


# == session.py: what tf.Session takes, as TF takes it =========================================
def test_session_targets_and_arguments_as_tf_takes_them(cached_server):
    """session.py BaseSession.__init__: a target may be bytes or None (the local runtime), a
    ConfigProto given as the target gets TF's hint, a graph must be a tf.Graph; a target no
    runtime serves is a NotFoundError (session.py / TF_NewSession)."""
    with tf.Session(cached_server.target.encode()) as sess:
        assert sess.run(tf.constant(2)) == 2
    with tf.Session(None) as sess:
        assert sess.run(tf.constant(3)) == 3 and sess.sess_str == ""
    with pytest.raises(TypeError, match=r'Did you do "Session\(config\)" instead of '
                                        r'"Session\(config=config\)"\?'):
        tf.Session(tf.ConfigProto())
    with pytest.raises(TypeError, match="graph must be a tf.Graph, but got <class 'int'>"):
        tf.Session(graph=3)
    with pytest.raises(TypeError, match="config must be a tf.ConfigProto, but got <class "
                                        "'int'>"):
        tf.Session(config=3)
    with pytest.raises(tf.errors.NotFoundError, match='^No session factory registered for the '
                                                      'given session options: {target: '
                                                      '"nonexistent"}'):
        tf.Session("nonexistent")


def test_list_devices_gives_tfs_device_attributes(cached_server):
    """session.py list_devices: objects with name, device_type, memory_limit_bytes and
    incarnation (which still compare equal to the names)."""
    with tf.Session(cached_server.target) as sess:
        devices = sess.list_devices()
    assert [(d.name, d.device_type) for d in devices] == \
        [("/job:local/replica:0/task:0/device:CPU:0", "CPU")]
    assert devices[0] == "/job:local/replica:0/task:0/device:CPU:0"
    with tf.Session(config=tf.ConfigProto(device_count={"GPU": 1})) as sess:
        assert [d.device_type for d in sess.list_devices()] == ["CPU", "GPU"]
        assert "_DeviceAttributes(/job:localhost/replica:0/task:0/device:GPU:0, GPU" in \
            repr(sess.list_devices()[1])


def test_make_callable_takes_a_list_or_tuple_of_feeds():
    """session.py make_callable: TF's TypeError for a feed_list that is neither."""
    x = tf.placeholder(tf.float32, [])
    y = x * 2.0
    with tf.Session() as sess:
        assert sess.make_callable(y, (x,))(3.0) == 6.0
        assert sess.make_callable([y, {"a": y}], [x])(2.0) == [4.0, {"a": 4.0}]
        with pytest.raises(TypeError, match="^`feed_list` must be a list or tuple.$"):
            sess.make_callable(y, x)


def test_a_stopped_server_does_not_start_again():
    """grpc_server_lib.cc GrpcServer::Start: 'Server has stopped.' (FailedPrecondition)."""
    server = tf.train.Server.create_local_server()
    server.start()                                   # already started: nothing to do
    server.stop()
    with pytest.raises(tf.errors.FailedPreconditionError, match="^Server has stopped: "
                                                                "/job:local/replica:0/task:0"):
        server.start()
