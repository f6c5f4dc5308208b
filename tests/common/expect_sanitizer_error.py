#!/usr/bin/env python3
"""Runs one GoogleTest filter of a test binary under a compute-sanitizer tool and succeeds only
if the tool reports an error whose text contains PATTERN. For known mistakes that compute the
right numbers anyway (an out-of-bounds read whose value is discarded, a warp-level race that
happens to give the right sum): the tests cannot see them, the sanitizer must.
Exit 77 (Meson's SKIP) without a GPU or without compute-sanitizer.

usage: expect_sanitizer_error.py TOOL PATTERN TEST_BINARY GTEST_FILTER [SANITIZER_OPTION...]
"""
import os
import shutil
import subprocess
import sys

tool, pattern, binary, gtest_filter = sys.argv[1:5]
sanitizer_options = sys.argv[5:]
plain = subprocess.run([binary, f"--gtest_filter={gtest_filter}"], capture_output=True,
                       text=True, check=False)
if plain.returncode == 77:
    print("SKIP: no GPU")
    sys.exit(77)
sanitizer = shutil.which("compute-sanitizer") or "/usr/local/cuda/bin/compute-sanitizer"
if not os.path.exists(sanitizer):
    print("SKIP: compute-sanitizer not found")
    sys.exit(77)
checked = subprocess.run([sanitizer, "--tool", tool, "--error-exitcode", "99", *sanitizer_options, binary,
                          f"--gtest_filter={gtest_filter}"],
                         capture_output=True, text=True, check=False)
reports = [line for line in checked.stdout.splitlines() if pattern in line]
if checked.returncode == 99 and reports:
    print(f"ok: {tool} reports it ({len(reports)} lines like this):")
    print(reports[0])
    sys.exit(0)
print(checked.stdout[-6000:])
print(checked.stderr[-2000:])
print(f"FAIL: expected {tool} to report '{pattern}' (exit 99), got exit {checked.returncode}")
sys.exit(1)
