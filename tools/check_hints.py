"""Checks that each step's hints have one home: the "hint" and "recipe" of the step in its
chapter's steps.json.

For every chapter (chapters/NN-name/):
  - every step of steps.json has a non-empty "hint" that asks a question (it contains a '?'),
    the first level shown by `./course hint NN.S`, and a non-empty "recipe", the second level
    shown by `./course hint NN.S --more` (the concrete steps, still not the code);
  - README.md has no "**Hint" paragraph and does not repeat the text of any step's hint or
    recipe, whole
    or one of its sentences (compared case-insensitively, with whitespace and markdown
    backticks and emphasis marks normalised), so the two can never drift apart again;
  - every `./course hint NN.S` in README.md names a step that exists.
The README points at the hint instead: **Stuck?** `./course hint 05.3` asks the question ...

usage (from the repository root):
    python3 -m tools.check_hints    exit 1 and name chapter, step and problem; print ok otherwise
"""
import argparse
import json
import re
import sys
from pathlib import Path

CHAPTER_DIR = re.compile(r"^\d\d-")
HINT_PARAGRAPH = re.compile(r"\*\*\s*Hint\b", re.IGNORECASE)
HINT_COMMAND = re.compile(r"\./course hint (\d+)\.(\d+)")
SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
# Sentences shorter than this many words are too common to say "the README repeats the hint".
MIN_SENTENCE_WORDS = 6


def normalise(text):
    """Lower case, no markdown backticks or emphasis marks, single spaces."""
    text = text.replace("`", "").replace("*", "")
    return " ".join(text.split()).lower()


def hint_pieces(hint):
    """The normalised whole hint, then each sentence of it long enough to be telling."""
    whole = normalise(hint)
    pieces = [whole]
    for sentence in SENTENCE_END.split(whole):
        sentence = sentence.strip(" ()")
        if len(sentence.split()) >= MIN_SENTENCE_WORDS and sentence not in pieces:
            pieces.append(sentence)
    return pieces


def check_chapter(chapter_dir, root):
    """Problems of one chapter, each as a line naming chapter and step."""
    name = chapter_dir.name
    problems = []
    steps_path = chapter_dir / "steps.json"
    if not steps_path.is_file():
        return [f"{name}: no steps.json (every chapter lists its steps and their hints there)"], 0
    try:
        steps = json.loads(steps_path.read_text())["steps"]
    except (ValueError, KeyError, TypeError) as error:
        return [f"{name}: steps.json cannot be read ({error!r})"], 0
    number = name.split("-")[0]
    hints = {}
    recipes = {}
    for index, step in enumerate(steps):
        step_id = f"{number}.{step.get('step', f'?{index}')}"
        hint = step.get("hint")
        if not isinstance(hint, str) or not hint.strip():
            problems.append(f"{name} step {step_id}: steps.json has no hint (a question to "
                            "think about, shown by ./course hint)")
            continue
        if "?" not in hint:
            problems.append(f"{name} step {step_id}: the hint asks no question (no '?'): "
                            f"{hint!r}")
        hints[step_id] = hint
        recipe = step.get("recipe")
        if not isinstance(recipe, str) or not recipe.strip():
            problems.append(f"{name} step {step_id}: steps.json has no recipe (the concrete "
                            "steps, still not the code, shown by ./course hint --more)")
        else:
            recipes[step_id] = recipe
    readme_path = chapter_dir / "README.md"
    if not readme_path.is_file():
        return problems, len(steps)
    readme = readme_path.read_text()
    shown = readme_path.relative_to(root)
    for line_number, line in enumerate(readme.splitlines(), start=1):
        if HINT_PARAGRAPH.search(line):
            problems.append(f"{name}: {shown}:{line_number} has a hint paragraph; the hint "
                            "belongs in steps.json only (point at it: **Stuck?** "
                            f"`./course hint {number}.S` asks the question to think about.)")
        for match in HINT_COMMAND.finditer(line):
            step_id = f"{match.group(1)}.{match.group(2)}"
            if match.group(1) != number or int(match.group(2)) not in {
                    s.get("step") for s in steps}:
                problems.append(f"{name}: {shown}:{line_number} points at ./course hint "
                                f"{step_id}, which is not a step of this chapter")
    text = normalise(readme)
    for kind, texts, command in (("hint", hints, "./course hint"),
                                 ("recipe", recipes, "./course hint --more")):
        for step_id, hint in texts.items():
            for piece in hint_pieces(hint):
                if piece in text:
                    what = (f"the step's {kind}" if piece == normalise(hint)
                            else f"a sentence of the step's {kind}, '{piece}'")
                    where = command.replace("hint", f"hint {step_id}")
                    problems.append(f"{name} step {step_id}: {shown} repeats {what}; keep it in "
                                    f"steps.json only and point at it with {where}")
                    break
    return problems, len(steps)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(), help="repository root")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    chapter_dirs = sorted(p for p in (root / "chapters").iterdir()
                          if p.is_dir() and CHAPTER_DIR.match(p.name)) \
        if (root / "chapters").is_dir() else []
    if not chapter_dirs:
        print(f"error: no chapters/NN-name/ folder under {root}")
        return 1
    problems = []
    step_count = 0
    for chapter_dir in chapter_dirs:
        chapter_problems, count = check_chapter(chapter_dir, root)
        problems += chapter_problems
        step_count += count
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s): each step's hint (a question) and recipe live in its "
              "chapter's steps.json only; the README points at them with ./course hint NN.S")
        return 1
    print(f"ok: {step_count} steps in {len(chapter_dirs)} chapters, each with a question as its "
          "hint and a recipe in steps.json, and no README repeats either")
    return 0


if __name__ == "__main__":
    sys.exit(main())
