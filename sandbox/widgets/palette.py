"""Colours shared by every view and picture, so that one thing keeps one colour everywhere:
a job (ps, worker, chief...), a kind of traffic (pulls, pushes...) and a run (async x3...).

Picked from matplotlib's "tab10" (readable on a projector and for the common colour-blind
vision types when paired with labels, which every view also prints).
"""

__all__ = ["JOB_COLORS", "KIND_COLORS", "RUN_COLORS", "DEAD_COLOR", "job_color", "run_color"]

JOB_COLORS = {"chief": "#2ca02c", "ps": "#ff7f0e", "worker": "#1f77b4", "evaluator": "#9467bd"}
OTHER_JOB_COLORS = ("#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf")
KIND_COLORS = {"pull": "#1f77b4", "push": "#d62728", "sync": "#9467bd", "control": "#7f7f7f",
               "other": "#8c564b"}
RUN_COLORS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
              "#7f7f7f", "#bcbd22", "#17becf")
DEAD_COLOR = "#b0b0b0"


def job_color(job):
    """The colour of a job (jobs other than the usual four get one from a fixed list, chosen
    by the job's name, so it is the same in every view)."""
    if job in JOB_COLORS:
        return JOB_COLORS[job]
    return OTHER_JOB_COLORS[sum(job.encode()) % len(OTHER_JOB_COLORS)]


def run_color(index):
    """The colour of the index-th run (0, 1, 2...) of a session of runs."""
    return RUN_COLORS[index % len(RUN_COLORS)]
