"""Checks every chapter against docs/chapter-anatomy.md: its files, its links, its manifest's
keys and layout, its README's sections and their order, and that each step's hint, clue and
recipe live in the manifest only and never repeat its solution's code. Each problem names the
chapter, the file and the rule; the rules are those marked [checked] in docs/chapter-anatomy.md.

usage (from the repository root): python3 -m tools.check_chapter_anatomy [--root DIR]
"""
import argparse
import json
import re
import sys
from pathlib import Path

from common.scripts import regions
from common.scripts.manifest import Chapter, ManifestError

MANIFEST_KEYS = {"title", "builds_on", "steps", "mistakes", "contrasts"}
STEP_KEYS = {"step", "title", "target", "hint", "clue", "recipe", "profile"}
STEP_REQUIRED = {"step", "title", "hint", "clue", "recipe"}
EDIT_KEYS = {"mistake": ({"name", "step", "plant", "sanitizer"}, {"name", "step", "plant"}),
             "contrast": ({"name", "step", "meaning", "plant"},) * 2}
# link -> where it leads, from chapters/NN-name (the chapter's name fills {})
LINKS = {"exercise": "exercises/{}", "solution": "solutions/{}", "tests": "tests/{}",
         "meson.build": "common/chapter.meson", "meson_options.txt": "common/meson_options.txt",
         "subprojects/course-common": "common"}
MEASURED = re.compile(r"measured-([a-z0-9-]+)\.json")
STEP_HEADING = re.compile(r"## Steps? (\d+)(?:-(\d+))?\b")
TAIL = ["## Measured results", "## What the profiler shows",
        "## Tests, and the mistakes they catch", "## Bad input", "## Sources"]
HINT_PARAGRAPH = re.compile(r"\*\*\s*Hint\b", re.IGNORECASE)
HINT_COMMAND = re.compile(r"\./course hint (\d+)\.(\d+)")
SENTENCE_END = re.compile(r"(?<=[.?!])\s+")
# Sentences shorter than this many words are too common to say "the README repeats the hint".
MIN_SENTENCE_WORDS = 6
# A hint tier and the step's code may share no run of this many tokens (hint_problems).
SHARED_RUN = 5
TOKEN = re.compile(r"\w+|\S")
EMPHASIS = re.compile(r"`|(?<![\w*])\*+(?=\w)|(?<=\w)\*+(?![\w*])")
TIERS = {"hint": "", "clue": " --more", "recipe": " --recipe"}


def chapters_built_on(root, chapter, seen=None):
    """The chapters of the manifest's builds_on, and the ones those build on: the chapter's
    subprojects/ links to each let it configure alone."""
    seen = set() if seen is None else seen
    try:
        direct = json.loads((root / "chapters" / chapter / "steps.json").read_text()).get(
            "builds_on", [])
    except (OSError, ValueError):
        return seen
    for other in direct:
        if isinstance(other, str) and other not in seen:
            seen.add(other)
            chapters_built_on(root, other, seen)
    return seen


def file_problems(root, chapter):
    name = chapter[3:].replace("-", "_")
    here = root / "chapters" / chapter
    problems = [f"{path.relative_to(root)} is missing" for path in (
        here / "README.md", here / "steps.json", here / f"{name}.cuh",
        here / "figures" / "draw.py", root / "tests" / chapter / f"test_{name}.cpp")
        if not path.is_file()]
    if len([p for p in here.glob(f"bench_{name}.*") if p.suffix in (".cu", ".cpp")]) != 1:
        problems.append(f"chapters/{chapter}: needs one benchmark, bench_{name}.cu or .cpp")
    links = dict(LINKS)
    links.update({f"subprojects/{other}": f"chapters/{other}"
                  for other in chapters_built_on(root, chapter)})
    for link, target in links.items():
        path, target = here / link, root / target.format(chapter)
        if not path.is_symlink() or path.resolve() != target.resolve():
            problems.append(f"chapters/{chapter}/{link} must be a link to "
                            f"{target.relative_to(root)}")
    api = here / f"{name}.cuh"
    api_text = api.read_text() if api.is_file() else ""
    where = f"chapters/{chapter}/{name}.cuh"
    if api_text and not re.search(rf"^namespace {name}\b", api_text, re.M):
        problems.append(f"{where}: the API's namespace must be {name}")
    declare = re.search(r"^#define (\w+_DECLARE_\w+)", api_text, re.M)
    if api_text and not (declare and all(
            re.search(rf"namespace {side} {{\s*{declare.group(1)}\b", api_text)
            for side in ("solution", "exercise"))):
        problems.append(f"{where}: must declare the steps once, by a macro NAME_DECLARE_... "
                        "used in namespace solution and namespace exercise")
    if re.search(r"\bStepInfo kSteps\[\]|\bkStepCount\s*=(?!=)", api_text):
        problems.append(f"{where}: the step table and count are generated ({name}_steps.hpp, "
                        "from steps.json): include it instead of writing them")

    readme = (here / "README.md").read_text() if (here / "README.md").is_file() else ""
    measured = sorted(here.glob("measured-*.json"))
    if not measured:
        problems.append(f"chapters/{chapter}: no measured-GPU.json (./course compare "
                        f"{chapter[:2]} --record)")
    for json_path in measured:
        chart = json_path.with_suffix(".svg")
        if not chart.is_file() or f"]({chart.name})" not in readme:
            problems.append(f"chapters/{chapter}/README.md does not show {chart.name} (a "
                            "measured charts block draws it)")
    if not re.search(r"\]\(figures/[\w-]+\.svg\)", readme):
        problems.append(f"chapters/{chapter}/README.md shows no figure from figures/")
    known = {"README.md", "steps.json", f"{name}.cuh", f"{name}_host.cpp", f"{name}_device.cuh",
             f"bench_{name}.cu", f"bench_{name}.cpp", "figures", "subprojects", *LINKS}
    for path in sorted(here.iterdir()):
        stem = path.name[:-len(path.suffix)] if path.suffix in (".json", ".svg") else ""
        if path.name in known or MEASURED.fullmatch(stem + ".json"):
            continue
        if path.name not in readme and f"{path.stem}." not in readme:
            problems.append(f"chapters/{chapter}/{path.name}: not part of a chapter's shape, and "
                            "the README does not say what it is")
    solutions = {p.name for p in (root / "solutions" / chapter).glob("*.cu")}
    exercises = {p.name for p in (root / "exercises" / chapter).glob("*.cu")}
    for file_name in sorted(solutions ^ exercises):
        problems.append(f"{chapter}: {file_name} is in only one of solutions/ and exercises/")
    return problems


