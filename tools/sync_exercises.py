"""Regenerates exercises/ from solutions/: the solution is the single source of truth. Each
region of learner's code becomes its TODO (common/scripts/regions.py), the namespace `solution`
becomes `exercise`, and a banner names the command that checks the file.

usage (from the repository root):
    python3 -m tools.sync_exercises            rewrite exercises/ from solutions/
    python3 -m tools.sync_exercises --check    exit 1 and list the files that differ (CI runs this)
"""
import argparse
import sys
from pathlib import Path

from common.scripts import regions

SOURCE_SUFFIXES = {".cu", ".cuh", ".cpp", ".hpp", ".h"}
ROOT = Path(__file__).resolve().parent.parent


def expected_exercises(root):
    """{exercise path: text} for every source file under solutions/."""
    expected = {}
    for solution in sorted((root / "solutions").rglob("*")):
        if solution.is_file() and solution.suffix in SOURCE_SUFFIXES:
            relative = solution.relative_to(root / "solutions")
            expected[root / "exercises" / relative] = regions.exercise_text(
                solution.read_text(), relative.parts[0], str(solution.relative_to(root)))
    return expected


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help="only report exercises that differ from what solutions/ give")
    parser.add_argument("--root", type=Path, default=ROOT, help="repository root")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    try:
        expected = expected_exercises(root)
    except regions.RegionError as error:
        print(f"error: {error}")
        return 1
    stale = sorted({p for p in (root / "exercises").rglob("*")
                    if p.is_file() and p.suffix in SOURCE_SUFFIXES} - set(expected))
    differing = sorted(p for p, text in expected.items()
                       if not p.is_file() or p.read_text() != text)
    if args.check:
        for path in differing:
            print(f"out of sync: {path.relative_to(root)}")
        for path in stale:
            print(f"no solution for: {path.relative_to(root)}")
        if differing or stale:
            print("exercises/ does not match solutions/. Maintainers: run python3 -m "
                  "tools.sync_exercises and commit. (A learner who is editing exercises/ will see "
                  "this too: it only means your work differs from the shipped start.)")
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
