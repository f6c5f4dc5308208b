#!/usr/bin/env python3
"""Unit tests of tools/fill_todos.py (no GPU, no build): run from the repository root."""
import re
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import fill_todos  # noqa: E402
import sync_exercises  # noqa: E402

ROOT = fill_todos.ROOT


def reference_text(chapter, file_name):
    """The solution file as the learner's file would be with every TODO done: the markers
    gone, the namespace renamed, the exercise banner on top."""
    text = (ROOT / "solutions" / chapter / file_name).read_text()
    kept = [line for line in text.splitlines(keepends=True)
            if not (sync_exercises.BEGIN.match(line) or sync_exercises.END.match(line))]
    return sync_exercises.exercise_text("".join(kept), chapter, f"solutions/{chapter}/{file_name}")


class FilledText(unittest.TestCase):
    def test_a_file_of_one_step_filled_with_the_reference_is_the_solution(self):
        checked = 0
        for chapter in sorted(p.parent.name for p in (ROOT / "chapters").glob("*/steps.json")):
            for step in fill_todos.steps_of(chapter):
                for file_name in step["files"]:
                    if len(fill_todos.owner_steps(chapter, file_name)) != 1:
                        continue
                    self.assertEqual(fill_todos.filled_text(chapter, file_name, step["step"]),
                                     reference_text(chapter, file_name), f"{chapter}/{file_name}")
                    checked += 1
        self.assertGreater(checked, 10)

    def test_each_step_of_a_shared_file_fills_only_its_own_todos(self):
        shared = [(c, s["step"], f) for c in
                  sorted(p.parent.name for p in (ROOT / "chapters").glob("*/steps.json"))
                  for s in fill_todos.steps_of(c) for f in s["files"]
                  if len(fill_todos.owner_steps(c, f)) > 1]
        self.assertTrue(shared, "no chapter has a file with several steps any more")
        for chapter, step, file_name in shared:
            shipped = (ROOT / "exercises" / chapter / file_name).read_text()
            filled = fill_todos.filled_text(chapter, file_name, step)
            self.assertGreater(len(filled), len(shipped), f"{chapter}/{file_name} step {step}")
            self.assertLess(len(filled), len(reference_text(chapter, file_name)),
                            f"{chapter}/{file_name} step {step} filled other steps' TODOs too")

    def test_code_goes_under_the_todo_and_top_lines_after_the_includes(self):
        chapter, file_name = "01-sum-of-squares", "step3_interleaved.cu"
        filled = fill_todos.filled_text(chapter, file_name, 3, ["  int planted = 1;\n"],
                                        ["#include <planted_header.h>"])
        lines = filled.splitlines()
        at = lines.index("  int planted = 1;")
        self.assertTrue(lines[at - 1].strip().startswith("//"), lines[at - 1])  # the TODO comment
        include = lines.index("#include <planted_header.h>")
        self.assertTrue(all(not l.startswith("#include") for l in lines[include + 1:]))

    def test_a_wrong_number_of_regions_is_refused(self):
        with self.assertRaisesRegex(fill_todos.FillError, "TODO region"):
            fill_todos.filled_text("01-sum-of-squares", "step3_interleaved.cu", 3, ["a", "b"])


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
        alternative = fill_todos.Alternative(path)
        self.assertEqual((alternative.chapter, alternative.step, alternative.file),
                         ("01-sum-of-squares", 3, "step3_interleaved.cu"))
        self.assertEqual(alternative.step_id, "01.3")
        self.assertEqual(alternative.top, ["#include <cstdio>"])
        self.assertEqual(alternative.codes, ["  int x = 0;\n  (void)x;\n"])
        self.assertEqual(alternative.about, "a while loop")
        self.assertIn("  int x = 0;\n", alternative.text())

    def test_a_file_without_the_header_is_refused(self):
        with self.assertRaisesRegex(fill_todos.FillError, "ALTERNATIVE"):
            fill_todos.Alternative(self.write("// @region\nint x;\n"))

    def test_every_alternative_in_the_tree_fits(self):
        self.assertEqual(fill_todos.check(), 0)
        for path in ROOT.glob("tests/*/alternatives/*.cu"):
            self.assertTrue(re.match(r"[a-z0-9_]+$", path.stem), path)


if __name__ == "__main__":
    unittest.main()
