"""tf.train.ClusterSpec, ClusterDef and their validation (sandbox/train/cluster_spec.py).
TensorFlow's own ClusterSpec tests are restated in test_tf_server_lib_cases.py."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sandbox.train.cluster_spec import ClusterDef, ClusterSpec, JobDef

DENSE = {"worker": ["localhost:2223", "localhost:2224"], "ps": ["localhost:2222"]}
SPARSE = {"worker": {1: "localhost:2224", 3: "localhost:2226"}, "ps": ["localhost:2222"]}

PS_TEXT = '''job {
  name: "ps"
  tasks {
    key: 0
    value: "localhost:2222"
  }
}
'''


# -- construction ---------------------------------------------------------------------------
def test_dense_dict():
    c = ClusterSpec(DENSE)
    assert c.jobs == ["worker", "ps"]                 # as given, as TF keeps them
    assert [j.name for j in c.as_cluster_def().job] == ["ps", "worker"]      # sorted there
    assert c.num_tasks("worker") == 2 and c.num_tasks("ps") == 1
    assert c.task_indices("worker") == [0, 1]
    assert c.task_address("worker", 1) == "localhost:2224"
    assert c.job_tasks("worker") == ["localhost:2223", "localhost:2224"]
    assert c.as_dict() == DENSE


def test_tuple_tasks_are_dense():
    c = ClusterSpec({"ps": ("a:1", "b:2")})
    assert c.as_dict() == {"ps": ["a:1", "b:2"]}


def test_sparse_dict():
    c = ClusterSpec(SPARSE)
    assert c.num_tasks("worker") == 2
    assert c.task_indices("worker") == [1, 3]
    assert c.task_address("worker", 3) == "localhost:2226"
    assert c.job_tasks("worker") == [None, "localhost:2224", None, "localhost:2226"]
    assert c.as_dict() == SPARSE
    assert isinstance(c.as_dict()["worker"], dict) and isinstance(c.as_dict()["ps"], list)


def test_sparse_dict_that_is_dense_becomes_a_list():
    c = ClusterSpec({"worker": {1: "a:2", 0: "a:1"}})
    assert c.as_dict() == {"worker": ["a:1", "a:2"]}


def test_sparse_string_keys_as_from_json():
    c = ClusterSpec({"worker": {"0": "a:1", "2": "a:3"}})
    assert c.task_indices("worker") == [0, 2]
    assert c.task_address("worker", 2) == "a:3"


def test_numpy_integer_index_and_bytes():
    c = ClusterSpec({b"ps": {np.int64(1): b"host:5"}})
    assert c.jobs == ["ps"] and c.task_address("ps", 1) == "host:5"


def test_from_cluster_spec_is_a_copy():
    a = ClusterSpec(SPARSE)
    b = ClusterSpec(a)
    assert b == a and b is not a and b.as_dict() == SPARSE
    b._cluster_spec["ps"][0] = "changed:1"
    assert a.task_address("ps", 0) == "localhost:2222"


def test_from_cluster_def():
    cd = ClusterDef([JobDef("worker", {0: "w:1", 2: "w:3"}), JobDef("ps", {0: "p:1"})])
    c = ClusterSpec(cd)
    assert c.jobs == ["worker", "ps"]                 # the ClusterDef's order, as in TF
    assert ClusterSpec(c).jobs == ["ps", "worker"]    # a copy goes through the sorted ClusterDef
    assert c.as_dict() == {"ps": ["p:1"], "worker": {0: "w:1", 2: "w:3"}}


def test_as_cluster_def_round_trip():
    c = ClusterSpec(SPARSE)
    cd = c.as_cluster_def()
    assert isinstance(cd, ClusterDef)
    assert [j.name for j in cd.job] == ["ps", "worker"]
    assert cd.job[1] == JobDef("worker", {1: "localhost:2224", 3: "localhost:2226"})
    assert ClusterSpec(cd) == c
    cd.job[0].tasks[0] = "elsewhere:1"  # a fresh object: changing it leaves the spec alone
    assert c.task_address("ps", 0) == "localhost:2222"


def test_add_job():
    cd = ClusterDef()
    cd.add_job("ps", {0: "a:1"})
    assert ClusterSpec(cd).as_dict() == {"ps": ["a:1"]}


def test_empty_cluster_and_empty_job():
    assert not ClusterSpec({})
    assert ClusterSpec({}).jobs == [] and ClusterSpec({}).as_dict() == {}
    c = ClusterSpec({"ps": []})
    assert c  # a job, even with no tasks, makes the spec true
    assert c.num_tasks("ps") == 0 and c.task_indices("ps") == [] and c.job_tasks("ps") == []
    assert c.as_dict() == {"ps": {}}
    assert str(c.as_cluster_def()) == 'job {\n  name: "ps"\n}\n'


def test_ipv6_addresses():
    c = ClusterSpec({"ps": ["[::1]:2222", "[fe80::1%eth0]:2223", "[2001:db8::7]:80"]})
    assert c.task_address("ps", 0) == "[::1]:2222"


def test_port_zero_means_any_free_port():
    c = ClusterSpec({"localhost": ["localhost:0"], "other": ["localhost:00", "localhost:0"]})
    assert c.task_address("localhost", 0) == "localhost:0"


@pytest.mark.parametrize("address", ["localhost:2222", "127.0.0.1:1", "w-0.example.com:65535",
                                     "my_host:8080", "H:02222"])
def test_valid_addresses(address):
    assert ClusterSpec({"j": [address]}).task_address("j", 0) == address


# -- equality, bool, printing ----------------------------------------------------------------
def test_equality():
    a, b = ClusterSpec(DENSE), ClusterSpec(dict(reversed(list(DENSE.items()))))
    assert a == b and not (a != b)
    assert a != ClusterSpec(SPARSE) and not (a == ClusterSpec(SPARSE))
    assert a == DENSE and a == a.as_cluster_def()   # a dict or ClusterDef compares by content
    assert a != {"ps": ["localhost:2222"]}
    assert a != {"ps": "not a cluster"} and a != 3 and a != "x"
    assert ClusterSpec({"ps": {0: "a:1"}}) == ClusterSpec({"ps": ["a:1"]})


def test_unhashable_like_tf():
    with pytest.raises(TypeError):
        hash(ClusterSpec({}))


def test_bool():
    assert bool(ClusterSpec(DENSE)) and not bool(ClusterSpec({}))


def test_str_and_repr():
    c = ClusterSpec(SPARSE)
    expected = ("ClusterSpec({'ps': ['localhost:2222'], "
                "'worker': {1: 'localhost:2224', 3: 'localhost:2226'}})")
    assert repr(c) == expected and str(c) == expected
    assert list(c.as_dict()) == ["worker", "ps"]      # the jobs as given; repr sorts them
    assert repr(ClusterSpec({})) == "ClusterSpec({})"


# -- the text form ---------------------------------------------------------------------------
def test_cluster_def_text():
    assert str(ClusterSpec({"ps": ["localhost:2222"]}).as_cluster_def()) == PS_TEXT
    text = str(ClusterSpec(SPARSE).as_cluster_def())
    assert text == PS_TEXT + '''job {
  name: "worker"
  tasks {
    key: 1
    value: "localhost:2224"
  }
  tasks {
    key: 3
    value: "localhost:2226"
  }
}
'''
    assert str(ClusterDef()) == ""


def test_text_escapes():
    cd = ClusterDef([JobDef('a"b\\c\n', {0: "é"})])
    text = str(cd)
    assert 'name: "a\\"b\\\\c\\n"' in text and 'value: "\\303\\251"' in text


def test_no_text_parser():
    """TF programs print a ClusterDef; none parses its text form, so the sandbox has no parser
    (ClusterSpec takes a dict, a ClusterSpec or a ClusterDef)."""
    assert not hasattr(ClusterDef, "from_text")


# -- queries on unknown jobs and tasks --------------------------------------------------------
@pytest.mark.parametrize("method", ["num_tasks", "task_indices", "job_tasks"])
def test_unknown_job(method):
    with pytest.raises(ValueError, match=r"^No such job in cluster: 'x'; its jobs are "
                                         r"\['worker', 'ps'\]$"):
        getattr(ClusterSpec(DENSE), method)("x")


def test_unknown_task():
    c = ClusterSpec(SPARSE)
    with pytest.raises(ValueError, match=r"^No such job in cluster: 'x'; its jobs are"):
        c.task_address("x", 0)
    with pytest.raises(ValueError, match=r"^No task with index 3 in job 'ps'; its tasks are "
                                         r"\[0\]$"):
        c.task_address("ps", 3)
    with pytest.raises(ValueError, match=r"^No task with index 0 in job 'worker'; its tasks "
                                         r"are \[1, 3\]$"):
        c.task_address("worker", 0)
    with pytest.raises(ValueError, match="No such job"):
        c.num_tasks(["unhashable"])
    with pytest.raises(ValueError, match=r"No such job in cluster: 'pss'.*did you mean 'ps'"):
        c.num_tasks("pss")


# -- validation -------------------------------------------------------------------------------
@pytest.mark.parametrize("cluster, error, words", [
    ("ps:localhost:2222", TypeError, ["`cluster` must be a dictionary"]),
    ([("ps", ["a:1"])], TypeError, ["`cluster` must be a dictionary"]),
    ({"ps": "localhost:2222"}, TypeError, ["tasks for job 'ps'", "list or a dictionary"]),
    ({"ps": None}, TypeError, ["tasks for job 'ps'"]),
    ({1: ["a:1"]}, TypeError, ["Job name 1", "bytes or unicode"]),
    ({None: ["a:1"], "ps": ["b:1"]}, TypeError, ["Job name None"]),
    ({"": ["a:1"]}, ValueError, ["Job name ''", "empty"]),
    ({"my job": ["a:1"]}, ValueError, ["Job name 'my job'", "/job:"]),
    ({"ps/1": ["a:1"]}, ValueError, ["Job name 'ps/1'"]),
    ({"0ps": ["a:1"]}, ValueError, ["Job name '0ps'", "start with a letter"]),
    ({"ps": [2222]}, TypeError, ["Task address 2222", "job 'ps', task 0", "bytes or unicode"]),
    ({"ps": ["a:1", None]}, TypeError, ["Task address None", "job 'ps', task 1"]),
    ({"worker": {-1: "a:1"}}, ValueError, ["Task index -1", "job 'worker'", "non-negative"]),
    ({"worker": {"-2": "a:1"}}, ValueError, ["Task index '-2'", "job 'worker'"]),
    ({"worker": {1.0: "a:1"}}, TypeError, ["Task index 1.0", "job 'worker'", "integer"]),
    ({"worker": {"one": "a:1"}}, TypeError, ["Task index 'one'", "job 'worker'"]),
    ({"worker": {True: "a:1"}}, TypeError, ["Task index True", "job 'worker'"]),
    ({"worker": {0: "a:1", "0": "a:2"}}, ValueError, ["Task index 0 appears twice",
                                                        "job 'worker'"]),
    ({"ps": ["a:1"], b"ps": ["a:2"]}, ValueError, ["Job name 'ps' appears twice"]),
])
def test_validation_errors(cluster, error, words):
    with pytest.raises(error) as e:
        ClusterSpec(cluster)
    for word in words:
        assert word in str(e.value), (word, str(e.value))


def test_addresses_are_not_checked_here():
    """As in TF, what an address means is checked when a server starts or a task connects
    (tests/train/test_tf_server_lib_cases.py); a ClusterSpec keeps whatever string it is given."""
    odd = ["localhost", "[::1]", "::1:2222", ":2222", "bad host:2222", "grpc://localhost:2222",
           "localhost:65536", "localhost:http", "localhost:", "localhost:2222"]
    c = ClusterSpec({"ps": odd, "worker": ["localhost:2222"]})
    assert c.job_tasks("ps") == odd and c.task_address("worker", 0) == "localhost:2222"


def test_cluster_def_is_validated():
    assert ClusterSpec(ClusterDef([JobDef("ps", {0: "localhost"})])).task_address("ps", 0) == \
        "localhost"
    with pytest.raises(ValueError, match="Job name 'ps' appears twice"):
        ClusterSpec(ClusterDef([JobDef("ps", {0: "a:1"}), JobDef("ps", {0: "a:2"})]))
    with pytest.raises(TypeError, match="JobDef"):
        ClusterSpec(ClusterDef(["ps"]))
    with pytest.raises(TypeError, match=r"Task address 5 \(job 'ps', task 0\)"):
        ClusterSpec(ClusterDef([JobDef("ps", {0: 5})]))


# -- properties -------------------------------------------------------------------------------
job_names = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)


@st.composite
def clusters(draw):
    names = draw(st.lists(job_names, min_size=0, max_size=4, unique=True))
    ports = iter(draw(st.lists(st.integers(1, 65535), min_size=40, max_size=40, unique=True)))
    cluster = {}
    for name in names:
        indices = draw(st.lists(st.integers(0, 9), max_size=5, unique=True))
        tasks = {i: f"localhost:{next(ports)}" for i in indices}
        if draw(st.booleans()) and sorted(tasks) == list(range(len(tasks))):
            tasks = [tasks[i] for i in range(len(tasks))]
        cluster[name] = tasks
    return cluster


@settings(max_examples=25, deadline=None)
@given(clusters())
def test_round_trips(cluster):
    c = ClusterSpec(cluster)
    assert c.jobs == list(cluster)
    assert ClusterSpec(c.as_dict()) == c
    assert ClusterSpec(c.as_cluster_def()) == c
    assert ClusterSpec(c) == c
    for job, tasks in cluster.items():
        items = dict(enumerate(tasks)) if isinstance(tasks, list) else tasks
        assert c.num_tasks(job) == len(items)
        assert c.task_indices(job) == sorted(items)
        for i, address in items.items():
            assert c.task_address(job, i) == address
            assert c.job_tasks(job)[i] == address
        dense = bool(items) and sorted(items) == list(range(len(items)))
        assert isinstance(c.as_dict()[job], list) == dense
