"""Checks every chapter against docs/chapter-anatomy.md: its files, its links, its manifest's
keys and layout, and its README's sections and their order. Each problem names the chapter,
the file and the rule; the rules are those marked [checked] in docs/chapter-anatomy.md.

usage (from the repository root): tools/check_chapter_anatomy.py [--root DIR]
"""
import argparse
import json
import re
import sys
from pathlib import Path

MANIFEST_KEYS = {"title", "benchmark", "steps", "mistakes", "contrasts"}
STEP_KEYS = {"step", "title", "files", "tests", "hint", "recipe", "sanitize", "profile"}
STEP_REQUIRED = {"step", "title", "files", "tests", "hint", "recipe"}
MISTAKE_KEYS = {"name", "step", "file", "plant", "sanitizer"}
CONTRAST_KEYS = {"name", "step", "file", "meaning", "plant"}
LINKS = {"exercise": "exercises", "solution": "solutions", "tests": "tests"}
MEASURED = re.compile(r"measured-([a-z0-9]+)\.json")
STEP_HEADING = re.compile(r"## Steps? (\d+)(?:-(\d+))?\b")
STEP_TABLE = re.compile(r"inline constexpr (\w+Info) (k\w+)\[\]")
TAIL = ["## Measured results", "## What the profiler shows",
        "## Tests, and the mistakes they catch", "## Bad input", "## Sources"]


def snake(chapter):
    """'04-arbitrary-width-tiles' -> 'arbitrary_width_tiles'."""
    return chapter[3:].replace("-", "_")


def file_problems(root, chapter):
    name = snake(chapter)
    here = root / "chapters" / chapter
    tests = root / "tests" / chapter
    problems = []
    required = [here / f for f in ("README.md", "steps.json", "meson.build", "meson_options.txt",
                                   f"{name}.cuh", f"{name}_host.cpp")]
    required += [tests / f for f in ("meson.build", f"test_{name}.cpp", "test_mistakes.cpp",
                                     "mistakes/mistakes.hpp")]
    for path in required:
        if not path.is_file():
            problems.append(f"{path.relative_to(root)} is missing")
    benches = [p for p in (here / f"bench_{name}.cu", here / f"bench_{name}.cpp") if p.is_file()]
    if len(benches) != 1:
        problems.append(f"chapters/{chapter}: needs one benchmark, bench_{name}.cu or .cpp")
    for link, folder in LINKS.items():
        path = here / link
        if not path.is_symlink() or path.resolve() != (root / folder / chapter).resolve():
            problems.append(f"chapters/{chapter}/{link} must be a link to ../../{folder}/{chapter}")
    common = here / "subprojects" / "course-common"
    if not common.exists() or common.resolve() != (root / "common").resolve():
        problems.append(f"chapters/{chapter}/subprojects/course-common must lead to common/")
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
    for table_type, table in STEP_TABLE.findall(api_text):
        if (table_type, table) != ("StepInfo", "kSteps"):
            problems.append(f"{where}: a step table is 'StepInfo kSteps[]', not "
                            f"'{table_type} {table}[]'")

    readme = (here / "README.md").read_text() if (here / "README.md").is_file() else ""
    measured = sorted(p for p in here.glob("measured-*.json"))
    if not measured:
        problems.append(f"chapters/{chapter}: no measured-GPU.json (a benchmark run)")
    for json_path in measured:
        chart = json_path.with_suffix(".svg")
        if not chart.is_file():
            problems.append(f"chapters/{chapter}/{chart.name} is missing (./course chart "
                            f"chapters/{chapter}/{json_path.name})")
        elif f"]({chart.name})" not in readme:
            problems.append(f"chapters/{chapter}/README.md does not show {chart.name}")
    if not re.search(r"\]\(figures/[\w-]+\.svg\)", readme):
        problems.append(f"chapters/{chapter}/README.md shows no figure from figures/")

    known = {"README.md", "steps.json", "meson.build", "meson_options.txt", f"{name}.cuh",
             f"{name}_host.cpp", f"{name}_device.cuh", f"bench_{name}.cu", f"bench_{name}.cpp",
             "figures", "contrasts", "subprojects", *LINKS}
    for path in sorted(here.iterdir()):
        if path.name in known or MEASURED.fullmatch(path.name) or (
                path.suffix == ".svg" and MEASURED.fullmatch(path.stem + ".json")):
            continue
        if path.name not in readme and f"{path.stem}." not in readme:
            problems.append(f"chapters/{chapter}/{path.name}: not part of a chapter's shape, and "
                            "the README does not say what it is")

    meson_path = here / "meson.build"
    meson = meson_path.read_text() if meson_path.is_file() else ""
    project = re.search(r"project\([^)]*\)", meson, re.S)
    if meson and (not project or "'cuda'" in project.group(0)):
        problems.append(f"chapters/{chapter}/meson.build: project() must name only 'cpp'; CUDA "
                        "joins after course-common's toolchain check (add_languages)")
    common_at = meson.find("subproject('course-common')")
    cuda_at = meson.find("add_languages('cuda'")
    if meson and not 0 <= common_at < cuda_at:
        problems.append(f"chapters/{chapter}/meson.build: add_languages('cuda', ...) must come "
                        "after subproject('course-common'), which checks the toolchain first")

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
    for key in sorted(set(manifest) - MANIFEST_KEYS):
        problems.append(f"{where}: unknown key {key!r}")
    for key in sorted({"title", "benchmark", "steps"} - set(manifest)):
        problems.append(f"{where}: no {key!r}")
    numbers = []
    for step in manifest.get("steps", []):
        label = f"{where}: step {step.get('step', '?')}"
        for key in sorted(set(step) - STEP_KEYS):
            problems.append(f"{label}: unknown key {key!r}")
        for key in sorted(STEP_REQUIRED - set(step)):
            problems.append(f"{label}: no {key!r}")
        numbers.append(step.get("step"))
    if numbers != sorted(numbers) or len(set(numbers)) != len(numbers):
        problems.append(f"{where}: steps must be numbered in increasing order, got {numbers}")
    for mistake in manifest.get("mistakes", []):
        label = f"{where}: mistake {mistake.get('name', '?')}"
        for key in sorted(set(mistake) - MISTAKE_KEYS):
            problems.append(f"{label}: unknown key {key!r}")
        if "plant" in mistake and not {"step", "file"} <= set(mistake):
            problems.append(f"{label}: a plant needs its 'step' and 'file'")
    for contrast in manifest.get("contrasts", []):
        label = f"{where}: contrast {contrast.get('name', '?')}"
        for key in sorted(set(contrast) ^ CONTRAST_KEYS):
            problems.append(f"{label}: {'unknown' if key in contrast else 'missing'} key {key!r}")
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


def chapter_problems(root, chapter):
    return (file_problems(root, chapter) + manifest_problems(root, chapter)
            + readme_problems(root, chapter))


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