def manifest_problems(root, chapter):
    path = root / "chapters" / chapter / "steps.json"
    where = f"chapters/{chapter}/steps.json"
    if not path.is_file():
        return []
    text = path.read_text()
    try:
        manifest = json.loads(text)
    except json.JSONDecodeError as error:
        return [f"{where}: not JSON ({error})"]
    problems = []
    if text != json.dumps(manifest, indent=2, ensure_ascii=False) + "\n":
        problems.append(f"{where}: not pretty-printed with a two-space indent (json.dumps(..., "
                        "indent=2, ensure_ascii=False) and a final newline)")
    entries = [("", manifest, MANIFEST_KEYS, {"title", "steps"})]
    entries += [(f": step {s.get('step', '?')}", s, STEP_KEYS, STEP_REQUIRED)
                for s in manifest.get("steps", [])]
    for kind, (allowed, required) in EDIT_KEYS.items():
        entries += [(f": {kind} {e.get('name', '?')}", e, allowed, required)
                    for e in manifest.get(kind + "s", [])]
    for label, entry, allowed, required in entries:
        problems += [f"{where}{label}: unknown key {k!r}" for k in sorted(set(entry) - allowed)]
        problems += [f"{where}{label}: no {k!r}" for k in sorted(required - set(entry))]
    numbers = [step.get("step") for step in manifest.get("steps", [])]
    if numbers != sorted(numbers) or len(set(numbers)) != len(numbers):
        problems.append(f"{where}: steps must be numbered in increasing order, got {numbers}")
    return problems


def readme_problems(root, chapter):
    here = root / "chapters" / chapter
    readme_path = here / "README.md"
    manifest_path = here / "steps.json"
    if not readme_path.is_file() or not manifest_path.is_file():
        return []
    where = f"chapters/{chapter}/README.md"
    text = readme_path.read_text()
    manifest = json.loads(manifest_path.read_text())
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    problems = []
    number = chapter[:2]
    if not text.startswith(f"# Chapter {number}: "):
        problems.append(f"{where}: must start with '# Chapter {number}: title'")
    if "](../../GLOSSARY.md)" not in text:
        problems.append(f"{where}: no link to the glossary (../../GLOSSARY.md)")

    covered = []
    for heading in headings:
        match = STEP_HEADING.match(heading)
        if match:
            first, last = int(match.group(1)), int(match.group(2) or match.group(1))
            covered += range(first, last + 1)
    steps = [s["step"] for s in manifest.get("steps", [])]
    if covered != steps:
        problems.append(f"{where}: the '## Step S' sections cover steps {covered}, steps.json "
                        f"has {steps} (one section per step, or '## Steps A-B', in order)")
    for step in steps:
        if f"./course hint {number}.{step}" not in text and f"`{number}.{step}`" not in text:
            problems.append(f"{where}: step {step} has no '**Stuck?** ./course hint "
                            f"{number}.{step}' line")

    wanted = ["## Measured results", "## Tests, and the mistakes they catch", "## Sources"]
    if any("profile" in s for s in manifest.get("steps", [])):
        wanted.append("## What the profiler shows")
    if (root / "tests" / chapter / "test_arguments.cpp").is_file():
        wanted.append("## Bad input")
    for heading in wanted:
        if heading not in headings:
            problems.append(f"{where}: no '{heading}' section")
    tail = [h for h in headings if h in TAIL]
    if tail != sorted(tail, key=TAIL.index):
        problems.append(f"{where}: the closing sections must come in the order {TAIL}, got {tail}")
    if tail and headings[-len(tail):] != tail:
        problems.append(f"{where}: after '{tail[0]}' only the closing sections {TAIL} may follow")
    last_step = max((i for i, h in enumerate(headings) if STEP_HEADING.match(h)), default=-1)
    first_tail = min((headings.index(h) for h in tail), default=len(headings))
    if last_step > first_tail:
        problems.append(f"{where}: the step sections must come before '{headings[first_tail]}'")
    return problems


