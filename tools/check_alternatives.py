"""Puts each correct alternative (tests/NN-name/alternatives/*.cu: a step's TODOs done in
another style than the solution's) into the learner's exercise file and runs `./course test
NN.S` on it, as a learner who wrote it would. Every one must PASS: a check that rejects correct
code teaches the wrong lesson. The exercise file is restored afterwards, whatever happens.
(tools/fill_todos.py describes the file format; its --check, in the host suite, proves without a
GPU that every alternative still fits its step.)

usage (from the repository root, on a GPU machine, with a configured build/; see README.md):
    python3 -m tools.check_alternatives [WHICH ...]   WHICH: a chapter prefix (06), a step
                                                      (06.3) or an alternative's name (all)
"""
import argparse
import sys

from tools import fill_todos


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*")
    args = parser.parse_args(argv)
    accepted = rejected = 0
    for alternative in fill_todos.alternatives(args.which):
        rc, output, seconds = fill_todos.judge(alternative.chapter,
                                               {alternative.file: alternative.text()},
                                               alternative.step_id)
        accepted += rc == 0
        rejected += rc != 0
        verdict = "accepted" if rc == 0 else "REJECTED"
        print(f"===== {alternative.step_id} {alternative.name}: {verdict} ({seconds:.0f} s)  "
              f"{alternative.about}")
        print(output, flush=True)
    print(f"{accepted} alternatives accepted, {rejected} rejected")
    return 1 if rejected or accepted == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
