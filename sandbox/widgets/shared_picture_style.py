"""What every picture shares: its fonts and sizes, its figure and panels, its titles and
legends, and words measured to fit the room they have -- so that a slide of curves and a
slide of swim lanes read alike.

Each picture (curves_picture.py, placement_picture.py, traffic_picture.py, lanes_picture.py;
pictures.py names them all) draws one view's state: what the tasks measured, never what a
program should do. This module holds what they have in common:

  FONT, SMALL, TITLE    12 pt for text and ticks, 11 pt the smallest, 14 pt a panel's title,
                        at the figure's own size (only an Axes given too small makes the
                        placement boxes' text smaller).
  save(fig, path)       writes a PNG; the figures live on their own Agg canvas, never in a
                        pyplot window (_new_figure).
  _panels, _panel       how every drawing function takes `ax`: an Axes to draw in, a Figure
                        or SubFigure to fill, or None for a new figure sized for the state.
  _title,               a panel's title says what it shows and, smaller below, where the
  _legend_below         numbers come from; its legend stands under it.
  _text_width, _fit,    words measured on the font's glyphs, cut with '...' or broken into
  _wrap                 lines to fit the inches they have.
  human_bytes, _count   numbers as words: '88.4 MB', '12,345'.
  _nothing              an empty panel says why it is empty ("nothing yet: ...").

No colour is chosen here: each comes from the state, which took it from palette.py (a run's
"color", a job's "job_color", a kind's "color"), so one thing has one colour in every view
and picture; _tint only lightens one.
"""
import os

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure, FigureBase
from matplotlib.font_manager import FontProperties
from matplotlib.gridspec import GridSpec
from matplotlib.textpath import TextToPath
from matplotlib.transforms import offset_copy

__all__ = ["FONT", "SMALL", "TITLE", "save", "human_bytes"]

FONT = 12               # text and ticks
SMALL = 11              # the smallest text drawn
TITLE = 14              # panel titles

_RC = {"font.size": FONT, "axes.titlesize": TITLE, "axes.labelsize": FONT,
       "xtick.labelsize": FONT, "ytick.labelsize": FONT, "legend.fontsize": SMALL,
       "figure.titlesize": TITLE + 2, "lines.linewidth": 2.5}


