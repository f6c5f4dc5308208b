"""Tests of course_tool/readme.py: measured tables, values and charts rendered into a README
from the measurement files beside it, one column per GPU. No GPU needed."""
import json
import tempfile
import unittest
from pathlib import Path

from course_tool import readme


def run(name, ms, **counters):
    return {"name": name + "/manual_time", "run_name": name + "/manual_time", "repetitions": 1,
            "real_time": ms, "time_unit": "ms", **counters}


def measurement_file(folder, gpu, scale):
    """measured-<gpu>.json with a vendor row, two steps and a skipped exercise at two sizes."""
    rows = []
    for width, factor in (("Width:1024", 1.0), ("Width:4096", 8.0)):
        rows += [run(f"cuBLAS/SGEMM/{width}", factor * 1.0 / scale, **{"GFLOP/s": 40000.0 * scale}),
                 run(f"Solution/step1/{width}", factor * 4.0 / scale,
                     **{"GFLOP/s": 10000.0 * scale, "%ref": 25.0, "regs": 40.0}),
                 run(f"Solution/step2/{width}", factor * 2.0 / scale,
                     **{"GFLOP/s": 20000.0 * scale, "%ref": 50.0, "regs": 64.0}),
                 {"name": f"Exercise/step1/{width}", "run_name": f"Exercise/step1/{width}",
                  "error_occurred": True, "error_message": "not written yet"}]
    path = Path(folder) / f"measured-{gpu}.json"
    path.write_text(json.dumps({"context": {"gpu": f"NVIDIA {gpu.upper()}",
                                            "peak_dram_GB/s": "4814.0"}, "benchmarks": rows}))
    return path


TABLE = {"corner": "step", "rows": [["cuBLAS", "^cuBLAS/"], ["1", "^Solution/step1/"],
                                    ["2", "^Solution/step2/"], ["yours", "^Exercise/step1/"]],
         "columns": [["regs", "/Width:1024", "regs"], ["1024", "/Width:1024", "TFLOP/s", "ref"],
                     ["4096", "/Width:4096", "time", "of ^cuBLAS/"]],
         "once": ["regs"], "bold": [["2", "4096"]]}


class Rendering(unittest.TestCase):
    def render(self, text, gpus=(("h200", 2.0),)):
        with tempfile.TemporaryDirectory() as folder:
            measurements = [readme.Measurement(measurement_file(folder, gpu, scale))
                            for gpu, scale in gpus]
            return readme.rendered(text, measurements)

    def block(self, kind, spec):
        return f"<!-- measured {kind} {json.dumps(spec)} -->old<!-- end measured -->"

    def test_a_table_of_one_gpu(self):
        table = self.render(self.block("table", TABLE)).split("-->")[1]
        self.assertEqual(table.strip().splitlines(), [
            "| step | regs | 1024 | 4096 |", "| --- | ---: | ---: | ---: |",
            "| cuBLAS |  | 80.0 | 4.00 ms |", "| 1 | 40 | 20.0 (25.0%) | 16.0 ms (25.0%) |",
            "| 2 | 64 | 40.0 (50.0%) | **8.00 ms (50.0%)** |",
            "| yours | skipped | skipped | skipped |", "<!-- end measured"])

    def test_several_gpus_side_by_side_but_once_columns_once(self):
        table = self.render(self.block("table", TABLE), (("h100", 1.0), ("h200", 2.0)))
        self.assertIn("| step | regs | 1024 (H100) | 1024 (H200) | 4096 (H100) | 4096 (H200) |",
                      table)
        self.assertIn("| 2 | 64 | 20.0 (50.0%) | 40.0 (50.0%) | **16.0 ms (50.0%)** | "
                      "**8.00 ms (50.0%)** |", table)

    def test_values_in_the_prose(self):
        for spec, expected in (({"gpu": "h200", "row": "^Solution/step2/Width:4096"}, "8.00 ms"),
                               ({"gpu": "h200", "row": "^Solution/step1/Width:1024",
                                 "speedup": "^Solution/step2/Width:1024"}, "0.500x"),
                               ({"gpu": "h200", "row": "^Solution/step1/Width:1024",
                                 "quantity": "TFLOP/s", "share": "of ^cuBLAS/SGEMM/Width:1024"},
                                "25.0%"),
                               ({"gpu": "h200", "context": "peak_dram_GB/s"}, "4814")):
            self.assertIn(f"-->{expected}<!--", self.render(self.block("value", spec)), spec)

    def test_a_spec_the_measurements_cannot_fill_is_an_error(self):
        for spec in ({"gpu": "h999", "row": "x"}, {"gpu": "h200", "row": "^Nothing/"},
                     {"gpu": "h200", "row": "/Width:1024"}):  # no GPU, no row, several rows
            with self.assertRaises(readme.RenderError, msg=spec):
                self.render(self.block("value", spec))
        renamed = dict(TABLE, rows=TABLE["rows"] + [["3", "^Solution/step3/"]])
        with self.assertRaisesRegex(readme.RenderError, "'3' .* matches no measured row"):
            self.render(self.block("table", renamed))

    def test_charts_one_per_gpu_and_the_chapter_is_checked_and_rewritten(self):
        with tempfile.TemporaryDirectory() as folder:
            for gpu, scale in (("h100", 1.0), ("h200", 2.0)):
                measurement_file(folder, gpu, scale)
            text = "# x\n" + self.block("charts", {"title": "x", "hide_skipped": True}) + "\n"
            (Path(folder) / "README.md").write_text(text)
            differing = readme.render_chapter(folder, write=False)
            self.assertEqual(sorted(p.name for p in differing),
                             ["README.md", "measured-h100.svg", "measured-h200.svg"])
            readme.render_chapter(folder, write=True)
            self.assertEqual(readme.render_chapter(folder, write=False), [])
            rendered = (Path(folder) / "README.md").read_text()
            self.assertIn("![x, measured on an NVIDIA H100](measured-h100.svg)", rendered)

    def test_the_gpu_key_of_a_measurement_file(self):
        self.assertEqual(readme.gpu_key("NVIDIA H100 80GB HBM3"), "h100")
        self.assertEqual(readme.gpu_key("NVIDIA GeForce RTX 4090"), "rtx-4090")
        self.assertEqual(readme.significant(712.24), "712.2")
        self.assertEqual(readme.significant(0.1104), "0.110")


if __name__ == "__main__":
    unittest.main()
