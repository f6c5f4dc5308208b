#!/usr/bin/env python3
"""Unit tests of sync_exercises.py (standard library only)."""
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import sync_exercises as sync  # noqa: E402

SOLUTION = """\
namespace course_chapter::solution {
int f(int x) {
  // BEGIN SOLUTION
  // TODO: return twice x
  //       (no overflow check needed)
  return 2 * x;
  // END SOLUTION
}
}  // namespace course_chapter::solution
"""


class ExerciseText(unittest.TestCase):
    def test_removes_the_answer_and_keeps_the_todo(self):
        text = sync.exercise_text(SOLUTION, "01-x")
        self.assertIn("  // TODO: return twice x\n  //       (no overflow check needed)\n", text)
        self.assertNotIn("return 2 * x", text)
        self.assertNotIn("SOLUTION", text.replace("solutions/", ""))

    def test_renames_the_namespace(self):
        text = sync.exercise_text(SOLUTION, "01-x")
        self.assertIn("namespace course_chapter::exercise {", text)
        self.assertIn("}  // namespace course_chapter::exercise", text)
        self.assertNotIn("::solution", text)

    def test_starts_with_a_banner_naming_the_test_command(self):
        text = sync.exercise_text(SOLUTION, "01-x")
        self.assertTrue(text.startswith("// Exercise file"))
        self.assertIn("--suite 01-x:exercise --print-errorlogs", text)

    def test_the_banner_gives_the_steps_command_first_then_meson_with_its_messages(self):
        lines = sync.exercise_text(SOLUTION, "01-x", steps=[3]).splitlines()
        self.assertEqual(lines[:3], [
            "// Exercise file: replace every TODO below with your code. Check it with",
            "//   ./course test 01.3",
            "// (or: meson test -C build --suite 01-x:exercise --print-errorlogs)"])

    def test_a_file_of_several_steps_names_each_and_a_file_of_none_the_chapter(self):
        text = sync.banner("04-y", [1, 2, 3])
        self.assertIn("//   ./course test 04.1   (and 04.2, 04.3:", text)
        self.assertIn("//   ./course test 04\n", sync.banner("04-y"))

    def test_the_steps_come_from_the_chapters_steps_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "chapters" / "02-z").mkdir(parents=True)
            (root / "chapters" / "02-z" / "steps.json").write_text(json.dumps({"steps": [
                {"step": 1, "files": ["a.cu"]}, {"step": 2, "files": ["a.cu", "b.cu"]}]}))
            self.assertEqual(sync.file_steps(root, "02-z"), {"a.cu": [1, 2], "b.cu": [2]})
            self.assertEqual(sync.file_steps(root, "03-none"), {})
            (root / "solutions" / "02-z").mkdir(parents=True)
            (root / "solutions" / "02-z" / "b.cu").write_text(SOLUTION)
            self.assertEqual(sync.main(["--root", tmp]), 0)
            text = (root / "exercises" / "02-z" / "b.cu").read_text()
            self.assertIn("//   ./course test 02.2\n", text)

    def test_every_shipped_exercise_names_its_own_step(self):
        for path in sorted((sync.REPOSITORY / "exercises").glob("*/*.cu")):
            chapter = path.parent.name
            steps = sync.file_steps(sync.REPOSITORY, chapter).get(path.name)
            if steps:
                self.assertIn(f"./course test {chapter[:2]}.{steps[0]}", path.read_text(), path)

    def test_rejects_a_region_without_todo(self):
        with self.assertRaisesRegex(sync.MarkerError, "TODO"):
            sync.exercise_text("// BEGIN SOLUTION\nint x;\n// END SOLUTION\n", "c")

    def test_rejects_an_unclosed_region(self):
        with self.assertRaisesRegex(sync.MarkerError, "never closed"):
            sync.exercise_text("// BEGIN SOLUTION\n// TODO: a\nint x;\n", "c")

    def test_rejects_an_end_without_begin(self):
        with self.assertRaisesRegex(sync.MarkerError, "without BEGIN"):
            sync.exercise_text("int x;\n// END SOLUTION\n", "c")


class CheckMode(unittest.TestCase):
    def test_reports_then_repairs_a_stale_exercise(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "solutions" / "01-x").mkdir(parents=True)
            (root / "solutions" / "01-x" / "f.cu").write_text(SOLUTION)
            self.assertEqual(sync.main(["--check", "--root", tmp]), 1)
            self.assertEqual(sync.main(["--root", tmp]), 0)
            self.assertEqual(sync.main(["--check", "--root", tmp]), 0)
            exercise = root / "exercises" / "01-x" / "f.cu"
            exercise.write_text(exercise.read_text() + "// learner edit\n")
            self.assertEqual(sync.main(["--check", "--root", tmp]), 1)

    def test_reports_an_exercise_without_solution(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            (root / "solutions" / "01-x").mkdir(parents=True)
            (root / "exercises" / "01-x").mkdir(parents=True)
            (root / "exercises" / "01-x" / "orphan.cu").write_text("int x;\n")
            self.assertEqual(sync.main(["--check", "--root", tmp]), 1)


if __name__ == "__main__":
    unittest.main()
