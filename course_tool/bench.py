"""Google Benchmark's JSON as rows, the table ./course compare prints, and the GPU summary it
prints first: the lesson's numbers (Little's law, launch configurations) for this GPU."""
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


# ---- the GPU the benchmark ran on, and the lesson's numbers recomputed for it -------------

def context_number(context, key):
    """A number of the benchmark context (Google Benchmark stores custom context as text)."""
    try:
        return float(context[key])
    except (KeyError, TypeError, ValueError):
        return None


def resident_blocks(context, threads, shared_bytes=0):
    """Blocks of `threads` threads (and `shared_bytes` of shared memory) that one multiprocessor
    holds at once by the thread, block and shared-memory limits; registers can lower it."""
    per_sm_threads = context_number(context, "max_threads_per_multiprocessor")
    if not per_sm_threads:
        return None
    limits = [int(per_sm_threads) // threads]
    max_blocks = context_number(context, "max_blocks_per_multiprocessor")
    if max_blocks:
        limits.append(int(max_blocks))
    shared = context_number(context, "shared_memory_per_multiprocessor_bytes")
    if shared and shared_bytes:
        limits.append(int(shared) // shared_bytes)
    return max(0, min(limits))


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


def launch_lines(number, context):
    """The launch configurations a chapter's text and hints talk about, worked out for this GPU:
    blocks resident per multiprocessor (by threads, blocks and shared memory) and waves."""
    sms = context_number(context, "multiprocessors")
    if not sms or resident_blocks(context, 32) is None:
        return []
    sms = int(sms)
    lines = []

    def matmul(label, tile, widths, shared_bytes=0):
        threads = tile * tile
        per_sm = resident_blocks(context, threads, shared_bytes)
        slots = sms * per_sm
        if not slots:
            lines.append(f"{label} {tile}x{tile}: a block does not fit on a multiprocessor")
            return
        for width in widths:
            blocks = (-(-width // tile)) ** 2
            lines.append(f"{label} {tile}x{tile} ({threads} threads"
                         + (f", {kib(shared_bytes)} shared" if shared_bytes else "")
                         + f"), Width {width}: {blocks:,} blocks, {per_sm} per multiprocessor"
                         f" x {sms} = {slots:,} at once: {blocks / slots:,.1f} waves")

    if number == "01":
        per_sm = resident_blocks(context, 256)
        grid = sms * per_sm
        lines.append(f"steps 4-5, 256 threads a block: {per_sm} blocks per multiprocessor x {sms}"
                     f" = {grid:,} blocks fill the GPU")
        for exponent in (20, 24, 28):
            blocks = min(grid, -(-(1 << exponent) // (32 * 256)))
            each = (1 << exponent) / (blocks * 256)
            lines.append(f"  n = 2^{exponent}: <<<{blocks:,}, 256>>>, {each:,.1f} elements a thread"
                         " (no fewer than 32: fewer blocks for small n)")
    elif number == "02":
        for tile in (8, 16, 32):
            matmul("naive", tile, (1024, 4096))
    elif number in ("03", "04"):
        widths = (1024, 4096) if number == "03" else (4096, 4097)
        for tile in (8, 16, 32):
            matmul("tiles", tile, widths, 2 * tile * tile * 4)
    elif number == "05":
        per_sm = resident_blocks(context, 256)
        slots = sms * per_sm
        for kernels, per_block in (("kernels 1-3", 256), ("kernels 4-5", 512)):
            blocks = (1 << 26) // per_block
            lines.append(f"{kernels}, 256 threads, n = 2^26: first pass {blocks:,} blocks,"
                         f" {per_sm} per multiprocessor x {sms} = {slots:,} at once:"
                         f" {blocks / slots:,.1f} waves")
    elif number == "06":
        for steps, threads_per_sm in (("steps 2-3", None), ("steps 4-6", 1024)):
            per_sm = resident_blocks(context, 256)
            if threads_per_sm:
                per_sm = min(per_sm, threads_per_sm // 256)
            grid = sms * per_sm
            lines.append(f"{steps} (256 threads a block"
                         + (f", {threads_per_sm} per multiprocessor" if threads_per_sm else "")
                         + f"): {per_sm} per multiprocessor x {sms} = {grid:,} blocks,"
                         f" {(1 << 26) / (grid * 256):,.1f} elements a thread at n = 2^26")
    return lines


def gpu_summary(number, context, rows):
    """What ./course compare prints before the table: the GPU, its bandwidth (nominal, and the
    copy measured in the same run where the chapter has one), Little's law for it, and the
    chapter's launch configurations worked out for it. Missing context fields (a JSON from an
    older build) leave their lines out."""
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
    launches = launch_lines(number, context)
    if launches:
        lines.append("This chapter's launches on it (thread, block and shared-memory limits;"
                     " registers can allow fewer):")
        lines.extend("  " + line for line in launches)
    return "\n".join(lines)
