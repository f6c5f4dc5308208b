#!/usr/bin/env python3
"""Plants each known mistake into the learner's exercise file and runs `./course test NN.S` on
it, as a learner who made that mistake would see it. Every one must FAIL, with a message that
names the kind of bug and the learner's file.

tests/NN-name/mistakes/ holds the same mistakes as separate kernels, which the `mistakes` suite
checks on every run. This tool checks the other half: that the learner's own run (the step's
tests and its compute-sanitizer checks, through ./course) catches them in the learner's file.
A plant is the step's solution file with a few exact text edits (a mistake's "plant" in
chapters/NN-name/steps.json, the chapter's manifest); the exercise file is restored afterwards,
whatever happens.

usage (from the repository root; a configured `build/`, see README.md):
    tools/plant_mistakes.py [WHICH ...]   on a GPU machine: plant, test, restore (WHICH: a
                                          chapter prefix such as 05, or a mistake's name)
    tools/plant_mistakes.py --check                no GPU: every edit still applies, every
                                                   mistake and sanitizer case exists (CI)
"""
import argparse
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
import fill_todos  # noqa: E402
sys.path.insert(0, str(ROOT))
import course_tool  # noqa: E402,F401  (puts common/scripts on the path)
from sanitizer_check import camel_case  # noqa: E402
NAMESPACE = re.compile(r"\bnamespace ((?:\w+::)*)solution\b")

def plants():
    """(chapter, step, file, mistake, [(old, new), ...]) of every "plant" in the chapters'
    steps.json "mistakes" (the mistake as named in tests/<chapter>/mistakes/)."""
    found = []
    for manifest in sorted((ROOT / "chapters").glob("[0-9][0-9]-*/steps.json")):
        chapter = manifest.parent.name
        for mistake in json.loads(manifest.read_text()).get("mistakes", []):
            if "plant" in mistake:
                edits = [(edit["replace"], edit["with"]) for edit in mistake["plant"]]
                found.append((chapter, mistake["step"], mistake["file"], mistake["name"], edits))
    return found


def planted_text(chapter, file_name, edits):
    """The solution file with the edits made, in the exercise's namespace."""
    text = (ROOT / "solutions" / chapter / file_name).read_text()
    for old, new in edits:
        if text.count(old) != 1:
            raise ValueError(f"solutions/{chapter}/{file_name}: this edit no longer matches "
                             f"exactly once (update its \"plant\" in steps.json): "
                             f"{old.strip()[:70]!r}")
        text = text.replace(old, new)
    return NAMESPACE.sub(lambda m: f"namespace {m.group(1)}exercise", text)


def check():
    problems = []
    for chapter, step, file_name, mistake, edits in plants():
        try:
            planted_text(chapter, file_name, edits)
        except (OSError, ValueError) as error:
            problems.append(str(error))
    for manifest in sorted((ROOT / "chapters").glob("[0-9][0-9]-*/steps.json")):
        chapter = manifest.parent.name
        tests = ROOT / "tests" / chapter
        kernels = "".join(p.read_text() for p in (tests / "mistakes").glob("*"))
        for mistake in json.loads(manifest.read_text()).get("mistakes", []):
            name = mistake["name"]
            if name not in kernels:
                problems.append(f"{name}: not a mistake of tests/{chapter}/mistakes/")
            test = f"MistakesSeenBySanitizers, {camel_case(name)})"
            if "sanitizer" in mistake and test not in (tests / "test_mistakes.cpp").read_text():
                problems.append(f"{name}: tests/{chapter}/test_mistakes.cpp has no TEST({test}")
    print("\n".join(problems) or f"ok: all {len(plants())} plants apply to solutions/, and every "
          "mistake in the steps.json files has its kernel and sanitizer test")
    return 1 if problems else 0


def plant_and_test(which):
    caught = missed = 0
    for chapter, step, file_name, mistake, edits in sorted(plants(), key=lambda p: p[:2]):
        if which and not any(chapter.startswith(w) or mistake == w for w in which):
            continue
        rc, output, seconds = fill_todos.judge(
            chapter, {file_name: planted_text(chapter, file_name, edits)}, f"{chapter[:2]}.{step}")
        caught += rc != 0
        missed += rc == 0
        verdict = "rejected" if rc else "NOT CAUGHT"
        print(f"===== {chapter[:2]}.{step} {mistake}: {verdict} ({seconds:.0f} s)")
        print(output, flush=True)
    print(f"{caught} planted mistakes rejected, {missed} not caught")
    return 1 if missed else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only check that every plant applies (no GPU, no build)")
    parser.add_argument("which", nargs="*",
                        help="chapter prefixes (05) or mistake names (default: all)")
    args = parser.parse_args(argv)
    return check() if args.check else plant_and_test(args.which)


if __name__ == "__main__":
    sys.exit(main())
