"""Nsight Compute (ncu) for the course: runs one benchmark row's kernel under ncu, reads the
hardware counters that a step's lesson is about, and says what they mean.

A step's "profile" entry in steps.json names its benchmark row (without the Exercise/ or
Solution/ prefix), its kernel, and its metrics: a counter, or a ratio of two, each with one
sentence on what it means and, where the lesson predicts it, which way it must point against
another step's solution ("expect": {"step": 2, "direction": "lower"}) or another row of the
benchmark ("expect": {"row": "Chapter02/...", "kernel": "...", "direction": "lower"}).

./course profile NN.S uses it; as a script it is each chapter's direction test:
    python3 -m scripts.ncu_profile check STEPS_JSON BENCHMARK
which profiles the solutions and fails when a metric points the wrong way. It exits 77
(Meson's SKIP, with the reason) where ncu is missing or may not read the counters, and where a
metric points another way on a GPU of another class than the one the lessons were measured on
(MEASURED_ON).
The GPU's clocks are left alone (--clock-control none).
"""
import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from . import cuda_tools

SKIP = 77
# The GPU class on which every "expect" direction of the chapters was measured to hold: compute
# capability 9.0 (Hopper: H100, H200). Elsewhere a direction that does not hold is reported as
# what this GPU shows, and the test SKIPs instead of failing: another architecture may allocate
# registers, schedule or cache differently.
MEASURED_ON = "9.0"

PERMISSION_HELP = (
    "ncu may not read the GPU's performance counters here (ERR_NVGPUCTRPERM). To allow it:\n"
    "  Linux: run as root (sudo), or let every user read them: create\n"
    "    /etc/modprobe.d/nvidia-profiling.conf containing\n"
    "    options nvidia NVreg_RestrictProfilingToAdminUsers=0\n"
    "    then reboot (or reload the nvidia module).\n"
    "  WSL2: in the NVIDIA Control Panel on Windows, Desktop > Enable Developer Settings, then\n"
    "    Developer > Manage GPU Performance Counters > Allow access to all users.")
MISSING_HELP = ("Nsight Compute (ncu) was not found. It comes with the CUDA toolkit (cuda/bin, or "
                "the nsight-compute package); put it on PATH.")


class ProfileError(Exception):
    """What went wrong, in the learner's terms; `unavailable` when ncu cannot work here at all."""

    def __init__(self, message, unavailable=False):
        super().__init__(message)
        self.unavailable = unavailable


def raw_metrics(metrics):
    """The ncu counters a list of metric entries needs."""
    names = []
    for metric in metrics:
        for name in metric.get("ratio") or [metric["metric"]]:
            if name not in names:
                names.append(name)
    return names


def number(text):
    text = text.strip().replace(",", "")
    try:
        return float(text)
    except ValueError:
        return None


def parse_csv(output):
    """The profiled kernels of `ncu --csv --page raw` output: [{column: value}], numbers as
    floats. The program's own output comes first; the table starts at the "ID" header, and
    its first row holds the units."""
    start = output.find('"ID"')
    if start < 0:
        return []
    rows = list(csv.reader(io.StringIO(output[start:])))
    header, body = rows[0], rows[2:] if len(rows) > 2 and rows[1] and rows[1][0] == "" else rows[1:]
    kernels = []
    for row in body:
        if len(row) != len(header):
            continue
        entry = {}
        for column, value in zip(header, row):
            parsed = number(value)
            entry[column] = parsed if parsed is not None else value
        kernels.append(entry)
    return kernels


def command(ncu, benchmark, row_filter, kernel_regex, counters):
    return [ncu, "--clock-control", "none", "--csv", "--page", "raw",
            "--metrics", ",".join(counters), "--kernel-name-base", "demangled",
            "--kernel-name", f"regex:{kernel_regex}", "--launch-count", "1",
            str(benchmark), f"--benchmark_filter={row_filter}"]


def measure(benchmark, row_filter, kernel_regex, counters, show=None, timeout=600):
    """The counters of the first launch of `kernel_regex` in the benchmark row `row_filter`."""
    ncu = cuda_tools.find("ncu")
    if ncu is None:
        raise ProfileError(MISSING_HELP, unavailable=True)
    cmd = command(ncu, benchmark, row_filter, kernel_regex, counters)
    if show:
        show(cmd)
    env = dict(os.environ, COURSE_PROFILE="1")
    completed = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout,
                               check=False)
    output = completed.stdout + completed.stderr
    if "ERR_NVGPUCTRPERM" in output:
        raise ProfileError(PERMISSION_HELP, unavailable=True)
    if "This benchmark needs an NVIDIA GPU" in output or "no CUDA-capable device" in output:
        raise ProfileError("No usable NVIDIA GPU here: " + output.strip().splitlines()[-1],
                           unavailable=True)
    kernels = parse_csv(completed.stdout)
    if not kernels:
        tail = "\n".join(output.strip().splitlines()[-8:])
        raise ProfileError(f"ncu profiled no kernel matching '{kernel_regex}' in the benchmark "
                           f"row '{row_filter}' (did the row run? is it skipped?):\n{tail}")
    return kernels[0]


