#!/usr/bin/env python3
"""Unit tests of the ./course tool: its parsing of GoogleTest, Google Benchmark and Meson
output, its state logic and its chart. No GPU, no build needed (CI runs them)."""
import importlib.machinery
import importlib.util
import os
import struct
import unittest
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
loader = importlib.machinery.SourceFileLoader("course_tool", str(ROOT / "course"))
spec = importlib.util.spec_from_loader("course_tool", loader)
course = importlib.util.module_from_spec(spec)
loader.exec_module(course)


class Resolve(unittest.TestCase):
    def test_chapter_and_step(self):
        chapter, step = course.resolve("01.3")
        self.assertEqual((chapter.name, step.number), ("01-sum-of-squares", 3))
        chapter, step = course.resolve("2")
        self.assertEqual((chapter.name, step), ("02-naive-matmul", None))

    def test_unknown_chapter_step_and_syntax(self):
        for bad in ("09", "01.9", "x"):
            with self.assertRaises(course.CourseError):
                course.resolve(bad)


class StepState(unittest.TestCase):
    def test_a_fresh_clone_has_every_step_not_started(self):
        for chapter in course.chapters():
            for step in chapter.steps:
                self.assertFalse(course.is_started(step), step.id)

    def test_states(self):
        self.assertEqual(course.step_state(False, None), "not started")
        self.assertEqual(course.step_state(True, [{"passed": True}]), "passing")
        self.assertEqual(course.step_state(True, [{"passed": True}, {"passed": False}]), "failing")
        self.assertEqual(course.step_state(True, []), "failing")

    def test_every_step_names_existing_files_and_tests(self):
        for chapter in course.chapters():
            for step in chapter.steps:
                for path in step.exercise_paths():
                    self.assertTrue(path.is_file(), path)
                self.assertTrue(step.tests and step.hint.strip(), step.id)

    def test_shipped_text_is_what_a_learner_edits(self):
        chapter, step = course.resolve("01.1")
        shipped = course.shipped_text(chapter, step.files[0])
        self.assertIn("TODO", shipped)
        self.assertNotEqual(shipped + "// my code\n", shipped)


class GoogleTestReport(unittest.TestCase):
    REPORT = {"testsuites": [{"name": "Exercise/LaunchConfigOf", "testsuite": [
        {"name": "Ok/0", "classname": "Exercise/LaunchConfigOf", "result": "COMPLETED"},
        {"name": "Bad/0", "classname": "Exercise/LaunchConfigOf", "result": "COMPLETED",
         "failures": [{"failure": "file.cpp:31\nExpected: columns covered", "type": ""}]},
        {"name": "Old/0", "classname": "X", "result": "COMPLETED", "failures": "as a string"},
    ]}]}

    def test_passes_and_failures_with_their_message(self):
        results = course.parse_gtest_json(self.REPORT)
        self.assertEqual([r["passed"] for r in results], [True, False, False])
        self.assertIn("columns covered", results[1]["message"])
        self.assertEqual(results[2]["message"], "as a string")

    def test_verdict_names_the_file_and_its_todo_lines(self):
        _, step = course.resolve("02.2")
        text = course.verdict(step, course.parse_gtest_json(self.REPORT))
        self.assertIn("FAIL 02.2", text)
        self.assertIn("columns covered", text)
        self.assertRegex(text, r"edit exercises/02-naive-matmul/naive_matmul.cu, TODO at line \d+")
        self.assertIn("PASS", course.verdict(step, [{"passed": True, "message": ""}]))


