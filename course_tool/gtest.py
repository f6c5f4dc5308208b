"""A step's GoogleTest filters, run with a JSON report, and the report read back as results:
[{'name', 'passed', 'skipped', 'message'}]."""
import json
import subprocess
import tempfile
from pathlib import Path

import sanitizer_check  # common/scripts, on the path course_tool/__init__.py sets

from . import meson
from .errors import CourseError
from .paths import ROOT, rel

NO_GPU_EXIT = 77  # what the course's GPU-aware test main returns without a usable GPU


def parse_gtest_json(data):
    """[{'name', 'passed', 'skipped', 'message'}] from GoogleTest's --gtest_output=json report."""
    results = []
    for suite in data.get("testsuites", []):
        for test in suite.get("testsuite", []):
            failures = test.get("failures", [])
            message = failures if isinstance(failures, str) else "\n".join(
                f.get("failure", "") for f in failures)
            skipped = not failures and test.get("result") == "SKIPPED"
            if skipped:
                message = test.get("skipped", {}).get("message", "") if isinstance(
                    test.get("skipped"), dict) else message
            results.append({"name": f"{test.get('classname', suite['name'])}.{test['name']}",
                            "passed": not failures and not skipped, "skipped": skipped,
                            "message": message})
    return results


def run_gtest(chapter, binary, gtest_filter):
    path = meson.binary_path(chapter, binary)
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "report.json"
        command = [rel(path), f"--gtest_filter={gtest_filter}", f"--gtest_output=json:{report}"]
        meson.show(command)
        completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        if completed.returncode == NO_GPU_EXIT:
            raise CourseError("No usable NVIDIA GPU here, so the GPU tests cannot run:\n" +
                              completed.stdout.strip().splitlines()[0] +
                              "\nCheck the driver with nvidia-smi.")
        if not report.exists():
            raise CourseError(f"{binary} stopped before writing its report:\n" +
                              sanitizer_check.learner_locations("\n".join(
                                  (completed.stdout + completed.stderr).splitlines()[-20:])))
        return parse_gtest_json(json.loads(report.read_text()))


def run_step_tests(step):
    results = []
    for binary, gtest_filter in step.tests.items():
        results += run_gtest(step.chapter, binary, gtest_filter)
    return results
