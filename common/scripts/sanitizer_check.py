"""Runs GPU tests under one compute-sanitizer tool and says what it found, in the learner's terms.

The course's suites run every step's tests of a chapter under each tool (the learner's run does
the same for one step, through judge.py), for the exercise or the solution:
    python3 -m scripts.sanitizer_check TOOL BINARY --chapter CHAPTER_DIR --implementation exercise
A report fails with the kind of bug, the sanitizer's first report line and the file:line it
points at. The tests run with COURSE_UNDER_SANITIZER=1: small sizes only, and exact-size
allocations instead of guard margins, so that memcheck sees out-of-bounds accesses itself.
Exit 77 (Meson's SKIP: shown as skipped, never as passed) without a GPU, without
compute-sanitizer, when a `meson test --setup=<tool>` run already wraps this script, or when the
tests fail without any sanitizer report and fail without the tool too ("fix the failing test
first": the plain test run reports that failure). A report always fails.
"""
import argparse
import os
import re
import subprocess
import sys

from . import cuda_tools

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
            if str(known).rsplit("/", 1)[-1] == path:
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


def skipped_for_failing_tests(tool, why=""):
    """The sanitizer check of a step whose plain tests fail: not run, not passed."""
    return Outcome("skipped", f"{tool}: skipped (fix the failing test first)" + why)


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


def run(tool, binary, gtest_filter, cwd=None, extra_args=(), timeout=900, known_files=()):
    sanitizer = cuda_tools.find("compute-sanitizer")
    if sanitizer is None:
        return Outcome("skipped", f"{tool}: skipped, not passed: compute-sanitizer was not found "
                       "(it comes with the CUDA toolkit, in cuda/bin; put that on PATH)")
    env = dict(os.environ, COURSE_UNDER_SANITIZER="1")
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


def main(argv=None):
    from . import manifest  # the chapter's steps give the filter and the learner's files
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tool", choices=TOOLS)
    parser.add_argument("binary")
    parser.add_argument("--chapter", required=True, help="chapters/NN-name")
    parser.add_argument("--implementation", choices=("exercise", "solution"), default="exercise")
    args = parser.parse_args(argv)
    if os.environ.get("COURSE_UNDER_SANITIZER") == "1":
        print(f"SKIP: this already runs under a sanitizer setup; {args.tool} is not nested")
        return SKIP
    chapter = manifest.Chapter(args.chapter)
    folder = "exercises" if args.implementation == "exercise" else "solutions"
    known_files = [f"{folder}/{chapter.name}/{name}" for name in chapter.solution_files()]
    gtest_filter = ":".join(s.test_filter(args.implementation) for s in chapter.steps)
    print(f"$ compute-sanitizer --tool {args.tool} {args.binary} --gtest_filter={gtest_filter}",
          flush=True)
    outcome = run(args.tool, args.binary, gtest_filter, known_files=known_files)
    if outcome.status == "skipped":
        print("SKIP: " + outcome.text)
        return SKIP
    if outcome.status == "tests-failed":
        # No report, and the tests fail: when they fail without the tool too, that failure is
        # what to fix first (the plain test run reports it), not a sanitizer finding.
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


if __name__ == "__main__":
    sys.exit(main())