def value_of(metric, counters):
    """A metric entry's value from one kernel's counters."""
    if "ratio" in metric:
        top, bottom = (counters.get(name) for name in metric["ratio"])
        if not isinstance(top, float) or not isinstance(bottom, float) or bottom == 0:
            return None
        return top / bottom * metric.get("scale", 1.0)
    found = counters.get(metric["metric"])
    return found * metric.get("scale", 1.0) if isinstance(found, float) else None


def profile_step(step, implementation, benchmark, show=None):
    """{label: value} for one step's profile entry, for 'exercise' or 'solution'."""
    profile = step["profile"]
    prefix = "Exercise" if implementation == "exercise" else "Solution"
    counters = measure(benchmark, f"^{prefix}/{profile['row']}",
                       f"{implementation}::.*{profile['kernel']}",
                       raw_metrics(profile["metrics"]), show)
    return {m["label"]: value_of(m, counters) for m in profile["metrics"]}


def expected_value(expect, metric, steps, benchmark, show=None, cache=None):
    """(what, value): what an "expect" compares with (another step's solution, or another row
    of the benchmark) and its value of `metric`, measured on that step's row and kernel.
    `cache` keeps counters already read, per step."""
    cache = {} if cache is None else cache
    if "step" in expect:
        other = next(s for s in steps if s["step"] == expect["step"])["profile"]
        key = (expect["step"], metric["label"])
        if key not in cache:
            counters = measure(benchmark, f"^Solution/{other['row']}",
                               f"solution::.*{other['kernel']}", raw_metrics([metric]), show)
            cache[key] = value_of(metric, counters)
        return f"step {expect['step']}'s solution", cache[key]
    counters = measure(benchmark, f"^{expect['row']}", expect["kernel"], raw_metrics([metric]),
                       show)
    return expect.get("what", expect["row"]), value_of(metric, counters)


def expectation_holds(value, other, direction):
    if value is None or other is None:
        return False
    return value < other if direction == "lower" else value > other


def format_value(value):
    if value is None:
        return "n/a"
    if abs(value) >= 1e5:
        return f"{value:,.0f}"
    return f"{value:.3g}" if abs(value) < 100 else f"{value:.1f}"


def check(steps_json, benchmark):
    """The direction test: every metric with an "expect" points the way the lesson says."""
    if os.environ.get("COURSE_UNDER_SANITIZER") == "1":
        print("SKIP: ncu is not run under a compute-sanitizer test setup")
        return SKIP
    steps = json.loads(Path(steps_json).read_text())["steps"]
    failures = 0
    cache = {}
    lines = 0
    try:
        for step in steps:
            profile = step.get("profile")
            if not profile:
                continue
            mine = profile_step(step, "solution", benchmark)
            for metric in profile["metrics"]:
                line = (f"step {step['step']:<2} {metric['label']:<44} "
                        f"{format_value(mine[metric['label']]):>12}")
                expect = metric.get("expect")
                if expect:
                    against, other = expected_value(expect, metric, steps, benchmark, cache=cache)
                    ok = expectation_holds(mine[metric["label"]], other, expect["direction"])
                    failures += not ok
                    line += (f"  {expect['direction']} than {against}: {format_value(other)}  "
                             f"{'ok' if ok else 'WRONG WAY'}")
                print(line, flush=True)
                lines += 1
    except ProfileError as error:
        if error.unavailable:
            print(f"SKIP: {error}")
            return SKIP
        raise
    if lines == 0:
        print(f"no step of {steps_json} has a profile entry")
        return 1
    if not failures:
        print("every metric points the way its lesson says")
        return 0
    capability = compute_capability()
    if capability != MEASURED_ON:
        print(f"SKIP: {failures} metric(s) point another way on this GPU (compute capability "
              f"{capability or 'unknown'}) than on the GPUs the lessons were measured on "
              f"(compute capability {MEASURED_ON}: H100, H200)")
        return SKIP
    print(f"{failures} metric(s) point the wrong way")
    return 1


def compute_capability():
    """The first GPU's compute capability ("9.0"), from nvidia-smi; None where it cannot say."""
    smi = cuda_tools.find("nvidia-smi")
    if smi is None:
        return None
    completed = subprocess.run([smi, "--query-gpu=compute_cap", "--format=csv,noheader"],
                               capture_output=True, text=True, check=False)
    lines = completed.stdout.split()
    return lines[0].strip() if completed.returncode == 0 and lines else None


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 3 or argv[0] != "check":
        print(__doc__)
        return 2
    try:
        return check(argv[1], argv[2])
    except ProfileError as error:
        print(f"FAIL: {error}")
        return 1


if __name__ == "__main__":
    sys.exit(main())
