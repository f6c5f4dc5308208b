"""The chart of a benchmark run, as SVG: for every input size, the vendor library's bar, then each
step's exercise beside its solution, with the vendor's value as a dashed line through them.

It is pure string building from the rows of bench.parse_benchmark_json, so one JSON always gives
the same file (a test compares each README chart with the JSON beside it). The layout is worked
out first (layout_chart: every bar, line and text with its position) and written second
(render_svg), so that tests can check that no value label touches another or a reference line.
Text widths come from a monospaced font's advance (0.6 em), which is what makes that possible.
"""
import html
import json
import math
import re
import shlex
from pathlib import Path
from typing import List, NamedTuple, Optional

from . import bench
from .paths import rel

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
FONT_SIZE = 12
TITLE_SIZE = 15
EM_ADVANCE = 0.6  # a monospaced character's width, in em
BAR_HEIGHT = 14
BAR_GAP = 3
GROUP_GAP = 9
SECTION_HEADER = 24
PLOT_WIDTH = 560
MARGIN = 16
LABEL_PAD = 4  # between a bar's end (or a line) and its value
LINE_CLEARANCE = 2  # the least distance between a value and a reference line
LOG_SPAN = 30  # a log axis once the largest value is more than 30 times the smallest
COLORS = {"exercise": "#e8862a", "solution": "#3a6fb0", "vendor": "#a33a3a", "other": "#8c8c8c",
          "peak": "#a33a3a", "text": "#222222", "muted": "#666666", "grid": "#e4e4e4"}
LEGEND = (("exercise", "bar", "your exercise"), ("solution", "bar", "solution"),
          ("vendor", "bar", "vendor library (dashed line: its value)"),
          ("other", "bar", "other reference"), ("peak", "line", "nominal peak"))

# The trailing parts of a row name that give its input rather than its kernel: n=2^20,
# Width:4096, 1024MiB, and the element type.
PARAMETER = re.compile(r"[A-Za-z]\w*[=:][^:]+|\d+[A-Za-z]*|float|double|int|half|bfloat16")
VENDOR = re.compile(r"(cuBLAS|CUB|cuDNN)\b")
IMPLEMENTATIONS = {"Exercise": "exercise", "Solution": "solution"}


class Text(NamedTuple):
    x: float
    y: float  # the baseline
    text: str
    anchor: str = "start"
    size: float = FONT_SIZE
    color: str = COLORS["text"]
    bold: bool = False

    def box(self):
        """(left, top, right, bottom) of the text as drawn."""
        width = len(self.text) * EM_ADVANCE * self.size
        left = self.x - {"start": 0.0, "middle": width / 2, "end": width}[self.anchor]
        return left, self.y - 0.8 * self.size, left + width, self.y + 0.25 * self.size


class Rect(NamedTuple):
    x: float
    y: float
    width: float
    height: float
    color: str


class Line(NamedTuple):
    x1: float
    y1: float
    x2: float
    y2: float
    color: str
    dashed: bool = False


class Chart(NamedTuple):
    width: float
    height: float
    title: str
    description: str
    guides: List[Line]  # gridlines, the axis, the legend's line sample
    bars: List[Rect]
    reference_lines: List[Line]
    texts: List[Text]  # every text, value labels included
    value_labels: List[Text]  # the numbers (and "skipped") at the bars' ends


class Entry(NamedTuple):
    kind: str  # exercise, solution, vendor or other
    label: str  # "step 3 vectorized loads"
    size: str  # "Width 4096"
    value: Optional[float]  # None: skipped


def readable(part):
    """'step3_vectorized_loads' -> 'step 3 vectorized loads'; 'SGEMM_FP32' -> 'SGEMM FP32'."""
    return re.sub(r"^([A-Za-z]+)(\d+)_", r"\1 \2 ", part).replace("_", " ")