class BenchmarkReport(unittest.TestCase):
    DATA = {"context": {"gpu": "NVIDIA H200"}, "benchmarks": [
        {"name": "cuBLAS/W:64/repeats:2/manual_time", "run_name": "cuBLAS/W:64", "repetitions": 2,
         "real_time": 1.0, "time_unit": "ms", "GFLOP/s": 50000.0, "%ref": 100.0},
        {"name": "cuBLAS/W:64_median", "run_name": "cuBLAS/W:64", "aggregate_name": "median",
         "repetitions": 2, "real_time": 1.0, "time_unit": "ms", "GFLOP/s": 50000.0, "%ref": 100.0},
        {"name": "Exercise/W:64", "run_name": "Exercise/W:64", "error_occurred": True,
         "error_message": "the exercise disagrees", "repetitions": 1},
        {"name": "Solution/W:64_median", "run_name": "Solution/W:64", "aggregate_name": "median",
         "repetitions": 5, "real_time": 10.0, "time_unit": "ms", "GFLOP/s": 5000.0, "%ref": 10.0},
        {"name": "Solution/W:64_mean", "run_name": "Solution/W:64", "aggregate_name": "mean",
         "repetitions": 5, "real_time": 11.0, "time_unit": "ms", "GFLOP/s": 4000.0},
    ]}

    def test_keeps_medians_and_skipped_rows(self):
        rows = course.parse_benchmark_json(self.DATA)
        self.assertEqual([r["name"] for r in rows], ["cuBLAS/W:64", "Exercise/W:64", "Solution/W:64"])
        self.assertEqual(rows[2]["GFLOP/s"], 5000.0)
        table = course.format_table(rows)
        self.assertIn("skipped: the exercise disagrees", table)
        self.assertIn("5,000.0 GFLOP/s", table)
        self.assertIn("10.0%ref", table)

    def test_chart_is_a_valid_png(self):
        png = course.chart(course.parse_benchmark_json(self.DATA), "test chart")
        self.assertEqual(png[:8], b"\x89PNG\r\n\x1a\n")
        length, kind = struct.unpack(">I4s", png[8:16])
        self.assertEqual((length, kind), (13, b"IHDR"))
        width, height = struct.unpack(">II", png[16:24])
        self.assertGreater(width, 100)
        self.assertGreater(height, 50)
        crc = struct.unpack(">I", png[29:33])[0]
        self.assertEqual(crc, zlib.crc32(png[12:29]))


class MesonOutput(unittest.TestCase):
    def test_first_compiler_error_from_nvcc_and_gcc(self):
        nvcc = "[1/3] Compiling\nfoo.cu(12): error: identifier \"x\" is undefined\n  x = 1;\n"
        self.assertTrue(course.first_compiler_errors(nvcc).startswith("foo.cu(12): error"))
        gcc = "ninja: ...\nbar.cpp:3:5: error: expected ';'\n"
        self.assertTrue(course.first_compiler_errors(gcc).startswith("bar.cpp:3:5: error"))

    def test_missing_googletest_gets_an_install_command(self):
        output = 'Run-time dependency GTest found: NO\nDependency "gtest" not found, tried ...'
        self.assertIn("libgtest-dev", course.explain_setup_failure(output))
        self.assertIsNone(course.explain_setup_failure("all good"))


class Solutions(unittest.TestCase):
    def test_a_step_shows_only_its_own_region(self):
        _, step = course.resolve("02.2")
        shown = "\n".join(course.solution_regions(step))
        self.assertIn("ceil_div", shown)
        self.assertNotIn("Pvalue", shown)

    def test_a_file_per_step_shows_its_regions(self):
        _, step = course.resolve("05.5")
        self.assertEqual(len(course.solution_regions(step)), 2)


class Watch(unittest.TestCase):
    def test_a_saved_file_triggers_a_new_test_run(self):
        calls = []
        exercise = ROOT / "exercises" / "02-naive-matmul" / "naive_matmul.cu"
        real_test, real_sleep = course.command_test, course.time.sleep
        stamp = exercise.stat().st_mtime

        def fake_sleep(_):
            os.utime(exercise, (stamp + len(calls), stamp + len(calls)))  # "save" the file

        course.command_test = lambda spec: calls.append(spec)
        course.time.sleep = fake_sleep
        try:
            course.command_watch("02", interval=0, rounds=2)
        finally:
            course.command_test, course.time.sleep = real_test, real_sleep
            os.utime(exercise, (stamp, stamp))
        self.assertEqual(calls, ["02", "02", "02"])  # once at the start, once per change


if __name__ == "__main__":
    unittest.main()
