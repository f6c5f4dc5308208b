"""Google Benchmark's JSON as rows, the table ./course compare prints, and the GPU summary it
prints first: the lesson's numbers (bandwidth, latency, Little's law) for this GPU."""
import json
import re
from pathlib import Path

from . import paths
from .paths import ROOT

THROUGHPUTS = (("GFLOP/s", "%ref"), ("GB/s", "%peak"))  # (counter, its share counter)
# What Google Benchmark writes about a run besides its counters.
BOOKKEEPING = {"family_index", "per_family_instance_index", "repetitions", "repetition_index",
               "threads", "iterations", "real_time", "cpu_time"}
LATENCY_REFERENCE = Path("chapters") / "01-sum-of-squares" / "measured-h200.json"


def parse_benchmark_json(data):
    """Rows of a Google Benchmark JSON: medians where repeated, single runs, and skipped ones."""
    rows = []
    for b in data.get("benchmarks", []):
        name = b.get("run_name", b["name"])
        if b.get("error_occurred"):
            if not any(r["name"] == name for r in rows):
                rows.append({"name": name, "skipped": b.get("error_message", "")})
            continue
        aggregate = b.get("aggregate_name")
        if aggregate not in (None, "median") or (aggregate is None and b.get("repetitions", 1) > 1):
            continue
        row = {"name": name, "time": b["real_time"], "unit": b["time_unit"]}
        row.update((key, value) for key, value in b.items() if key not in BOOKKEEPING
                   and isinstance(value, (int, float)) and not isinstance(value, bool))
        rows.append(row)
    return rows


def throughput_of(row):
    """(counter, value, share counter, share) of a row: GFLOP/s and %ref, or GB/s and %peak;
    four Nones for a row without a throughput (a latency row, a skipped one)."""
    for key, ratio in THROUGHPUTS:
        if key in row:
            return key, row[key], ratio, row.get(ratio)
    return None, None, None, None


def short_name(name):
    """A row's name without Google Benchmark's settings (iterations, repeats, manual_time)."""
    return re.sub(r"/(repeats|iterations):.*|/manual_time$", "", name)


def format_table(rows):
    lines = [f"{'benchmark':<58} {'time':>12} {'throughput':>16} {'%':>8}"]
    for row in rows:
        name = short_name(row["name"])
        if "skipped" in row:
            lines.append(f"{name:<58} skipped: {row['skipped']}")
            continue
        key, value, ratio, percent = throughput_of(row)
        through = f"{value:,.1f} {key}" if key else (
            f"{row['cycles/load']:.0f} cyc/load" if "cycles/load" in row else "")
        pct = f"{percent:.1f}{'%ref' if ratio == '%ref' else '%pk'}" if percent is not None else ""
        if ratio != "%ref" and "%ref" in row:  # memory-bound rows: the share of the vendor's too
            pct += f" {row['%ref']:6.1f}%ref"
        lines.append(f"{name:<58} {row['time']:>9.3f} {row['unit']:<2} {through:>16} {pct:>8}")
    return "\n".join(lines)


# ---- the GPU the benchmark ran on, and the lesson's numbers worked out for it --------------

def context_number(context, key):
    """A number of the benchmark context (Google Benchmark stores custom context as text)."""
    try:
        return float(context[key])
    except (KeyError, TypeError, ValueError):
        return None


def row_value(rows, pattern, key):
    """`key` of the first measured row whose name matches `pattern` (solution rows first)."""
    matching = [r for r in rows if re.search(pattern, r["name"]) and key in r]
    matching.sort(key=lambda r: not r["name"].startswith("Solution"))
    return matching[0][key] if matching else None


def dram_latency(rows, gpu):
    """(ns per dependent DRAM load, where the figure comes from): this run's pointer chase, else
    the last ./course compare 01 on the same GPU, else the one measured for the README."""
    pattern = r"step0_latency/DRAM"
    ns = row_value(rows, pattern, "ns/load")
    if ns:
        return ns, "measured in this run"
    saved = paths.BUILD / "chapters" / "01-sum-of-squares" / "bench-01-sum-of-squares.json"
    for path, same_gpu_only in ((saved, True), (ROOT / LATENCY_REFERENCE, False)):
        try:
            data = json.loads(path.read_text())
            ns = row_value(parse_benchmark_json(data), pattern, "ns/load")
        except (OSError, ValueError, KeyError):
            continue
        where = data.get("context", {}).get("gpu", "another GPU")
        if not ns or (same_gpu_only and where != gpu):
            continue
        if same_gpu_only:
            return ns, "measured on this GPU by your last ./course compare 01"
        return ns, (f"measured on an {where}, {LATENCY_REFERENCE.as_posix()};"
                    " ./course compare 01 measures yours")
    return None, None


def kib(n):
    return f"{n / 1024:,.1f} KiB" if n < 1024 * 1024 else f"{n / 1024 ** 2:,.2f} MiB"


def gpu_summary(context, rows):
    """What ./course compare prints before the table: the GPU, its bandwidth (nominal, and the
    copy measured in the same run where the chapter has one), and Little's law for it. Missing
    context fields (a JSON from an older build) leave their lines out."""
    gpu = context.get("gpu", "the GPU")
    sms = context_number(context, "multiprocessors")
    per_sm_threads = context_number(context, "max_threads_per_multiprocessor")
    parts = [f"compute capability {context['compute_capability']}"] \
        if context.get("compute_capability") else []
    if sms:
        parts.append(f"{sms:.0f} multiprocessors"
                     + (f" of {per_sm_threads:.0f} threads" if per_sm_threads else ""))
    lines = [f"GPU: {gpu}" + (f", {', '.join(parts)}" if parts else "")]
    peak = context_number(context, "peak_dram_GB/s")
    copy = row_value(rows, r"Copy", "GB/s")
    if peak:
        text = f"DRAM: {peak:,.0f} GB/s nominal (2 x memory clock x bus width, from the attributes)"
        if copy:
            text += f"; a copy reached {copy:,.0f} GB/s ({100 * copy / peak:.0f}%) in this run"
        lines.append(text)
    bandwidth, which = (copy, "copy") if copy else (peak, "nominal")
    latency, source = dram_latency(rows, gpu)
    if bandwidth and latency:
        in_flight = bandwidth * latency  # GB/s x ns = bytes
        text = (f"Little's law: {bandwidth:,.0f} GB/s ({which}) x {latency:.0f} ns DRAM latency"
                f" = {kib(in_flight)} in flight")
        lines.append(text)
        if sms:
            text = f"  = {kib(in_flight / sms)} per multiprocessor"
            if per_sm_threads:
                text += (f", {in_flight / sms / per_sm_threads:.1f} bytes per thread"
                         " with every thread resident")
            lines.append(text)
        lines.append(f"  (latency {source})")
    return "\n".join(lines)
