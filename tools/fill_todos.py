#!/usr/bin/env python3
"""Writes what a learner writes: the shipped exercise file with one step's TODOs filled in.

A learner's file is the shipped exercise with code typed under the TODO comments of the step
they work on. This module builds such files, so that tools can judge them with the learner's
own `./course test NN.S`:
  - the reference code of step S alone (tools/check_steps_alone.py: every step must pass with
    only its own TODOs done, and fail as shipped);
  - a correct alternative, written in another style (tests/NN-name/alternatives/*.cu, which
    `./course test` must accept: tools/check_alternatives.py).

Which TODO belongs to which step: a `// TODO (step N):` comment belongs to step N; an untagged
`// TODO:` belongs to the step whose "files" in chapters/NN-name/steps.json list the file.

An alternative file (tests/NN-name/alternatives/<name>.cu):

    // ALTERNATIVE 06.3 step3_warp_shuffle.cu
    // what style it is written in, and why it is correct
    // @top
    #include <cooperative_groups.h>      (optional: put after the file's last #include)
    // @region
    ...the code under the step's first TODO in that file...
    // @region
    ...the code under its second TODO, if it has two...

usage (from the repository root):
    tools/fill_todos.py 03.1                    print exercises/... with step 3.1's TODOs done
    tools/fill_todos.py tests/06-*/alternatives/cg_reduce.cu    the same for an alternative
    tools/fill_todos.py --check                 no GPU: every alternative fits its step (CI)
"""
import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import sync_exercises  # noqa: E402

STEP_TAG = re.compile(r"//\s*TODO\s*\(step (\d+)\)")
HEADER = re.compile(r"^// ALTERNATIVE (\d+)\.(\d+) (\S+)\s*$")
INCLUDE = re.compile(r"^\s*#\s*include\b")


class FillError(Exception):
    pass


def chapter_dir(number):
    """chapters/NN-name for '03' or '3'."""
    found = sorted(p for p in (ROOT / "chapters").glob(f"{int(number):02d}-*") if p.is_dir())
    if not found:
        raise FillError(f"there is no chapter {number}")
    return found[0]


def steps_of(chapter):
    return json.loads((ROOT / "chapters" / chapter / "steps.json").read_text())["steps"]


def owner_steps(chapter, file_name):
    return [s["step"] for s in steps_of(chapter) if file_name in s["files"]]


def regions(solution_text):
    """(begin line, end line, step tag or None) of every BEGIN/END SOLUTION region."""
    lines = solution_text.splitlines()
    found, start = [], None
    for i, line in enumerate(lines):
        if sync_exercises.BEGIN.match(line):
            start = i
        elif sync_exercises.END.match(line) and start is not None:
            tag = next((STEP_TAG.search(l) for l in lines[start + 1:i] if STEP_TAG.search(l)),
                       None)
            found.append((start, i, int(tag.group(1)) if tag else None))
            start = None
    return found


def step_regions(chapter, file_name, step, solution_text):
    """The regions of the file that belong to `step`, in file order."""
    owners = owner_steps(chapter, file_name)
    mine = []
    for begin, end, tag in regions(solution_text):
        if tag is None and len(owners) != 1:
            raise FillError(f"solutions/{chapter}/{file_name}:{begin + 1}: an untagged TODO in "
                            f"a file of steps {owners}: tag it '// TODO (step N):'")
        if (tag if tag is not None else owners[0]) == step:
            mine.append((begin, end))
    return mine


def filled_text(chapter, file_name, step, codes=None, top=()):
    """The exercise file as a learner who did only `step` would have it: each of the step's
    TODOs followed by codes[i] (None: the reference code of that region), the other steps'
    TODOs left open, and the `top` lines after the file's last #include."""
    solution_text = (ROOT / "solutions" / chapter / file_name).read_text()
    lines = solution_text.splitlines(keepends=True)
    mine = step_regions(chapter, file_name, step, solution_text)
    if not mine:
        raise FillError(f"solutions/{chapter}/{file_name} has no TODO of step {step}")
    if codes is not None and len(codes) != len(mine):
        raise FillError(f"step {step} has {len(mine)} TODO region(s) in {file_name}, "
                        f"the code fills {len(codes)}")
    out, i = [], 0
    for index, (begin, end) in enumerate(mine):
        out += lines[i:begin]
        body = lines[begin + 1:end]
        todo = 0
        while todo < len(body) and sync_exercises.COMMENT.match(body[todo]):
            todo += 1
        out += body[:todo]  # the TODO comment stays, as in the learner's file
        if codes is None:
            out += body[todo:]
        else:
            out.append(codes[index] if codes[index].endswith("\n") else codes[index] + "\n")
        i = end + 1
    out += lines[i:]
    if top:
        last_include = max((n for n, line in enumerate(out) if INCLUDE.match(line)), default=-1)
        out[last_include + 1:last_include + 1] = [t + "\n" for t in top]
    return sync_exercises.exercise_text("".join(out), chapter, f"solutions/{chapter}/{file_name}")


