"""A chapter README's measured tables, values and charts, rendered from the measurement files
beside it (measured-<gpu>.json: a benchmark run, as `./course compare NN --record` keeps it):
nothing measured is typed into a README; the host suite re-renders every README and diffs.

    <!-- measured table {"rows": [["label", "regex"], ...],
                         "columns": [["header", "regex", "quantity", "share"], ...]} -->
    ...the table...
    <!-- end measured -->

A cell is the benchmark row whose name matches both its row's and its column's regex; quantity
is "time", "TFLOP/s" (from GFLOP/s) or any counter of the row (GB/s, %peak, regs, launches...),
or "%" for the share alone; share is "ref" (the row's %ref counter, the vendor's share of its
time) or "of REGEX" (against the row matching REGEX in the same column: its time over this
one's, or this rate over its rate). "bold": [[row label, column header or null], ...] marks
cells; "once": [column headers] that every GPU shares (registers). With several measurement
files each other column is repeated per GPU, side by side.

    <!-- measured value {"gpu": "h200", "row": "regex", "quantity": "time", "share": "of X"} -->
    15.2 ms<!-- end measured -->        (a number in the prose; "speedup": "REGEX" gives 1.74x;
                                         "context": "peak_dram_GB/s" what the run read off the GPU)

    <!-- measured charts {"title": "...", "only": "regex", "hide_skipped": true} -->
    ![...](measured-h200.svg)<!-- end measured -->       (one chart per measurement file)

usage (from the repository root):
    python3 -m course_tool.readme [NN ...]        re-render the READMEs and their charts
    python3 -m course_tool.readme --check [NN ...]  exit 1 where a README or chart differs
"""
import argparse
import json
import math
import re
import shutil
import sys
from pathlib import Path

from . import bench, chart
from .paths import ROOT

BLOCK = re.compile(r"<!-- measured (table|value|charts) (\{.*?\}) -->(.*?)<!-- end measured -->",
                   re.DOTALL)
TIME_UNITS = (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9))
SECONDS = {unit: scale for unit, scale in TIME_UNITS}


class RenderError(Exception):
    """A block whose spec the measurements cannot fill; the message says which and why."""


def gpu_key(gpu_name):
    """'NVIDIA H100 80GB HBM3' -> 'h100', 'NVIDIA GeForce RTX 4090' -> 'rtx-4090': the words up
    to the first with a digit, as the measurement file's name has them."""
    words = [w for w in gpu_name.split() if w not in ("NVIDIA", "GeForce", "Tesla", "Quadro")]
    kept = []
    for word in words:
        kept.append(word.split("-")[0])
        if any(c.isdigit() for c in word):
            break
    return re.sub(r"[^a-z0-9]+", "-", " ".join(kept).lower()).strip("-") or "gpu"


class Measurement:
    """One measured-<gpu>.json: its rows (bench.parse_benchmark_json) and its GPU."""

    def __init__(self, path):
        self.path = Path(path)
        data = json.loads(self.path.read_text())
        self.rows = bench.parse_benchmark_json(data)
        self.context = data.get("context", {})
        self.gpu = self.context.get("gpu", "")
        self.key = self.path.stem[len("measured-"):]
        self.label = self.key.upper()

    def row(self, *patterns):
        """The one measured row whose name matches every pattern; None when none does."""
        found = [r for r in self.rows if all(re.search(p, r["name"]) for p in patterns if p)]
        if len(found) > 1:
            raise RenderError(f"{self.path.name}: {len(found)} rows match {patterns}: "
                              + ", ".join(bench.short_name(r["name"]) for r in found[:4]))
        return found[0] if found else None


def seconds(row):
    return row["time"] * SECONDS[row["unit"]]


def quantity_of(row, quantity):
    if quantity == "time":
        return seconds(row)
    if quantity == "TFLOP/s":
        return row["GFLOP/s"] / 1000 if "GFLOP/s" in row else None
    return row.get(quantity)


