#!/usr/bin/env python3
"""Runs a program and succeeds only if it exits with the expected code.

usage: expect_exit_code.py CODE PROGRAM [ARGS...]
"""
import subprocess
import sys

expected = int(sys.argv[1])
completed = subprocess.run(sys.argv[2:], capture_output=True, text=True, check=False)
if completed.returncode != expected:
    sys.stdout.write(completed.stdout)
    sys.stderr.write(completed.stderr)
    print(f"FAIL: {sys.argv[2]} exited with {completed.returncode}, expected {expected}")
    sys.exit(1)
print(f"ok: {sys.argv[2]} exited with {expected}")
