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

    def test_bandwidth_rows_show_the_share_of_the_vendor_too(self):
        rows = course.parse_benchmark_json({"benchmarks": [
            {"name": "Solution/step5_median", "run_name": "Solution/step5", "aggregate_name": "median",
             "repetitions": 5, "real_time": 4.6, "time_unit": "us", "GB/s": 7.1, "%peak": 0.2,
             "%ref": 153.4}]})
        table = course.format_table(rows)
        self.assertIn("0.2%pk", table)
        self.assertIn("153.4%ref", table)

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


class Sanitizers(unittest.TestCase):
    RACECHECK = """some test output
========= COMPUTE-SANITIZER
========= Error: Race reported between Write access at void reduction::exercise::(anonymous namespace)::reduce1_kernel<int>(const T1 *, T1 *, unsigned long)+0x1a0 in /home/me/course/chapters/05-reduction/exercise/reduce1_interleaved_divergent.cu:24
=========     and Read access at void reduction::exercise::(anonymous namespace)::reduce1_kernel<int>(const T1 *, T1 *, unsigned long)+0x180 in /home/me/course/chapters/05-reduction/exercise/reduce1_interleaved_divergent.cu:24 [2048 hazards]
=========
========= RACECHECK SUMMARY: 1 hazard displayed (1 error, 0 warnings)
"""
    MEMCHECK = """========= Invalid __global__ read of size 4 bytes
=========     at void sum_of_squares::mistakes::<unnamed>::kernel(const int *, unsigned long, unsigned long long *, unsigned long long *)+0x2b0 in ../chapters/01-sum-of-squares/tests/mistakes/prefetch_past_the_end.cu:20
=========     by thread (5,0,0) in block (0,0,0)
========= ERROR SUMMARY: 1 error
"""

    def test_the_first_report_and_the_learners_file_and_line(self):
        headline, location = course.sanitizer_check.first_report(self.RACECHECK)
        self.assertIn("Race reported", headline)
        self.assertEqual(location, "exercises/05-reduction/reduce1_interleaved_divergent.cu:24")
        headline, location = course.sanitizer_check.first_report(self.MEMCHECK)
        self.assertIn("Invalid __global__ read", headline)
        self.assertEqual(location, "tests/01-sum-of-squares/mistakes/prefetch_past_the_end.cu:20")

    def test_a_report_naming_the_file_alone_points_at_the_learners_file(self):
        report = ("========= Error: Race reported between Read access at void k()+0x2e0 in "
                  "reduce1_interleaved_divergent.cu:26\n")
        known = ["exercises/05-reduction/reduce1_interleaved_divergent.cu"]
        _, location = course.sanitizer_check.first_report(report, known)
        self.assertEqual(location, "exercises/05-reduction/reduce1_interleaved_divergent.cu:26")

    def test_the_steps_filters_get_the_implementation_prefix(self):
        steps = [{"sanitize": {"tools": ["memcheck", "racecheck"],
                               "tests": {"bin": "A.b/one:A.b/two"}}},
                 {"sanitize": {"tools": ["memcheck"], "tests": {"bin": "C.d/three"}}}, {}]
        self.assertEqual(course.sanitizer_check.step_filters(steps, "racecheck", "bin", "exercise"),
                         "Exercise/A.b/one:Exercise/A.b/two")
        self.assertEqual(course.sanitizer_check.step_filters(steps, "memcheck", "bin", "solution"),
                         "Solution/A.b/one:Solution/A.b/two:Solution/C.d/three")

    def test_every_sanitized_test_filter_names_the_steps_own_binary(self):
        for chapter in course.chapters():
            for step in chapter.steps:
                if step.sanitize:
                    self.assertTrue(set(step.sanitize["tests"]) <= set(step.tests), step.id)

    def test_a_missing_sanitizer_is_a_skip_not_a_pass(self):
        real = course.sanitizer_check.find_sanitizer
        course.sanitizer_check.find_sanitizer = lambda: None
        try:
            outcome = course.sanitizer_check.run("racecheck", "/bin/true", "*")
        finally:
            course.sanitizer_check.find_sanitizer = real
        self.assertEqual(outcome.status, "skipped")
        self.assertIn("skipped, not passed", outcome.text)

    def test_a_skipped_test_neither_passes_nor_fails_a_step(self):
        results = [{"passed": True, "skipped": False}, {"passed": False, "skipped": True}]
        self.assertTrue(course.results_pass(results))
        self.assertFalse(course.results_pass([{"passed": False, "skipped": True}]))


class Profiler(unittest.TestCase):
    CSV = """benchmark output line
==PROF== Connected to process 1
"ID","Process ID","Kernel Name","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sm__warps_active.avg.pct_of_peak_sustained_active"
"","","","","sector","%"
"0","6469","void unnamed>::interleaved_kernel(const int *)","16,384","262,144","40.38"
"""

    def test_ncu_csv_values_become_numbers(self):
        kernels = course.ncu_profile.parse_csv(self.CSV)
        self.assertEqual(len(kernels), 1)
        self.assertEqual(kernels[0]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 262144.0)
        self.assertEqual(kernels[0]["sm__warps_active.avg.pct_of_peak_sustained_active"], 40.38)
        self.assertIn("interleaved_kernel", kernels[0]["Kernel Name"])

    def test_ratio_metrics(self):
        counters = course.ncu_profile.parse_csv(self.CSV)[0]
        metric = {"label": "x", "ratio": ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]}
        self.assertEqual(course.ncu_profile.value_of(metric, counters), 16.0)
        self.assertIsNone(course.ncu_profile.value_of({"label": "y", "metric": "absent"}, counters))

    def test_missing_ncu_and_missing_permission_say_what_to_do(self):
        real = course.ncu_profile.find_ncu
        course.ncu_profile.find_ncu = lambda: None
        try:
            with self.assertRaises(course.ncu_profile.ProfileError) as raised:
                course.ncu_profile.measure("bench", "row", "kernel", ["m"])
        finally:
            course.ncu_profile.find_ncu = real
        self.assertTrue(raised.exception.unavailable)
        self.assertIn("cuda/bin", str(raised.exception))
        self.assertIn("NVreg_RestrictProfilingToAdminUsers=0", course.ncu_profile.PERMISSION_HELP)
        self.assertIn("WSL2", course.ncu_profile.PERMISSION_HELP)

    def test_every_profile_names_a_row_a_kernel_and_explains_its_metrics(self):
        for chapter in course.chapters():
            steps = {s.number for s in chapter.steps}
            for step in chapter.steps:
                if not step.profile:
                    continue
                self.assertTrue(step.profile["row"] and step.profile["kernel"], step.id)
                for metric in step.profile["metrics"]:
                    self.assertTrue(metric["meaning"].strip(), step.id)
                    expect = metric.get("expect")
                    if expect and "step" in expect:
                        self.assertIn(expect["step"], steps, step.id)


if __name__ == "__main__":
    unittest.main()