def significant(value):
    """4 significant digits from 100 up, 3 below: 712.2, 51.9, 5.12, 0.110."""
    if value == 0:
        return "0"
    digits = 4 if abs(value) >= 100 else 3
    decimals = max(0, digits - 1 - math.floor(math.log10(abs(value))))
    return f"{value:.{decimals}f}"


def format_quantity(value, quantity):
    if value is None:
        return ""
    if quantity == "time":
        unit, scale = next(((u, s) for u, s in TIME_UNITS if value >= s), TIME_UNITS[-1])
        return f"{significant(value / scale)} {unit}"
    if quantity in ("regs", "launches"):
        return f"{value:.0f}"
    return significant(value)


def format_percent(value):
    return "" if value is None else (f"{value:.0f}%" if value >= 1000 else f"{value:.1f}%")


def share_of(measurement, row, share, quantity, column_pattern=""):
    """The share in percent: the row's %ref counter ("ref"), or its speed against the row that
    matches "of REGEX" (and the column's pattern)."""
    if share == "ref":
        return row.get("%ref")
    other = measurement.row(share[len("of "):], column_pattern)
    if other is None or other is row or "skipped" in other or "skipped" in row:
        return None  # (the reference itself shows no share of itself)
    if quantity in ("time", "%"):
        return 100 * seconds(other) / seconds(row)
    mine, theirs = quantity_of(row, quantity), quantity_of(other, quantity)
    return 100 * mine / theirs if mine is not None and theirs else None


def cell(measurement, row_pattern, column):
    header, pattern, quantity, *share = column + [None] * (4 - len(column))
    row = measurement.row(row_pattern, pattern)
    if row is None:
        return ""
    if "skipped" in row:
        return "skipped"
    percent = share_of(measurement, row, share[0], quantity, pattern) if share[0] else None
    if quantity == "%":
        return format_percent(percent)
    text = format_quantity(quantity_of(row, quantity), quantity)
    return f"{text} ({format_percent(percent)})" if percent is not None and text else text


def render_table(spec, measurements):
    once = set(spec.get("once", []))
    columns = []  # (header, column spec, measurement)
    for column in spec["columns"]:
        group = measurements[:1] if column[0] in once else measurements
        for measurement in group:
            suffix = f" ({measurement.label})" if len(measurements) > 1 and column[0] not in once \
                else ""
            columns.append((column[0] + suffix, column, measurement))
    bold = {(r, c) for r, c in spec.get("bold", [])}
    corner = spec.get("corner", "")
    lines = ["| " + " | ".join([corner] + [h for h, _, _ in columns]) + " |",
             "| --- |" + " ---: |" * len(columns)]
    for label, pattern in spec["rows"]:
        if all(measurement.row(pattern, column[1]) is None for _, column, measurement in columns):
            raise RenderError(f"the row {label!r} ({pattern}) matches no measured row in any "
                              "column: a renamed benchmark row?")
        cells = []
        for header, column, measurement in columns:
            text = cell(measurement, pattern, column)
            if not text and column[0] in once:  # a row the first GPU lacks: the next one's
                text = next((t for t in (cell(m, pattern, column) for m in measurements[1:])
                             if t), "")
            if text and ((label, column[0]) in bold or (label, None) in bold):
                text = f"**{text}**"
            cells.append(text)
        lines.append("| " + " | ".join([label] + cells) + " |")
    return "\n" + "\n".join(lines) + "\n"


def render_value(spec, measurements):
    found = [m for m in measurements if m.key == spec["gpu"]]
    if not found:
        raise RenderError(f"no measured-{spec['gpu']}.json for the value {spec}")
    measurement = found[0]
    if "context" in spec:  # what the benchmark read off the GPU, e.g. peak_dram_GB/s
        value = float(measurement.context[spec["context"]])
        return str(int(value)) if value.is_integer() else significant(value)  # counts as counts
    row = measurement.row(spec["row"])
    if row is None or "skipped" in row:
        raise RenderError(f"{measurement.path.name} has no measured row {spec['row']!r}")
    if "speedup" in spec:
        other = measurement.row(spec["speedup"])
        return f"{significant(seconds(other) / seconds(row))}x"
    quantity = spec.get("quantity", "time")
    if "share" in spec:
        return format_percent(share_of(measurement, row, spec["share"], quantity))
    return format_quantity(quantity_of(row, quantity), quantity)


