"""Chapters and steps for ./course (common/scripts/manifest.py reads them), a step named as the
learner types it ('01.3'), and what a step's files look like as shipped."""
import re

from common.scripts import manifest, regions

from .errors import CourseError
from .paths import ROOT

Chapter = manifest.Chapter


def chapters():
    try:
        return manifest.chapters(ROOT / "chapters")
    except manifest.ManifestError as error:
        raise CourseError(str(error)) from None


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


def exercise_paths(step):
    return [ROOT / "exercises" / step.chapter.name / name for name in step.files]


def shipped_text(chapter, file_name):
    return regions.exercise_text(chapter.solution_text(file_name), chapter.name,
                                 f"solutions/{chapter.name}/{file_name}")


def is_started(step):
    """A step is started once one of its exercise files differs from the shipped one."""
    return any(path.read_text() != shipped_text(step.chapter, path.name)
               for path in exercise_paths(step))


def todo_lines(path):
    """Lines of `// TODO` comments (not the banner that mentions them)."""
    return [i + 1 for i, line in enumerate(path.read_text().splitlines()) if "// TODO" in line]
