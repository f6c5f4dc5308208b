#!/usr/bin/env python3
"""Check that every number in a chapter README's measured-results tables comes from the
measurement JSON beside it.

For each chapters/NN-name/README.md with measured-*.json files (Google Benchmark JSON) beside
it, every Markdown table in the README's measured sections (a heading that contains "Measured",
down to the next heading of the same or a higher level, plus the sections named in
EXTRA_SECTIONS) is read; the first column (the row's label: step names, sizes, launch shapes) is
skipped, and every other number must be, rounded to the digits shown, one of:

  - a benchmark row's real_time (the median row where there are repetitions), in the unit
    written after the number (ns, us, ms, s) or named in its column's header ("time (us)");
    a number with neither is not read as a time;
  - one of that row's counters (GB/s, %peak, GFLOP/s, %ref, regs, launches, ...), or a counter
    divided by 1000 (GFLOP/s as TFLOP/s);
  - the ratio of two rows of the same size (a step against the vendor at n = 2^26): of their
    times or of one of their counters, as a fraction or in percent.

A number followed by '%', or in a column whose header has '%', is a percentage: a %-counter or
a ratio in percent. And a row's numbers must all come from one benchmark (a row per step:
Solution/step2 at every size, with its ratios to other rows) or all from one size (a row per
size); a row with "a / b" in a cell may draw on two benchmarks.

Exit status 1, naming the README, the table row and each number that matches nothing (or the
row whose numbers come from several benchmarks).
Usage: python3 tools/check_readme_numbers.py [--root REPO] [README ...]
Standard library only.
"""

from __future__ import annotations

import argparse
import bisect
import glob
import itertools
import json
import math
import os
import re
import sys

# Tables built from the measurement JSON that sit outside a "Measured ..." section:
# chapter folder -> headings (exact text after the #'s) whose tables are checked too.
EXTRA_SECTIONS = {
    "01-sum-of-squares": ["Step 0: how long does one load take?"],
}

TIME_UNITS = {"ns": 1e-9, "us": 1e-6, "µs": 1e-6, "ms": 1e-3, "s": 1.0}

NUMBER = re.compile(r"(?<![\w.^/])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)(?![\w^])")
UNIT_AFTER = re.compile(r"(?:\s*/\s*[\d.,]+)*\s*(ns|us|µs|ms|s)(?![\w/])")  # "102.1 / 102.0 us"
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")


class Candidates:
    """Every value a table number may be derived from, each with the benchmarks ("families",
    e.g. Solution/step2) and sizes (e.g. double/n=2^26) it comes from, sorted for range lookups."""

    def __init__(self) -> None:
        # kind: a time unit, "%" (%-counters and ratios in percent), or "" (other counters,
        # counters / 1000, ratios as fractions) -> [(value, families, sizes)]
        self.kinds: dict[str, list[tuple[float, frozenset, frozenset]]] = {}

    def add(self, kind: str, value: float, families: frozenset, sizes: frozenset) -> None:
        self.kinds.setdefault(kind, []).append((value, families, sizes))

    def finish(self) -> None:
        for values in self.kinds.values():
            values.sort(key=lambda v: v[0])
        self.keys = {kind: [v[0] for v in values] for kind, values in self.kinds.items()}

    def sources(self, shown: float, decimals: int, unit: str | None) -> list[tuple[frozenset, frozenset]]:
        """(families, sizes) of every candidate that rounds to `shown` at `decimals` digits.
        unit: a time unit, "%" for a percentage, None for any other number."""
        half = 0.5 * 10.0 ** (-decimals) * (1 + 1e-9) + 1e-12
        kind = "" if unit is None else unit
        keys, values = self.keys.get(kind, []), self.kinds.get(kind, [])
        i = bisect.bisect_left(keys, shown - half)
        out = []
        while i < len(keys) and keys[i] <= shown + half:
            out.append(values[i][1:])
            i += 1
        return out

    def matches(self, shown: float, decimals: int, unit: str | None) -> bool:
        return bool(self.sources(shown, decimals, unit))


def benchmark_rows_from(benchmarks: list[dict]) -> list[dict]:
    """The rows a README may quote: medians where a benchmark was repeated, else its one run;
    rows that errored (SkipWithError) have no numbers."""
    rows = []
    with_median = {b.get("run_name") for b in benchmarks if b.get("aggregate_name") == "median"}
    for b in benchmarks:
        if b.get("error_occurred"):
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                rows.append(b)
        elif b.get("run_name") not in with_median:
            rows.append(b)
    return rows


