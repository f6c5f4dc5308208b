#!/usr/bin/env python3
"""Unit tests of tools/check_step_lists.py on copies of this repository's chapters."""
import shutil
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_step_lists  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


class StepLists(unittest.TestCase):
    def copy(self, chapter):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        root = Path(folder.name)
        shutil.copytree(ROOT / "chapters" / chapter, root / "chapters" / chapter, symlinks=True)
        shutil.copytree(ROOT / "solutions" / chapter, root / "solutions" / chapter)
        return root, root / "chapters" / chapter

    def problems(self, chapter_dir, root):
        return "\n".join(check_step_lists.chapter_problems(chapter_dir, root))

    def test_the_repository_passes(self):
        self.assertEqual(check_step_lists.main(["--root", str(ROOT)]), 0)

    def test_a_step_file_that_meson_does_not_compile_is_named(self):
        root, chapter = self.copy("07-register-tiled-sgemm")
        meson = chapter / "meson.build"
        meson.write_text(meson.read_text().replace("  'step5_double_buffering.cu',\n", ""))
        self.assertIn("step5_double_buffering.cu, which meson.build does not compile",
                      self.problems(chapter, root))

    def test_a_table_entry_in_another_steps_file_is_named(self):
        root, chapter = self.copy("06-warp-reduction")
        header = chapter / "warp_reduction.cuh"
        header.write_text(header.read_text().replace(
            '{3, "step3_warp_shuffle", "step3_warp_shuffle.cu"',
            '{3, "step3_warp_shuffle", "step4_vector_loads.cu"'))
        self.assertIn("the C++ step table puts step3_warp_shuffle in step4_vector_loads.cu",
                      self.problems(chapter, root))

    def test_a_step_count_that_disagrees_is_named(self):
        root, chapter = self.copy("03-tiled-matmul")
        header = chapter / "tiled_matmul.cuh"
        header.write_text(header.read_text().replace("kStepCount = 2;", "kStepCount = 3;"))
        self.assertIn("kStepCount = 3, but steps.json has 2", self.problems(chapter, root))


if __name__ == "__main__":
    unittest.main()
