"""Unit tests of the ./course tool (course_tool/): its parsing of GoogleTest, Google Benchmark
and Meson output, its pass rule and state, its commands, and the scripts of common/scripts it
shares with the Meson tests. No GPU, no build needed (CI runs them). The chart has its own file,
test_course_chart.py."""
import contextlib
import io
import json
import os
import stat
import sys
import tempfile
import unittest
from pathlib import Path

from common.scripts import cuda_tools, judge, ncu_profile, sanitizer_check
from common.scripts.manifest import SANITIZER_TOOLS
from course_tool import (bench, cli, compare, manifest, meson, paths, profile, solution, state,
                         verdict, watch)
from course_tool.errors import CourseError
from course_tool.paths import ROOT


@contextlib.contextmanager
def replaced(module, **names):
    """Replaces module attributes for the duration of a with-block."""
    saved = {name: getattr(module, name) for name in names}
    for name, value in names.items():
        setattr(module, name, value)
    try:
        yield
    finally:
        for name, value in saved.items():
            setattr(module, name, value)


def must_not_run(*_args, **_kwargs):
    raise AssertionError("this must not run")


@contextlib.contextmanager
def step_run(build, tests=must_not_run, sanitizers=must_not_run, compile_targets=must_not_run):
    """A build folder, and fakes for what judging a step runs (meson.build, the step's tests,
    its sanitizer cases): no Meson, no GPU."""
    with replaced(paths, BUILD=Path(build)), replaced(meson, build=compile_targets), \
            replaced(meson, binary_path=lambda chapter, name: Path(build) / name), \
            replaced(verdict, run_step_tests=lambda step: (tests(step), "")), \
            replaced(judge, run_sanitizers=lambda *args: sanitizers(args)):
        yield


def passing_step_run(build, skip_message):
    """step_run() of a step that builds and passes, one test skipped with `skip_message` (a
    skipped check does not fail a step), and has no sanitizer case to run."""
    results = [{"name": "x", "passed": True, "skipped": False, "message": ""},
               {"name": "y", "passed": False, "skipped": True, "message": skip_message}]
    return step_run(build, tests=lambda step: results, sanitizers=lambda step: [],
                    compile_targets=lambda targets: None)


