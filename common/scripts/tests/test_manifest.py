"""Tests of what a chapter's build derives from its manifest and files (regions.py,
manifest.py, judge.py): no GPU, no build. Some run over every chapter of the course, so that a
solution edited out of step with its manifest fails here, on CI, not first in a GPU run."""
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

from common.scripts import cuda_tools, judge, manifest, regions

ROOT = Path(__file__).resolve().parents[3]
CHAPTERS = manifest.chapters(ROOT / "chapters")
SOLUTION = """#include "x.cuh"
namespace x::solution {
// Step 1: doubles.
template <int N>
__device__ __forceinline__ void twice(float* v) {
  // BEGIN SOLUTION
  // TODO (step 1): double v[0].
  v[0] *= 2.0f;
  // END SOLUTION
}

__global__ void kernel(float* v) {
  // BEGIN SOLUTION
  // TODO (step 2): call twice().
  twice<1>(v);
  // END SOLUTION
}
}  // namespace x::solution
"""


class Regions(unittest.TestCase):
    def test_a_region_belongs_to_its_tag_or_to_its_files_step(self):
        self.assertEqual([r.step for r in regions.regions(SOLUTION, "x.cu")], [1, 2])
        untagged = SOLUTION.replace("TODO (step 1)", "TODO").replace("TODO (step 2)", "TODO")
        self.assertEqual(regions.steps_of(untagged, "solutions/05-x/step4_y.cu"), [4])
        with self.assertRaisesRegex(regions.RegionError, r"x.cu:7: whose TODO is this"):
            regions.regions(untagged, "x.cu")

    def test_broken_markers_name_file_and_line(self):
        for text, error in (("// BEGIN SOLUTION\nint x;\n", "x.cu:1: BEGIN SOLUTION must be "
                             "followed by a '// TODO"),
                            ("// BEGIN SOLUTION\n// TODO (step 1): x\n", "x.cu:1: BEGIN SOLUTION "
                             "is never closed"),
                            ("int x;\n// END SOLUTION\n", "x.cu:2: END SOLUTION without")):
            with self.assertRaisesRegex(regions.RegionError, error):
                regions.regions(text, "x.cu")

    def test_the_exercise_keeps_the_todo_renames_the_namespace_and_names_its_steps(self):
        text = regions.exercise_text(SOLUTION, "07-x", "solutions/07-x/x.cu")
        self.assertIn("// TODO (step 1): double v[0].\n}", text)
        self.assertNotIn("v[0] *= 2.0f", text)
        self.assertNotIn("BEGIN SOLUTION", text)
        self.assertIn("namespace x::exercise {", text)
        self.assertTrue(text.startswith("// Exercise file"))
        self.assertIn("./course test 07.1   (and 07.2: this file's steps, one at a time)", text)

    def test_filled_regions_hold_the_code_given_or_the_reference(self):
        text = regions.filled_text(SOLUTION, "07-x", "x.cu", {1: "  kernel_was_here();"})
        self.assertIn("// TODO (step 2): call twice().\n  kernel_was_here();\n}", text)
        self.assertNotIn("v[0] *= 2.0f", text)
        self.assertIn("v[0] *= 2.0f", regions.filled_text(SOLUTION, "07-x", "x.cu", {0: None}))

    def test_a_plant_must_match_exactly_once(self):
        planted = regions.planted_text(SOLUTION, [("*= 2.0f", "*= 3.0f")], "exercise")
        self.assertIn("v[0] *= 3.0f", planted)
        self.assertIn("namespace x::exercise", planted)
        with self.assertRaisesRegex(regions.RegionError, "no longer matches exactly once"):
            regions.planted_text(SOLUTION, [("v[0]", "v[1]"), ("absent", "")], "exercise")

    def test_ready_made_functions_are_the_device_functions_with_their_reference_code(self):
        found = regions.ready_made_functions(SOLUTION, "x.cu")
        self.assertEqual(len(found), 1)  # the kernel stays out
        self.assertTrue(found[0].startswith("// Step 1: doubles.\ntemplate <int N>"))
        self.assertIn("  v[0] *= 2.0f;\n}", found[0])
        self.assertNotIn("TODO", found[0])
        first = regions.regions(SOLUTION, "x.cu")[0]
        self.assertEqual(regions.enclosing_function(SOLUTION, first), "twice")


