#!/usr/bin/env python3
"""Unit tests of diagrams.py (standard library only)."""
import io
import re
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import diagrams  # noqa: E402

SVG_NS = "{http://www.w3.org/2000/svg}"
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
GREYS = {"#999999", "#EEEEEE", "#222222", "#F4F4F4", "white", "none"}


class Figures(unittest.TestCase):
    def setUp(self):
        self.figures = diagrams.render_all()

    def test_every_chapter_has_a_figure(self):
        chapters = {path.split("/")[1] for path in self.figures}
        for n in ("01", "02", "03", "04", "05", "06", "07", "08"):
            self.assertTrue(any(c.startswith(n + "-") for c in chapters), n)

    def test_each_figure_is_well_formed_svg_with_text_labels_and_a_title(self):
        for path, text in self.figures.items():
            with self.subTest(path=path):
                root = ET.fromstring(text)
                self.assertEqual(root.tag, SVG_NS + "svg")
                self.assertEqual(root.get("font-family"), "sans-serif")
                self.assertTrue(root.find(SVG_NS + "title").text.strip())
                self.assertGreater(len(root.findall(SVG_NS + "text")), 5)

    def test_figures_fit_a_readme_column(self):
        for path, text in self.figures.items():
            with self.subTest(path=path):
                root = ET.fromstring(text)
                width, height = int(root.get("width")), int(root.get("height"))
                self.assertLessEqual(width, 800)
                self.assertLessEqual(height, 700)
                for rect in root.iter(SVG_NS + "rect"):
                    self.assertLessEqual(float(rect.get("x")) + float(rect.get("width")),
                                         width + 0.5)
                    self.assertLessEqual(float(rect.get("y")) + float(rect.get("height")),
                                         height + 0.5)
                for label in root.iter(SVG_NS + "text"):
                    self.assertGreaterEqual(int(label.get("font-size")), 8)
                    self.assertLess(float(label.get("y")), height)

    def test_only_colour_blind_safe_colours_and_no_external_resources(self):
        for path, text in self.figures.items():
            with self.subTest(path=path):
                colours = set(re.findall(r'(?:fill|stroke)="([^"#u][^"]*|#[0-9A-Fa-f]{6})"',
                                         text))
                self.assertLessEqual(colours, OKABE_ITO | GREYS)
                self.assertNotIn("@import", text)
                self.assertNotIn("href", text)

    def test_output_is_deterministic(self):
        self.assertEqual(self.figures, diagrams.render_all())


class Check(unittest.TestCase):
    def run_main(self, *args):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            code = diagrams.main(list(args))
        return code, err.getvalue()

    def test_writes_then_check_passes_and_fails_after_an_edit(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            self.assertEqual(self.run_main("--root", tmp, "--check")[0], 1)  # nothing there
            self.assertEqual(self.run_main("--root", tmp)[0], 0)
            self.assertEqual(self.run_main("--root", tmp, "--check")[0], 0)
            first = root / next(iter(diagrams.FIGURES))
            first.write_text(first.read_text().replace("</svg>", "<g/></svg>"))
            code, err = self.run_main("--root", tmp, "--check")
            self.assertEqual(code, 1)
            self.assertIn(next(iter(diagrams.FIGURES)), err)

    def test_checked_in_figures_are_current(self):
        self.assertEqual(self.run_main("--check")[0], 0)


if __name__ == "__main__":
    unittest.main()
