"""tf.summary ops (serialized Summary protos), the TF 0.x aliases, tf.app.run and tf.flags."""
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from tensorboardX.proto import summary_pb2

import sandbox as tf
from sandbox import flags as flags_module

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def parse(serialized):
    assert isinstance(serialized, bytes)
    return summary_pb2.Summary.FromString(serialized)


# -- scalar / histogram / merge ---------------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(value=st.floats(-1e6, 1e6, allow_nan=False, width=32))
def test_scalar_summary_value(value):
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [])
    s = tf.summary.scalar("loss", x)
    assert s.dtype == tf.string and s.get_shape().as_list() == []
    with tf.Session() as sess:
        summary = parse(sess.run(s, {x: value}))
    assert len(summary.value) == 1
    assert summary.value[0].tag == "loss"
    assert summary.value[0].simple_value == np.float32(value)


def test_scalar_summary_tags_follow_name_scopes():
    a = tf.summary.scalar("loss", tf.constant(1.0))
    b = tf.summary.scalar("loss", tf.constant(2))
    with tf.name_scope("train"):
        c = tf.summary.scalar("accuracy", tf.constant(0.5, tf.float64))
    d = tf.summary.scalar("bad name!", tf.constant(3.0))
    e = tf.summary.scalar("lr", tf.constant(4.0), family="hyper")
    assert [t.op.name for t in (a, b, c, d, e)] == [
        "loss", "loss_1", "train/accuracy", "bad_name_", "hyper/lr"]
    assert all(t.op.type == "ScalarSummary" for t in (a, b, c, d, e))
    with tf.Session() as sess:
        values = [parse(v).value[0] for v in sess.run([a, b, c, d, e])]
    assert [v.tag for v in values] == ["loss", "loss_1", "train/accuracy", "bad_name_",
                                       "hyper/hyper/lr"]
    assert [v.simple_value for v in values] == [1.0, 2.0, 0.5, 3.0, 4.0]


def test_scalar_summary_of_a_vector_fails_when_run():
    s = tf.summary.scalar("v", tf.constant([1.0, 2.0]))
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="tags and values not the same shape"):
        sess.run(s)


def _tf_histogram(values):
    """TF's default buckets and encoding, written out plainly (a slow reference)."""
    positive, v = [], 1e-12
    while v < 1e20:
        positive.append(v)
        v *= 1.1
    positive.append(np.finfo(np.float64).max)
    limits = [-x for x in reversed(positive)] + [0.0] + positive
    counts = [0] * len(limits)
    for x in values:
        counts[int(np.searchsorted(limits, x, side="right"))] += 1
    out_limits, out_counts, i = [], [], 0
    while i < len(counts):
        end, count = limits[i], counts[i]
        i += 1
        if count <= 0:
            while i < len(counts) and counts[i] <= 0:
                end, count = limits[i], counts[i]
                i += 1
        out_limits.append(end)
        out_counts.append(count)
    return out_limits, out_counts


@settings(max_examples=25, deadline=None)
@given(values=st.lists(st.floats(-1e3, 1e3, allow_nan=False, width=32), min_size=1,
                       max_size=30))
def test_histogram_summary(values):
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None])
    h = tf.summary.histogram("weights", x)
    assert h.op.type == "HistogramSummary"
    values = np.array(values, dtype=np.float32)
    with tf.Session() as sess:
        summary = parse(sess.run(h, {x: values}))
    (value,) = summary.value
    assert value.tag == "weights"
    histo = value.histo
    v64 = values.astype(np.float64)
    assert histo.num == len(values)
    assert histo.min == v64.min() and histo.max == v64.max()
    np.testing.assert_allclose(histo.sum, v64.sum(), rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(histo.sum_squares, v64.dot(v64), rtol=1e-12)
    limits, counts = _tf_histogram(v64)
    assert list(histo.bucket_limit) == limits
    assert list(histo.bucket) == counts
    assert sum(histo.bucket) == len(values)


def test_histogram_of_nan_fails():
    h = tf.summary.histogram("w", tf.constant([1.0, np.nan]))
    with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                             match="Nan in summary histogram for: w"):
        sess.run(h)