def printed(function, *args):
    """(return value, what it printed)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = function(*args)
    return value, out.getvalue()


def fake_program(folder, name, body):
    """An executable Python script: a stand-in for a test binary or for compute-sanitizer."""
    path = Path(folder) / name
    path.write_text(f"#!{sys.executable}\n{body}")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


class Resolve(unittest.TestCase):
    def test_chapter_and_step(self):
        chapter, step = manifest.resolve("01.3")
        self.assertEqual((chapter.name, step.number), ("01-sum-of-squares", 3))
        chapter, step = manifest.resolve("2")
        self.assertEqual((chapter.name, step), ("02-naive-matmul", None))

    def test_unknown_chapter_step_and_syntax(self):
        for bad in ("99", "01.9", "x"):
            with self.assertRaises(CourseError):
                manifest.resolve(bad)


class StepState(unittest.TestCase):
    def test_a_fresh_clone_has_every_step_not_started(self):
        for chapter in manifest.chapters():
            for step in chapter.steps:
                self.assertFalse(manifest.is_started(step), step.id)

    def test_states(self):
        stamps = {"exercises/x/a.cu": 5}
        passed = {"verdict": "pass", "files": {"exercises/x/a.cu": 5}}
        failed = {"verdict": "fail", "files": {"exercises/x/a.cu": 5}}
        self.assertEqual(state.step_state(False, passed, stamps), ("not started", ""))
        self.assertEqual(state.step_state(True, None, stamps), ("not tested yet", ""))
        self.assertEqual(state.step_state(True, passed, stamps), ("passing", ""))
        self.assertEqual(state.step_state(True, failed, stamps), ("failing", ""))
        self.assertEqual(state.step_state(True, passed, {"exercises/x/a.cu": 6}),
                         ("passing", "(older than exercises/x/a.cu)"))

    def test_one_pass_rule_skipped_checks_count_but_sanitizer_findings_fail(self):
        ok, skipped = {"passed": True, "skipped": False}, {"passed": False, "skipped": True}
        report = sanitizer_check.Outcome("report", "memcheck found ...")
        broken = sanitizer_check.Outcome("tests-failed", "memcheck: the tests fail ...")
        clean = sanitizer_check.Outcome("clean", "memcheck: no report")
        self.assertTrue(judge.step_passes([ok, skipped], [clean]))
        self.assertFalse(judge.step_passes([ok], [clean, report]))
        self.assertFalse(judge.step_passes([ok], [broken]))
        self.assertFalse(judge.step_passes([], []))

    def test_a_step_whose_every_test_skipped_did_not_pass(self):
        _, step = manifest.resolve("01.3")
        skipped = [{"name": "x", "passed": False, "skipped": True, "message": "no tensor cores"}]
        self.assertFalse(judge.step_passes(skipped, []))
        text = verdict.verdict(step, skipped)
        self.assertIn(f"FAIL {step.id}", text)
        self.assertIn("all 1 tests were skipped here", text)
        self.assertIn("skipped (not passed): x no tensor cores", text)

    def test_shipped_text_is_what_a_learner_edits(self):
        chapter, step = manifest.resolve("01.1")
        shipped = manifest.shipped_text(chapter, step.files[0])
        self.assertIn("TODO", shipped)
        self.assertNotEqual(shipped + "// my code\n", shipped)


class Hints(unittest.TestCase):
    def hint(self, *options):
        """(step 01.3, what ./course hint 01.3 OPTIONS printed), which must exit 0."""
        _, step = manifest.resolve("01.3")
        status, out = printed(cli.main, ["hint", "01.3", *options])
        self.assertEqual(status, 0)
        return step, out

    def assertHolds(self, text, part):
        """`part` is in `text`, however either is wrapped."""
        self.assertIn(" ".join(part.split()), " ".join(text.split()))

    def test_the_hint_asks_the_question_and_points_at_the_clue(self):
        step, out = self.hint()
        self.assertHolds(out, step.hint)
        self.assertIn("./course hint 01.3 --more", out)
        self.assertNotIn("The clue:", out)

    def test_more_gives_the_question_and_the_clue_and_points_at_the_recipe(self):
        step, out = self.hint("--more")
        question, clue = out.split("The clue:", 1)
        self.assertHolds(question, step.hint)
        self.assertHolds(clue, step.data["clue"])
        self.assertIn("./course hint 01.3 --recipe", out)
        self.assertNotIn("The recipe:", out)

    def test_recipe_gives_all_three_tiers_and_where_the_code_is(self):
        step, out = self.hint("--recipe")
        question, rest = out.split("The clue:", 1)
        clue, recipe = rest.split("The recipe:", 1)
        self.assertHolds(question, step.hint)
        self.assertHolds(clue, step.data["clue"])
        self.assertHolds(recipe, step.recipe)
        self.assertIn("./course solution 01.3", out)

    def test_the_recipe_wraps_long_lines_and_keeps_its_line_breaks(self):
        _, step = manifest.resolve("01.3")
        with replaced(step, recipe="(1) " + "word " * 40 + "\n(2) two"):
            with replaced(manifest, resolve=lambda spec: (step.chapter, step)):
                status, out = printed(solution.command_hint, "01.3", 2)
        self.assertEqual(status, 0)
        recipe = out.split("The recipe:\n", 1)[1].split("\n\nThe code itself")[0]
        lines = recipe.splitlines()
        self.assertTrue(all(len(line) <= 96 for line in lines), lines)
        self.assertTrue(lines[0].startswith("(1) word") and lines[1].startswith("    word"))
        self.assertEqual(lines[-1], "(2) two")

    def test_a_chapter_is_not_a_step(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status, _ = printed(cli.main, ["hint", "01", "--more"])
        self.assertEqual(status, 2)
        self.assertIn("name a step", err.getvalue())


class GoogleTestReport(unittest.TestCase):
    REPORT = {"testsuites": [{"name": "Exercise/LaunchConfigOf", "testsuite": [
        {"name": "Ok/0", "classname": "Exercise/LaunchConfigOf", "result": "COMPLETED"},
        {"name": "Bad/0", "classname": "Exercise/LaunchConfigOf", "result": "COMPLETED",
         "failures": [{"failure": "file.cpp:31\nExpected: columns covered", "type": ""}]},
        {"name": "Old/0", "classname": "X", "result": "COMPLETED", "failures": "as a string"},
    ]}]}

    def test_passes_and_failures_with_their_message(self):
        results = judge.parse_gtest_json(self.REPORT)
        self.assertEqual([r["passed"] for r in results], [True, False, False])
        self.assertIn("columns covered", results[1]["message"])
        self.assertEqual(results[2]["message"], "as a string")

    def test_verdict_names_the_file_and_its_todo_lines(self):
        _, step = manifest.resolve("02.2")
        text = verdict.verdict(step, judge.parse_gtest_json(self.REPORT))
        self.assertIn("FAIL 02.2", text)
        self.assertIn("columns covered", text)
        self.assertRegex(text, r"edit exercises/02-naive-matmul/naive_matmul.cu, TODO at line \d+")
        self.assertIn("PASS", verdict.verdict(step, [{"passed": True, "message": ""}]))

    def test_verdict_leaves_out_googletests_frame_around_the_checkers_message(self):
        _, step = manifest.resolve("05.3")
        message = ("tests/05-reduction/test_barriers.cpp:29\nValue of: course_problem_.empty()\n"
                   "  Actual: false\nExpected: true\nreduce3: a __syncthreads() inside an `if`\n")
        text = verdict.verdict(step, [{"name": "x", "passed": False, "message": message}])
        self.assertIn("a __syncthreads() inside an `if`", text)
        self.assertNotIn("Value of:", text)
        self.assertNotIn("Expected: true", text)


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
        rows = bench.parse_benchmark_json(self.DATA)
        self.assertEqual([r["name"] for r in rows], ["cuBLAS/W:64", "Exercise/W:64", "Solution/W:64"])
        self.assertEqual(rows[2]["GFLOP/s"], 5000.0)
        table = bench.format_table(rows)
        self.assertIn("skipped: the exercise disagrees", table)
        self.assertIn("5,000.0 GFLOP/s", table)
        self.assertIn("10.0%ref", table)

    def test_bandwidth_rows_show_the_share_of_the_vendor_too(self):
        rows = bench.parse_benchmark_json({"benchmarks": [
            {"name": "Solution/step5_median", "run_name": "Solution/step5", "aggregate_name": "median",
             "repetitions": 5, "real_time": 4.6, "time_unit": "us", "GB/s": 7.1, "%peak": 0.2,
             "%ref": 153.4}]})
        table = bench.format_table(rows)
        self.assertIn("0.2%pk", table)
        self.assertIn("153.4%ref", table)

    def test_chart_writes_the_svg_beside_the_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            data = Path(tmp) / "bench.json"
            data.write_text(json.dumps(self.DATA))
            code, out = printed(cli.main, ["chart", str(data), "--title", "test chart"])
            svg = data.with_suffix(".svg").read_text()
        self.assertEqual(code, 0)
        self.assertIn(f"wrote {data.with_suffix('.svg')}", out)
        self.assertIn("<title>test chart on NVIDIA H200</title>", svg)
        self.assertIn(">cuBLAS</text>", svg)
        self.assertIn(">W 64</text>", svg)


class GpuSummary(unittest.TestCase):
    """The lines ./course compare prints before its table: the GPU and the chapter's numbers."""
    H100 = {"gpu": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "multiprocessors": "132",
            "peak_dram_GB/s": "3352.320000", "max_threads_per_multiprocessor": "2048",
            "max_blocks_per_multiprocessor": "32", "max_threads_per_block": "1024",
            "shared_memory_per_multiprocessor_bytes": "233472",
            "registers_per_multiprocessor": "65536"}
    # A smaller GPU: 28 multiprocessors of 1536 threads and 16 blocks, 100 KiB shared memory.
    SMALL = {"gpu": "Small GPU", "compute_capability": "8.6", "multiprocessors": "28",
             "peak_dram_GB/s": "360.048000", "max_threads_per_multiprocessor": "1536",
             "max_blocks_per_multiprocessor": "16",
             "shared_memory_per_multiprocessor_bytes": "102400"}

    @staticmethod
    def row(name, **counters):
        return dict({"name": name, "run_name": name, "repetitions": 1, "real_time": 1.0,
                     "time_unit": "us"}, **counters)

    def summary(self, context, benchmarks=()):
        rows = bench.parse_benchmark_json({"benchmarks": list(benchmarks)})
        with tempfile.TemporaryDirectory() as build, replaced(paths, BUILD=Path(build)):
            return bench.gpu_summary(context, rows)

    def test_device_bandwidth_and_littles_law_from_this_runs_rows(self):
        text = self.summary(self.H100, [
            self.row("Solution/step0_latency/DRAM_256MiB",
                     **{"cycles/load": 600.0, "ns/load": 400.0}),
            self.row("DeviceToDeviceCopy/1024MiB", **{"GB/s": 3000.0, "%peak": 89.5})])
        lines = text.splitlines()
        self.assertEqual(lines[0], "GPU: NVIDIA H100 80GB HBM3, compute capability 9.0,"
                                   " 132 multiprocessors of 2048 threads")
        self.assertIn("3,352 GB/s nominal", lines[1])
        self.assertIn("a copy reached 3,000 GB/s (89%) in this run", lines[1])
        # 3000 GB/s x 400 ns = 1.2e6 bytes; / 132 = 9091 bytes; / 2048 threads = 4.4 bytes
        self.assertIn("3,000 GB/s (copy) x 400 ns DRAM latency = 1.14 MiB in flight", lines[2])
        self.assertIn("  = 8.9 KiB per multiprocessor, 4.4 bytes per thread", lines[3])
        self.assertEqual(lines[4], "  (latency measured in this run)")

    def test_without_a_latency_row_the_readmes_measured_one_is_named(self):
        text = self.summary(self.H100)
        reference = json.loads((ROOT / bench.LATENCY_REFERENCE).read_text())
        self.assertIn("3,352 GB/s (nominal) x", text)
        self.assertIn(f"(latency measured on an {reference['context']['gpu']}, "
                      "chapters/01-sum-of-squares/measured-h200.json;"
                      " ./course compare 01 measures yours)", text)

    def test_the_last_compare_01_on_the_same_gpu_gives_the_latency(self):
        saved = {"context": {"gpu": "Small GPU"}, "benchmarks": [
            self.row("Solution/step0_latency/DRAM_256MiB", **{"ns/load": 500.0})]}
        for gpu, expected in (("Small GPU", "500 ns DRAM latency"),
                              ("Small GPU", "(latency measured on this GPU by your last"
                                            " ./course compare 01)"),
                              ("Other GPU", "measured-h200.json")):
            with tempfile.TemporaryDirectory() as build, replaced(paths, BUILD=Path(build)):
                folder = Path(build) / "chapters" / "01-sum-of-squares"
                folder.mkdir(parents=True)
                (folder / "bench-01-sum-of-squares.json").write_text(json.dumps(saved))
                text = bench.gpu_summary(dict(self.SMALL, gpu=gpu), [])
            self.assertIn(expected, text, gpu)

    def test_an_older_context_leaves_out_what_it_lacks(self):
        old = {"gpu": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0",
               "multiprocessors": "132", "peak_dram_GB/s": "3352.320000"}
        text = self.summary(old)
        self.assertNotIn("per thread", text)
        self.assertIn("8.6 KiB per multiprocessor", text)
        self.assertEqual(self.summary({}), "GPU: the GPU")

    def test_compare_prints_the_summary_before_the_table(self):
        data = {"context": self.H100, "benchmarks": [
            self.row("CUB/DeviceReduce::Sum/float/n=2^26", **{"GB/s": 2600.0, "%peak": 77.6}),
            self.row("Solution/step5_one_launch/float/n=2^26", **{"GB/s": 2620.0, "%peak": 78.2,
                                                                    "%ref": 100.8})]}

        class FakeSubprocess:
            @staticmethod
            def run(command, **_kwargs):
                class Completed:
                    returncode, stderr = 0, ""
                    stdout = '[{"name": "buildtype", "value": "release"}]'
                for argument in map(str, command):
                    if argument.startswith("--benchmark_out="):
                        Path(argument.split("=", 1)[1]).write_text(json.dumps(data))
                return Completed()

        with tempfile.TemporaryDirectory() as build:
            bench = Path(build) / "bench-warp-reduction"
            with replaced(paths, BUILD=Path(build)), \
                    replaced(meson, ensure_configured=lambda: None, ensure_release=lambda: None,
                             build=lambda targets: None, binary_path=lambda chapter, name: bench), \
                    replaced(compare, subprocess=FakeSubprocess):
                _, out = printed(compare.command_compare, "06")
        self.assertLess(out.index("GPU: NVIDIA H100 80GB HBM3"), out.index("Little's law"))
        self.assertLess(out.index("Little's law"), out.index("\n06 "))
        self.assertLess(out.index("\n06 "), out.index("Solution/step5_one_launch"))


