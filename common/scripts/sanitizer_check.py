#!/usr/bin/env python3
"""Runs GPU tests under one compute-sanitizer tool and says what it found, in the learner's terms.

Two uses:
  clean (the learner's and the course's test runs): the small test cases that a chapter's
  steps.json lists for TOOL must run without a single report. A report fails the test with the
  kind of bug, the sanitizer's first report line and the file:line it points at.
      sanitizer_check.py TOOL BINARY --steps chapters/NN-name/steps.json --implementation exercise
  expect (one known mistake): passes only if TOOL reports an error whose text contains PATTERN.
      sanitizer_check.py TOOL BINARY --expect-report PATTERN --gtest_filter=FILTER
  mistakes (all of a chapter's): every mistake in steps.json with a "sanitizer" entry must be
  reported by its tool, with its text, on its test MistakesSeenBySanitizers.<CamelCaseName>.
      sanitizer_check.py mistakes BINARY --steps chapters/NN-name/steps.json

The tests run with COURSE_UNDER_SANITIZER=1: small sizes only, and exact-size allocations
instead of guard margins, so that memcheck sees out-of-bounds accesses itself.
Exit 77 (Meson's SKIP: shown as skipped, never as passed) without a GPU, without
compute-sanitizer, when a `meson test --setup=<tool>` run already wraps this script, or in clean
mode when the tests fail without any sanitizer report and fail without the tool too ("fix the
failing test first": the plain test run reports that failure). A report always fails.
"""
import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import cuda_tools  # this script's own folder: works in a chapter configured alone too

SKIP = 77
REPORT_EXIT = 99
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")

KIND = {
    "memcheck": "an out-of-bounds or misaligned memory access",
    "racecheck": "a data race on shared memory",
    "synccheck": "an invalid use of a barrier or of a warp-synchronous function",
    "initcheck": "a read of device memory that nothing wrote",
}
ADVICE = {
    "memcheck": "An index goes past the end of an array (or before its start): check the bounds "
                "test of every load and store on that line. The value read may not even change "
                "the result, which is why only the sanitizer sees it.",
    "racecheck": "Two threads touch the same shared-memory slot, one of them writing, with no "
                 "barrier between them: a missing __syncthreads() (threads of different warps) "
                 "or __syncwarp() (lanes of one warp). The right numbers in a plain run prove "
                 "nothing: the next GPU, or the next run, may interleave them differently.",
    "synccheck": "A __syncthreads() that not every thread of the block reaches, or a *_sync() "
                 "warp function called with a mask that leaves out a lane that calls it (or "
                 "names a lane that does not).",
    "initcheck": "A load reads memory that was allocated but never written.",
}
HEADLINE = re.compile(r"(Invalid|Error|error|Race reported|Barrier error|Program hit|"
                      r"Uninitialized|Misaligned|Out-of-range)")
LOCATION = re.compile(r"([\w./+-]+\.(?:cuh|cu|cpp|hpp)):(\d+)")


def learner_path(path, known_files=()):
    """The file as the learner finds it in the repository: the build compiles
    chapters/NN-name/exercise/x.cu, which is exercises/NN-name/x.cu. A report that gives the
    file name alone is matched against `known_files` (repository paths)."""
    if "/" not in path:
        for known in known_files:
            if Path(known).name == path:
                return str(known)
    match = re.search(r"chapters/([^/]+)/(exercise|solution|tests)/(.+)$", path)
    if match:
        chapter, folder, rest = match.groups()
        folder = {"exercise": "exercises", "solution": "solutions", "tests": "tests"}[folder]
        return f"{folder}/{chapter}/{rest}"
    match = re.search(r"chapters/[^/]+/subprojects/course-common/(.+)$", path)
    if match:  # course-common, through a chapter's symlink
        return f"common/{match.group(1)}"
    match = re.search(r"((?:exercises|solutions|tests|chapters|common)/.+)$", path)
    return match.group(1) if match else path


# A source file in a compiler's or a tool's output: nvcc writes file.cu(24), g++ file.cu:24:5.
SOURCE_MENTION = re.compile(r"(?<![\w./+-])([\w./+-]+\.(?:cuh|cu|cpp|hpp|h))(?!\w)(?:\((\d+)\))?")


def learner_locations(text, known_files=()):
    """TEXT with every source path that lies in the repository named as the learner finds it
    (learner_path), and nvcc's file.cu(24) written file.cu:24 like every other tool:
    '../chapters/01-x/exercise/f.cu(24): error' -> 'exercises/01-x/f.cu:24: error'."""
    def rewrite(match):
        path, nvcc_line = match.group(1), match.group(2)
        if "/" not in path and not known_files:
            return match.group(0)
        found = learner_path(path, known_files)
        if found == path and not path.startswith("../"):
            return match.group(0)  # not one of the course's files (a system header, ...)
        return found + (f":{nvcc_line}" if nvcc_line else "")
    return SOURCE_MENTION.sub(rewrite, text)