def test_merge_and_merge_all():
    assert tf.summary.merge_all() is None
    x = tf.placeholder(tf.float32, [3])
    a = tf.summary.scalar("a", tf.reduce_mean(x))
    h = tf.summary.histogram("h", x)
    other = tf.summary.scalar("other", tf.constant(7.0), collections=["mine"])
    merged = tf.summary.merge_all()
    assert merged.op.name == "Merge/MergeSummary" and merged.dtype == tf.string
    assert other not in tf.get_collection(tf.GraphKeys.SUMMARIES)
    assert tf.get_collection("mine") == [other]
    assert tf.get_collection(tf.GraphKeys.SUMMARIES) == [a, h]     # merge adds nothing
    mine = tf.summary.merge_all(key="mine")
    both = tf.summary.merge([merged, other], name="everything")
    assert both.op.name == "everything/everything"
    with tf.Session() as sess:
        got = sess.run([merged, mine, both], {x: [1.0, 2.0, 3.0]})
    m = parse(got[0])
    assert [v.tag for v in m.value] == ["a", "h"]
    assert m.value[0].simple_value == 2.0
    assert m.value[1].histo.num == 3
    assert [v.tag for v in parse(got[1]).value] == ["other"]
    assert [v.tag for v in parse(got[2]).value] == ["a", "h", "other"]
    assert parse(got[2]).value[2].simple_value == 7.0


def test_merge_all_scope_and_duplicate_tags():
    with tf.name_scope("train"):
        tf.summary.scalar("loss", tf.constant(1.0))
    with tf.name_scope("test"):
        tf.summary.scalar("loss", tf.constant(2.0))
    train_only = tf.summary.merge_all(scope="train")
    with tf.Session() as sess:
        assert [v.tag for v in parse(sess.run(train_only)).value] == ["train/loss"]
        dup = tf.summary.merge([tf.summary.scalar("x", 1.0, collections=[]),
                                tf.scalar_summary("x", 2.0, collections=[])])
        with pytest.raises(tf.errors.InvalidArgumentError, match="Duplicate tag x"):
            sess.run(dup)


def test_tf0_aliases():
    assert {"scalar_summary", "histogram_summary", "merge_summary",
            "merge_all_summaries"} <= set(dir(tf))
    assert tf.merge_all_summaries() is None
    s = tf.scalar_summary(["a", "b"], tf.constant([1.0, 2.0]))
    h = tf.histogram_summary("hist", tf.constant([1.0, 2.0, 3.0]), name="my_hist")
    assert s.op.name == "ScalarSummary" and h.op.name == "my_hist"
    merged = tf.merge_all_summaries()
    assert merged.op.name == "MergeSummary/MergeSummary"
    with tf.Session() as sess:
        out = parse(sess.run(merged))
        assert [(v.tag, v.simple_value) for v in out.value[:2]] == [("a", 1.0), ("b", 2.0)]
        assert out.value[2].tag == "hist" and out.value[2].histo.num == 3
        with pytest.raises(tf.errors.InvalidArgumentError, match="not the same shape"):
            sess.run(tf.scalar_summary(["a", "b", "c"], tf.constant([1.0, 2.0])))


# -- flags -------------------------------------------------------------------------------------

def make_flags():
    fv = flags_module.FlagValues()
    flags_module.DEFINE_string("job_name", "", "ps or worker", flag_values=fv)
    flags_module.DEFINE_integer("task_index", 0, "task index", flag_values=fv)
    flags_module.DEFINE_float("learning_rate", 0.01, "learning rate", flag_values=fv)
    flags_module.DEFINE_boolean("sync", False, "synchronous training", flag_values=fv)
    flags_module.DEFINE_bool("verbose", True, "talk", flag_values=fv)
    flags_module.DEFINE_list("ps_hosts", "localhost:2222", "ps hosts", flag_values=fv)
    flags_module.DEFINE_enum("mode", "train", ["train", "eval"], "mode", flag_values=fv)
    return fv


def test_flag_defaults_and_parsing():
    fv = make_flags()
    rest = fv(["prog", "--job_name=ps", "--task_index", "3", "-learning_rate=0.5", "--sync",
               "--noverbose", "--ps_hosts=a:1,b:2", "--mode", "eval", "positional",
               "--unknown=1"], known_only=True)
    assert rest == ["prog", "positional", "--unknown=1"]
    assert fv.job_name == "ps" and fv.task_index == 3 and fv.learning_rate == 0.5
    assert fv.sync is True and fv.verbose is False
    assert fv.ps_hosts == ["a:1", "b:2"] and fv.mode == "eval"
    fv = make_flags()
    fv(["prog"])
    assert fv.flag_values_dict() == {"job_name": "", "task_index": 0, "learning_rate": 0.01,
                                     "sync": False, "verbose": True,
                                     "ps_hosts": ["localhost:2222"], "mode": "train"}