class MesonOutput(unittest.TestCase):
    def test_first_compiler_error_from_nvcc_and_gcc(self):
        nvcc = "[1/3] Compiling\nfoo.cu(12): error: identifier \"x\" is undefined\n  x = 1;\n"
        self.assertTrue(meson.first_compiler_errors(nvcc).startswith("foo.cu(12): error"))
        gcc = "ninja: ...\nbar.cpp:3:5: error: expected ';'\n"
        self.assertTrue(meson.first_compiler_errors(gcc).startswith("bar.cpp:3:5: error"))
        ninja = nvcc + "[2/5] Compiling Cuda object x.cu.o\nninja: build stopped: subcommand failed.\n"
        self.assertNotIn("ninja:", meson.first_compiler_errors(ninja))
        self.assertNotIn("[2/5]", meson.first_compiler_errors(ninja))

    NVCC = """[5/12] Compiling Cuda object chapters/01-sum-of-squares/libsum-of-squares-exercise.a.p/exercise_step3_interleaved.cu.o
FAILED: chapters/01-sum-of-squares/libsum-of-squares-exercise.a.p/exercise_step3_interleaved.cu.o
nvcc -arch=sm_90 ... -c ../chapters/01-sum-of-squares/exercise/step3_interleaved.cu
../chapters/01-sum-of-squares/exercise/step3_interleaved.cu(24): error: identifier "i" is undefined
      sum += square(in[i]);
                       ^
../chapters/05-reduction/solution/reduce1_interleaved_divergent.cu(30): error: expected a ";"
../chapters/03-tiled-matmul/tests/test_tiled_matmul.cpp(7): error: too few arguments
../chapters/01-sum-of-squares/subprojects/course-common/include/course/math.hpp(12): warning #177-D: unused
2 errors detected in the compilation of "../chapters/01-sum-of-squares/exercise/step3_interleaved.cu".
"""

    def test_nvcc_errors_name_the_file_as_the_learner_finds_it(self):
        text = meson.first_compiler_errors(self.NVCC)
        lines = text.splitlines()
        self.assertEqual(lines[0], 'exercises/01-sum-of-squares/step3_interleaved.cu:24: error: '
                                   'identifier "i" is undefined')
        self.assertIn("solutions/05-reduction/reduce1_interleaved_divergent.cu:30: error", text)
        self.assertIn("tests/03-tiled-matmul/test_tiled_matmul.cpp:7: error", text)
        self.assertIn("common/include/course/math.hpp:12: warning", text)
        self.assertIn('compilation of "exercises/01-sum-of-squares/step3_interleaved.cu"', text)
        self.assertNotIn("../chapters", text)

    def test_gcc_errors_name_the_file_as_the_learner_finds_it(self):
        gcc = ("In file included from ../chapters/02-naive-matmul/exercise/naive_matmul.cu:3:\n"
               "../chapters/02-naive-matmul/exercise/naive_matmul.cu:24:5: error: expected ';'\n"
               "/usr/include/c++/13/bits/stl_vector.h:100:3: note: declared here\n")
        text = meson.first_compiler_errors(gcc)
        self.assertTrue(text.startswith("In file included from "
                                        "exercises/02-naive-matmul/naive_matmul.cu:3:"), text)
        self.assertIn("\nexercises/02-naive-matmul/naive_matmul.cu:24:5: error: expected ';'", text)
        self.assertIn("/usr/include/c++/13/bits/stl_vector.h:100:3: note", text)  # not ours

    def test_a_failed_build_prints_the_learners_path(self):
        class Completed:
            returncode, stdout, stderr = 1, NVCC_ONE_LINE, ""
        with replaced(meson, ensure_configured=lambda: None), \
                replaced(meson.subprocess, run=lambda *a, **k: Completed()):
            with self.assertRaises(CourseError) as raised:
                printed(meson.build, ["test-sum-of-squares-gpu"])
        self.assertIn("exercises/01-sum-of-squares/step1_one_thread.cu:9: error",
                      str(raised.exception))

    def test_missing_googletest_gets_an_install_command(self):
        output = 'Run-time dependency GTest found: NO\nDependency "gtest" not found, tried ...'
        self.assertIn("libgtest-dev", meson.explain_setup_failure(output))
        self.assertIsNone(meson.explain_setup_failure("all good"))


