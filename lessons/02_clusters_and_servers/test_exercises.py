"""Checks of lesson 2's exercises (run: pytest lessons/02_clusters_and_servers; add
--solutions to check the reference solutions). The fixtures come from the sandbox.testing
plugin: run_tasks runs a program once per task, as the launcher does."""
import re

def test_join_every_worker_sees_the_ps_and_itself(exercise, run_tasks):
    runs = run_tasks(exercise("exercise_1_join_the_cluster.py"), ps=1, worker=2, timeout=60)
    for index in (0, 1):
        run = runs["worker", index]
        assert run.returncode == 0, run.stderr[-2000:]
        seen = re.search(r"worker %d sees (\[.*\])" % index, run.stdout)
        assert seen, run.stdout
        expected = ["/job:ps/replica:0/task:0/device:CPU:0",
                    "/job:worker/replica:0/task:%d/device:CPU:0" % index]
        assert seen.group(1) == str(expected), (
            f"worker {index}'s session sees {seen.group(1)}: is its server a task of the "
            "ClusterSpec built from --ps_hosts and --worker_hosts?")
        assert "worker %d computes %.1f" % (index, 10.0 * (index + 1)) in run.stdout


def test_filters_worker_0_runs_without_the_dead_worker_1(exercise, run_tasks):
    runs = run_tasks(exercise("exercise_2_device_filters.py"), ps=1, worker=2, timeout=20)
    run = runs["worker", 0]
    assert run.returncode == 0, run.stderr[-2000:]
    assert "worker 0: score = 4.0" in run.stdout, run.stdout
