"""Unit tests of ./course's SVG chart (course_tool/chart.py): the rows it draws and how it names
them, its axis, labels that never touch each other or a reference line, and the README charts,
which must be what ./course chart draws from the JSON beside them. No GPU, no build needed."""
import json
import unittest
import xml.etree.ElementTree as ElementTree

from course_tool import bench, chart
from course_tool.paths import ROOT

SVG = "{http://www.w3.org/2000/svg}"


def row(name, **counters):
    """A benchmark row as Google Benchmark writes it (one run)."""
    return dict({"name": name, "run_name": name, "repetitions": 1, "real_time": 1.0,
                 "time_unit": "ms"}, **counters)


def rows_of(*benchmarks):
    return bench.parse_benchmark_json({"benchmarks": list(benchmarks)})


def skipped(name):
    return {"name": name, "run_name": name, "error_occurred": True,
            "error_message": "the exercise is not written yet"}


def intersects(a, b):
    """Whether two (left, top, right, bottom) boxes overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def line_box(line):
    return (line.x1 - chart.LINE_CLEARANCE / 2, min(line.y1, line.y2),
            line.x2 + chart.LINE_CLEARANCE / 2, max(line.y1, line.y2))


class Names(unittest.TestCase):
    def test_rows_become_kind_step_name_and_size(self):
        self.assertEqual(chart.describe("Solution/step3_vectorized_loads/Width:4096/"
                                        "iterations:10/repeats:5/manual_time"),
                         ("solution", "step 3 vectorized loads", "Width 4096"))
        self.assertEqual(chart.describe("Exercise/reduce1_interleaved_divergent/double/n=2^26"),
                         ("exercise", "reduce 1 interleaved divergent", "double, n = 2^26"))
        self.assertEqual(chart.describe("CUB/DeviceReduce::Sum/float/n=2^26"),
                         ("vendor", "CUB DeviceReduce::Sum", "float, n = 2^26"))
        self.assertEqual(chart.describe("cuBLAS/SGEMM_FP32/Width:1024"),
                         ("vendor", "cuBLAS SGEMM FP32", "Width 1024"))
        self.assertEqual(chart.describe("Chapter02/naive_16x16/Width:1024"),
                         ("other", "Chapter02 naive 16x16", "Width 1024"))
        self.assertEqual(chart.describe("DeviceToDeviceCopy/1024MiB/manual_time"),
                         ("other", "DeviceToDeviceCopy", "1024MiB"))

    def test_exercise_beside_solution_and_the_vendor_first_for_each_size(self):
        _, entries = chart.chart_entries(rows_of(
            skipped("Exercise/step1_a/n=2^20"),
            row("Solution/step1_a/n=2^20", **{"GB/s": 10.0}),
            row("Solution/step2_b/n=2^20", **{"GB/s": 20.0}),
            row("CUB/Reduce/n=2^20", **{"GB/s": 30.0}),
            row("Solution/step2_b/n=2^24", **{"GB/s": 25.0})))
        sections = chart.sections(entries)
        self.assertEqual([size for size, _ in sections], ["n = 2^20", "n = 2^24"])
        groups = [[(e.kind, e.label) for e in group] for group in sections[0][1]]
        self.assertEqual(groups, [[("vendor", "CUB Reduce")],
                                  [("exercise", "step 1 a"), ("solution", "step 1 a")],
                                  [("solution", "step 2 b")]])

    def test_skipped_rows_unless_hidden_and_never_for_a_latency_row(self):
        rows = rows_of(skipped("Exercise/step0_latency/DRAM_256MiB"),
                       row("Solution/step0_latency/DRAM_256MiB", **{"ns/load": 500.0}),
                       skipped("Exercise/step1_a/n=2^20"),
                       row("Solution/step1_a/n=2^20", **{"GB/s": 10.0, "%peak": 1.0}))
        unit, entries = chart.chart_entries(rows)
        self.assertEqual(unit, "GB/s")
        self.assertEqual([(e.kind, e.label, e.value) for e in entries],
                         [("exercise", "step 1 a", None), ("solution", "step 1 a", 10.0)])
        _, entries = chart.chart_entries(rows, hide_skipped=True)
        self.assertEqual([e.kind for e in entries], ["solution"])
        self.assertEqual(chart.nominal_peak(rows), 1000.0)


class Axis(unittest.TestCase):
    def test_linear_from_zero_up_to_a_round_tick(self):
        scale = chart.Scale([2065.0, 2631.0], left=100, width=500)
        self.assertFalse(scale.logarithmic)
        self.assertEqual(scale.ticks, [0.0, 1000.0, 2000.0, 3000.0])
        self.assertEqual(scale.x(0), 100)
        self.assertEqual(scale.x(3000), 600)

    def test_logarithmic_by_decades_beyond_a_span_of_30(self):
        scale = chart.Scale([0.109, 4228.0], left=0, width=600)
        self.assertTrue(scale.logarithmic)
        self.assertEqual(scale.ticks, [0.1, 1.0, 10.0, 100.0, 1000.0, 10000.0])
        self.assertAlmostEqual(scale.x(10.0), 240.0)
        self.assertFalse(chart.Scale([1.0, 29.0], 0, 600).logarithmic)

    def test_the_axis_names_its_unit_and_says_when_it_is_logarithmic(self):
        svg = chart.chart_svg(rows_of(row("Solution/step1_a/n=1", **{"GB/s": 0.5}),
                                      row("Solution/step2_b/n=1", **{"GB/s": 500.0})), "t")
        self.assertIn(">GB/s (log scale), higher is faster</text>", svg)


class Labels(unittest.TestCase):
    # Chapter 07's case: a solution just below the vendor, whose value would sit on its line.
    CLOSE_TO_THE_LINE = rows_of(
        row("cuBLAS/SGEMM_FP32/Width:4096", **{"GFLOP/s": 51274.0, "%ref": 100.0}),
        skipped("Exercise/step5_double_buffering/Width:4096"),
        row("Solution/step5_double_buffering/Width:4096", **{"GFLOP/s": 47802.0, "%ref": 93.2}),
        row("Solution/step6_faster/Width:4096", **{"GFLOP/s": 52000.0, "%ref": 101.4}))

    def assert_apart(self, layout, what):
        boxes = [label.box() for label in layout.value_labels]
        for i, box in enumerate(boxes):
            for other in boxes[i + 1:]:
                self.assertFalse(intersects(box, other), f"{what}: {box} and {other}")
            for line in layout.reference_lines:
                self.assertFalse(intersects(box, line_box(line)), f"{what}: {box} and {line}")

    def test_a_value_next_to_the_vendor_line_moves_past_it(self):
        layout = chart.layout_chart(self.CLOSE_TO_THE_LINE, "close")
        self.assert_apart(layout, "close")
        line = layout.reference_lines[0]
        value = next(t for t in layout.value_labels if t.text == "47,802")
        self.assertGreater(value.box()[0], line.x1)

    def test_no_value_touches_another_or_a_line_in_any_measured_json(self):
        for path in sorted(ROOT.glob("chapters/*/measured-*.json")):
            rows = bench.parse_benchmark_json(json.loads(path.read_text()))
            for hide in (False, True):
                self.assert_apart(chart.layout_chart(rows, path.name, hide), f"{path} {hide}")

    def test_every_bar_has_its_value_and_a_skipped_one_says_so(self):
        layout = chart.layout_chart(self.CLOSE_TO_THE_LINE, "close")
        self.assertEqual([t.text for t in layout.value_labels],
                         ["51,274", "skipped", "47,802", "52,000"])


class Svg(unittest.TestCase):
    def test_well_formed_deterministic_and_escaped(self):
        rows = Labels.CLOSE_TO_THE_LINE
        svg = chart.chart_svg(rows, "a <b> & c", description="./course chart x.json")
        self.assertEqual(svg, chart.chart_svg(rows, "a <b> & c", description="./course chart x.json"))
        root = ElementTree.fromstring(svg)
        self.assertEqual(root.find(f"{SVG}title").text, "a <b> & c")
        texts = [t.text for t in root.iter(f"{SVG}text")]
        self.assertIn("step 5 double buffering", texts)
        self.assertIn("your exercise", texts)  # the legend
        self.assertEqual(float(root.get("width")), chart.layout_chart(rows, "a <b> & c").width)

    def test_everything_drawn_fits_the_picture(self):
        layout = chart.layout_chart(Labels.CLOSE_TO_THE_LINE, "a title " * 12)
        for text in layout.texts:
            left, top, right, bottom = text.box()
            self.assertTrue(0 <= left and right <= layout.width and 0 <= top
                            and bottom <= layout.height, text)


if __name__ == "__main__":
    unittest.main()