@pytest.mark.parametrize("arg,value", [("--sync=true", True), ("--sync=false", False),
                                       ("--sync=1", True), ("--sync=0", False),
                                       ("--nosync", False), ("--sync", True)])
def test_bool_flag_forms(arg, value):
    fv = make_flags()
    fv(["prog", arg])
    assert fv.sync is value


def test_flag_errors():
    fv = make_flags()
    with pytest.raises(flags_module.IllegalFlagValueError, match="task_index"):
        fv(["prog", "--task_index=abc"])
    with pytest.raises(flags_module.IllegalFlagValueError, match="one of"):
        make_flags()(["prog", "--mode=predict"])
    with pytest.raises(flags_module.IllegalFlagValueError, match="sync"):
        make_flags()(["prog", "--sync=maybe"])
    with pytest.raises(flags_module.UnrecognizedFlagError, match="--bogus"):
        make_flags()(["prog", "--bogus=1"])
    with pytest.raises(flags_module.DuplicateFlagError, match="job_name"):
        flags_module.DEFINE_string("job_name", "x", "again", flag_values=fv)
    with pytest.raises(AttributeError, match="nope"):
        fv.nope
    flags_module.DEFINE_integer("n", 1, "n", lower_bound=0, flag_values=fv)
    with pytest.raises(flags_module.IllegalFlagValueError, match="not >= 0"):
        fv(["prog", "--n=-5"])


def test_flags_parse_lazily_from_sys_argv(monkeypatch):
    fv = make_flags()
    monkeypatch.setattr(sys, "argv", ["prog", "--task_index=7", "--other"])
    assert not fv.is_parsed()
    assert fv.task_index == 7                     # first access parses sys.argv
    assert fv.is_parsed()
    fv.task_index = 9                             # flags can be set
    assert fv.task_index == 9
    assert getattr(fv, "__flags")["task_index"] == 9   # TF <= 1.4's FLAGS.__flags


def test_namespaces():
    assert tf.app.flags is tf.flags
    assert tf.flags.FLAGS is tf.app.flags.FLAGS
    for name in ("DEFINE_string", "DEFINE_integer", "DEFINE_float", "DEFINE_boolean",
                 "DEFINE_bool", "DEFINE_list"):
        assert callable(getattr(tf.flags, name))


PROGRAM = textwrap.dedent("""
    import sys
    import sandbox as tf
    flags = tf.app.flags
    flags.DEFINE_string("job_name", "", "ps or worker")
    flags.DEFINE_integer("task_index", 0, "Index of task within the job")
    flags.DEFINE_boolean("sync", False, "Synchronous updates")
    FLAGS = flags.FLAGS

    def main(argv):
        print(repr((FLAGS.job_name, FLAGS.task_index, FLAGS.sync, argv[1:])))
        return 3 if FLAGS.job_name == "fail" else None

    if __name__ == "__main__":
        tf.app.run()
""")


def run_program(tmp_path, *args):
    path = tmp_path / "prog.py"
    path.write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=REPO + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True,
                          env=env, timeout=60)


def test_app_run_subprocess(tmp_path):
    done = run_program(tmp_path, "--job_name=worker", "--task_index", "2", "--sync", "extra",
                       "--unknown_flag=1")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == repr(("worker", 2, True, ["extra", "--unknown_flag=1"]))
    assert run_program(tmp_path, "--job_name=fail").returncode == 3
    bad = run_program(tmp_path, "--task_index=two")
    assert bad.returncode == 1 and "FATAL Flags parsing error" in bad.stderr
    helped = run_program(tmp_path, "--help")
    assert helped.returncode == 0
    assert "--job_name: ps or worker" in helped.stdout and "--[no]sync" in helped.stdout
    assert "(default: 0)" in helped.stdout


def test_app_run_in_process(monkeypatch):
    fv = make_flags()
    monkeypatch.setattr(flags_module, "FLAGS", fv)
    seen = []

    def main(argv):
        seen.append((list(argv), fv.job_name))
        return 0
    with pytest.raises(SystemExit) as exit_info:
        tf.app.run(main=main, argv=["prog", "--job_name=ps", "rest"])
    assert exit_info.value.code == 0
    assert seen == [(["prog", "rest"], "ps")]
