"""The one pass rule of a step, for the learner's `./course test NN.S` and the course's own
suites alike, so that the two never disagree: (1) the step's tests (Step.test_filter) in each
test binary of the chapter pass when one passed and every other passed or was skipped (a
feature this GPU lacks); a step whose every test skipped did not run here; (2) only then, the
same tests under each compute-sanitizer tool (small sizes): a report, or tests that fail only
under the tool, fail the step.

A known mistake of the manifest, built into a test binary of its own in the exercise's place,
must fail this rule; where the manifest names a sanitizer for it, that tool must report it.
    python3 -m scripts.judge mistake CHAPTER_DIR NAME BINARY    exit 0: rejected (77: no GPU)
"""
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from . import manifest, sanitizer_check

NO_GPU = 77


# How a test of a step that this GPU cannot run skips (COURSE_SKIP_ON_THIS_GPU, testing.hpp).
NEEDS_ANOTHER_GPU = "this GPU cannot run this step: "


class NoGpu(Exception):
    """A test binary found no usable GPU; the message is its first line."""


class Stopped(RuntimeError):
    """A test binary stopped before its report; `started`: whether a test had begun (a crash or
    the watchdog inside a test), or not (the program could not even start its tests)."""

    def __init__(self, text, started):
        super().__init__(text)
        self.started = started


def parse_gtest_json(data):
    """[{'name', 'passed', 'skipped', 'message'}] from GoogleTest's --gtest_output=json report."""
    results = []
    for suite in data.get("testsuites", []):
        for test in suite.get("testsuite", []):
            failures = test.get("failures", [])
            message = failures if isinstance(failures, str) else "\n".join(
                f.get("failure", "") for f in failures)
            skipped = not failures and test.get("result") == "SKIPPED"
            if skipped:  # GoogleTest 1.15 and newer: [{"message": ...}]; older: nothing
                notes = test.get("skipped", [])
                notes = [notes] if isinstance(notes, dict) else notes
                message = "\n".join(n.get("message", "") for n in notes if isinstance(n, dict))
            results.append({"name": f"{test.get('classname', suite['name'])}.{test['name']}",
                            "passed": not failures and not skipped, "skipped": skipped,
                            "message": message})
    return results


def skip_messages(output):
    """{test name: its skip message} from GoogleTest's console output, which has them in every
    version (the lines after 'file:line: Skipped', up to '[  SKIPPED ] name')."""
    messages, current, lines = {}, None, []
    for line in output.splitlines():
        if line.startswith("[ RUN      ] "):
            current, lines = line[13:].strip(), []
        elif line.startswith("[  SKIPPED ] ") and current is not None:
            if line[13:].split(" (")[0].strip() == current:
                after = [i for i, text in enumerate(lines) if text.endswith(": Skipped")]
                messages[current] = "\n".join(lines[after[0] + 1:] if after else lines).strip()
            current = None
        elif current is not None:
            lines.append(line)
    return messages


def run_tests(binary, gtest_filter, cwd=None, show=None, fail_fast=False):
    """The results of BINARY's tests matching GTEST_FILTER. Raises NoGpu (exit 77), or
    Stopped with the end of the output when the binary stopped before its report (a crash, a
    watchdog that ended a kernel that never finished, or a program that could not start)."""
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [str(binary), f"--gtest_filter={gtest_filter}", f"--gtest_output=json:{report}"]
        if fail_fast:
            command.append("--gtest_fail_fast")
        if show:
            show(command)
        env = dict(os.environ)
        env.pop("COURSE_UNDER_SANITIZER", None)
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, env=env)
        if done.returncode == NO_GPU:
            raise NoGpu((done.stdout.strip().splitlines() or ["no usable GPU"])[0])
        if not report.exists():
            output = done.stdout + done.stderr
            raise Stopped(sanitizer_check.learner_locations(
                f"(exit status {done.returncode})\n" + "\n".join(output.splitlines()[-20:])),
                started="[ RUN      ]" in output)
        results = parse_gtest_json(json.loads(report.read_text()))
        printed = skip_messages(done.stdout)
        for result in results:
            if result["skipped"] and not result["message"]:
                result["message"] = printed.get(result["name"], "")
        return results


def tests_pass(results):
    return any(r["passed"] for r in results) and all(r["passed"] or r["skipped"]
                                                     for r in results)


