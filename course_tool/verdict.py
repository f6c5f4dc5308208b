"""Judging a step: its tests, then (only when they pass) its sanitizer cases, under the one pass
rule that ./course test, ./course list (the recorded verdict) and ./course solution share; and
the text the learner sees."""
import re

import sanitizer_check  # common/scripts, on the path course_tool/__init__.py sets

from . import gtest, manifest, meson, sanitize, state
from .paths import rel

# GoogleTest's frame around an EXPECT_TRUE(checker) message, which says nothing to a learner.
GTEST_BOILERPLATE = re.compile(r"\s*(Value of: .*|Actual: false|Expected: true)\s*$")
# Sanitizer outcomes that fail a step: a bug found, or tests that fail only under the tool.
SANITIZER_FAILURES = ("report", "tests-failed")


def tests_pass(results):
    """The tests ran here and none failed: at least one passed, and every other one passed or
    was skipped. A test skipped for a feature this GPU lacks (e.g. tensor cores) neither passes
    nor fails the step; a step whose every test skipped did not run here, so it does not pass."""
    return any(r["passed"] for r in results) and all(r["passed"] or r.get("skipped")
                                                     for r in results)


def step_passes(results, sanitizer_outcomes):
    """The one pass rule: the tests pass (tests_pass), and no sanitizer reported a bug or saw
    the tests fail. A sanitizer that could not run (not installed) is said, not counted."""
    return tests_pass(results) and not any(o.status in SANITIZER_FAILURES
                                           for o in sanitizer_outcomes)


def verdict(step, results, sanitizer_outcomes=()):
    """What ./course test prints for one step: PASS or FAIL (by step_passes), the first failing
    test's message, the skipped tests, each sanitizer's line, and the file to edit."""
    if not results:
        return f"  ?    {step.id} {step.title}: no test matched"
    failed = [r for r in results if not r["passed"] and not r.get("skipped")]
    skipped = [r for r in results if r.get("skipped")]
    passed = step_passes(results, sanitizer_outcomes)
    skipped_note = f", {len(skipped)} skipped" if skipped else ""
    lines = []
    if passed:
        lines.append(f"  PASS {step.id} {step.title} ({len(results) - len(skipped)} tests"
                     f"{skipped_note})")
    elif failed:
        lines.append(f"  FAIL {step.id} {step.title} ({len(failed)} of {len(results)} tests fail"
                     f"{skipped_note})")
        message = sanitizer_check.learner_locations(failed[0]["message"])
        first = [l for l in message.splitlines()
                 if l.strip() and not GTEST_BOILERPLATE.match(l)][:8]
        lines += ["       " + l for l in first]
    elif any(o.status == "report" for o in sanitizer_outcomes):
        lines.append(f"  FAIL {step.id} {step.title}: the numbers are right, but compute-sanitizer "
                     "found a bug")
    elif any(o.status == "tests-failed" for o in sanitizer_outcomes):
        lines.append(f"  FAIL {step.id} {step.title}: the tests pass, but fail when run under "
                     "compute-sanitizer")
    else:
        lines.append(f"  FAIL {step.id} {step.title}: all {len(results)} tests were skipped here, "
                     "so none of them passed")
    for result in skipped[:2]:
        lines.append(f"       skipped (not passed): {result['name']} {result['message'].strip()}")
    for outcome in sanitizer_outcomes:
        if outcome.status in SANITIZER_FAILURES:
            lines += ["       " + l for l in outcome.text.splitlines()]
        else:  # clean, or skipped (no sanitizer, no GPU, or the plain tests fail)
            lines.append(f"       {outcome.text}")
    if passed:
        return "\n".join(lines)
    for path in step.exercise_paths():
        todos = manifest.todo_lines(path)
        where = f", TODO at line {', '.join(map(str, todos[:4]))}" if todos else ""
        lines.append(f"       edit {rel(path)}{where}")
    return "\n".join(lines)


def judge_step(step, stamps=None):
    """Runs the step's tests, then (only if they pass) its sanitizer cases; records the verdict
    for ./course list. Returns (passed, results, sanitizer outcomes)."""
    stamps = state.file_stamps(step) if stamps is None else stamps
    results = gtest.run_step_tests(step)
    if tests_pass(results):
        outcomes = sanitize.run_step_sanitizers(step)
    else:  # a sanitizer run of failing code reports the failure again, not a memory bug
        outcomes = sanitize.skipped_sanitizers(step)
    passed = step_passes(results, outcomes)
    state.record_verdict(step, passed, stamps)
    return passed, results, outcomes


def command_test(spec):
    chapter, only = manifest.resolve(spec)
    steps = [only] if only else chapter.steps
    stamps = {step.id: state.file_stamps(step) for step in steps}  # the files as they are judged
    meson.build(chapter.test_binaries(steps))
    all_passed = True
    for step in steps:
        passed, results, outcomes = judge_step(step, stamps[step.id])
        all_passed &= passed
        print(verdict(step, results, outcomes))
    return 0 if all_passed else 1
