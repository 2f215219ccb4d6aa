"""The benchmarks' helpers that need no cluster: the CPU stolen by the hypervisor."""
import os

import pytest

from bench.common import cpu_ticks, steal_row, stolen_share


def test_stolen_share_is_steal_over_all_ticks_spent():
    before = [100, 0, 50, 800, 0, 0, 0, 50, 0, 0]
    after = [200, 0, 100, 1500, 0, 0, 0, 150, 0, 0]
    assert stolen_share(before, after) == pytest.approx(100 / 950)


def test_stolen_share_unknown_without_counters_or_time():
    assert stolen_share(None, [1] * 8) is None
    assert stolen_share([1, 2, 3], [4, 5, 6]) is None          # no steal column
    assert stolen_share([5] * 8, [5] * 8) is None               # no time went by


@pytest.mark.skipif(not os.path.exists("/proc/stat"), reason="Linux only")
def test_cpu_ticks_reads_the_machine_counters():
    ticks = cpu_ticks()
    assert len(ticks) >= 8 and all(isinstance(t, int) and t >= 0 for t in ticks)
    share = stolen_share(ticks, [t + 1 for t in ticks])
    assert share == pytest.approx(1 / len(ticks))


def test_steal_row_shows_the_median_and_each_turn():
    row = steal_row([0.10, None, 0.30, 0.02], "the turns")
    assert row["sandbox"] == "median 10%"
    assert row["ratio"] == "turns: 10%, 30%, 2%"
    assert row["ok"] is None                                    # informative, no bar
    assert steal_row([None], "the turns")["sandbox"] == "unknown"
