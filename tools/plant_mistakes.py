"""Plants each known mistake of the manifests into the learner's exercise file and runs
`./course test NN.S` on it, as a learner who made that mistake would see it. Every one must
FAIL, with a message that names the kind of bug and the learner's file.

A mistake is the step's solution file with a few exact text edits (its "plant" in
chapters/NN-name/steps.json). The course's own suite builds the same edit into a test binary of
its own (the Meson test "known mistake NAME is rejected", common/scripts/judge.py); this tool
checks the learner's path through ./course. The exercise file is restored afterwards, whatever
happens.

usage (from the repository root, on a GPU machine, with a configured build/; see README.md):
    python3 -m tools.plant_mistakes [WHICH ...]    WHICH: a chapter prefix such as 05, or a
                                                   mistake's name (default: all)
"""
import argparse
import sys

from common.scripts import manifest
from tools import fill_todos


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*",
                        help="chapter prefixes (05) or mistake names (default: all)")
    args = parser.parse_args(argv)
    caught = missed = 0
    for chapter in manifest.chapters(fill_todos.ROOT / "chapters"):
        for mistake in chapter.mistakes:
            if args.which and not any(chapter.name.startswith(w) or mistake.name == w
                                      for w in args.which):
                continue
            # The whole solution with the bug: the step's tests run its own piece alone.
            rc, output, seconds = fill_todos.judge(chapter, {mistake.file: mistake.text()},
                                                   chapter.step(mistake.step).id)
            caught += rc != 0
            missed += rc == 0
            verdict = "rejected" if rc else "NOT CAUGHT"
            print(f"===== {chapter.number}.{mistake.step} {mistake.name}: {verdict} "
                  f"({seconds:.0f} s)")
            print(output, flush=True)
    print(f"{caught} planted mistakes rejected, {missed} not caught")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