def benchmark_rows(paths: list[str]) -> list[dict]:
    rows = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows.extend(benchmark_rows_from(json.load(f).get("benchmarks", [])))
    return rows


SKIP_KEYS = {"family_index", "per_family_instance_index", "repetitions", "repetition_index",
             "threads", "iterations", "real_time", "cpu_time", "error_occurred"}


def family_and_size(name: str) -> tuple[str, str]:
    """'Solution/step2/double/n=2^26/repeats:5/manual_time' -> ('Solution/step2', 'double/n=2^26'):
    the benchmark, and its arguments without Google Benchmark's run options."""
    parts = name.split("/")
    options = ("iterations:", "repeats:", "min_time:", "manual_time", "real_time", "process_time")
    size = [p for p in parts[2:] if not p.startswith(options)]
    return "/".join(parts[:2]), "/".join(size)


def build_candidates(rows: list[dict]) -> Candidates:
    """Ratios are taken only between rows of one size (a step against the vendor at n = 2^26):
    any two rows at all would give so many ratios that almost any number matched one."""
    c = Candidates()
    quantities = []  # (family, size, {quantity: value}), time in seconds under "time"
    for b in rows:
        family, size = family_and_size(b.get("run_name") or b["name"])
        tags = (frozenset([family]), frozenset([size]))
        scale = TIME_UNITS.get(b.get("time_unit", "ns"), 1e-9)
        t = float(b.get("real_time", 0.0)) * scale
        values = {}
        if t > 0:
            values["time"] = t
            for unit, s in TIME_UNITS.items():
                c.add(unit, t / s, *tags)
        for key, value in b.items():
            if key in SKIP_KEYS or isinstance(value, bool) or not isinstance(value, (int, float)):
                continue
            value = float(value)
            if not math.isfinite(value):
                continue
            if key.startswith("%"):
                c.add("%", value, *tags)
            else:
                c.add("", value, *tags)
                c.add("", value / 1000.0, *tags)
            values[key] = value
        quantities.append((family, size, values))
    for i, (family_a, size_a, values_a) in enumerate(quantities):
        for j, (family_b, size_b, values_b) in enumerate(quantities):
            if i == j or size_a != size_b:
                continue
            tags = (frozenset([family_a, family_b]), frozenset([size_a, size_b]))
            for key, a in values_a.items():
                b = values_b.get(key)
                if b:
                    c.add("", a / b, *tags)
                    c.add("%", 100.0 * a / b, *tags)
    c.finish()
    return c


def measured_tables(text: str, extra_headings: list[str]) -> list[tuple[int, str, str]]:
    """(line number, row, the table's header row) of every body row of every table in the
    checked sections."""
    lines = text.splitlines()
    out = []
    active_level = None  # level of the heading that opened a checked section
    in_fence = False
    table_line = 0  # position inside the current table: 1 header, 2 separator, 3+ body
    header = ""
    for number, line in enumerate(lines, 1):
        if line.lstrip().startswith("```"):
            in_fence = not in_fence
            continue
        if in_fence:
            continue
        m = HEADING.match(line)
        if m:
            level, title = len(m.group(1)), m.group(2)
            if active_level is not None and level <= active_level:
                active_level = None
            if active_level is None and ("measured" in title.lower() or title in extra_headings):
                active_level = level
            table_line = 0
            continue
        if line.lstrip().startswith("|"):
            table_line += 1
            if table_line == 1:
                header = line
            if active_level is not None and table_line >= 3:
                out.append((number, line, header))
        else:
            table_line = 0
    return out


def cells(row: str) -> list[str]:
    inner = row.strip()
    if inner.startswith("|"):
        inner = inner[1:]
    if inner.endswith("|"):
        inner = inner[:-1]
    return [c.strip() for c in inner.split("|")]


HEADER_UNIT = re.compile(r"(?<![\w/])(ns|us|µs|ms|s)(?![\w/])")
PERCENT_AFTER = re.compile(r"\**\s*%")


def column_units(header: str) -> list[str | None]:
    """A column's unit from its header: "%" ("% of peak"), a time unit ("time (us)"), or None."""
    units = []
    for cell in cells(header):
        m = HEADER_UNIT.search(cell)
        units.append("%" if "%" in cell else (m.group(1) if m else None))
    return units


