"""A step's small test cases under the compute-sanitizer tools its steps.json lists, through
common/scripts/sanitizer_check.py (the same check the Meson exercise suite runs)."""
import sanitizer_check  # common/scripts, on the path course_tool/__init__.py sets

from . import meson
from .paths import ROOT, rel


def run_step_sanitizers(step):
    """The step's small cases under each compute-sanitizer tool steps.json lists for it."""
    outcomes = []
    if not step.sanitize:
        return outcomes
    for tool in step.sanitize["tools"]:
        for binary, gtest_filter in step.sanitize["tests"].items():
            path = meson.binary_path(step.chapter, binary)
            patterns = sanitizer_check.implementation_filter(gtest_filter, "exercise")
            meson.show(["compute-sanitizer", "--tool", tool, rel(path),
                        f"--gtest_filter={patterns}"])
            known = [rel(p) for p in step.exercise_paths()]
            outcomes.append(sanitizer_check.run(tool, path, patterns, cwd=ROOT, known_files=known))
    return outcomes


def skipped_sanitizers(step):
    """One 'skipped (fix the failing test first)' line per sanitizer tool of the step."""
    tools = step.sanitize["tools"] if step.sanitize else []
    return [sanitizer_check.skipped_for_failing_tests(tool) for tool in tools]
