"""Draws every chapter's figures: each chapters/NN-name/figures/*.svg comes from the draw.py beside
it, whose FIGURES maps the SVG's file name to the function that returns its text.

usage (from the repository root):
    python3 -m tools.figures           rewrite every SVG that differs from what its script draws
    python3 -m tools.figures --check   exit 1 and name every SVG that differs from what its script
                                       draws, is missing, or is drawn by no script; print ok
"""
import argparse
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = "chapters/*/figures/draw.py"


def draw_all(root=ROOT):
    """{SVG path relative to root: the text its folder's draw.py draws}."""
    drawn = {}
    for script in sorted(root.glob(SCRIPTS)):
        # run_path, not import: the scripts live outside any package.
        for name, draw in runpy.run_path(str(script)).get("FIGURES", {}).items():
            drawn[(script.parent / name).relative_to(root).as_posix()] = draw()
    return drawn


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 on a problem")
    parser.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    drawn = draw_all(args.root)
    on_disk = sorted(svg.relative_to(args.root).as_posix()
                     for svg in args.root.glob("chapters/*/figures/*.svg"))
    # A figure that no script draws cannot be redrawn, only deleted or given a function in
    # FIGURES: a problem even without --check.
    problems = [f"{path}: no draw.py draws it (add it to FIGURES or delete it)"
                for path in on_disk if path not in drawn]
    for path, text in drawn.items():
        target = args.root / path
        if not target.exists() or target.read_text(encoding="utf-8") != text:
            if args.check:
                problems.append(f"{path}: " + ("differs from what its draw.py draws"
                                                if target.exists() else "missing, yet drawn"))
            else:
                target.write_text(text, encoding="utf-8")
                print(f"wrote {path}")
    if problems:
        print("\n".join(problems), file=sys.stderr)
        if args.check:
            print("redraw with: python3 -m tools.figures", file=sys.stderr)
        return 1
    print(f"ok: {len(drawn)} figures are what the draw.py beside them draws")
    return 0


if __name__ == "__main__":
    sys.exit(main())