def implementation_filter(gtest_filter, implementation):
    """A filter of steps.json ("Suite.Test/*:Other.*", maybe "-Negative.*") with the
    implementation's prefix ("Exercise/" or "Solution/") in front of every pattern."""
    prefix = implementation.capitalize() + "/"
    positive, dash, negative = gtest_filter.partition("-")

    def prefixed(part):
        return ":".join(prefix + p for p in part.split(":") if p)
    return prefixed(positive) + (dash + prefixed(negative) if negative else "")


def skipped_for_failing_tests(tool, why=""):
    """The sanitizer check of a step whose plain tests fail: not run, not passed."""
    return Outcome("skipped", f"{tool}: skipped (fix the failing test first)" + why)


def step_filters(steps, tool, binary_name, implementation):
    """The gtest filter of every step whose "sanitize" entry lists TOOL, for BINARY_NAME, with
    the implementation prefix ("Exercise/" or "Solution/") put in front of each pattern."""
    prefix = implementation.capitalize() + "/"
    patterns = []
    for step in steps:
        sanitize = step.get("sanitize")
        if not sanitize or tool not in sanitize["tools"]:
            continue
        for pattern in sanitize["tests"].get(binary_name, "").split(":"):
            if pattern:
                patterns.append(prefix + pattern)
    return ":".join(patterns)


class Outcome:
    """status: 'clean', 'report', 'tests-failed' or 'skipped'; text: what to print."""

    def __init__(self, status, text, headline="", location="", output=""):
        self.status, self.text, self.headline, self.location = status, text, headline, location
        self.output = output


def first_report(output, known_files=()):
    """The sanitizer's first report line and the first source location after it."""
    lines = [line[len("========="):].strip() for line in output.splitlines()
             if line.startswith("=========")]
    for i, line in enumerate(lines):
        if HEADLINE.search(line) and "ERROR SUMMARY" not in line and "SUMMARY" not in line:
            for candidate in lines[i:i + 8]:
                match = LOCATION.search(candidate)
                if match:
                    return line, f"{learner_path(match.group(1), known_files)}:{match.group(2)}"
            return line, ""
    return "", ""


def step_files(steps, steps_json, implementation):
    """Repository paths of the steps' files (exercises/NN-name/x.cu or solutions/...), for
    reports that name a file without its folder."""
    chapter = Path(steps_json).resolve().parent.name
    folder = "exercises" if implementation == "exercise" else "solutions"
    return [f"{folder}/{chapter}/{name}" for step in steps for name in step.get("files", [])]


def run(tool, binary, gtest_filter, cwd=None, extra_args=(), timeout=900, known_files=()):
    sanitizer = cuda_tools.find("compute-sanitizer")
    if sanitizer is None:
        return Outcome("skipped", f"{tool}: skipped, not passed: compute-sanitizer was not found "
                       "(it comes with the CUDA toolkit, in cuda/bin; put that on PATH)")
    env = dict(os.environ, COURSE_UNDER_SANITIZER="1")
    env.pop("COURSE_KNOWN_WRONG", None)
    command = [sanitizer, "--tool", tool, "--error-exitcode", str(REPORT_EXIT),
               "--print-limit", "20"]
    if tool == "memcheck":
        command += ["--padding", "4096"]
    command += [*extra_args, str(binary), f"--gtest_filter={gtest_filter}"]
    completed = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                               timeout=timeout, check=False)
    output = completed.stdout + completed.stderr
    if completed.returncode == SKIP or "SKIP: no usable CUDA GPU" in output:
        return Outcome("skipped", f"{tool}: skipped, not passed: no usable GPU")
    if completed.returncode == 0:
        return Outcome("clean", f"{tool}: no report", )
    headline, location = first_report(output, known_files)
    if completed.returncode == REPORT_EXIT and headline:
        text = (f"{tool} found {KIND[tool]}:\n  {learner_locations(headline, known_files)}\n"
                + (f"  at {location}\n" if location else "")
                + f"  {ADVICE[tool]}")
        return Outcome("report", text, headline, location, output)
    tail = learner_locations("\n".join(output.splitlines()[-25:]), known_files)
    return Outcome("tests-failed", f"{tool}: the tests fail when run under {tool} (exit "
                   f"{completed.returncode}), and {tool} reported no bug. The end of its "
                   f"output:\n{tail}", output=output)


def failing_tests_without_sanitizer(binary, gtest_filter, cwd=None, timeout=900):
    """Runs the same tests without a sanitizer (same small sizes): None when they pass, else
    the names of the failing tests (['?'] when the run ended without naming one).
    SKIP when there is no GPU."""
    env = dict(os.environ, COURSE_UNDER_SANITIZER="1")
    env.pop("COURSE_KNOWN_WRONG", None)
    completed = subprocess.run([str(binary), f"--gtest_filter={gtest_filter}"], cwd=cwd, env=env,
                               capture_output=True, text=True, timeout=timeout, check=False)
    if completed.returncode == 0:
        return None
    if completed.returncode == SKIP:
        return SKIP
    return failed_test_names(completed.stdout + completed.stderr) or ["?"]


