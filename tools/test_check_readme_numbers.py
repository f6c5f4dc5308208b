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


def run_fake(readme=README):
    """run() on a fake_repo() with this README."""
    with tempfile.TemporaryDirectory() as tmp:
        return run(fake_repo(tmp, readme))


class CheckReadmeNumbers(unittest.TestCase):
    def assert_rejected(self, readme, *expected):
        """The check fails on a fake_repo() with this README, saying each of `expected`."""
        code, out = run_fake(readme)
        self.assertEqual(code, 1, out)
        for text in expected:
            self.assertIn(text, out)

    def test_passes_when_every_table_number_comes_from_the_json(self):
        code, out = run_fake()
        self.assertEqual(code, 0, out)
        self.assertIn("ok:", out)

    def test_fails_naming_readme_row_and_number_that_matches_nothing(self):
        self.assert_rejected(README.replace("| 0.40 |", "| 0.47 |"),
                             "chapters/99-fake/README.md:12:", "0.47 matches nothing",
                             "row: | tiled 16x16 |")

    def test_a_time_is_compared_in_the_unit_written_after_it(self):
        self.assert_rejected(README.replace("2.00 ms", "2.00 us"), "2.00 us matches nothing")

    def test_rounding_to_the_digits_shown(self):
        # 25.0 is %ref; 25.1 is not, at one decimal
        self.assert_rejected(README.replace("| 25.0 |", "| 25.1 |"), "25.1 matches nothing")

    def test_the_repetition_is_not_the_median(self):
        self.assert_rejected(README.replace("4.0 ms", "6.0 ms"), "6.0 ms matches nothing")

    def test_a_row_must_come_from_one_benchmark_or_one_size(self):
        # 1.6 (the vendor's TFLOP/s at 2048) is a measurement, but not of the tiled kernel
        self.assert_rejected(README.replace("| 0.40 |", "| 1.6 |"), "not of one benchmark")

    def test_tables_outside_measured_sections_are_not_checked(self):
        code, out = run_fake(README.replace("| 7.77 |", "| 8.88 |").replace("| 1.23 |", "| 3.21 |"))
        self.assertEqual(code, 0, out)

    def test_a_section_named_in_extra_sections_is_checked_and_must_exist(self):
        saved = dict(check_readme_numbers.EXTRA_SECTIONS)
        check_readme_numbers.EXTRA_SECTIONS["99-fake"] = ["Next section"]
        try:
            self.assert_rejected(README, "1.23 matches nothing")
            self.assert_rejected(README.replace("## Next section", "## Renamed"),
                                 "no heading 'Next section'")
        finally:
            check_readme_numbers.EXTRA_SECTIONS.clear()
            check_readme_numbers.EXTRA_SECTIONS.update(saved)

    def test_errored_rows_give_no_numbers(self):
        rows = check_readme_numbers.benchmark_rows_from(BENCHMARKS)
        self.assertFalse(any(r["name"].startswith("Exercise/") for r in rows))
        self.assertEqual(len(rows), 4)


if __name__ == "__main__":
    unittest.main()