NVCC_ONE_LINE = ("../chapters/01-sum-of-squares/exercise/step1_one_thread.cu(9): error: "
                 "identifier \"sum\" is undefined\n")


class Solutions(unittest.TestCase):
    def test_a_step_shows_only_its_own_region(self):
        _, step = manifest.resolve("02.2")
        shown = "\n".join(solution.solution_regions(step))
        self.assertIn("ceil_div", shown)
        self.assertNotIn("Pvalue", shown)

    def test_a_file_per_step_shows_its_regions(self):
        _, step = manifest.resolve("05.5")
        self.assertEqual(len(solution.solution_regions(step)), 2)


class Watch(unittest.TestCase):
    def test_a_saved_file_triggers_a_new_test_run(self):
        calls = []
        exercise = ROOT / "exercises" / "02-naive-matmul" / "naive_matmul.cu"
        real_test, real_sleep = verdict.command_test, watch.time.sleep
        stamp = exercise.stat().st_mtime

        def fake_sleep(_):
            os.utime(exercise, (stamp + len(calls), stamp + len(calls)))  # "save" the file

        verdict.command_test = lambda spec: calls.append(spec)
        watch.time.sleep = fake_sleep
        try:
            watch.command_watch("02", interval=0, rounds=2)
        finally:
            verdict.command_test, watch.time.sleep = real_test, real_sleep
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
=========     at void sum_of_squares::testing::<unnamed>::kernel(const int *, unsigned long, unsigned long long *, unsigned long long *)+0x2b0 in ../chapters/01-sum-of-squares/tests/sum_of_squares_checks.cpp:20
=========     by thread (5,0,0) in block (0,0,0)
========= ERROR SUMMARY: 1 error
"""

    def test_the_first_report_and_the_learners_file_and_line(self):
        headline, location = sanitizer_check.first_report(self.RACECHECK)
        self.assertIn("Race reported", headline)
        self.assertEqual(location, "exercises/05-reduction/reduce1_interleaved_divergent.cu:24")
        headline, location = sanitizer_check.first_report(self.MEMCHECK)
        self.assertIn("Invalid __global__ read", headline)
        self.assertEqual(location, "tests/01-sum-of-squares/sum_of_squares_checks.cpp:20")

    def test_a_report_naming_the_file_alone_points_at_the_learners_file(self):
        report = ("========= Error: Race reported between Read access at void k()+0x2e0 in "
                  "reduce1_interleaved_divergent.cu:26\n")
        known = ["exercises/05-reduction/reduce1_interleaved_divergent.cu"]
        _, location = sanitizer_check.first_report(report, known)
        self.assertEqual(location, "exercises/05-reduction/reduce1_interleaved_divergent.cu:26")

    def test_a_report_line_naming_the_file_alone_names_the_learners_file(self):
        line = ("Warning: Race reported between Read access at k(const int *)+0x7b0 in "
                "step5_block_reduction.cu:55")
        known = [Path("exercises/01-sum-of-squares/step5_block_reduction.cu")]
        self.assertTrue(sanitizer_check.learner_locations(line, known).endswith(
            " in exercises/01-sum-of-squares/step5_block_reduction.cu:55"))
        self.assertEqual(sanitizer_check.learner_locations(line), line)

    def test_a_missing_sanitizer_is_a_skip_not_a_pass(self):
        with replaced(cuda_tools, find=lambda name: None):
            outcome = sanitizer_check.run("racecheck", "/bin/true", "*")
        self.assertEqual(outcome.status, "skipped")
        self.assertIn("skipped, not passed", outcome.text)



class SanitizersWhileTestsFail(unittest.TestCase):
    FAILING = [{"name": "Exercise/SumOfSquaresStep.MatchesCpuExactly/step3_interleaved_n33",
                "passed": False, "skipped": False,
                "message": "../chapters/01-sum-of-squares/tests/test_steps.cpp:80\n"
                           "Expected: 5 elements summed\n"}]
    PASSING = [{"name": "Exercise/SumOfSquaresStep.MatchesCpuExactly/step3_interleaved_n33",
                "passed": True, "skipped": False, "message": ""}]

    def judge(self, results, sanitizers=must_not_run):
        _, step = manifest.resolve("01.3")
        with tempfile.TemporaryDirectory() as tmp, \
                step_run(tmp, tests=lambda s: results, sanitizers=sanitizers):
            passed, results, outcomes = verdict.judge_step(step)
        return step, passed, results, outcomes

    def test_a_failing_step_skips_its_sanitizers_with_one_line_per_tool(self):
        step, passed, results, outcomes = self.judge(self.FAILING)
        self.assertFalse(passed)
        text = verdict.verdict(step, results, outcomes)
        self.assertIn("FAIL 01.3", text)
        for tool in SANITIZER_TOOLS:
            self.assertIn(f"       {tool}: skipped (fix the failing test first)\n", text)
        self.assertIn("tests/01-sum-of-squares/test_steps.cpp:80", text)  # the test's own path
        self.assertNotIn("compute-sanitizer found", text)

    def test_a_passing_step_runs_its_sanitizers(self):
        clean = [sanitizer_check.Outcome("clean", "memcheck: no report")]
        step, passed, results, outcomes = self.judge(self.PASSING, lambda s: clean)
        self.assertTrue(passed)
        self.assertIn("memcheck: no report", verdict.verdict(step, results, outcomes))

    def test_tests_that_fail_only_under_a_sanitizer_fail_the_step(self):
        broken = [sanitizer_check.Outcome("tests-failed", "racecheck: the tests fail when "
                                                 "run under racecheck (exit 1)")]
        step, passed, results, outcomes = self.judge(self.PASSING, lambda s: broken)
        self.assertFalse(passed)
        text = verdict.verdict(step, results, outcomes)
        self.assertIn("fail when run under compute-sanitizer", text)
        self.assertIn("racecheck: the tests fail", text)


class WithoutAGpu(unittest.TestCase):
    """The GPU tests exit 77 without a GPU: the tests that need none still judge the step."""

    def judge(self, results):
        _, step = manifest.resolve("00.4")
        with tempfile.TemporaryDirectory() as tmp, step_run(tmp, sanitizers=must_not_run), \
                replaced(verdict, run_step_tests=lambda step: (results, "SKIP: no usable GPU")):
            return step, verdict.judge_step(step)

    def test_a_failing_host_test_fails_the_step_and_says_the_gpu_tests_did_not_run(self):
        failing = [{"name": "LaunchConfigOf", "passed": False, "skipped": False,
                    "message": "1 threads for 31 elements"}]
        step, (passed, results, outcomes) = self.judge(failing)
        text = verdict.verdict(step, results, outcomes)
        self.assertFalse(passed)
        self.assertIn("FAIL 00.4", text)
        self.assertIn("1 threads for 31 elements", text)
        self.assertIn("the GPU tests did not run: SKIP: no usable GPU", text)

    def test_nothing_failed_is_no_verdict_but_a_message(self):
        passing = [{"name": "LaunchConfigOf", "passed": True, "skipped": False, "message": ""}]
        with self.assertRaisesRegex(CourseError, r"GPU tests cannot run \(1 tests that need no "
                                                 r"GPU pass\)"):
            self.judge(passing)


class StoppedBinary(unittest.TestCase):
    """A test binary that stops before its report (a crash, or the watchdog ending a kernel that
    never finished) fails the step with a verdict line and a recorded state, like any failure."""

    def test_the_watchdogs_stop_is_a_fail_line_with_its_message_and_is_recorded(self):
        _, step = manifest.resolve("08.6")

        def run_tests(binary, *args, **kwargs):
            if "gpu" in str(binary):
                raise judge.Stopped("watchdog: an mbarrier wait of persistent_kernel never "
                                    "completed", started=True)
            return [{"name": "Host", "passed": True, "skipped": False, "message": ""}]

        with tempfile.TemporaryDirectory() as tmp, replaced(paths, BUILD=Path(tmp)), \
                replaced(meson, binary_path=lambda chapter, name: Path(tmp) / name), \
                replaced(judge, run_tests=run_tests):
            passed, results, outcomes = verdict.judge_step(step)
            text = verdict.verdict(step, results, outcomes)
            recorded = state.read_state()
        self.assertFalse(passed)
        self.assertIn("FAIL 08.6", text)
        self.assertIn("stopped before the end of its tests", text)
        self.assertIn("never completed", text)
        self.assertEqual(recorded["08.6"]["verdict"], "fail")


class SanitizerSuite(unittest.TestCase):
    """sanitizer_check.py in clean mode (the meson tests 'exercise under memcheck' and so on),
    with a fake compute-sanitizer and a fake test binary."""
    SANITIZER = """import subprocess, sys
