"""Unit tests of check_hints.py (standard library only)."""
import contextlib
import io
import json
import tempfile
import unittest
from pathlib import Path

from tools import check_hints

HINT = "At s = 16, which banks do threads 0 and 1 hit? Write down index and (index * 4) % 128."
RECIPE = "(1) Take s = 16 and threads 0 to 3. (2) Compute each thread's index and its bank."
README = """\
# Chapter 01: x

## Step 1: the kernel

Thread `t` reads `index = 2 * s * t`.

**Stuck?** `./course hint 01.1` asks the question to think about.
"""


def fake_repo(tmp, hint=HINT, readme=README, steps=None, recipe=RECIPE):
    """A repository with one chapter, 01-x, whose step 1 has the given hint and recipe."""
    chapter = Path(tmp) / "chapters" / "01-x"
    chapter.mkdir(parents=True)
    if steps is None:
        steps = [{"step": 1, "title": "the kernel", "files": ["k.cu"], "tests": {}, "hint": hint,
                  "recipe": recipe}]
    (chapter / "steps.json").write_text(json.dumps({"title": "x", "benchmark": "b",
                                                    "steps": steps}, indent=2))
    (chapter / "README.md").write_text(readme)
    return tmp


def run(root):
    """check_hints' exit status and printed output for the repository at root."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = check_hints.main(["--root", str(root)])
    return status, out.getvalue()


def run_fake(**changes):
    """run() on a fake_repo() with `changes` (its hint, readme, steps or recipe)."""
    with tempfile.TemporaryDirectory() as tmp:
        return run(fake_repo(tmp, **changes))


class Normalise(unittest.TestCase):
    def test_ignores_case_backticks_emphasis_and_line_breaks(self):
        self.assertEqual(check_hints.normalise("Which `int`\n  is *before*?"),
                         "which int is before?")


class Check(unittest.TestCase):
    def assert_rejected(self, *expected, **changes):
        """check_hints fails on a fake_repo() with `changes`, saying each of `expected`."""
        status, out = run_fake(**changes)
        self.assertEqual(status, 1, out)
        for text in expected:
            self.assertIn(text, out)

    def test_accepts_a_question_in_steps_json_and_a_pointer_in_the_readme(self):
        status, out = run_fake()
        self.assertEqual(status, 0, out)
        self.assertTrue(out.startswith("ok: 1 steps in 1 chapters"), out)

    def test_rejects_a_missing_or_empty_hint(self):
        for steps in ([{"step": 1, "title": "t", "files": [], "tests": {}}],
                      [{"step": 1, "title": "t", "files": [], "tests": {}, "hint": "  "}]):
            with self.subTest(steps=steps):
                self.assert_rejected("01-x step 01.1: steps.json has no hint", steps=steps)

    def test_rejects_a_missing_or_empty_recipe(self):
        for recipe in (None, "", "  \n"):
            with self.subTest(recipe=recipe):
                self.assert_rejected("01-x step 01.1: steps.json has no recipe", recipe=recipe)

    def test_rejects_one_sentence_of_the_recipe_copied_into_the_readme(self):
        readme = README + "\n(2) Compute each thread's *index* and its bank.\n"
        self.assert_rejected("repeats a sentence of the step's recipe",
                             "./course hint 01.1 --more", readme=readme)

    def test_rejects_a_hint_that_asks_nothing(self):
        self.assert_rejected("01-x step 01.1: the hint asks no question",
                             hint="Use index * 4 % 128.")

    def test_rejects_a_hint_paragraph_in_the_readme(self):
        self.assert_rejected("README.md:9 has a hint paragraph",
                             readme=README + "\n**Hint:** think about the banks.\n")

    def test_rejects_the_hint_copied_into_the_readme_in_markdown(self):
        readme = README + ("\nAt s = 16, which banks do threads 0 and 1 hit? Write down\n"
                           "`index` and `(index * 4) % 128`.\n")
        self.assert_rejected("01-x step 01.1: chapters/01-x/README.md repeats the step's hint",
                             readme=readme)

    def test_rejects_one_sentence_of_the_hint_copied_into_the_readme(self):
        readme = README + "\nWhich banks do *threads 0 and 1* hit? Write down `index`.\n"
        hint = "Think of s = 16. Which banks do threads 0 and 1 hit? Then write down why."
        self.assert_rejected("repeats a sentence of the step's hint, 'which banks do threads 0 "
                             "and 1 hit?'", hint=hint, readme=readme)

    def test_rejects_a_pointer_to_a_step_that_does_not_exist(self):
        self.assert_rejected("points at ./course hint 01.7, which is not a step",
                             readme=README.replace("./course hint 01.1", "./course hint 01.7"))

    def test_rejects_a_chapter_without_steps_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake_repo(tmp)
            (Path(tmp) / "chapters" / "02-y").mkdir()
            status, out = run(tmp)
            self.assertEqual(status, 1)
            self.assertIn("02-y: no steps.json", out)


if __name__ == "__main__":
    unittest.main()
