#!/usr/bin/env python3
"""Regenerates exercises/ from solutions/: the solution is the single source of truth.

Each exercise opens with a banner naming the command that checks it: `./course test NN.S` for
the file's step(s) (chapters/NN-name/steps.json lists each step's files), then the Meson suite.

In a solution file, the answer to a step sits between two marker lines; the comment lines right
after the opening marker say what to do and stay in the exercise as its TODO:

        // BEGIN SOLUTION
        // TODO: thread t adds the squares of elements t, t + blockDim.x, ...
        //       and writes its sum to partials[t].
        unsigned long long sum = 0;              <- removed from the exercise
        ...
        // END SOLUTION

Everything outside the markers (includes, signatures, argument checks, launchers) is copied, with
the namespace `solution` renamed to `exercise` so that one binary can hold both.

usage (from the repository root):
    tools/sync_exercises.py            rewrite exercises/ from solutions/
    tools/sync_exercises.py --check    exit 1 and list the files that differ (CI runs this)
"""
import argparse
import json
import re
import sys
from pathlib import Path

BEGIN = re.compile(r"^(\s*)// BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*// END SOLUTION\s*$")
TODO_START = re.compile(r"^\s*// TODO\b")
COMMENT = re.compile(r"^\s*//")
NAMESPACE = re.compile(r"\bnamespace ((?:\w+::)*)solution\b")
SOURCE_SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h"}
REPOSITORY = Path(__file__).resolve().parent.parent


class MarkerError(Exception):
    pass


def file_steps(root, chapter):
    """{file name: [step numbers]} from chapters/<chapter>/steps.json (each step lists its
    files); {} where the chapter has none."""
    path = Path(root) / "chapters" / chapter / "steps.json"
    if not path.is_file():
        return {}
    steps = {}
    for step in json.loads(path.read_text())["steps"]:
        for name in step["files"]:
            steps.setdefault(name, []).append(step["step"])
    return steps


def banner(chapter, steps=()):
    """The first lines of an exercise file: the learner's command for the file's step(s) first,
    then the Meson command that prints the messages too."""
    number = chapter.split("-")[0]
    ids = [f"{number}.{s}" for s in steps]
    command = f"./course test {ids[0] if ids else number}"
    if len(ids) > 1:
        command += f"   (and {', '.join(ids[1:])}: this file's steps, one at a time)"
    return (f"// Exercise file: replace every TODO below with your code. Check it with\n"
            f"//   {command}\n"
            f"// (or: meson test -C build --suite {chapter}:exercise --print-errorlogs)\n"
            f"// (generated from solutions/{chapter}/ by tools/sync_exercises.py)\n")


def exercise_text(solution_text, chapter, name="<text>", steps=None):
    """The exercise version of one solution file. `steps`: the step numbers of the file, for
    the banner; by default those that this repository's steps.json gives the file `name`."""
    if steps is None:
        steps = () if name == "<text>" else file_steps(REPOSITORY, chapter).get(Path(name).name, ())
    out = []
    lines = solution_text.splitlines(keepends=True)
    i = 0
    while i < len(lines):
        line = lines[i]
        begin = BEGIN.match(line)
        if END.match(line):
            raise MarkerError(f"{name}:{i + 1}: END SOLUTION without BEGIN SOLUTION")
        if not begin:
            out.append(NAMESPACE.sub(lambda m: f"namespace {m.group(1)}exercise", line))
            i += 1
            continue
        start = i
        i += 1
        if i >= len(lines) or not TODO_START.match(lines[i]):
            raise MarkerError(f"{name}:{start + 1}: BEGIN SOLUTION must be followed by a "
                              "'// TODO: ...' line saying what the learner writes here")
        while i < len(lines) and COMMENT.match(lines[i]) and not END.match(lines[i]):
            out.append(lines[i])  # the TODO comment stays
            i += 1
        while i < len(lines) and not END.match(lines[i]):
            if BEGIN.match(lines[i]):
                raise MarkerError(f"{name}:{i + 1}: BEGIN SOLUTION inside another one "
                                  f"(opened at line {start + 1})")
            i += 1
        if i >= len(lines):
            raise MarkerError(f"{name}:{start + 1}: BEGIN SOLUTION is never closed")
        i += 1  # skip END SOLUTION
    return banner(chapter, steps) + "".join(out)


def expected_exercises(root):
    """{exercise path: text} for every source file under solutions/."""
    expected = {}
    for solution in sorted((root / "solutions").rglob("*")):
        if not solution.is_file() or solution.suffix not in SOURCE_SUFFIXES:
            continue
        relative = solution.relative_to(root / "solutions")
        chapter = relative.parts[0]
        steps = file_steps(root, chapter).get("/".join(relative.parts[1:]), ())
        expected[root / "exercises" / relative] = exercise_text(
            solution.read_text(), chapter, str(solution.relative_to(root)), steps)
    return expected


def existing_exercises(root):
    return {p for p in (root / "exercises").rglob("*")
            if p.is_file() and p.suffix in SOURCE_SUFFIXES}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report exercises that differ from what solutions/ give")
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="repository root")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    try:
        expected = expected_exercises(root)
    except MarkerError as error:
        print(f"error: {error}")
        return 1
    stale = sorted(existing_exercises(root) - set(expected))
    differing = sorted(p for p, text in expected.items()
                       if not p.is_file() or p.read_text() != text)
    if args.check:
        for path in differing:
            print(f"out of sync: {path.relative_to(root)}")
        for path in stale:
            print(f"no solution for: {path.relative_to(root)}")
        if differing or stale:
            print("exercises/ does not match solutions/. Maintainers: run "
                  "tools/sync_exercises.py and commit. (A learner who is editing exercises/ "
                  "will see this too: it only means your work differs from the shipped start.)")
            return 1
        print(f"ok: {len(expected)} exercise files match solutions/")
        return 0
    for path in differing:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(expected[path])
        print(f"wrote {path.relative_to(root)}")
    for path in stale:
        path.unlink()
        print(f"removed {path.relative_to(root)} (no solution file)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
