#!/usr/bin/env python3
"""Unit tests of check_readme_numbers.py (standard library only)."""
import contextlib
import io
import json
import sys
import tempfile
import unittest
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import check_readme_numbers  # noqa: E402


def bench(name, ms, **counters):
    """A median row of Google Benchmark JSON, and the repetition it summarises."""
    run = f"{name}/repeats:3/manual_time"
    row = {"name": run + "_median", "run_name": run, "run_type": "aggregate",
           "aggregate_name": "median", "real_time": ms, "cpu_time": ms, "time_unit": "ms"}
    row.update(counters)
    repetition = dict(row, name=run, run_type="iteration", real_time=ms * 1.5)
    del repetition["aggregate_name"]
    return [repetition, row]


BENCHMARKS = (bench("Vendor/sgemm/Width:1024", 2.0, **{"GFLOP/s": 1000.0, "%ref": 100.0})
              + bench("Solution/tiled/Width:1024", 4.0, **{"GFLOP/s": 500.0, "%ref": 50.0})
              + bench("Vendor/sgemm/Width:2048", 10.0, **{"GFLOP/s": 1600.0, "%ref": 100.0})
              + bench("Solution/tiled/Width:2048", 40.0, **{"GFLOP/s": 400.0, "%ref": 25.0})
              + [{"name": "Exercise/tiled/Width:1024/manual_time", "run_name":
                  "Exercise/tiled/Width:1024/manual_time", "run_type": "iteration",
                  "error_occurred": True, "real_time": 0, "time_unit": "ms"}])

README = """\
# Chapter 99: fake

| not measured | 123456 |
| --- | ---: |
| prose table | 7.77 |

## Measured results

| kernel | Width 1024 | TFLOP/s at 2048 | % of vendor at 2048 |
| --- | ---: | ---: | ---: |
| vendor | 2.00 ms | 1.6 | 100 |
| tiled 16x16 | 4.0 ms (50%) | 0.40 | 25.0 |

| Width | vendor | tiled | tiled / vendor |
| --- | ---: | ---: | ---: |
| 2048 | 1600 | 400 | 0.25 |

## Next section

| also not measured | 999 |
| --- | ---: |
| x | 1.23 |
"""


def fake_repo(tmp, readme=README, benchmarks=BENCHMARKS):
    chapter = Path(tmp) / "chapters" / "99-fake"
    chapter.mkdir(parents=True)
    (chapter / "README.md").write_text(readme, encoding="utf-8")
    (chapter / "measured-gpu.json").write_text(json.dumps({"context": {}, "benchmarks": benchmarks}))
    return tmp


def run(root):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = check_readme_numbers.main(["--root", str(root)])
    return code, out.getvalue()


class CheckReadmeNumbers(unittest.TestCase):
    def test_passes_when_every_table_number_comes_from_the_json(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, out = run(fake_repo(tmp))
            self.assertEqual(code, 0, out)
            self.assertIn("ok:", out)

    def test_fails_naming_readme_row_and_number_that_matches_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, out = run(fake_repo(tmp, README.replace("| 0.40 |", "| 0.47 |")))
            self.assertEqual(code, 1)
            self.assertIn("chapters/99-fake/README.md:12:", out)
            self.assertIn("0.47 matches nothing", out)
            self.assertIn("row: | tiled 16x16 |", out)

    def test_a_time_is_compared_in_the_unit_written_after_it(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, out = run(fake_repo(tmp, README.replace("2.00 ms", "2.00 us")))
            self.assertEqual(code, 1)
            self.assertIn("2.00 us matches nothing", out)

    def test_rounding_to_the_digits_shown(self):
        with tempfile.TemporaryDirectory() as tmp:
            # 25.0 is %ref; 25.1 is not, at one decimal
            code, out = run(fake_repo(tmp, README.replace("| 25.0 |", "| 25.1 |")))
            self.assertEqual(code, 1)
            self.assertIn("25.1 matches nothing", out)

    def test_the_repetition_is_not_the_median(self):
        with tempfile.TemporaryDirectory() as tmp:
            code, out = run(fake_repo(tmp, README.replace("4.0 ms", "6.0 ms")))
            self.assertEqual(code, 1)
            self.assertIn("6.0 ms matches nothing", out)

    def test_a_row_must_come_from_one_benchmark_or_one_size(self):
        with tempfile.TemporaryDirectory() as tmp:
            # 1.6 (the vendor's TFLOP/s at 2048) is a measurement, but not of the tiled kernel
            code, out = run(fake_repo(tmp, README.replace("| 0.40 |", "| 1.6 |")))
            self.assertEqual(code, 1)
            self.assertIn("not of one benchmark", out)

    def test_tables_outside_measured_sections_are_not_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            readme = README.replace("| 7.77 |", "| 8.88 |").replace("| 1.23 |", "| 3.21 |")
            code, out = run(fake_repo(tmp, readme))
            self.assertEqual(code, 0, out)

    def test_a_section_named_in_extra_sections_is_checked_and_must_exist(self):
        saved = dict(check_readme_numbers.EXTRA_SECTIONS)
        check_readme_numbers.EXTRA_SECTIONS["99-fake"] = ["Next section"]
        try:
            with tempfile.TemporaryDirectory() as tmp:
                code, out = run(fake_repo(tmp))
                self.assertEqual(code, 1)
                self.assertIn("1.23 matches nothing", out)
            with tempfile.TemporaryDirectory() as tmp:
                code, out = run(fake_repo(tmp, README.replace("## Next section", "## Renamed")))
                self.assertEqual(code, 1)
                self.assertIn("no heading 'Next section'", out)
        finally:
            check_readme_numbers.EXTRA_SECTIONS.clear()
            check_readme_numbers.EXTRA_SECTIONS.update(saved)

    def test_errored_rows_give_no_numbers(self):
        rows = check_readme_numbers.benchmark_rows_from(BENCHMARKS)
        self.assertFalse(any(r["name"].startswith("Exercise/") for r in rows))
        self.assertEqual(len(rows), 4)


if __name__ == "__main__":
    unittest.main()