binary, test_filter = sys.argv[-2], sys.argv[-1]
report = "REPORT" in open(binary).read()
if report:
    print("========= Invalid __global__ read of size 4 bytes")
    print("=========     at k()+0x10 in /x/chapters/01-sum-of-squares/exercise/step3_interleaved.cu:30")
    sys.exit(99)
sys.exit(subprocess.run([binary, test_filter]).returncode)
"""

    def check(self, binary_body, tool="memcheck"):
        with tempfile.TemporaryDirectory() as tmp:
            sanitizer = fake_program(tmp, "compute-sanitizer", self.SANITIZER)
            binary = fake_program(tmp, "test-sum-of-squares-gpu", binary_body)
            chapter = ROOT / "chapters" / "01-sum-of-squares"
            with replaced(cuda_tools, find=lambda name: str(sanitizer)), \
                    replaced(os, environ={k: v for k, v in os.environ.items()
                                          if k != "COURSE_UNDER_SANITIZER"}):
                return printed(sanitizer_check.main,
                               [tool, str(binary), "--chapter", str(chapter)])

    FAILS = ('import sys\nprint("[  FAILED  ] Exercise/SumOfSquaresStep.MatchesCpuExactly/'
             'step3_interleaved_n33, where GetParam() = 1")\nsys.exit(1)\n')

    def test_failing_tests_without_a_report_are_skipped_with_the_reason(self):
        code, out = self.check(self.FAILS)
        self.assertEqual(code, sanitizer_check.SKIP)
        self.assertIn("SKIP: memcheck: skipped (fix the failing test first): "
                      "Exercise/SumOfSquaresStep.MatchesCpuExactly/step3_interleaved_n33 fails",
                      out)

    def test_a_report_still_fails(self):
        code, out = self.check("# REPORT\nimport sys\nsys.exit(1)\n")
        self.assertEqual(code, 1)
        self.assertIn("at exercises/01-sum-of-squares/step3_interleaved.cu:30", out)

    def test_tests_that_fail_only_under_the_tool_fail(self):
        # (the plain run of the same tests passes: a fake that says so)
        with replaced(sanitizer_check, failing_tests_without_sanitizer=lambda *a: None):
            code, out = self.check("import sys\nsys.exit(1)\n")
        self.assertEqual(code, 1)
        self.assertIn("pass without memcheck and fail under it", out)

    def test_clean_tests_pass(self):
        code, out = self.check("import sys\nsys.exit(0)\n")
        self.assertEqual(code, 0)
        self.assertIn("memcheck: no report", out)

    def test_gtest_failure_lines_give_the_test_names(self):
        output = ("[  FAILED  ] A/B.c/0, where GetParam() = 3\n[  FAILED  ] D.e\n"
                  "[  FAILED  ] 2 tests, listed below:\n[  FAILED  ] A/B.c/0, where ...\n")
        self.assertEqual(sanitizer_check.failed_test_names(output), ["A/B.c/0", "D.e"])


class ListFromState(unittest.TestCase):
    """./course list reads what ./course test recorded: no build, no test run, no GPU."""

    def run_list(self, tmp, started):
        with step_run(tmp), replaced(meson, ensure_configured=must_not_run), \
                replaced(manifest, is_started=lambda step: step.id in started):
            return printed(state.command_list)[1]

    def test_states_come_from_the_last_test_run(self):
        _, step1 = manifest.resolve("01.1")
        _, step2 = manifest.resolve("01.2")
        with tempfile.TemporaryDirectory() as tmp:
            with replaced(paths, BUILD=Path(tmp)):
                state.record_verdict(step1, True, state.file_stamps(step1))
                state.record_verdict(step2, False, state.file_stamps(step2))
                recorded = json.loads((Path(tmp) / state.STATE_FILE).read_text())
            self.assertEqual(recorded["steps"]["01.1"]["verdict"], "pass")
            self.assertIn("exercises/01-sum-of-squares/step1_one_thread.cu",
                          recorded["steps"]["01.1"]["files"])
            out = self.run_list(tmp, {"01.1", "01.2", "01.3"})
        self.assertRegex(out, r"01\.0 +not started +pointer chase")
        self.assertRegex(out, r"01\.1 +passing +one thread\n")
        self.assertRegex(out, r"01\.2 +failing +many threads")
        self.assertRegex(out, r"01\.3 +not tested yet +interleaved")
        self.assertIn("Next: 00.1", out)  # chapter 00 comes first

    def test_a_file_saved_after_the_run_makes_the_result_older_than_it(self):
        _, step = manifest.resolve("01.1")
        stamps = state.file_stamps(step)
        older = {name: stamp - 1 for name, stamp in stamps.items()}
        with tempfile.TemporaryDirectory() as tmp:
            with replaced(paths, BUILD=Path(tmp)):
                state.record_verdict(step, True, older)
            out = self.run_list(tmp, {"01.1"})
        self.assertRegex(out, r"01\.1 +passing +one thread  \(older than "
                              r"exercises/01-sum-of-squares/step1_one_thread.cu\)")

    def test_no_state_file_means_not_tested_yet(self):
        with tempfile.TemporaryDirectory() as tmp:
            out = self.run_list(str(Path(tmp) / "never-built"), {"02.1"})
        self.assertRegex(out, r"02\.1 +not tested yet")
        self.assertIn("Next: 00.1", out)  # chapter 00 comes first

    def test_a_broken_state_file_is_ignored(self):
        with tempfile.TemporaryDirectory() as tmp:
            (Path(tmp) / state.STATE_FILE).write_text("{not json")
            out = self.run_list(tmp, {"01.0"})
        self.assertRegex(out, r"01\.0 +not tested yet")

    def test_test_records_each_steps_verdict_with_the_files_it_judged(self):
        with tempfile.TemporaryDirectory() as tmp:
            with passing_step_run(tmp, "no tensor cores"):
                code, out = printed(verdict.command_test, "01.4")
                record = state.read_state()["01.4"]
        self.assertEqual(code, 0)
        self.assertEqual(record["verdict"], "pass")
        _, step = manifest.resolve("01.4")
        self.assertEqual(record["files"], state.file_stamps(step))


class AnotherGpu(unittest.TestCase):
    """A step this GPU cannot run (its tests skip with judge.NEEDS_ANOTHER_GPU) has a state of
    its own: not a failure, and it blocks neither ./course list's Next nor ./course solution."""
    NEEDS = ("step 5 needs compute capability 9.0 exactly (wgmma and setmaxnreg exist only in "
             "sm_90a code); this GPU, NVIDIA GeForce RTX 3060, is 8.6")
    SKIPPED = [{"name": "Host", "passed": True, "skipped": False, "message": ""},
               {"name": "TensorCoreGemm", "passed": False, "skipped": True,
                "message": "tests/x.cpp:50\n" + judge.NEEDS_ANOTHER_GPU + NEEDS}]

    def test_the_skip_prefix_is_the_one_the_tests_print(self):
        testing_hpp = (ROOT / "common/include/course/testing.hpp").read_text()
        self.assertIn(f'"{judge.NEEDS_ANOTHER_GPU}"', testing_hpp)

    def test_test_says_it_neither_passed_nor_failed_and_list_moves_on(self):
        _, step = manifest.resolve("08.5")
        with tempfile.TemporaryDirectory() as tmp:
            with step_run(tmp, tests=lambda step: self.SKIPPED,
                          compile_targets=lambda targets: None):
                code, out = printed(verdict.command_test, "08.5")
                self.assertEqual(state.read_state()["08.5"]["needs"], self.NEEDS)
            with step_run(tmp), replaced(manifest, is_started=lambda s: s.id in ("08.5", "08.6")):
                listed = printed(state.command_list)[1]
        self.assertEqual(code, 0)  # not a failure
        self.assertIn("---- 08.5", out)
        self.assertIn("neither passed nor failed", out)
        self.assertIn(self.NEEDS, out)
        self.assertRegex(listed, r"08\.5 +needs other GPU +wgmma.*  \(needs compute capability "
                                 r"9\.0 exactly; this GPU, NVIDIA GeForce RTX 3060, is 8\.6\)")
        self.assertIn("Next: 00.1", listed)
        self.assertNotIn("Next: 08.5", listed)

    def test_the_reference_is_shown(self):
        with tempfile.TemporaryDirectory() as tmp:
            with step_run(tmp, tests=lambda step: self.SKIPPED,
                          compile_targets=lambda targets: None):
                code, out = printed(solution.command_solution, "08.5", False)
        self.assertEqual(code, 0)
        self.assertIn("not run here", out)
        self.assertIn("--- solutions/08-tensor-core-gemm/step5_wgmma.cu", out)

    def test_a_failure_beside_the_skip_is_a_failure(self):
        failing = self.SKIPPED + [{"name": "Args", "passed": False, "skipped": False,
                                   "message": "Expected 3"}]
        self.assertEqual(judge.needs_another_gpu(failing), "")


