"""Judging a step by the one pass rule of common/scripts/judge.py (the course's own suites
judge by it too): its tests, then (only when they pass) its sanitizer cases; and the text the
learner sees. ./course test."""
import re

from common.scripts import judge, sanitizer_check

from . import manifest, meson, state
from .errors import CourseError
from .paths import ROOT, rel

# GoogleTest's frame around an EXPECT_TRUE(checker) message, which says nothing to a learner.
GTEST_BOILERPLATE = re.compile(r"\s*(Value of: .*|Actual: false|Expected: true)\s*$")
SANITIZER_FAILURES = ("report", "tests-failed")


def run_step_tests(step):
    """(results, why there is no GPU or ""): the step's tests in each of the chapter's test
    binaries. A binary that finds no usable GPU leaves its tests out; the others' results
    still count (the tests that need no GPU run everywhere). A binary that stops before its
    report (a crash, or a watchdog that ended a kernel) is a failed test with what it said."""
    results, no_gpu = [], ""
    for binary in step.chapter.test_binaries:
        path = rel(meson.binary_path(step.chapter, binary))
        try:
            results += judge.run_tests(path, step.test_filter(), cwd=ROOT, show=meson.show)
        except judge.NoGpu as error:
            no_gpu = str(error)
        except judge.Stopped as error:
            results.append({"name": binary, "passed": False, "skipped": False,
                            "message": f"{binary} stopped before the end of its tests:\n{error}"})
    return results, no_gpu


def verdict(step, results, sanitizer_outcomes=()):
    """What ./course test prints for one step: PASS or FAIL (by step_passes), the first failing
    test's message, the skipped tests, each sanitizer's line, and the file to edit."""
    if not results:
        return f"  ?    {step.id} {step.title}: no test matched"
    needs = judge.needs_another_gpu(results)
    if needs:
        return (f"  ---- {step.id} {step.title}: not run here, neither passed nor failed\n"
                f"       {needs}\n"
                f"       It does not block the next step; ./course solution {step.id} shows "
                "its reference.")
    failed = [r for r in results if not r["passed"] and not r.get("skipped")]
    skipped = [r for r in results if r.get("skipped")]
    passed = judge.step_passes(results, sanitizer_outcomes)
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
    for path in manifest.exercise_paths(step):
        todos = manifest.todo_lines(path)
        where = f", TODO at line {', '.join(map(str, todos[:4]))}" if todos else ""
        lines.append(f"       edit {rel(path)}{where}")
    return "\n".join(lines)


def judge_step(step, stamps=None):
    """Runs the step's tests, then (only if they pass) its sanitizer cases; records the verdict
    for ./course list. Returns (passed, results, sanitizer outcomes). Without a GPU, a failing
    test that needs none still fails the step; with nothing failed, it says what is missing."""
    stamps = state.file_stamps(step) if stamps is None else stamps
    results, no_gpu = run_step_tests(step)
    needs = judge.needs_another_gpu(results)
    if needs:  # neither a pass nor a failure: it does not block the next step
        state.record_verdict(step, False, stamps, needs)
        return False, results, []
    failed = [r for r in results if not r["passed"] and not r["skipped"]]
    if no_gpu and not failed:
        ran = f" ({len(results)} tests that need no GPU pass)" if results else ""
        raise CourseError("No usable NVIDIA GPU here, so the GPU tests cannot run" + ran +
                          f":\n{no_gpu}\nCheck the driver with nvidia-smi.")
    if judge.tests_pass(results):
        gpu_tests = rel(meson.binary_path(step.chapter, step.chapter.gpu_tests))
        known = [rel(p) for p in manifest.exercise_paths(step)]
        outcomes = judge.run_sanitizers(gpu_tests, step.test_filter(), known, ROOT, meson.show)
    else:  # a sanitizer run of failing code reports the failure again, not a memory bug
        outcomes = judge.skipped_sanitizers()
    if no_gpu:
        outcomes = [sanitizer_check.Outcome("skipped", f"the GPU tests did not run: {no_gpu}")]
    passed = judge.step_passes(results, outcomes)
    state.record_verdict(step, passed, stamps)
    return passed, results, outcomes


def command_test(spec):
    chapter, only = manifest.resolve(spec)
    steps = [only] if only else chapter.steps
    stamps = {step.id: state.file_stamps(step) for step in steps}  # the files as they are judged
    meson.build(chapter.test_binaries)
    all_passed = True
    for step in steps:
        passed, results, outcomes = judge_step(step, stamps[step.id])
        all_passed &= passed or bool(judge.needs_another_gpu(results))  # not a failure
        print(verdict(step, results, outcomes))
    return 0 if all_passed else 1