def failed_test_names(gtest_output):
    """The tests GoogleTest lists as failed ('[  FAILED  ] Suite.Test, where ...')."""
    names = []
    for match in re.finditer(r"^\[  FAILED  \] ([^\s,]+)", gtest_output, re.MULTILINE):
        if "." in match.group(1) and match.group(1) not in names:
            names.append(match.group(1))
    return names


def camel_case(name):
    """A mistake's test name: missing_barrier_after_load -> MissingBarrierAfterLoad."""
    return "".join(word[:1].upper() + word[1:] for word in name.split("_"))


def check_known_mistakes(binary, steps_json):
    """Each mistake of steps.json that names a sanitizer must be reported by it. 0 when all
    are, 1 when one is not, SKIP when none could run (no GPU, no compute-sanitizer)."""
    mistakes = [m for m in json.loads(Path(steps_json).read_text()).get("mistakes", [])
                if "sanitizer" in m]
    if not mistakes:
        print(f"{steps_json} names no mistake that a sanitizer must catch")
        return 1
    missed = skipped = 0
    for mistake in mistakes:
        tool, pattern = mistake["sanitizer"]["tool"], mistake["sanitizer"]["report"]
        gtest_filter = f"MistakesSeenBySanitizers.{camel_case(mistake['name'])}"
        print(f"$ compute-sanitizer --tool {tool} {binary} --gtest_filter={gtest_filter}",
              flush=True)
        outcome = run(tool, binary, gtest_filter)
        if outcome.status == "skipped":
            skipped += 1
            print("  " + outcome.text)
        elif outcome.status == "report" and pattern in outcome.output:
            print(f"  ok, {mistake['name']}: {outcome.text}")
        else:
            missed += 1
            print(f"  FAIL, {mistake['name']}: expected {tool} to report '{pattern}'\n"
                  + outcome.text)
    if missed:
        return 1
    return SKIP if skipped == len(mistakes) else 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tool", choices=TOOLS + ("mistakes",))
    parser.add_argument("binary")
    parser.add_argument("--steps", help="the chapter's steps.json (clean mode)")
    parser.add_argument("--implementation", choices=("exercise", "solution"), default="exercise")
    parser.add_argument("--expect-report", metavar="PATTERN",
                        help="pass only if the tool reports an error containing PATTERN")
    parser.add_argument("--gtest_filter", help="the tests to run (instead of --steps)")
    args, sanitizer_args = parser.parse_known_args(argv)

    if os.environ.get("COURSE_UNDER_SANITIZER") == "1":
        print(f"SKIP: this already runs under a sanitizer setup; {args.tool} is not nested")
        return SKIP
    if args.tool == "mistakes":
        if not args.steps:
            parser.error("mistakes needs --steps")
        return check_known_mistakes(args.binary, args.steps)
    gtest_filter = args.gtest_filter
    known_files = ()
    if gtest_filter is None:
        if not args.steps:
            parser.error("give --steps or --gtest_filter")
        steps = json.loads(Path(args.steps).read_text())["steps"]
        known_files = step_files(steps, args.steps, args.implementation)
        gtest_filter = step_filters(steps, args.tool, Path(args.binary).name, args.implementation)
        if not gtest_filter:
            print(f"no step of {args.steps} asks for {args.tool} on {Path(args.binary).name}")
            return 1
    print(f"$ compute-sanitizer --tool {args.tool} {args.binary} --gtest_filter={gtest_filter}",
          flush=True)
    outcome = run(args.tool, args.binary, gtest_filter, extra_args=sanitizer_args,
                  known_files=known_files)
    if outcome.status == "skipped":
        print("SKIP: " + outcome.text)
        return SKIP
    if args.expect_report is None:
        if outcome.status == "tests-failed":
            # No report, and the tests fail: when they fail without the tool too, that failure
            # is what to fix first (the plain test run reports it), not a sanitizer finding.
            failing = failing_tests_without_sanitizer(args.binary, gtest_filter)
            if failing == SKIP:
                print(f"SKIP: {args.tool}: skipped, not passed: no usable GPU")
                return SKIP
            if failing:
                names = ", ".join(failing[:3]) + (", ..." if len(failing) > 3 else "")
                print("SKIP: " + skipped_for_failing_tests(args.tool, f": {names} fails").text)
                return SKIP
            print(outcome.text)
            print(f"FAIL: these tests pass without {args.tool} and fail under it")
            return 1
        print(outcome.text)
        return 0 if outcome.status == "clean" else 1
    if outcome.status == "report" and args.expect_report in outcome.output:
        print(f"ok: {outcome.text}")
        return 0
    print(outcome.text)
    print(f"FAIL: expected {args.tool} to report '{args.expect_report}'")
    return 1


if __name__ == "__main__":
    sys.exit(main())