class SolutionUnlock(unittest.TestCase):
    def test_the_same_pass_rule_as_test_skipped_checks_included(self):
        with tempfile.TemporaryDirectory() as tmp:
            with passing_step_run(tmp, "needs sm_80"):
                code, out = printed(solution.command_solution, "02.2", False)
        self.assertEqual(code, 0)
        self.assertIn("ceil_div", out)

    def test_a_recorded_pass_of_the_same_files_is_reused(self):
        _, step = manifest.resolve("02.2")
        with tempfile.TemporaryDirectory() as tmp:
            with replaced(paths, BUILD=Path(tmp)):
                state.record_verdict(step, True, state.file_stamps(step))
            with step_run(tmp):
                code, out = printed(solution.command_solution, "02.2", False)
        self.assertEqual(code, 0)
        self.assertIn("ceil_div", out)

    def test_a_failing_step_keeps_it_hidden_and_says_why(self):
        failing = [{"name": "x", "passed": False, "skipped": False, "message": "Expected 3"}]
        with tempfile.TemporaryDirectory() as tmp:
            with step_run(tmp, tests=lambda step: failing, compile_targets=lambda targets: None):
                with self.assertRaises(CourseError):
                    printed(solution.command_solution, "02.2", False)
                self.assertEqual(state.read_state()["02.2"]["verdict"], "fail")


