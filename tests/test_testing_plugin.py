"""sandbox.testing, the pytest plugin for exercise checks (issue 28): its fixtures in this suite,
and a teacher's check file outside the repository that finds them with the sandbox merely
installed -- no conftest, no PYTHONPATH -- run by pytest in its own process."""
import os
import subprocess
import sys
import textwrap

import sandbox as tf

# A TF-1 program written the tutorials' way: one script, run once per task.
PROGRAM = textwrap.dedent('''
    import sys
    import sandbox as tf
    flags = tf.app.flags
    flags.DEFINE_string("job_name", "", "ps or worker")
    flags.DEFINE_integer("task_index", 0, "index of the task in its job")
    flags.DEFINE_string("ps_hosts", "", "")
    flags.DEFINE_string("worker_hosts", "", "")
    FLAGS = flags.FLAGS

    def main(_):
        cluster = tf.train.ClusterSpec({"ps": FLAGS.ps_hosts.split(","),
                                        "worker": FLAGS.worker_hosts.split(",")})
        server = tf.train.Server(cluster, job_name=FLAGS.job_name, task_index=FLAGS.task_index)
        if FLAGS.job_name == "ps":
            server.join()
        with tf.device("/job:ps/task:0"):
            total = tf.Variable(0, name="total")
        add = tf.assign_add(total, FLAGS.task_index + 1)
        config = tf.ConfigProto(device_filters=["/job:ps", "/job:worker/task:%d" % FLAGS.task_index])
        with tf.Session(server.target, config=config) as sess:
            sess.run(tf.variables_initializer([total]) if FLAGS.task_index == 0 else [])
            print("worker %d added, total now >= %d" % (FLAGS.task_index, sess.run(add)))

    if __name__ == "__main__":
        tf.app.run()
''')


def test_local_cluster_starts_the_shape_asked_for(local_cluster):
    cluster = local_cluster(ps=1, worker=2)
    assert sorted(cluster.tasks) == ["/job:ps/replica:0/task:0", "/job:worker/replica:0/task:0",
                                     "/job:worker/replica:0/task:1"]
    with tf.device("/job:ps/task:0"):
        v = tf.Variable(1.0, name="v")
    with tf.Session(cluster.target("worker", 0)) as sess:
        sess.run(v.initializer)
        sess.run(v.assign_add(2.0))
    with tf.Session(cluster.target("worker", 1)) as sess:       # another task sees it
        assert sess.run(v) == 3.0


def test_run_tasks_runs_the_program_once_per_task(run_tasks, tmp_path):
    program = tmp_path / "student.py"
    program.write_text(PROGRAM)
    runs = run_tasks(program, ps=1, worker=1, timeout=60)
    assert runs["worker", 0].returncode == 0, runs["worker", 0].stderr[-1500:]
    assert "worker 0 added, total now >= 1" in runs["worker", 0].stdout
    assert runs["ps", 0].returncode is not None      # the ps joined forever: it was stopped
    assert set(runs) == {("ps", 0), ("worker", 0)}


def test_a_teachers_check_file_outside_the_repository_finds_the_fixtures(tmp_path):
    (tmp_path / "student.py").write_text(PROGRAM)
    (tmp_path / "test_exercise.py").write_text(textwrap.dedent('''
        import os
        import sandbox as tf

        def test_the_variable_lives_on_the_ps(local_cluster):
            cluster = local_cluster(ps=1, worker=1)
            with open("pids.txt", "w") as f:
                f.write(" ".join(str(p) for p in cluster.pids.values()))
            with tf.device("/job:ps/task:0"):
                v = tf.Variable(5, name="v")
            with tf.Session(cluster.target("worker", 0)) as sess:
                sess.run(v.initializer)
                assert sess.run(v.assign_add(1)) == 6

        def test_the_program_runs_on_two_processes(run_tasks):
            here = os.path.dirname(os.path.abspath(__file__))
            runs = run_tasks(os.path.join(here, "student.py"), ps=1, worker=1, timeout=60)
            assert "total now >= 1" in runs["worker", 0].stdout
    '''))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          "test_exercise.py"], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=180)
    assert "2 passed" in out.stdout, out.stdout[-3000:] + out.stderr[-2000:]
    for pid in (tmp_path / "pids.txt").read_text().split():      # nothing left running
        assert not os.path.exists(f"/proc/{pid}") or \
            open(f"/proc/{pid}/stat").read().split()[2] == "Z"


def test_the_exercise_fixture_checks_the_students_file_the_solution_or_a_hand_in(tmp_path):
    """`exercise(name)` finds the file to check: beside the check file (the student's), in
    solutions/ with --solutions, or in --exercise-dir; run_program runs it."""
    (tmp_path / "answer.py").write_text("print('TODO')\n")                 # the starter
    (tmp_path / "solutions").mkdir()
    (tmp_path / "solutions" / "answer.py").write_text("print(6 * 7)\n")
    (tmp_path / "hand_in").mkdir()
    (tmp_path / "hand_in" / "answer.py").write_text("print(42)\n")
    (tmp_path / "test_answer.py").write_text(textwrap.dedent('''
        def test_the_answer_is_42(exercise, run_program):
            run = run_program(exercise("answer.py"), timeout=30)
            assert run.returncode == 0 and run.stdout.strip() == "42", run.stdout

        def test_a_missing_file_is_named(exercise):
            exercise("answer.py")
            exercise("other.py")
    '''))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}

    def outcome(*options):
        out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                              "-rf", "test_answer.py", *options], cwd=tmp_path, env=env,
                             capture_output=True, text=True, timeout=120)
        return out.stdout

    starter = outcome()
    assert "2 failed" in starter, starter[-2000:]
    assert "exercise file other.py not found in" in starter
    solved = outcome("--solutions")
    assert "1 failed, 1 passed" in solved, solved[-2000:]
    assert f"not found in {tmp_path / 'solutions'}" in solved
    handed_in = outcome(f"--exercise-dir={tmp_path / 'hand_in'}")
    assert "1 failed, 1 passed" in handed_in, handed_in[-2000:]