class Alternative:
    """A correct alternative: tests/NN-name/alternatives/<name>.cu."""

    def __init__(self, path):
        self.path = Path(path)
        text = self.path.read_text()
        lines = text.splitlines()
        header = HEADER.match(lines[0]) if lines else None
        if not header:
            raise FillError(f"{self.path}: the first line must be "
                            "'// ALTERNATIVE NN.S file.cu'")
        self.chapter = chapter_dir(header.group(1)).name
        self.step = int(header.group(2))
        self.file = header.group(3)
        self.name = self.path.stem
        self.top, self.codes, section = [], [], None
        for line in lines[1:]:
            if line.strip() == "// @top":
                section = "top"
            elif line.strip() == "// @region":
                section = "region"
                self.codes.append("")
            elif section == "top":
                self.top.append(line)
            elif section == "region":
                self.codes[-1] += line + "\n"
        if not self.codes:
            raise FillError(f"{self.path}: no '// @region' section")
        self.about = next((l[2:].strip() for l in lines[1:2] if l.startswith("//")), "")

    @property
    def step_id(self):
        return f"{self.chapter[:2]}.{self.step}"

    def text(self):
        return filled_text(self.chapter, self.file, self.step, self.codes, self.top)


def alternatives(which=()):
    found = [Alternative(p) for p in sorted(ROOT.glob("tests/*/alternatives/*.cu"))]
    return [a for a in found if not which or any(
        a.chapter.startswith(w) or a.name == w or a.step_id == w for w in which)]


def judge(chapter, files, step_id):
    """Puts `files` ({exercise file name: text}) into exercises/<chapter>/, runs the learner's
    `./course test step_id` and restores the shipped files, whatever happens.
    Returns (exit code, output without the echoed commands, seconds)."""
    folder = ROOT / "exercises" / chapter
    before = {name: (folder / name).read_text() for name in files}
    begin = time.time()
    try:
        for name, text in files.items():
            (folder / name).write_text(text)
        done = subprocess.run([sys.executable, str(ROOT / "course"), "test", step_id], cwd=ROOT,
                              capture_output=True, text=True)
    finally:
        for name, text in before.items():
            (folder / name).write_text(text)
    output = "\n".join(l for l in (done.stdout + done.stderr).splitlines()
                       if not l.startswith("$ "))
    return done.returncode, output, time.time() - begin


def check():
    problems, count = [], 0
    for path in sorted(ROOT.glob("tests/*/alternatives/*.cu")):
        try:
            Alternative(path).text()
            count += 1
        except (FillError, OSError, sync_exercises.MarkerError) as error:
            problems.append(str(error))
    for chapter in sorted(p.parent.name for p in (ROOT / "chapters").glob("*/steps.json")):
        for step in steps_of(chapter):
            for file_name in step["files"]:
                try:
                    filled_text(chapter, file_name, step["step"])
                except (FillError, OSError, sync_exercises.MarkerError) as error:
                    problems.append(str(error))
    print("\n".join(problems) or f"ok: every step's TODOs can be filled alone, and all "
          f"{count} alternatives fit their steps")
    return 1 if problems else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="?", help="a step (03.1) or an alternative's file")
    parser.add_argument("--check", action="store_true", help="no GPU: everything fits (CI)")
    args = parser.parse_args(argv)
    try:
        if args.check:
            return check()
        if args.what is None:
            parser.error("name a step or an alternative, or give --check")
        match = re.fullmatch(r"(\d+)\.(\d+)", args.what)
        if match:
            chapter = chapter_dir(match.group(1)).name
            step = next((s for s in steps_of(chapter) if s["step"] == int(match.group(2))), None)
            if step is None:
                raise FillError(f"chapter {chapter} has no step {match.group(2)}")
            for file_name in step["files"]:
                print(filled_text(chapter, file_name, step["step"]), end="")
        else:
            print(Alternative(args.what).text(), end="")
    except FillError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