def save(fig, path, dpi=110):
    """Writes `fig` to `path` (a PNG, or any format matplotlib knows by the extension),
    creating the folder if needed; returns the path."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    fig.savefig(path, dpi=dpi, facecolor="white")
    return path


def _new_figure(figsize):
    """A figure on an Agg canvas that belongs to no pyplot window: nothing to close, nothing
    shown, whatever backend pyplot uses."""
    fig = Figure(figsize=figsize, layout="constrained")
    FigureCanvasAgg(fig)
    fig.get_layout_engine().set(w_pad=0.08, h_pad=0.08)
    return fig


def _panels(ax, figsize, nrows=1, ncols=1, **grid):
    """(figure, [[axes]]) -- `nrows` x `ncols` panels in `ax`: a new figure of `figsize`
    when None, the whole of a Figure or SubFigure, or the place of an Axes (which goes)."""
    with matplotlib.rc_context(_RC):
        if ax is None:
            ax = _new_figure(figsize)
        if isinstance(ax, FigureBase):
            fig, spec = ax, ax.add_gridspec(nrows, ncols, **grid)
        else:
            fig = ax.figure
            if ax.get_subplotspec() is not None:
                spec = ax.get_subplotspec().subgridspec(nrows, ncols, **grid)
            else:
                box = ax.get_position()
                spec = GridSpec(nrows, ncols, figure=fig, left=box.x0, right=box.x1,
                                bottom=box.y0, top=box.y1, **grid)
            ax.remove()
        axes = [[fig.add_subplot(spec[i, j]) for j in range(ncols)] for i in range(nrows)]
    return fig.get_figure(root=True), axes


def _panel(ax, figsize):
    """(figure, axes): one panel (see _panels)."""
    if ax is not None and not isinstance(ax, FigureBase):
        return ax.get_figure(root=True), ax
    fig, axes = _panels(ax, figsize)
    return fig, axes[0][0]


def _axes_inches(ax):
    """(width, height) of `ax` in inches, as placed now (before the layout's final touch)."""
    box = ax.get_window_extent()
    dpi = ax.get_figure(root=True).dpi
    return box.width / dpi, box.height / dpi


def _container_inches(ax):
    """The width of the figure (or subfigure) `ax` is in, in inches."""
    return ax.get_figure(root=False).bbox.width / ax.get_figure(root=True).dpi


def _settle(ax):
    """Lays the figure out now, so that `ax` has the size it will be drawn at (the pictures
    that fit words to the room they have measure it after this)."""
    ax.get_figure(root=True).draw_without_rendering()


def _title(ax, what, source):
    """A panel's title: what it shows, and (smaller, below) where the numbers come from,
    broken into lines as wide as the panel (less the room tick labels may take from it)."""
    source = _wrap(source, min(_axes_inches(ax)[0], _container_inches(ax) - 2.0))
    lines = source.count("\n") + 1
    ax.set_title(what, fontsize=TITLE, fontweight="bold", loc="left",
                 pad=8 + 1.3 * SMALL * lines)
    ax.annotate(source, (0, 1), xycoords="axes fraction", xytext=(0, 5),
                textcoords="offset points", va="bottom", ha="left", fontsize=SMALL,
                color="#444444")


def _legend_below(ax, handles, title=None, below=0.0, room=None, right=False):
    """A legend under `ax` (`below` points lower, to clear its axis labels), at its left
    (or right) end, in as many columns as `room` inches hold (default: its width, which is
    at least its figure's less 2 inches of tick labels and margins); a legend drawn before
    on `ax` stays. Returns its width in inches."""
    if not handles:
        return 0.0
    if ax.get_legend() is not None:
        ax.add_artist(ax.get_legend())      # ax.legend() would take it away
    column = max(_text_width(h.get_label(), SMALL) for h in handles) + 1.0
    if room is None:
        room = max(_axes_inches(ax)[0], _container_inches(ax) - 2.0)
    ncol = max(1, min(len(handles), int(room // column)))
    fig = ax.get_figure(root=True)
    legend = ax.legend(handles=handles, loc="upper right" if right else "upper left",
                       bbox_to_anchor=(1.0 if right else 0.0, 0.0),
                       bbox_transform=offset_copy(ax.transAxes, fig, y=-below, units="points"),
                       ncol=ncol, fontsize=SMALL, frameon=False, title=title,
                       title_fontsize=SMALL, alignment="left", handlelength=2.5)
    legend.set_in_layout(True)
    return ncol * column


def _nothing(ax, text):
    """An empty panel that says why it is empty."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center",
            fontsize=FONT, color="#555555", wrap=True)


_TEXT_TO_PATH = TextToPath()


def _text_width(text, size, weight="normal"):
    """Width of `text` in inches at `size` points (measured on the font's glyphs)."""
    prop = FontProperties(size=size, weight=weight)
    return _TEXT_TO_PATH.get_text_width_height_descent(text, prop, ismath=False)[0] / 72.0


def _fit(text, width, size, weight="normal"):
    """`text`, cut with '...' until it is at most `width` inches wide."""
    if _text_width(text, size, weight) <= width:
        return text
    while len(text) > 1 and _text_width(text + "\u2026", size, weight) > width:
        text = text[:-1]
    return text.rstrip() + "\u2026"


def _tint(color, amount):
    """`color` mixed with white: `amount` of the colour (0..1)."""
    r, g, b = matplotlib.colors.to_rgb(color)
    return (1 - amount * (1 - r), 1 - amount * (1 - g), 1 - amount * (1 - b))


def _wrap(text, width, size=SMALL, weight="normal"):
    """`text` broken between words into lines at most `width` inches wide at `size`."""
    lines, line = [], ""
    for word in text.split():
        longer = f"{line} {word}".strip()
        if line and _text_width(longer, size, weight) > width:
            lines.append(line)
            line = word
        else:
            line = longer
    return "\n".join(lines + [line])


def human_bytes(n):
    """1536 -> '1.54 kB', 88368525.9 -> '88.4 MB' (decimal units, three figures)."""
    if abs(n) < 999.5:
        return f"{n:.0f} B"
    for unit in ("kB", "MB", "GB"):
        n /= 1000.0
        if abs(n) < 999.5:
            break
    return f"{n:.3g} {unit}"


def _count(n):
    """278.4 -> '278', 0.5 -> '0.5', 12345 -> '12,345'."""
    return f"{n:.3g}" if n < 1000 else f"{n:,.0f}"
