"""Unit tests of tools/check_chapter_anatomy.py on a copy of one of this repository's chapters."""
import json
import shutil
import tempfile
import unittest
from pathlib import Path

from tools import check_chapter_anatomy

ROOT = Path(__file__).resolve().parent.parent
CHAPTER = "07-register-tiled-sgemm"


class ChapterAnatomy(unittest.TestCase):
    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.root = Path(folder.name)
        for top in ("chapters", "solutions", "exercises", "tests"):
            shutil.copytree(ROOT / top / CHAPTER, self.root / top / CHAPTER, symlinks=True)
        (self.root / "common").mkdir()
        for shared in ("chapter.meson", "meson_options.txt"):
            (self.root / "common" / shared).write_text("")
        subprojects = self.root / "chapters" / CHAPTER / "subprojects"
        shutil.rmtree(subprojects)
        subprojects.mkdir()
        (subprojects / "course-common").symlink_to("../../../common")
        self.chapter = self.root / "chapters" / CHAPTER
        self.readme = self.chapter / "README.md"
        # The copy starts from the shape the rules want, whatever the repository's state.
        for json_path in self.chapter.glob("measured-*.json"):
            json_path.with_suffix(".svg").write_text("<svg/>")
            if f"]({json_path.stem}.svg)" not in self.readme.read_text():
                self.edit_readme("## Measured results\n",
                                 f"## Measured results\n\n![chart]({json_path.stem}.svg)\n")
        (self.chapter / "figures" / "draw.py").write_text("FIGURES = {}\n")

    def problems(self):
        return "\n".join(check_chapter_anatomy.chapter_problems(self.root, CHAPTER))

    def edit_readme(self, old, new):
        text = self.readme.read_text()
        self.assertIn(old, text)
        self.readme.write_text(text.replace(old, new, 1))

    def test_the_copy_passes(self):
        self.assertEqual(self.problems(), "")

    def test_the_repository_passes(self):
        self.assertEqual(check_chapter_anatomy.main(["--root", str(ROOT)]), 0)

    def test_a_missing_api_header_is_named(self):
        (self.chapter / "register_tiled_sgemm.cuh").unlink()
        self.assertIn("register_tiled_sgemm.cuh is missing", self.problems())

    def test_a_written_step_table_and_a_missing_declaration_macro_are_named(self):
        header = self.chapter / "register_tiled_sgemm.cuh"
        text = header.read_text()
        text = text.replace("namespace exercise {\nREGISTER_TILED_SGEMM_DECLARE_STEPS",
                            "namespace exercise {\n")
        header.write_text(text + "\ninline constexpr int kStepCount = 5;\n")
        problems = self.problems()
        self.assertIn("the step table and count are generated", problems)
        self.assertIn("must declare the steps once, by a macro", problems)

    def test_a_stray_file_is_named_unless_the_readme_explains_it(self):
        (self.chapter / "scratch.cu").write_text("")
        self.assertIn("scratch.cu: not part of a chapter's shape", self.problems())
        self.edit_readme("## Sources\n", "## Sources\n\n`scratch.cu` is a scratch pad.\n")
        self.assertEqual(self.problems(), "")

    def test_a_chart_the_readme_does_not_show_is_named(self):
        text = self.readme.read_text()
        self.readme.write_text(text.replace("](measured-h100.svg)", "](other.svg)"))
        self.assertIn("does not show measured-h100.svg", self.problems())

    def test_a_step_without_its_section_is_named(self):
        self.edit_readme("## Step 5: double buffering", "## Double buffering")
        self.assertIn("cover steps [1, 2, 3, 4], steps.json has [1, 2, 3, 4, 5]", self.problems())

    def test_closing_sections_out_of_order_are_named(self):
        text = self.readme.read_text()
        sources = text.index("## Sources")
        bad_input = text.index("## Bad input")
        self.readme.write_text(text[:bad_input] + text[sources:] + "\n" + text[bad_input:sources])
        self.assertIn("the closing sections must come in the order", self.problems())

    def test_an_unknown_manifest_key_and_compact_json_are_named(self):
        manifest_path = self.chapter / "steps.json"
        manifest = json.loads(manifest_path.read_text())
        manifest["steps"][0]["hints"] = "typo"
        manifest_path.write_text(json.dumps(manifest))
        problems = self.problems()
        self.assertIn("step 1: unknown key 'hints'", problems)
        self.assertIn("not pretty-printed", problems)

    def test_a_link_that_leads_elsewhere_is_named(self):
        link = self.chapter / "tests"
        link.unlink()
        link.symlink_to("../../solutions/" + CHAPTER)
        (self.chapter / "meson.build").unlink()
        (self.chapter / "meson.build").write_text("project('x', 'cpp')\n")
        problems = self.problems()
        self.assertIn(f"chapters/{CHAPTER}/tests must be a link", problems)
        self.assertIn(f"chapters/{CHAPTER}/meson.build must be a link to common/chapter.meson",
                      problems)


    def edit_manifest(self, **step_one):
        path = self.chapter / "steps.json"
        manifest = json.loads(path.read_text())
        manifest["steps"][0].update(step_one)
        manifest["steps"][0] = {k: v for k, v in manifest["steps"][0].items() if v is not None}
        path.write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")

    def test_a_hint_that_asks_nothing_and_a_missing_clue_or_recipe_are_named(self):
        self.edit_manifest(hint="Use index * 4 % 128.", clue=None, recipe=None)
        problems = self.problems()
        self.assertIn("step 07.1: the hint asks no question", problems)
        self.assertIn("step 07.1: steps.json has no clue (shown by ./course hint 07.1 --more)",
                      problems)
        self.assertIn("step 07.1: steps.json has no recipe (shown by ./course hint 07.1 --recipe)",
                      problems)

    def test_a_tier_that_holds_the_solutions_code_is_named_and_its_rewrite_passes(self):
        solution = self.root / "solutions" / CHAPTER / "step1_1d_blocktiling.cu"
        solution.write_text(solution.read_text().replace("    // END SOLUTION", (
            "    P[row * Width + column] = 0;  // a comment: not code\n    // END SOLUTION")))
        self.edit_manifest(recipe="(1) Its offset is `row * Width + column`.",
                           clue="A comment: not code; *row* * Width is no code either.")
        problems = self.problems()
        self.assertIn(f"{CHAPTER} step 07.1: the recipe holds the solution's code 'row * width + "
                      "column'", problems)
        self.assertNotIn("the clue holds", problems)
        self.edit_manifest(recipe="(1) Its offset: the whole rows before it, then its column.")
        self.assertEqual(self.problems(), "")

    def test_a_hint_or_a_sentence_of_a_recipe_copied_into_the_readme_is_named(self):
        self.edit_manifest(hint="At s = 16, which banks do threads 0 and 1 hit? Write it down.",
                           recipe="(1) Take s = 16. (2) Compute each thread's index and its bank.")
        self.edit_readme("## Sources\n", "## Sources\n\nAt s = 16, which banks do *threads 0 "
                         "and 1* hit? Write it\ndown. (2) Compute each thread's `index` and its "
                         "bank.\n")
        problems = self.problems()
        self.assertIn("repeats the step's hint", problems)
        self.assertIn("repeats a sentence of the step's recipe, '2) compute each thread's index "
                      "and its bank.'", problems)

    def test_a_hint_paragraph_and_a_pointer_to_no_step_are_named(self):
        self.edit_readme("## Sources\n", "## Sources\n\n**Hint:** think.\n`./course hint 07.9`\n")
        problems = self.problems()
        self.assertIn("has a hint paragraph", problems)
        self.assertIn("points at ./course hint 07.9, which is not a step", problems)


if __name__ == "__main__":
    unittest.main()