def describe(name):
    """(kind, label, size) of a benchmark row: 'Solution/step3_vectorized_loads/Width:4096' ->
    ('solution', 'step 3 vectorized loads', 'Width 4096')."""
    parts = bench.short_name(name).split("/")
    size = []
    while len(parts) > 1 and PARAMETER.fullmatch(parts[-1]):
        size.insert(0, parts.pop())
    kind = IMPLEMENTATIONS.get(parts[0])
    if kind:
        parts = parts[1:]  # 'Exercise/W:64' alone: no kernel name, the size says it all
    else:
        kind = "vendor" if VENDOR.match(parts[0]) else "other"
    size_text = ", ".join(p.replace("=", " = ").replace(":", " ") for p in size)
    return kind, " ".join(readable(p) for p in parts), size_text


def chart_entries(rows, hide_skipped=False):
    """(unit, entries): the rows measured in the chart's unit (the first throughput found), and
    the skipped ones unless hide_skipped. A skipped row whose kernel was measured in another
    unit (a latency row) stays out: it belongs to no bar here."""
    unit = next((bench.throughput_of(r)[0] for r in rows if bench.throughput_of(r)[0]), "GB/s")
    entries, elsewhere = [], set()
    for row in rows:
        kind, label, size = describe(row["name"])
        key, value = bench.throughput_of(row)[:2]
        if "skipped" in row:
            entries.append(Entry(kind, label, size, None))
        elif key == unit:
            entries.append(Entry(kind, label, size, value))
        else:
            elsewhere.add((size, label))
    return unit, [e for e in entries if e.value is not None or not (
        hide_skipped or (e.size, e.label) in elsewhere)]


def nominal_peak(rows):
    """The peak a %peak column is a share of (the DRAM bandwidth from the GPU's attributes)."""
    for row in rows:
        key, value, ratio, share = bench.throughput_of(row)
        if ratio == "%peak" and share and "skipped" not in row:
            return value / share * 100
    return None


def sections(entries):
    """[(size, [[entry, ...] a group])]: sizes in the order they first appear; in each, the
    vendor rows first, then one group per kernel (its exercise beside its solution)."""
    ordered = {}
    for entry in entries:
        kind = "implementation" if entry.kind in IMPLEMENTATIONS.values() else entry.kind
        groups = ordered.setdefault(entry.size, {})
        groups.setdefault((kind != "vendor", kind, entry.label), []).append(entry)
    order = list(IMPLEMENTATIONS.values()) + ["vendor", "other"]
    return [(size, [sorted(group, key=lambda e: order.index(e.kind))
                    for _, group in sorted(groups.items(), key=lambda item: item[0][0])])
            for size, groups in ordered.items()]


class Scale:
    """Value -> x: linear from 0, or logarithmic by decades when the values span more than
    LOG_SPAN (speedups of 10x per step are the point of the course: the small bars stay
    visible as a staircase)."""

    def __init__(self, values, left, width):
        positive = [v for v in values if v and v > 0] or [1.0]
        top, bottom = max(positive), min(positive)
        self.left, self.width = left, width
        self.logarithmic = top / bottom > LOG_SPAN
        if self.logarithmic:
            self.low = 10.0 ** math.floor(math.log10(bottom))
            self.high = 10.0 ** math.ceil(math.log10(top))
            decades = [10.0 ** e for e in range(round(math.log10(self.low)),
                                                round(math.log10(self.high)) + 1)]
            multiples = (1, 2, 5) if len(decades) <= 3 else (1,)
            self.ticks = [d * m for d in decades for m in multiples if d * m <= self.high]
        else:
            rough = top / 5
            magnitude = 10.0 ** math.floor(math.log10(rough))
            step = next(m * magnitude for m in (1, 2, 5, 10) if m * magnitude >= rough)
            self.low, self.high = 0.0, step * math.ceil(top / step)
            self.ticks = [step * i for i in range(int(round(self.high / step)) + 1)]

    def x(self, value):
        if self.logarithmic:
            fraction = (math.log10(max(value, self.low)) - math.log10(self.low)) / (
                math.log10(self.high) - math.log10(self.low))
        else:
            fraction = value / self.high
        return self.left + self.width * fraction


def format_value(value):
    return f"{value:,.0f}" if value >= 100 else f"{value:.3g}"