def normalise(text):
    """Lower case, no markdown backticks or emphasis marks, single spaces."""
    return " ".join(text.replace("`", "").replace("*", "").split()).lower()


def tokens(text):
    """Identifiers and numbers lower-cased; every other non-space character a token."""
    return [token.lower() for token in TOKEN.findall(text)]


def code_runs(chapter, number):
    """Every run of SHARED_RUN tokens in the code lines, comments left out, of step `number`'s
    solution regions."""
    runs = set()
    for name in chapter.step(number).files:
        text = chapter.solution_text(name)
        lines = text.splitlines()
        for region in regions.regions(text, name):
            if region.step == number:
                code = " ".join(line.split("//")[0] for line in
                                lines[region.begin + 1 + region.todo:region.end])
                code = tokens(re.sub(r"/\*.*?\*/", " ", code))
                runs.update(tuple(code[i:i + SHARED_RUN]) for i in range(len(code)))
    return runs


def shared_runs(text, runs):
    """The longest runs of `text`'s tokens (markdown marks dropped) made of runs in `runs`."""
    words, found = tokens(EMPHASIS.sub(" ", text)), []
    for i in range(len(words) - SHARED_RUN + 1):
        if tuple(words[i:i + SHARED_RUN]) in runs:
            if found and i < found[-1][1]:
                found[-1][1] = i + SHARED_RUN
            else:
                found.append([i, i + SHARED_RUN])
    return list(dict.fromkeys(" ".join(words[begin:end]) for begin, end in found))


def hint_problems(root, chapter):
    """A step's hint (a question), clue and recipe live in the manifest only: the README points
    at them (**Stuck?** ./course hint NN.S) and repeats none, whole or one long sentence; and
    none shares a run of SHARED_RUN tokens with the code of the step's solution regions."""
    here = root / "chapters" / chapter
    if not (here / "steps.json").is_file() or not (here / "README.md").is_file():
        return []
    steps = json.loads((here / "steps.json").read_text()).get("steps", [])
    readme = (here / "README.md").read_text()
    where = f"chapters/{chapter}/README.md"
    problems = []
    for step in steps:
        step_id = f"{chapter[:2]}.{step.get('step')}"
        if "?" not in step.get("hint", "?"):
            problems.append(f"{chapter} step {step_id}: the hint asks no question (no '?')")
        try:
            runs = code_runs(Chapter(here), step.get("step"))
        except (ManifestError, regions.RegionError, OSError) as error:
            runs = set()
            problems.append(f"{chapter} step {step_id}: its solution regions: {error}")
        for kind, option in TIERS.items():
            text = step.get(kind, "")
            if not text.strip():
                problems.append(f"{chapter} step {step_id}: steps.json has no {kind} (shown by "
                                f"./course hint {step_id}{option})")
                continue
            problems += [f"{chapter} step {step_id}: the {kind} holds the solution's code "
                         f"'{run}'; say what it must achieve instead"
                         for run in shared_runs(text, runs)]
            whole = normalise(text)
            pieces = [whole] + [p.strip(" ()") for p in SENTENCE_END.split(whole)
                                if len(p.split()) >= MIN_SENTENCE_WORDS]
            copied = next((p for p in pieces if p in normalise(readme)), None)
            if copied is not None:
                what = f"the step's {kind}" if copied == whole else \
                    f"a sentence of the step's {kind}, '{copied}'"
                problems.append(f"{chapter} step {step_id}: {where} repeats {what}; keep it in "
                                f"steps.json only and point at it with ./course hint "
                                f"{step_id}{option}")
    numbers = {s.get("step") for s in steps}
    for line_number, line in enumerate(readme.splitlines(), start=1):
        if HINT_PARAGRAPH.search(line):
            problems.append(f"{where}:{line_number} has a hint paragraph; the hint belongs in "
                            f"steps.json only (point at it: **Stuck?** `./course hint "
                            f"{chapter[:2]}.S` asks the question to think about.)")
        for match in HINT_COMMAND.finditer(line):
            if match.group(1) != chapter[:2] or int(match.group(2)) not in numbers:
                problems.append(f"{where}:{line_number} points at ./course hint "
                                f"{match.group(1)}.{match.group(2)}, which is not a step of "
                                "this chapter")
    return problems


def chapter_problems(root, chapter):
    return (file_problems(root, chapter) + manifest_problems(root, chapter)
            + readme_problems(root, chapter) + hint_problems(root, chapter))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent)
    args = parser.parse_args(argv)
    chapters = sorted(p.name for p in (args.root / "chapters").glob("[0-9][0-9]-*") if p.is_dir())
    problems = [p for c in chapters for p in chapter_problems(args.root, c)]
    print("\n".join(problems) or f"ok: all {len(chapters)} chapters have the shape of "
          "docs/chapter-anatomy.md")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
