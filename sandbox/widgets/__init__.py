"""Jupyter views of a running cluster (placement, traffic, curves), the dashboard, and the
same views drawn with matplotlib for pictures."""