def text_width(text, size=FONT_SIZE):
    return len(text) * EM_ADVANCE * size


def clear_of_line(text, line_x):
    """TEXT, moved to the right of the vertical line at LINE_X if it would touch it."""
    left, _, right, _ = text.box()
    if line_x is None or right + LINE_CLEARANCE < line_x or left - LINE_CLEARANCE > line_x:
        return text
    return text._replace(x=line_x + LABEL_PAD, anchor="start")


def legend(kinds, baseline, texts, guides):
    """The legend's entries for KINDS on one line: its texts go to TEXTS, a line sample to
    GUIDES; returns its bar samples."""
    x, samples = MARGIN, []
    for kind, sample, words in LEGEND:
        if kind not in kinds:
            continue
        if sample == "bar":
            samples.append(Rect(x, baseline - 9, 10, 10, COLORS[kind]))
        else:
            guides.append(Line(x + 5, baseline - 11, x + 5, baseline + 2, COLORS[kind], True))
        texts.append(Text(x + 15, baseline, words))
        x += 15 + text_width(words) + 20
    return samples


def layout_chart(rows, title, hide_skipped=False, description=""):
    """Every bar, line and text of the chart of ROWS, placed."""
    unit, entries = chart_entries(rows, hide_skipped)
    grouped = sections(entries)
    peak = nominal_peak(rows)
    references = {}  # size -> (value, is the vendor's)
    for size, groups in grouped:
        vendor = next((e.value for g in groups for e in g if e.kind == "vendor" and e.value), None)
        if vendor or peak:
            references[size] = (vendor, True) if vendor else (peak, False)

    labels = [e.label for e in entries] + [size for size, _ in grouped]
    label_right = MARGIN + max([text_width(l) for l in labels] + [text_width("x" * 10)])
    plot_left = label_right + 12
    scale = Scale([e.value for e in entries] + [v for v, _ in references.values()], plot_left,
                  PLOT_WIDTH)
    texts, bars, reference_lines, values, guides = [], [], [], [], []

    y = MARGIN + TITLE_SIZE
    texts.append(Text(MARGIN, y, title, size=TITLE_SIZE, bold=True))
    y += 12 + FONT_SIZE
    kinds = {e.kind for e in entries} | ({"peak"} if any(
        not is_vendor for _, is_vendor in references.values()) else set())
    legend_samples = legend(kinds, y, texts, guides)
    y += 10 + FONT_SIZE
    axis = f"{unit}{' (log scale)' if scale.logarithmic else ''}, higher is faster"
    texts.append(Text(plot_left, y, axis, color=COLORS["muted"]))
    y += 6 + FONT_SIZE
    for tick in scale.ticks:
        texts.append(Text(scale.x(tick), y, format_value(tick), anchor="middle",
                          color=COLORS["muted"]))
    y += 8
    plot_top = y

    for size, groups in grouped:
        header = y + SECTION_HEADER - 8
        if size:
            texts.append(Text(MARGIN, header, size, bold=True))
        y += SECTION_HEADER
        reference, is_vendor = references.get(size, (None, False))
        line_x = scale.x(reference) if reference else None
        if line_x is not None and not is_vendor:
            texts.append(Text(line_x + LABEL_PAD, header, f"nominal peak {format_value(reference)}",
                              color=COLORS["peak"]))
        section_top = y
        for group in groups:
            group_top = y
            for entry in group:
                color = COLORS[entry.kind]
                baseline = y + BAR_HEIGHT - 3
                if entry.value is None:
                    label = Text(plot_left + LABEL_PAD, baseline, "skipped", color=color)
                else:
                    end = scale.x(entry.value)
                    bars.append(Rect(plot_left, y, max(1.0, end - plot_left), BAR_HEIGHT, color))
                    label = Text(end + LABEL_PAD, baseline, format_value(entry.value))
                values.append(clear_of_line(label, line_x))
                y += BAR_HEIGHT + BAR_GAP
            middle = (group_top + y - BAR_GAP) / 2
            texts.append(Text(label_right, middle + 0.35 * FONT_SIZE, group[0].label, anchor="end"))
            y += GROUP_GAP - BAR_GAP
        if line_x is not None:
            reference_lines.append(Line(line_x, section_top - 3, line_x, y - GROUP_GAP + 3,
                              COLORS["vendor" if is_vendor else "peak"], True))
    plot_bottom = y
    guides += [Line(scale.x(t), plot_top, scale.x(t), plot_bottom, COLORS["grid"])
               for t in scale.ticks]
    guides.append(Line(plot_left, plot_top, plot_left, plot_bottom, COLORS["muted"]))
    texts += values
    width = max([t.box()[2] for t in texts] + [plot_left + PLOT_WIDTH]) + MARGIN
    return Chart(math.ceil(width), math.ceil(plot_bottom + MARGIN), title, description, guides,
                 legend_samples + bars, reference_lines, texts, values)