def row_numbers(row: str, header: str = "") -> list[tuple[str, float, int, list]]:
    """(token, value, decimals, units to try) for each number of a body row outside its first
    column. A number is a percentage when '%' follows it or its column header has one; a time
    when a time unit follows it ("615 us", "102.1 / 102.0 us") or its column header names one
    ("ns per load": then a counter of that unit, "ns/load", also fits)."""
    out = []
    units = column_units(header)
    for column, cell in enumerate(cells(row)):
        if column == 0:
            continue
        header_unit = units[column] if column < len(units) else None
        for m in NUMBER.finditer(cell):
            token = m.group(1)
            u = UNIT_AFTER.match(cell, m.end())
            if u:
                tries = [u.group(1)]
            elif PERCENT_AFTER.match(cell, m.end()):
                tries = ["%"]
            elif header_unit not in (None, "%"):
                tries = [header_unit, None]
            else:
                tries = [header_unit]
            decimals = len(token.split(".")[1]) if "." in token else 0
            out.append((token + (" " + u.group(1) if u else ""), float(token.replace(",", "")),
                        decimals, tries))
    return out


def row_problems(row: str, candidates: Candidates, header: str = "") -> list[str]:
    """What is wrong with a body row: each number that no candidate explains; else, when its
    numbers cannot all come from one benchmark (a row per step) or one size (a row per size),
    that. A row whose label or cells hold "a / b" may draw on two benchmarks."""
    numbers = row_numbers(row, header)
    families, sizes, bad = [], [], []
    for token, value, decimals, tries in numbers:
        found = [src for unit in tries for src in candidates.sources(value, decimals, unit)]
        if not found:
            bad.append(f"{token} matches nothing")
            continue
        families.append(set().union(*(f for f, _ in found)))
        sizes.append(set().union(*(s for _, s in found)))
    if bad or not numbers:
        return bad
    if set.intersection(*sizes):
        return []
    allowed = 1 + max(c.count(" / ") for c in cells(row))
    every = sorted(set().union(*families))
    for k in range(1, allowed + 1):
        for chosen in itertools.combinations(every, k):
            if all(f & set(chosen) for f in families):
                return []
    return ["its numbers match measurements, but not of one benchmark (or one size): "
            + ", ".join(t for t, *_ in numbers)]


def check_readme(readme: str, root: str) -> list[str]:
    folder = os.path.dirname(readme)
    jsons = sorted(glob.glob(os.path.join(folder, "measured-*.json")))
    rel = os.path.relpath(readme, root)
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    extra = EXTRA_SECTIONS.get(os.path.basename(folder), [])
    titles = {m.group(2) for m in map(HEADING.match, text.splitlines()) if m}
    errors = [f"{rel}: no heading '{t}' (named in EXTRA_SECTIONS of {os.path.basename(__file__)}: "
              f"rename it there too)" for t in extra if t not in titles]
    rows = measured_tables(text, extra)
    if not rows:
        return errors
    if not jsons:
        return errors + [f"{rel}: measured-results tables but no measured-*.json beside the README"]
    candidates = build_candidates(benchmark_rows(jsons))
    names = ", ".join(os.path.basename(j) for j in jsons)
    for number, row, header in rows:
        for problem in row_problems(row, candidates, header):
            errors.append(f"{rel}:{number}: {problem} in {names}\n    row: {row.strip()}")
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("readmes", nargs="*", help="READMEs to check (default: every chapter's)")
    args = parser.parse_args(argv)
    readmes = args.readmes or sorted(glob.glob(os.path.join(args.root, "chapters", "*", "README.md")))
    errors = []
    checked = 0
    for readme in readmes:
        errors.extend(check_readme(readme, args.root))
        checked += 1
    for e in errors:
        print(e)
    if errors:
        print(f"check_readme_numbers: {len(errors)} problem(s): each number in a measured-results "
              f"table must be a median time, a counter, a counter / 1000, or a ratio of two rows "
              f"of one size, in the measured-*.json beside the README")
        return 1
    print(f"ok: every number in the measured-results tables of {checked} README(s) comes from "
          f"the measurement JSON beside it")
    return 0


if __name__ == "__main__":
    sys.exit(main())