class EveryChapter(unittest.TestCase):
    def test_every_step_has_files_and_every_file_a_step(self):
        for chapter in CHAPTERS:
            owned = {f for s in chapter.steps for f in s.files}
            self.assertEqual(owned, set(chapter.solution_files()), chapter.name)
            for step in chapter.steps:
                self.assertTrue(step.files, step.id)

    def test_every_mistake_and_contrast_still_applies_to_its_solution(self):
        count = 0
        for chapter in CHAPTERS:
            for edit in chapter.mistakes + chapter.contrasts:
                self.assertIn(f"namespace {chapter.snake}::{edit.namespace}", edit.text())
                count += 1
        self.assertGreater(count, 40)

    def test_the_step_table_and_the_build_facts(self):
        chapter = next(c for c in CHAPTERS if c.number == "03")
        header = manifest.header_text(chapter)
        self.assertIn('{1, "load the tiles into shared memory", "tiled_matmul.cu", '
                      '"load_phase_tiles", "step1"},', header)
        self.assertIn("inline constexpr int kStepCount = 2;", header)
        facts = dict(line.split("\t") for line in manifest.meson_lines(chapter))
        self.assertEqual(facts["step_files"], "tiled_matmul.cu")
        self.assertEqual(facts["builds_on"], "02-naive-matmul")
        self.assertIn("test_tiled_matmul.cpp", facts["gpu_test_sources"])
        self.assertEqual(facts["host_test_sources"], "test_arguments.cpp")
        hopper = next(c for c in CHAPTERS if c.number == "08")
        facts = dict(line.split("\t") for line in manifest.meson_lines(hopper))
        self.assertEqual(facts["sm90a_step_files"],
                         "step5_wgmma.cu step6_persistent_tiles.cu")
        self.assertTrue(facts["edit:wgmma_without_wait"].endswith(" sm_90a"))

    def test_the_ready_made_header_holds_a_split_chapters_pieces(self):
        chapter = next(c for c in CHAPTERS if c.number == "04")
        text = manifest.ready_made_text(chapter)
        for function in ("load_m_tile", "load_n_tile", "store_result"):
            self.assertIn(f"void {function}(", text)
        self.assertIn("namespace arbitrary_width_tiles::ready_made {", text)


class StepFilters(unittest.TestCase):
    LISTING = """Exercise/SumOfSquaresStep.
  MatchesCpuExactly/step1_one_thread_n33  # GetParam() = 4-byte object <...>
  MatchesCpuExactly/step2_chunks_n33
Exercise/LaunchConfigOf.
  CoversEveryN/step2  # GetParam() = exercise
  Anything
Solution/SumOfSquaresStep.
  MatchesCpuExactly/all_n33
  MatchesCpuExactly/step9_n33
Exercise/Typed/0.  # TypeParam = int
  DISABLED_Slow
DISABLED_Exercise/Off.
  Never
Host.
  works
"""

    def test_the_listing_gives_full_names_without_disabled_tests(self):
        self.assertEqual(manifest.gtest_names(self.LISTING), [
            "Exercise/SumOfSquaresStep.MatchesCpuExactly/step1_one_thread_n33",
            "Exercise/SumOfSquaresStep.MatchesCpuExactly/step2_chunks_n33",
            "Exercise/LaunchConfigOf.CoversEveryN/step2", "Exercise/LaunchConfigOf.Anything",
            "Solution/SumOfSquaresStep.MatchesCpuExactly/all_n33",
            "Solution/SumOfSquaresStep.MatchesCpuExactly/step9_n33", "Host.works"])

    def test_a_test_of_no_step_and_a_step_without_test_are_named(self):
        chapter = next(c for c in CHAPTERS if c.number == "02")  # steps 1 and 2
        found = "\n".join(manifest.filter_problems(chapter, {"gpu": manifest.gtest_names(
            self.LISTING)}))
        self.assertIn("Exercise/LaunchConfigOf.Anything belongs to no step", found)
        self.assertIn("names step 9, which chapters/02-naive-matmul/steps.json does not have",
                      found)
        self.assertNotIn("all_n33", found)
        self.assertEqual(manifest.filter_problems(chapter, {"gpu": [
            "Exercise/A.b/step1", "Exercise/A.b/step2_x", "Solution/A.b/all"]}), [])
        self.assertIn("step 2 has no", "\n".join(manifest.filter_problems(
            chapter, {"gpu": ["Exercise/A.b/step1"]})))

    def test_the_filter_of_a_step_is_implied_by_its_number(self):
        step = next(c for c in CHAPTERS if c.number == "01").step(3)
        self.assertEqual(step.test_filter(), "Exercise/*/step3:Exercise/*/step3_*")
        self.assertEqual(step.test_filter("solution"), "Solution/*/step3:Solution/*/step3_*")


