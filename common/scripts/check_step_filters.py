#!/usr/bin/env python3
"""Fails when a step's gtest filter misses one of the chapter's exercise tests, or matches none.

    check_step_filters.py chapters/NN-name/steps.json BINARY [BINARY...]

`./course test NN.S` runs exactly the filters that steps.json gives step S ("tests": {binary:
filter}); the Meson exercise suite runs every `Exercise/` test. So that the two never disagree,
every `Exercise/` test of every BINARY (as `BINARY --gtest_list_tests` lists it, no GPU needed)
must match the filter of at least one step for that binary, every step's filter must match at
least one test, and so must every step's sanitizer filter (run with the "Exercise/" prefix, as
`./course test` does). Filters follow GoogleTest: ':'-separated patterns with '*' and '?', and
after the first '-', patterns to leave out.
"""
import json
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sanitizer_check  # noqa: E402


DISABLED = "DISABLED_*:*/DISABLED_*"  # GoogleTest's rule for suite and test names


def pattern_regex(pattern):
    """One gtest pattern as a regular expression: '*' any text, '?' one character."""
    return "".join(".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)


def filter_matches(gtest_filter, name):
    """GoogleTest's --gtest_filter semantics for the full name 'Suite.Test' of one test."""
    positive, _, negative = gtest_filter.partition("-")

    def any_matches(part):
        return any(re.fullmatch(pattern_regex(p), name) for p in part.split(":") if p)
    return any_matches(positive or "*") and not any_matches(negative)


def parse_test_list(output):
    """Full test names from `--gtest_list_tests` output ('Suite.' lines, then indented test
    names; either may end in a '# TypeParam = ...' or '# GetParam() = ...' comment).
    Disabled tests are left out: a filter does not run them."""
    names = []
    suite = None
    for line in output.splitlines():
        text = line.split("#", 1)[0].rstrip()
        if not text.strip():
            continue
        if not line.startswith(" "):
            suite = text.strip() if text.strip().endswith(".") else None
            continue
        if suite is None:
            continue
        test = text.strip()
        if filter_matches(DISABLED, suite[:-1]) or filter_matches(DISABLED, test):
            continue
        names.append(suite + test)
    return names


def problems(steps, tests_of):
    """What is wrong, one line each. steps: the "steps" of steps.json; tests_of: {binary name:
    [full test names]}."""
    found = []
    for binary, tests in tests_of.items():
        filters = [(s["step"], s["tests"][binary]) for s in steps if binary in s.get("tests", {})]
        for test in tests:
            if test.startswith("Exercise/") and not any(filter_matches(f, test)
                                                        for _, f in filters):
                found.append(f"{binary}: {test} is in the exercise suite but in no step's filter "
                             "(./course test would never run it)")
        for number, gtest_filter in filters:
            if not any(filter_matches(gtest_filter, test) for test in tests):
                found.append(f"{binary}: step {number}'s filter '{gtest_filter}' matches no test")
        for step in steps:
            sanitize = (step.get("sanitize") or {}).get("tests", {})
            if binary in sanitize:
                sanitized = sanitizer_check.implementation_filter(sanitize[binary], "exercise")
                if not any(filter_matches(sanitized, test) for test in tests):
                    found.append(f"{binary}: step {step['step']}'s sanitizer filter '{sanitized}' "
                                 "matches no test (its sanitizer checks would run nothing)")
    return found


def list_tests(binary):
    completed = subprocess.run([str(binary), "--gtest_list_tests"], capture_output=True,
                               text=True, timeout=120, check=False)
    if completed.returncode != 0:
        raise RuntimeError(f"{binary} --gtest_list_tests failed (exit {completed.returncode}):\n"
                           + (completed.stdout + completed.stderr)[-2000:])
    return parse_test_list(completed.stdout)


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2].strip())
        return 2
    steps = json.loads(Path(argv[0]).read_text())["steps"]
    try:
        tests_of = {Path(binary).name: list_tests(binary) for binary in argv[1:]}
    except (OSError, RuntimeError, subprocess.TimeoutExpired) as error:
        print(f"FAIL: {error}")
        return 1
    found = problems(steps, tests_of)
    for line in found:
        print("FAIL: " + line)
    if found:
        print(f"Fix the filters in {argv[0]} (or the test names), so that each exercise test "
              "belongs to a step.")
        return 1
    exercise = sum(t.startswith("Exercise/") for tests in tests_of.values() for t in tests)
    print(f"ok: each of the {exercise} exercise tests in {', '.join(tests_of)} is in a step's "
          "filter, and every filter matches a test")
    return 0


if __name__ == "__main__":
    sys.exit(main())
