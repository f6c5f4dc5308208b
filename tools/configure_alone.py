"""Checks that one chapter still configures on its own, as a learner does it:

    meson setup <builddir> chapters/<chapter>

Meson forbids a subproject from reading files outside its folder; the chapters reach
course-common, the exercise, the solution and the tests through symlinks inside the chapter.
This test fails if a change breaks that (a "Sandbox violation", a missing symlink, ...).

usage: python3 -m tools.configure_alone CHAPTER   (from the repository root)
"""
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path


def meson_command():
    found = shutil.which("meson")
    return [found] if found else [sys.executable, "-m", "mesonbuild.mesonmain"]


def main():
    chapter = sys.argv[1]
    source = Path("chapters") / chapter
    if not (source / "meson.build").is_file():
        print(f"FAIL: {source}/meson.build does not exist")
        return 1
    with tempfile.TemporaryDirectory(prefix=f"configure-{chapter}-") as build:
        completed = subprocess.run(
            meson_command() + ["setup", build, str(source), "-Dgpu_arch=sm_75"],
            capture_output=True, text=True, check=False)
        if completed.returncode != 0:
            print(completed.stdout[-4000:])
            print(completed.stderr[-4000:])
            print(f"FAIL: meson setup of {source} alone exited with {completed.returncode}")
            return 1
    print(f"ok: {source} configures alone")
    return 0


if __name__ == "__main__":
    sys.exit(main())
