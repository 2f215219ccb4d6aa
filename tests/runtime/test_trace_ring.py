"""The trace ring (TraceRing in runtime/task_server.py): one record per tensor, numbered in order, bounded, with
byte totals per (kind, source, destination) that outlive the ring."""
from sandbox.runtime.task_server import TraceRing

W, PS = "/job:worker/replica:0/task:0", "/job:ps/replica:0/task:0"


def test_the_tensors_of_one_message_get_one_record_each_in_order():
    ring = TraceRing()
    ring.record("RunGraph", W, PS, "", 120, step_id=7, start=1.0, end=2.0)
    ring.record_many("recv", W, PS, [("w1", 313600), ("b1", 400)], step_id=7, start=2.0,
                     end=3.0)
    records = ring.since(0)
    assert [(r.seq, r.kind, r.tensor, r.nbytes, r.step_id) for r in records] == [
        (1, "RunGraph", "", 120, 7), (2, "recv", "w1", 313600, 7), (3, "recv", "b1", 400, 7)]
    assert records[1].start == 2.0 and records[2].end == 3.0
    assert [r.tensor for r in ring.since(2)] == ["b1"]
    assert sorted(ring.totals()) == [["RunGraph", W, PS, 120], ["recv", W, PS, 314000]]


def test_old_records_fall_off_but_totals_keep_counting():
    ring = TraceRing(capacity=3)
    for step in range(5):
        ring.record_many("send", PS, W, [("w1", 10), ("b1", 1)], step_id=step)
    assert len(ring) == 3
    assert [r.seq for r in ring.since(0)] == [8, 9, 10]
    assert ring.totals() == [["send", PS, W, 55]]


def test_an_empty_message_records_nothing_and_a_missing_time_is_now():
    ring = TraceRing()
    ring.record_many("recv", W, PS, [], step_id=1)
    assert ring.since(0) == [] and ring.totals() == []
    ring.record("Ping", W, PS)
    (r,) = ring.since(0)
    assert r.start == r.end > 0