def needs_another_gpu(results):
    """What the step needs that this GPU lacks, from its skipped tests ('' when a test failed,
    or when none skipped for that reason): such a step neither passes nor fails here."""
    if any(not r["passed"] and not r.get("skipped") for r in results):
        return ""
    return next((r["message"].split(NEEDS_ANOTHER_GPU, 1)[1].strip() for r in results
                 if r.get("skipped") and NEEDS_ANOTHER_GPU in r["message"]), "")


def step_passes(results, outcomes):
    """The tests pass, and no sanitizer reported a bug or saw the tests fail. A sanitizer that
    could not run (not installed) is said, not counted."""
    return tests_pass(results) and not any(o.status in ("report", "tests-failed")
                                           for o in outcomes)


def run_sanitizers(binary, gtest_filter, known_files=(), cwd=None, show=None):
    outcomes = []
    for tool in manifest.SANITIZER_TOOLS:
        if show:
            show(["compute-sanitizer", "--tool", tool, binary, f"--gtest_filter={gtest_filter}"])
        outcomes.append(sanitizer_check.run(tool, binary, gtest_filter, cwd=cwd,
                                            known_files=known_files))
    return outcomes


def skipped_sanitizers():
    """A line per tool: a sanitizer run of failing code would report that failure again."""
    return [sanitizer_check.skipped_for_failing_tests(tool) for tool in manifest.SANITIZER_TOOLS]


def mistake_verdict(chapter, name, binary):
    """0 when the known mistake NAME, built into BINARY, is rejected; 1 when it is not, or when
    nothing judged it (no test matched, the program could not start); NO_GPU when this machine
    cannot judge it (no GPU, every test skipped, or only a sanitizer could and none ran)."""
    if os.environ.get("COURSE_UNDER_SANITIZER") == "1":
        print("SKIP: a known mistake under a sanitizer test setup would only show its bug")
        return NO_GPU
    mistake = chapter.mistake(name)
    step = chapter.step(mistake.step)
    gtest_filter = step.test_filter("exercise")
    where = f"generated from solutions/{chapter.name}/{mistake.file} and its plant"
    try:
        results = run_tests(binary, gtest_filter, fail_fast=True)
    except NoGpu as error:
        print(f"SKIP: {error}")
        return NO_GPU
    except Stopped as error:
        if not error.started:
            print(f"FAIL: {binary} stopped before any test of step {step.id} began, so nothing "
                  f"judged {name}:\n{error}")
            return 1
        print(f"rejected: {name} ({where}) stopped the tests:\n{error}")  # as the learner sees
        results = None
    if results is not None and not results:
        print(f"FAIL: no test of {binary} matches step {step.id}'s filter {gtest_filter}")
        return 1
    if results is not None and all(r["skipped"] for r in results):
        print(f"SKIP: every test of step {step.id} skipped here, so nothing judged {name}: "
              + results[0]["message"].strip())
        return NO_GPU
    if results is not None and not tests_pass(results):
        failed = next(r for r in results if not r["passed"] and not r["skipped"])
        print(f"rejected by the tests: {name} ({where})\n"
              + sanitizer_check.learner_locations(failed["message"]))
    elif results is not None:
        outcomes = run_sanitizers(binary, gtest_filter)
        found = [o for o in outcomes if o.status in ("report", "tests-failed")]
        if not found and all(o.status == "skipped" for o in outcomes):
            print(f"SKIP: {name} passes step {step.id}'s tests, and no sanitizer could run here: "
                  + "; ".join(o.text for o in outcomes))
            return NO_GPU
        if not found:
            print(f"NOT CAUGHT: {name} passes step {step.id}'s tests and sanitizers: "
                  + "; ".join(o.text for o in outcomes))
            return 1
        print(f"rejected by a sanitizer: {name} ({where})\n{found[0].text}")
    if mistake.sanitizer:
        tool, pattern = mistake.sanitizer["tool"], mistake.sanitizer["report"]
        outcome = sanitizer_check.run(tool, binary, gtest_filter)
        if outcome.status == "skipped":
            print(outcome.text)
        elif outcome.status != "report" or pattern not in outcome.output:
            print(f"FAIL: the manifest says {tool} reports '{pattern}' for {name}:\n"
                  + outcome.text)
            return 1
        else:
            print(f"and {tool} reports it: {outcome.headline}")
    return 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 4 or argv[0] != "mistake":
        print(__doc__.splitlines()[-1], file=sys.stderr)
        return 2
    return mistake_verdict(manifest.Chapter(argv[1]), argv[2], argv[3])


if __name__ == "__main__":
    sys.exit(main())