class SanitizerCases(unittest.TestCase):
    def test_a_case_only_the_sanitizer_run_has_is_named(self):
        plain = ["Solution/T.step1_Width1024", "Solution/T.step1_Width16"]
        self.assertEqual(manifest.sanitizer_case_problems("gpu", plain, plain[1:]), [])
        problems = manifest.sanitizer_case_problems("gpu", plain, ["Solution/T.step1_Width256"])
        self.assertEqual(len(problems), 1)
        self.assertIn("Solution/T.step1_Width256 runs only under compute-sanitizer", problems[0])


class MistakeVerdict(unittest.TestCase):
    """judge.py's rule for a known mistake, with a fake test binary in its place."""

    def verdict(self, body):
        with tempfile.TemporaryDirectory() as tmp:
            binary = Path(tmp) / "test-mistake"
            binary.write_text(f"#!{sys.executable}\nimport sys, json\n{body}")
            binary.chmod(0o755)
            chapter = ROOT / "chapters" / "02-naive-matmul"
            return subprocess.run([sys.executable, "-m", "scripts.judge", "mistake",
                                   str(chapter), "transposed_store", str(binary)],
                                  cwd=ROOT / "common", capture_output=True, text=True)

    REPORT = ("out = [a for a in sys.argv if a.startswith('--gtest_output=json:')][0][20:]\n"
              "json.dump({{'testsuites': [{{'name': 'Exercise/N', 'testsuite': [{{'name': "
              "'M/step1_x', 'result': 'COMPLETED'{}}}]}}]}}, open(out, 'w'))\n")

    def test_failing_tests_reject_it_and_a_missing_gpu_skips(self):
        done = self.verdict(self.REPORT.format(", 'failures': [{'failure': 'P wrong'}]"))
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("rejected by the tests: transposed_store", done.stdout)
        self.assertIn("P wrong", done.stdout)
        self.assertEqual(self.verdict("print('SKIP: no GPU'); sys.exit(77)").returncode, 77)

    def test_a_crash_inside_a_test_rejects_it_too(self):
        done = self.verdict("print('[ RUN      ] Exercise/M.step1_x')\n"
                            "print('the kernel did not finish'); sys.exit(3)")
        self.assertEqual(done.returncode, 0)
        self.assertIn("stopped the tests", done.stdout)

    def test_a_program_that_cannot_start_its_tests_judges_nothing(self):
        done = self.verdict("print('error while loading shared libraries'); sys.exit(127)")
        self.assertEqual(done.returncode, 1)
        self.assertIn("stopped before any test of step 02.1 began", done.stdout)

    def test_no_matching_test_judges_nothing(self):
        done = self.verdict("out = [a for a in sys.argv if a.startswith('--gtest_output=json:')]"
                            "[0][20:]\njson.dump({'testsuites': []}, open(out, 'w'))\n")
        self.assertEqual(done.returncode, 1)
        self.assertIn("no test of", done.stdout)

    def test_every_test_skipped_is_a_skip_not_a_rejection(self):
        # GoogleTest before 1.15 (Debian's) writes the skip message to the console only.
        done = self.verdict("print('[ RUN      ] Exercise/N.M/step1_x\\nx.cpp:1: Skipped\\n"
                            "this GPU cannot run this step: needs 9.0\\n"
                            "[  SKIPPED ] Exercise/N.M/step1_x (0 ms)')\n"
                            + self.REPORT.format(", 'result': 'SKIPPED'"))
        self.assertEqual(done.returncode, 77, done.stdout)
        self.assertIn("every test of step 02.1 skipped here, so nothing judged transposed_store: "
                      "this GPU cannot run this step: needs 9.0", done.stdout)

    def test_skip_messages_from_the_json_of_newer_googletests(self):
        data = {"testsuites": [{"name": "S", "testsuite": [
            {"name": "t", "result": "SKIPPED", "skipped": [{"message": "x.cpp:1\nwhy"}]}]}]}
        self.assertEqual(judge.parse_gtest_json(data)[0]["message"], "x.cpp:1\nwhy")

    def test_passing_tests_with_no_sanitizer_to_run_are_a_skip(self):
        if cuda_tools.find("compute-sanitizer"):
            self.skipTest("compute-sanitizer is installed here")
        done = self.verdict(self.REPORT.format(""))
        self.assertEqual(done.returncode, 77, done.stdout)
        self.assertIn("no sanitizer could run here", done.stdout)


if __name__ == "__main__":
    unittest.main()