def number(value):
    """A coordinate as SVG text: one decimal at most, the same on every machine."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def escape(text):
    """TEXT as SVG character data (quotes stay readable: no attribute holds text)."""
    return html.escape(text, quote=False)


def render_svg(chart):
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{chart.width}" '
           f'height="{chart.height}" viewBox="0 0 {chart.width} {chart.height}" '
           f'font-family="{FONT}" font-size="{FONT_SIZE}">',
           f"<title>{escape(chart.title)}</title>",
           f"<desc>{escape(chart.description)}</desc>",
           '<rect width="100%" height="100%" fill="#ffffff"/>']
    for line in chart.guides + chart.reference_lines:
        out.append(f'<line x1="{number(line.x1)}" y1="{number(line.y1)}" x2="{number(line.x2)}" '
                   f'y2="{number(line.y2)}" stroke="{line.color}" stroke-width="'
                   + ('2" stroke-dasharray="5,3"/>' if line.dashed else '1"/>'))
    for rect in chart.bars:
        out.append(f'<rect x="{number(rect.x)}" y="{number(rect.y)}" width="{number(rect.width)}" '
                   f'height="{number(rect.height)}" fill="{rect.color}"/>')
    for text in chart.texts:
        attributes = f'x="{number(text.x)}" y="{number(text.y)}"'
        if text.anchor != "start":
            attributes += f' text-anchor="{text.anchor}"'
        if text.size != FONT_SIZE:
            attributes += f' font-size="{number(text.size)}"'
        if text.bold:
            attributes += ' font-weight="bold"'
        if text.color != COLORS["text"]:
            attributes += f' fill="{text.color}"'
        out.append(f"<text {attributes}>{escape(text.text)}</text>")
    return "\n".join(out + ["</svg>"]) + "\n"


def chart_svg(rows, title, hide_skipped=False, description=""):
    """The SVG text of the chart of ROWS."""
    return render_svg(layout_chart(rows, title, hide_skipped, description))


def chart_of_file(json_path, title=None, hide_skipped=False, only=None):
    """The SVG of a benchmark JSON, as ./course chart draws it; its <desc> is the command that
    draws it again (so a README chart can be checked against its JSON)."""
    data = json.loads(Path(json_path).read_text())
    gpu = data.get("context", {}).get("gpu", "")
    rows = [r for r in bench.parse_benchmark_json(data) if not only or re.search(only, r["name"])]
    command = ["./course", "chart", str(rel(Path(json_path).resolve()).as_posix())]
    if title:
        command += ["--title", title]
    if hide_skipped:
        command.append("--hide-skipped")
    if only:
        command += ["--only", only]
    title = (title or Path(json_path).stem) + (f" on {gpu}" if gpu else "")
    return chart_svg(rows, title, hide_skipped, " ".join(shlex.quote(word) for word in command))


def command_chart(json_path, output=None, title=None, hide_skipped=False, only=None):
    svg = Path(output) if output else Path(json_path).with_suffix(".svg")
    svg.write_text(chart_of_file(json_path, title, hide_skipped, only))
    print(f"wrote {svg}")
    return 0
