"""./course compare: the chapter's release benchmark, the GPU summary, the table, and the JSON
and SVG chart beside the benchmark in the build folder; with --record, the run kept as the
chapter's measured-<gpu>.json and its README's tables and charts rendered from it (readme.py)."""
import json
import os
import subprocess

from . import bench, chart, manifest, meson, paths, readme
from .errors import CourseError
from .paths import ROOT, rel


def command_compare(spec, full=False, record=False):
    chapter, _ = manifest.resolve(spec)
    meson.ensure_configured()
    meson.ensure_release()
    meson.build([chapter.benchmark])
    binary = meson.binary_path(chapter, chapter.benchmark)
    out = binary.parent / f"bench-{chapter.name}.json"
    command = [rel(binary), f"--benchmark_out={rel(out)}", "--benchmark_out_format=json"]
    print(f"(the same as: meson test -C {rel(paths.BUILD)} --benchmark --suite {chapter.name} "
          "--verbose)")
    env = dict(os.environ)
    if full:  # every repetition for Google Benchmark's default minimum time
        env["COURSE_FULL_BENCHMARK"] = "1"
        print("$ export COURSE_FULL_BENCHMARK=1")
    meson.show(command)
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=env)
    if completed.returncode != 0 or not out.exists():
        raise CourseError("The benchmark did not run:\n" + completed.stderr.strip()[-2000:])
    data = json.loads(out.read_text())
    rows = bench.parse_benchmark_json(data)
    gpu = data.get("context", {}).get("gpu", "")
    print("\n" + bench.gpu_summary(data.get("context", {}), rows))
    print(f"\n{chapter.number} {chapter.title} on {gpu or 'the GPU'}")
    print(bench.format_table(rows))
    svg = out.with_suffix(".svg")
    svg.write_text(chart.chart_svg(rows, f"{chapter.name} on {gpu}",
                                   description=f"./course compare {chapter.number}"))
    print(f"\nwrote {rel(out)} and {svg.name}")
    if record:
        try:
            for path in readme.record(chapter, out):
                print(f"wrote {rel(path)}")
        except readme.RenderError as error:
            raise CourseError(f"The run is kept in chapters/{chapter.name}/, but its README "
                              f"could not be rendered: {error}\nFix the block's spec, then run "
                              "python3 -m course_tool.readme.") from None
    return 0