class CommandLine(unittest.TestCase):
    def test_every_subcommand_is_bound_to_a_handler(self):
        parser = cli.build_parser()
        for argv in (["list"], ["test", "01"], ["watch", "01"], ["profile", "01.3"],
                     ["hint", "01.3", "--more"], ["compare", "01", "--full"],
                     ["solution", "01.3", "--anyway"], ["chart", "x.json", "--hide-skipped"]):
            self.assertTrue(callable(parser.parse_args(argv).func), argv)

    def test_a_course_error_is_a_message_and_exit_status_2(self):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            status, _ = printed(cli.main, ["test", "99"])
        self.assertEqual(status, 2)
        self.assertEqual(err.getvalue(), "course: there is no chapter 99; ./course list shows "
                                         "them all\n")


class CudaTools(unittest.TestCase):
    """common/scripts/cuda_tools.py: PATH, then CUDA_HOME and CUDA_PATH, then the usual
    folders."""

    def environment(self, path, **variables):
        return replaced(os, environ=dict({"PATH": str(path)}, **variables))

    def test_path_first_then_cuda_home_then_cuda_path(self):
        with tempfile.TemporaryDirectory() as tmp:
            on_path, home, cuda_path = (Path(tmp) / name for name in ("path", "home", "cuda"))
            for folder in (on_path, home / "bin", cuda_path / "bin"):
                folder.mkdir(parents=True)
                fake_program(folder, "ncu", "")
            with self.environment(on_path, CUDA_HOME=str(home), CUDA_PATH=str(cuda_path)):
                self.assertEqual(cuda_tools.find("ncu"), str(on_path / "ncu"))
            with self.environment(Path(tmp), CUDA_HOME=str(home), CUDA_PATH=str(cuda_path)):
                self.assertEqual(cuda_tools.find("ncu"), str(home / "bin" / "ncu"))
            with self.environment(Path(tmp), CUDA_PATH=str(cuda_path)):
                self.assertEqual(cuda_tools.find("ncu"), str(cuda_path / "bin" / "ncu"))
                self.assertIsNone(cuda_tools.find("no-such-cuda-tool"))

    def test_the_usual_folders_and_nsight_computes_own(self):
        with self.environment("/nowhere"):
            self.assertEqual(cuda_tools.folders("nvcc"), ["/usr/local/cuda/bin", "/opt/cuda/bin"])
            self.assertEqual(cuda_tools.folders("ncu")[-1], "/opt/nvidia/nsight-compute")

    def test_an_nvcc_off_path_is_put_on_path_for_meson(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake_program(tmp, "meson", "")
            fake_program(tmp, "ninja", "")
            home = Path(tmp) / "cuda"
            (home / "bin").mkdir(parents=True)
            fake_program(home / "bin", "nvcc", "")
            with self.environment(tmp, CUDA_HOME=str(home)):
                meson.require_tools()
                self.assertEqual(os.environ["PATH"].split(os.pathsep)[0], str(home / "bin"))
            with self.environment(tmp), replaced(cuda_tools, TOOLKIT_FOLDERS=()):
                with self.assertRaisesRegex(CourseError, "nvcc is missing"):
                    meson.require_tools()


class Profiler(unittest.TestCase):
    CSV = """benchmark output line
==PROF== Connected to process 1
"ID","Process ID","Kernel Name","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum","l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","sm__warps_active.avg.pct_of_peak_sustained_active"
"","","","","sector","%"
"0","6469","void unnamed>::interleaved_kernel(const int *)","16,384","262,144","40.38"
"""

    def test_ncu_csv_values_become_numbers(self):
        kernels = ncu_profile.parse_csv(self.CSV)
        self.assertEqual(len(kernels), 1)
        self.assertEqual(kernels[0]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 262144.0)
        self.assertEqual(kernels[0]["sm__warps_active.avg.pct_of_peak_sustained_active"], 40.38)
        self.assertIn("interleaved_kernel", kernels[0]["Kernel Name"])

    def test_a_long_column_name_keeps_its_columns_apart(self):
        _, step = manifest.resolve("04.3")
        label = step.profile["metrics"][0]["label"]
        what = "chapter 03's unguarded kernel at Width 4096"
        text = profile.profile_table(step, None, {label: 3.04}, {what: {label: 2.7}})
        header = text.splitlines()[0]
        self.assertIn("solution  " + what, header)
        self.assertTrue(text.splitlines()[1].rstrip().endswith("2.7"))

    def test_profile_table_has_a_column_for_each_thing_compared_with(self):
        _, step = manifest.resolve("08.3")
        tensor, l2_bytes, passes = (m["label"] for m in step.profile["metrics"][:3])
        compared = {"step 2's solution": {tensor: 36.8, l2_bytes: 1.8e9},
                    "step 3 without the swizzle": {passes: 32.0}}
        text = profile.profile_table(step, None, {tensor: 61.0, l2_bytes: 1.7e9, passes: 4.0},
                                     compared)
        lines = text.splitlines()
        self.assertTrue(lines[0].endswith("step 2's solution  step 3 without the swizzle"))
        row = {label: next(line for line in lines if line.startswith(f"  {label} "))
               for label in (tensor, passes)}
        self.assertTrue(row[tensor].rstrip().endswith("36.8"))  # step 2's column, not the last
        self.assertGreater(len(row[tensor]), len(row[tensor].rstrip()))
        self.assertTrue(row[passes].endswith(" 32"))  # the contrast's column, the last

    def test_ratio_metrics(self):
        counters = ncu_profile.parse_csv(self.CSV)[0]
        metric = {"label": "x", "ratio": ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                                          "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"]}
        self.assertEqual(ncu_profile.value_of(metric, counters), 16.0)
        self.assertIsNone(ncu_profile.value_of({"label": "y", "metric": "absent"}, counters))

    def test_missing_ncu_and_missing_permission_say_what_to_do(self):
        with replaced(cuda_tools, find=lambda name: None):
            with self.assertRaises(ncu_profile.ProfileError) as raised:
                ncu_profile.measure("bench", "row", "kernel", ["m"])
        self.assertTrue(raised.exception.unavailable)
        self.assertIn("cuda/bin", str(raised.exception))
        self.assertIn("NVreg_RestrictProfilingToAdminUsers=0", ncu_profile.PERMISSION_HELP)
        self.assertIn("WSL2", ncu_profile.PERMISSION_HELP)

    def test_every_profile_names_a_row_a_kernel_and_explains_its_metrics(self):
        for chapter in manifest.chapters():
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
