"""Unit tests of figures.py, svg.py and the chapters' figures/draw.py (standard library only)."""
import io
import re
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from tools import figures, svg

SVG_NS = "{http://www.w3.org/2000/svg}"
OKABE_ITO = {"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"}
GREYS = {"#999999", "#EEEEEE", "#222222", "#F4F4F4", "white", "none"}


class Figures(unittest.TestCase):
    def setUp(self):
        self.figures = figures.draw_all()

    def test_every_chapter_has_a_figure(self):
        chapters = {path.split("/")[1][:2] for path in self.figures}
        self.assertLessEqual({f"{n:02}" for n in range(9)}, chapters)

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
        self.assertEqual(self.figures, figures.draw_all())

    def test_coordinates_are_short_and_text_is_escaped(self):
        self.assertEqual([svg._num(v) for v in (3, 3.0, 34.5, 1 / 3)], ["3", "3", "34.5", "0.3"])
        title = ET.fromstring(svg.Svg(100, 50, "a < b & c").render()).find(SVG_NS + "title")
        self.assertEqual(title.text, "a < b & c")

    def test_a_label_past_the_edge_is_an_error_that_names_it(self):
        figure = svg.Svg(200, 100, "a small figure")
        figure.text(20, 40, "a label far too long for a figure two hundred wide", anchor="start")
        with self.assertRaisesRegex(svg.FigureError, "'a label far too long.*' runs past"):
            figure.render()
        figure = svg.Svg(200, 100, "a small figure")
        figure.text(100, 40, "fits", size=12)
        figure.render()


class Check(unittest.TestCase):
    def run_main(self, *args):
        output = io.StringIO()
        with redirect_stdout(output), redirect_stderr(output):
            code = figures.main(list(args))
        return code, output.getvalue()

    def test_writes_then_check_passes_and_names_every_problem(self):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            for script in figures.ROOT.glob(figures.SCRIPTS):  # the scripts, not their SVGs
                (root / script.relative_to(figures.ROOT)).parent.mkdir(parents=True)
                shutil.copy(script, root / script.relative_to(figures.ROOT))
            drawn = list(figures.draw_all(root))
            first, stray = drawn[0], Path(drawn[0]).with_name("stray.svg").as_posix()
            code, output = self.run_main("--root", tmp, "--check")  # no SVG written yet
            self.assertEqual((code, output.count("missing")), (1, len(drawn)))
            self.assertEqual(self.run_main("--root", tmp)[0], 0)
            self.assertEqual(self.run_main("--root", tmp, "--check")[0], 0)
            (root / first).write_text((root / first).read_text().replace("</svg>", "<g/></svg>"))
            (root / stray).write_text("<svg/>")
            code, output = self.run_main("--root", tmp, "--check")
            self.assertEqual(code, 1)
            self.assertIn(f"{first}: differs", output)
            self.assertIn(f"{stray}: no draw.py draws it", output)
            self.assertEqual(self.run_main("--root", tmp)[0], 1)  # redraws first, not the stray
            self.assertNotIn(first, self.run_main("--root", tmp, "--check")[1])

    def test_checked_in_figures_are_current(self):
        code, output = self.run_main("--check")
        self.assertEqual(code, 0, output)
        self.assertTrue(output.startswith("ok: "), output)


if __name__ == "__main__":
    unittest.main()
