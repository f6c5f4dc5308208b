"""Meson for the learner: configure once, build what a command needs, and turn a failed setup or
build into what to do about it. Every command is printed before it runs."""
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

from common.scripts import cuda_tools, sanitizer_check

from . import paths
from .errors import CourseError
from .paths import ROOT, rel

MISSING_ADVICE = {
    "meson": "Meson is missing: python3 -m pip install --user meson ninja",
    "ninja": "ninja is missing: python3 -m pip install --user ninja (or apt install ninja-build)",
    "nvcc": "nvcc is missing: install the CUDA toolkit (12.x or 13.x) and put its bin/ on PATH",
}


def show(command):
    print("$ " + " ".join(str(c) for c in command), flush=True)


def require_tools():
    """Meson, ninja and nvcc, or what to install. An nvcc found off PATH (CUDA_HOME,
    /usr/local/cuda/bin, ...) has its folder put on PATH, where Meson looks for it."""
    missing = [tool for tool in ("meson", "ninja") if shutil.which(tool) is None]
    if shutil.which("nvcc") is None:
        nvcc = cuda_tools.find("nvcc")
        if nvcc:
            os.environ["PATH"] = str(Path(nvcc).parent) + os.pathsep + os.environ["PATH"]
        else:
            missing.append("nvcc")
    if missing:
        raise CourseError("\n".join(MISSING_ADVICE[tool] for tool in missing))


def explain_setup_failure(output):
    for dependency, package in (("gtest", "libgtest-dev libgmock-dev"), ("gmock", "libgmock-dev"),
                                ("benchmark", "libbenchmark-dev")):
        if re.search(rf'Dependency "?{dependency}"? not found|{dependency}.*not found', output,
                     re.IGNORECASE):
            return (f"{dependency} was not found and could not be downloaded. Install it "
                    f"(Debian/Ubuntu: sudo apt install {package}) or connect to the internet "
                    "once so Meson can fetch it.")
    if "nvcc" in output.lower() and "not found" in output.lower():
        return "Meson found no CUDA compiler: is nvcc on PATH?"
    return None


def ensure_configured():
    require_tools()
    if (paths.BUILD / "build.ninja").exists():
        return
    command = ["meson", "setup", rel(paths.BUILD)]
    show(command)
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        output = completed.stdout + completed.stderr
        raise CourseError((explain_setup_failure(output) or "meson setup failed:") + "\n" +
                          "\n".join(output.splitlines()[-15:]))


def ensure_release():
    """A debug build compiles device code with -G (unoptimised): its timings mean nothing, so
    the build folder is switched to release before a benchmark."""
    options = subprocess.run(["meson", "introspect", "--buildoptions", rel(paths.BUILD)],
                             cwd=ROOT, capture_output=True, text=True).stdout
    buildtype = next((o["value"] for o in json.loads(options or "[]") if o["name"] == "buildtype"),
                     "release")
    if buildtype != "release":
        command = ["meson", "configure", rel(paths.BUILD), "-Dbuildtype=release"]
        show(command)
        subprocess.run(command, cwd=ROOT, check=True)


def first_compiler_errors(output, limit=12):
    """From the first line that reports an error (g++: 'error:', nvcc: 'error:' or
    'error :'), or else the end of the output. Files are named as the learner finds them:
    nvcc's '../chapters/01-x/exercise/f.cu(24): error' (relative to the build folder, through
    the chapter's symlink) becomes 'exercises/01-x/f.cu:24: error'."""
    lines = [l for l in output.splitlines()  # without ninja's progress lines
             if not re.match(r"\[\d+/\d+\] |ninja: ", l)]
    for i, line in enumerate(lines):
        if re.search(r"\berror ?:", line, re.IGNORECASE):
            start = i  # with g++'s "In file included from ..." lines that lead to it
            while start > 0 and re.match(r"(In file included from |\s+from )", lines[start - 1]):
                start -= 1
            return sanitizer_check.learner_locations("\n".join(lines[start:i + limit]))
    return sanitizer_check.learner_locations("\n".join(lines[-limit:]))


def build(targets):
    ensure_configured()
    command = ["meson", "compile", "-C", rel(paths.BUILD), *targets]
    show(command)
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    if completed.returncode != 0:
        raise CourseError("The build failed. The compiler's first error:\n" +
                          first_compiler_errors(completed.stdout + completed.stderr))


def binary_path(chapter, name):
    candidate = paths.BUILD / "chapters" / chapter.name / name
    if candidate.exists():
        return candidate
    raise CourseError(f"{name} was not built; is chapter {chapter.number} in -Dchapters?")
