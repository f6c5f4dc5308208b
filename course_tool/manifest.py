"""Chapters and steps, as chapters/NN-name/steps.json describes them, and what a step's files
look like as shipped."""
import json
import re

import sync_exercises  # tools/, on the path course_tool/__init__.py sets

from .errors import CourseError
from .paths import ROOT


class Step:
    def __init__(self, chapter, data):
        self.chapter = chapter
        self.number = data["step"]
        self.title = data["title"]
        self.files = data["files"]
        self.tests = data["tests"]  # {test binary: gtest filter}
        self.hint = data["hint"]
        self.recipe = data.get("recipe")  # the second hint level: ./course hint NN.S --more
        self.sanitize = data.get("sanitize")  # {"tools": [...], "tests": {binary: filter}}
        self.profile = data.get("profile")    # see common/scripts/ncu_profile.py
        self.data = data

    @property
    def id(self):
        return f"{self.chapter.number}.{self.number}"

    def exercise_paths(self):
        return [ROOT / "exercises" / self.chapter.name / f for f in self.files]


class Chapter:
    def __init__(self, path):
        self.name = path.name                 # 01-sum-of-squares
        self.number = self.name.split("-")[0]  # 01
        data = json.loads((path / "steps.json").read_text())
        self.title = data["title"]
        self.benchmark = data["benchmark"]
        self.steps = [Step(self, s) for s in data["steps"]]

    def test_binaries(self, steps=None):
        return sorted({b for s in (steps or self.steps) for b in s.tests})


def chapters():
    found = sorted(p.parent for p in (ROOT / "chapters").glob("*/steps.json"))
    return [Chapter(p) for p in found]


def resolve(spec):
    """'01' -> (chapter, None); '01.3' -> (chapter, step)."""
    match = re.fullmatch(r"(\d+)(?:\.(\d+))?", spec)
    if not match:
        raise CourseError(f"'{spec}' is not a chapter (01) or a step (01.3)")
    number = match.group(1).zfill(2)
    for chapter in chapters():
        if chapter.number == number:
            if match.group(2) is None:
                return chapter, None
            for step in chapter.steps:
                if step.number == int(match.group(2)):
                    return chapter, step
            raise CourseError(f"chapter {number} has steps "
                              f"{', '.join(s.id for s in chapter.steps)}, not {spec}")
    raise CourseError(f"there is no chapter {number}; ./course list shows them all")


def resolve_step(spec, command):
    """The step SPEC names; a chapter alone is refused with `./course COMMAND 01.3` as the
    example (hint, solution and profile work on one step)."""
    chapter, step = resolve(spec)
    if step is None:
        raise CourseError(f"name a step, e.g. ./course {command} 01.3")
    return chapter, step


def shipped_text(chapter, file_name):
    solution = ROOT / "solutions" / chapter.name / file_name
    steps = sync_exercises.file_steps(ROOT, chapter.name).get(file_name, ())
    return sync_exercises.exercise_text(solution.read_text(), chapter.name,
                                        f"solutions/{chapter.name}/{file_name}", steps)


def is_started(step):
    """A step is started once one of its exercise files differs from the shipped one."""
    return any(path.read_text() != shipped_text(step.chapter, path.name)
               for path in step.exercise_paths())


def todo_lines(path):
    """Lines of `// TODO` comments (not the banner that mentions them)."""
    return [i + 1 for i, line in enumerate(path.read_text().splitlines()) if "// TODO" in line]
