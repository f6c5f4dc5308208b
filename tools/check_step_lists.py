#!/usr/bin/env python3
"""Checks that every chapter names the same steps and files in each place that lists them:
chapters/NN-name/steps.json (the learner's tool, the tests' filters), the chapter's meson.build
(what is compiled for the exercise and the solution), and its C++ step table (the API header or
the benchmark: a table of {step, "name", "file"} entries, or a step count constant).
A step added in one place and not the others fails here, naming the place.

usage (from the repository root): tools/check_step_lists.py [--root DIR]
"""
import argparse
import json
import re
import sys
from pathlib import Path

CU_NAME = re.compile(r"'(?:exercise/|solution/)?([\w]+\.cu)'")
TABLE_ENTRY = re.compile(r'\{\s*(?:(\d+)\s*,\s*)?"((?:step|reduce)(\d+)_\w+)"(?:\s*,\s*"([\w.]+\.cu)")?')
COUNT = re.compile(r"\b(kStepCount|kSquareStepCount)\s*=\s*(\d+)\s*;")


def chapter_problems(chapter_dir, root):
    chapter = chapter_dir.name
    problems = []
    steps = json.loads((chapter_dir / "steps.json").read_text())["steps"]
    step_files = {s["step"]: set(s["files"]) for s in steps}
    all_files = set().union(*step_files.values()) if step_files else set()

    # meson.build: every step file is compiled; every compiled solution file is a step's.
    meson = (chapter_dir / "meson.build").read_text()
    compiled = set(CU_NAME.findall(meson))
    solutions = {p.name for p in (root / "solutions" / chapter).glob("*.cu")}
    for name in sorted(all_files - compiled):
        problems.append(f"{chapter}: steps.json lists {name}, which meson.build does not compile")
    for name in sorted((compiled & solutions) - all_files):
        problems.append(f"{chapter}: meson.build compiles {name}, which no step of steps.json lists")
    for name in sorted(solutions - all_files):
        problems.append(f"{chapter}: solutions/{chapter}/{name} belongs to no step of steps.json")

    # The C++ step table and step counts.
    sources = [p for p in sorted(chapter_dir.glob("*")) if p.suffix in (".cuh", ".cpp", ".cu")
               and p.is_file()]
    text = "\n".join(p.read_text() for p in sources)
    named = set()
    for number, name, digit, file_name in TABLE_ENTRY.findall(text):
        step = int(number or digit)
        named.add(step)
        if step not in step_files:
            problems.append(f"{chapter}: the C++ step table has {name} for step {step}, which "
                            "steps.json does not have")
        elif (file_name or name + ".cu") not in step_files[step]:
            problems.append(f"{chapter}: the C++ step table puts {name} in "
                            f"{file_name or name + '.cu'}, but steps.json gives step {step} "
                            f"{sorted(step_files[step])}")
    if named:
        for step in sorted(set(step_files) - named):
            stems = [Path(f).stem for f in step_files[step]]
            if not any(re.search(rf"\b{re.escape(stem)}\b", text) for stem in stems):
                problems.append(f"{chapter}: step {step} of steps.json is in no C++ step table "
                                f"of the chapter")
    for constant, value in COUNT.findall(text):
        value = int(value)
        if constant == "kSquareStepCount" or len(all_files) < len(steps):
            # the steps that share one file: e.g. steps 1-3 of square_any_width.cu
            shared = max(sum(1 for files in step_files.values() if name in files)
                         for name in all_files)
            expected = shared
        else:
            expected = len(steps)
        if value != expected:
            problems.append(f"{chapter}: {constant} = {value}, but steps.json has {expected} "
                            "such steps")
    return problems


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    chapters = sorted(p.parent for p in (args.root / "chapters").glob("*/steps.json"))
    problems = [p for c in chapters for p in chapter_problems(c, args.root)]
    print("\n".join(problems) or f"ok: steps.json, meson.build and the C++ step tables of "
          f"{len(chapters)} chapters name the same steps and files")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
