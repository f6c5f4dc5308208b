"""Writes what a learner writes: the shipped exercise file with one step's TODOs filled in, and
judges it with the learner's own `./course test NN.S`.

Such files are:
  - the reference code of step S alone (tools/check_steps_alone.py: every step must pass with
    only its own TODOs done, and fail as shipped);
  - a correct alternative, written in another style (tests/NN-name/alternatives/*.cu, which
    `./course test` must accept: tools/check_alternatives.py);
  - a known mistake of the manifest, planted (tools/plant_mistakes.py: must be rejected).

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
    python3 -m tools.fill_todos 03.1             print the exercise with step 3.1's TODOs done
    python3 -m tools.fill_todos tests/06-*/alternatives/cg_reduce.cu   the same, an alternative
    python3 -m tools.fill_todos --check          no GPU: every step's TODOs can be filled alone,
                                                 and every alternative fits its step (CI)
"""
import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

from common.scripts import manifest, regions

ROOT = Path(__file__).resolve().parent.parent
HEADER = re.compile(r"^// ALTERNATIVE (\d+)\.(\d+) (\S+)\s*$")
INCLUDE = re.compile(r"^\s*#\s*include\b")


class FillError(Exception):
    pass


def chapter(number):
    """The chapter '03' or '3' names."""
    found = [c for c in manifest.chapters(ROOT / "chapters") if int(c.number) == int(number)]
    if not found:
        raise FillError(f"there is no chapter {number}")
    return found[0]


def filled_text(chapter, file_name, step, codes=None, top=()):
    """The exercise file as a learner who did only `step` would have it: each of the step's
    TODOs followed by codes[i] (None: the reference code), the other steps' TODOs left open,
    and the `top` lines after the file's last #include."""
    text = chapter.solution_text(file_name)
    name = f"solutions/{chapter.name}/{file_name}"
    mine = [i for i, r in enumerate(regions.regions(text, name)) if r.step == step]
    if not mine:
        raise FillError(f"{name} has no TODO of step {step}")
    if codes is not None and len(codes) != len(mine):
        raise FillError(f"step {step} has {len(mine)} TODO region(s) in {file_name}, the code "
                        f"fills {len(codes)}")
    filled = regions.filled_text(text, chapter.name, name,
                                 {index: None if codes is None else codes[k]
                                  for k, index in enumerate(mine)})
    if not top:
        return filled
    lines = filled.splitlines(keepends=True)
    last_include = max((n for n, line in enumerate(lines) if INCLUDE.match(line)), default=-1)
    lines[last_include + 1:last_include + 1] = [t + "\n" for t in top]
    return "".join(lines)


class Alternative:
    """A correct alternative: tests/NN-name/alternatives/<name>.cu."""

    def __init__(self, path):
        self.path = Path(path)
        lines = self.path.read_text().splitlines()
        header = HEADER.match(lines[0]) if lines else None
        if not header:
            raise FillError(f"{self.path}: the first line must be '// ALTERNATIVE NN.S file.cu'")
        self.chapter = chapter(header.group(1))
        self.step, self.file, self.name = int(header.group(2)), header.group(3), self.path.stem
        self.top, self.codes, section = [], [], None
        for line in lines[1:]:
            if line.strip() in ("// @top", "// @region"):
                section = line.strip()[4:]
                if section == "region":
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
        return f"{self.chapter.number}.{self.step}"

    def text(self):
        return filled_text(self.chapter, self.file, self.step, self.codes, self.top)


def alternatives(which=()):
    found = [Alternative(p) for p in sorted(ROOT.glob("tests/*/alternatives/*.cu"))]
    return [a for a in found if not which or any(
        a.chapter.name.startswith(w) or a.name == w or a.step_id == w for w in which)]


def judge(chapter, files, step_id):
    """Puts `files` ({exercise file name: text}) into exercises/<chapter>/, runs the learner's
    `./course test step_id` and restores the shipped files, whatever happens.
    Returns (exit code, output without the echoed commands, seconds)."""
    folder = ROOT / "exercises" / chapter.name
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
        except (FillError, OSError, regions.RegionError) as error:
            problems.append(str(error))
    for each in manifest.chapters(ROOT / "chapters"):
        for step in each.steps:
            for file_name in step.files or ["(none)"]:
                try:
                    filled_text(each, file_name, step.number)
                except (FillError, OSError, regions.RegionError) as error:
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
            found = chapter(match.group(1))
            for file_name in found.step(int(match.group(2))).files:
                print(filled_text(found, file_name, int(match.group(2))), end="")
        else:
            print(Alternative(args.what).text(), end="")
    except (FillError, manifest.ManifestError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
