#!/usr/bin/env python3
"""Runs one GoogleTest filter of a test binary under compute-sanitizer memcheck and succeeds
only if memcheck reports an invalid global read: a known mistake that computes the right
numbers from out-of-bounds reads is still rejected. Exit 77 (SKIP) without a GPU or without
compute-sanitizer.

usage: expect_memcheck_error.py TEST_BINARY GTEST_FILTER
"""
import os
import shutil
import subprocess
import sys

binary, gtest_filter = sys.argv[1], sys.argv[2]
plain = subprocess.run([binary, f"--gtest_filter={gtest_filter}"], capture_output=True,
                       text=True, check=False)
if plain.returncode == 77:
    print("SKIP: no GPU")
    sys.exit(77)
sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
if not os.path.exists(sanitizer):
    print("SKIP: compute-sanitizer not found")
    sys.exit(77)
checked = subprocess.run([sanitizer, "--tool", "memcheck", "--error-exitcode", "99", binary,
                          f"--gtest_filter={gtest_filter}"],
                         capture_output=True, text=True, check=False)
if checked.returncode == 99 and "Invalid __global__ read" in checked.stdout:
    print("ok: memcheck reports the out-of-bounds reads:")
    print("\n".join(l for l in checked.stdout.splitlines() if "Invalid __global__ read" in l)[:2000])
    sys.exit(0)
print(checked.stdout[-6000:])
print(checked.stderr[-2000:])
print(f"FAIL: expected memcheck to report invalid global reads (exit 99), got {checked.returncode}")
sys.exit(1)