def chart_path(measurement):
    return measurement.path.with_suffix(".svg")


def render_charts(spec, measurements):
    images = []
    for measurement in measurements:
        title = spec.get("title", "")
        alt = f"{title}, measured on an {measurement.gpu}".strip(", ")
        images.append(f"![{alt}]({chart_path(measurement).name})")
    return "\n" + "\n".join(images) + "\n"


def chart_texts(readme_text, measurements):
    """{svg path: text} of every chart a README's chart blocks show."""
    charts = {}
    for kind, spec, _ in BLOCK.findall(readme_text):
        if kind == "charts":
            spec = json.loads(spec)
            for measurement in measurements:
                charts[chart_path(measurement)] = chart.chart_of_file(
                    measurement.path, spec.get("title"), spec.get("hide_skipped", False),
                    spec.get("only"))
    return charts


def measurements_of(folder):
    return [Measurement(p) for p in sorted(Path(folder).glob("measured-*.json"))]


def rendered(readme_text, measurements):
    """The README with every measured block filled from the measurements."""
    renderers = {"table": render_table, "value": render_value, "charts": render_charts}

    def fill(match):
        kind, spec = match.group(1), match.group(2)
        try:
            content = renderers[kind](json.loads(spec), measurements)
        except (ValueError, KeyError, TypeError) as error:
            raise RenderError(f"the {kind} block {spec[:80]}: {error!r}") from None
        return f"<!-- measured {kind} {spec} -->{content}<!-- end measured -->"
    return BLOCK.sub(fill, readme_text)


def render_chapter(folder, write):
    """The README and charts of chapters/NN-name as they should be: written (write=True), or
    compared. Returns the paths that differ(ed)."""
    folder = Path(folder)
    measurements = measurements_of(folder)
    readme = folder / "README.md"
    text = readme.read_text()
    expected = {readme: rendered(text, measurements), **chart_texts(text, measurements)}
    differing = [p for p, t in expected.items() if not p.is_file() or p.read_text() != t]
    if write:
        for path in differing:
            path.write_text(expected[path])
    return differing


def record(chapter, json_path):
    """./course compare NN --record: keep the run as the chapter's measured-<gpu>.json, and
    render the README and charts from it (and from the other GPUs' files)."""
    gpu = json.loads(Path(json_path).read_text()).get("context", {}).get("gpu", "")
    target = chapter.folder / f"measured-{gpu_key(gpu)}.json"
    shutil.copyfile(json_path, target)
    return [target] + render_chapter(chapter.folder, write=True)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="chapter numbers (default: all)")
    parser.add_argument("--check", action="store_true", help="only say what differs")
    args = parser.parse_args(argv)
    folders = [p.parent for p in sorted((ROOT / "chapters").glob("[0-9][0-9]-*/README.md"))
               if not args.chapters or p.parent.name[:2] in [c.zfill(2) for c in args.chapters]]
    problems = []
    for folder in folders:
        try:
            differing = render_chapter(folder, write=not args.check)
        except RenderError as error:
            problems.append(f"chapters/{folder.name}: {error}")
            continue
        for path in differing:
            what = "differs from what its measurements render" if args.check else "rewritten"
            print(f"{path.relative_to(ROOT)}: {what}")
            problems += [path] if args.check else []
    for problem in problems:
        if isinstance(problem, str):
            print(problem)
    if args.check and any(not isinstance(problem, str) for problem in problems):
        print("Render them with python3 -m course_tool.readme (after ./course compare NN "
              "--record on a GPU, or after editing a block's spec).")
        return 1
    if problems:
        return 1  # a README that differs, or that could not be rendered
    if args.check:
        print(f"ok: the measured tables, values and charts of {len(folders)} READMEs are what "
              "their measurement files render")
    return 0


if __name__ == "__main__":
    sys.exit(main())
