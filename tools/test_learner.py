"""Unit tests of tools/learner.py (no GPU, no build)."""
import io
import re
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from common.scripts import regions
from tools import learner

ROOT = learner.ROOT


def reference_text(chapter, file_name):
    """The exercise file with every TODO done: the solution's code under every TODO."""
    text = chapter.solution_text(file_name)
    count = len(regions.regions(text, file_name))
    return regions.filled_text(text, chapter.name, file_name, dict.fromkeys(range(count)))


class FilledText(unittest.TestCase):
    def test_each_step_fills_only_its_own_todos(self):
        checked = 0
        for chapter in learner.manifest.chapters(ROOT / "chapters"):
            for step in chapter.steps:
                for file_name in step.files:
                    filled = learner.filled_text(chapter, file_name, step.number)
                    shipped = (ROOT / "exercises" / chapter.name / file_name).read_text()
                    alone = chapter.file_steps()[file_name] == [step.number]
                    if alone:
                        self.assertEqual(filled, reference_text(chapter, file_name), step.id)
                    else:
                        self.assertGreater(len(filled), len(shipped), step.id)
                        self.assertLess(len(filled), len(reference_text(chapter, file_name)),
                                        f"{step.id} filled other steps' TODOs too")
                    checked += 1
        self.assertGreaterEqual(checked, 40)

    def test_code_goes_under_the_todo_and_top_lines_after_the_includes(self):
        chapter = learner.chapter("01")
        filled = learner.filled_text(chapter, "step3_interleaved.cu", 3,
                                        ["  int planted = 1;\n"], ["#include <planted_header.h>"])
        lines = filled.splitlines()
        at = lines.index("  int planted = 1;")
        self.assertTrue(lines[at - 1].strip().startswith("//"), lines[at - 1])  # the TODO
        include = lines.index("#include <planted_header.h>")
        self.assertTrue(all(not l.startswith("#include") for l in lines[include + 1:]))

    def test_a_wrong_number_of_regions_is_refused(self):
        with self.assertRaisesRegex(learner.FillError, "TODO region"):
            learner.filled_text(learner.chapter("01"), "step3_interleaved.cu", 3,
                                   ["a", "b"])


class MistakeVerdicts(unittest.TestCase):
    """Only ./course test's verdict FAIL NN.S rejects a mistake; no verdict is no proof."""

    def check(self, rc, output, which=("02.1",)):
        calls = []

        def fake_judge(chapter, files, step_id):
            calls.append(step_id)
            return rc, output.format(step_id), 1.0

        saved, learner.judge = learner.judge, fake_judge
        try:
            with redirect_stdout(io.StringIO()) as out, redirect_stderr(io.StringIO()):
                status = learner.check_mistakes(list(which))
        finally:
            learner.judge = saved
        return status, out.getvalue(), calls

    def test_a_fail_line_rejects(self):
        status, out, calls = self.check(1, "  FAIL {} the kernel\n")
        self.assertEqual(status, 0, out)
        self.assertTrue(calls and set(calls) == {"02.1"})  # a step id selects its mistakes
        self.assertIn("rejected", out)

    def test_a_failed_build_or_no_gpu_is_no_verdict(self):
        status, out, _ = self.check(2, "course: the build failed\n")
        self.assertEqual(status, 1)
        self.assertIn("NOT JUDGED HERE", out)

    def test_a_step_this_gpu_cannot_run_is_no_verdict(self):
        status, out, _ = self.check(0, "  ---- {} not run here, neither passed nor failed\n")
        self.assertEqual(status, 1)
        self.assertIn("NOT JUDGED HERE", out)

    def test_a_pass_is_not_caught_and_nothing_selected_is_an_error(self):
        self.assertIn("NOT CAUGHT", self.check(0, "  PASS {}\n")[1])
        status, _, calls = self.check(1, "  FAIL {}\n", which=("no_such_mistake",))
        self.assertEqual((status, calls), (1, []))


class AlternativeFiles(unittest.TestCase):
    def write(self, text):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        path = Path(folder.name) / "while_loop.cu"
        path.write_text(text)
        return path

    def test_header_top_and_regions_are_read(self):
        path = self.write("// ALTERNATIVE 01.3 step3_interleaved.cu\n// a while loop\n"
                          "// @top\n#include <cstdio>\n// @region\n  int x = 0;\n  (void)x;\n")
        alternative = learner.Alternative(path)
        self.assertEqual((alternative.chapter.name, alternative.step, alternative.file),
                         ("01-sum-of-squares", 3, "step3_interleaved.cu"))
        self.assertEqual(alternative.step_id, "01.3")
        self.assertEqual(alternative.top, ["#include <cstdio>"])
        self.assertEqual(alternative.codes, ["  int x = 0;\n  (void)x;\n"])
        self.assertEqual(alternative.about, "a while loop")
        self.assertIn("  int x = 0;\n", alternative.text())

    def test_a_file_without_the_header_is_refused(self):
        with self.assertRaisesRegex(learner.FillError, "ALTERNATIVE"):
            learner.Alternative(self.write("// @region\nint x;\n"))

    def test_every_alternative_in_the_tree_fits(self):
        self.assertEqual(learner.check(), 0)
        for path in ROOT.glob("tests/*/alternatives/*.cu"):
            self.assertTrue(re.match(r"[a-z0-9_]+$", path.stem), path)


if __name__ == "__main__":
    unittest.main()
