"""Proves on a GPU that every step stands alone: for each step S of a chapter,
  - the shipped exercise with ONLY step S's TODOs done (the reference code) passes
    `./course test NN.S`, whatever the other steps' TODOs hold (still open);
  - the shipped exercise fails `./course test NN.S`.
It prints one row a step and exits 1 if any step does not stand alone. The exercise files are
restored afterwards, whatever happens.

usage (from the repository root, on a GPU machine, with a configured build/; see README.md):
    python3 -m tools.check_steps_alone [WHICH ...]     chapters or steps, e.g. 03 06.5 (all)
    python3 -m tools.check_steps_alone --verbose 03    also print what ./course test said
"""
import argparse
import sys

from common.scripts import manifest
from tools import fill_todos


def check_step(chapter, step, verbose):
    shipped_rc, shipped_out, shipped_s = fill_todos.judge(chapter, {}, step.id)
    files = {f: fill_todos.filled_text(chapter, f, step.number) for f in step.files}
    alone_rc, alone_out, alone_s = fill_todos.judge(chapter, files, step.id)
    ok = alone_rc == 0 and shipped_rc != 0
    first_line = next((l.strip() for l in shipped_out.splitlines()
                       if l.strip().startswith(("FAIL", "PASS", "course:"))), "")
    print(f"{step.id:<6} {'PASS' if alone_rc == 0 else 'FAIL':<6} ({alone_s:4.0f} s)   "
          f"{'FAIL' if shipped_rc else 'PASS':<6} ({shipped_s:4.0f} s)   "
          f"{'ok' if ok else 'DOES NOT STAND ALONE'}   shipped: {first_line[:80]}", flush=True)
    if verbose or alone_rc != 0:
        print("   --- with only its own TODOs done:\n   " + alone_out.replace("\n", "\n   "))
    if verbose or shipped_rc == 0:
        print("   --- as shipped:\n   " + shipped_out.replace("\n", "\n   "))
    return ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("which", nargs="*",
                        help="chapters (07) or steps (07.5); default: every step of every chapter")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args(argv)
    print(f"{'step':<6} {'alone':<6} {'':8}   {'shipped':<6} {'':8}")
    results = [check_step(chapter, step, args.verbose)
               for chapter in manifest.chapters(fill_todos.ROOT / "chapters")
               for step in chapter.steps
               if not args.which or any(w in (chapter.number, step.id) for w in args.which)]
    bad = results.count(False)
    print(f"{len(results) - bad} steps stand alone, {bad} do not")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
