"""The views' front ends as anywidget loads them: one ES module per widget, given as text.

Each view's own module (static/placement.js, traffic.js, curves.js) comes after the helpers
all three share (static/dom.js: building DOM and SVG nodes, bytes in human units, tooltips).
anywidget takes a widget's module from a string, so one module cannot import another -- and
the sandbox wants no build step -- so the two files are simply put one after the other.
"""
import pathlib

__all__ = ["esm", "STATIC"]

STATIC = pathlib.Path(__file__).parent / "static"


def esm(view_module):
    """The module anywidget gets for the view whose own code is static/`view_module`."""
    return (STATIC / "dom.js").read_text() + "\n" + (STATIC / view_module).read_text()
