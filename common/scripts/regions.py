"""The answer regions of a solution file, and the files made from them.

In a solution file the learner's code of a step sits between two marker lines; the comment
lines right after the opening marker say what to do and stay in the exercise as its TODO:

        // BEGIN SOLUTION
        // TODO (step 2): thread t adds the squares of elements t, t + blockDim.x, ...
        unsigned long long sum = 0;              <- removed from the exercise
        // END SOLUTION

A region belongs to the step its TODO names with '(step N)', or else to the step the file's
name starts with (stepN_...). Everything outside the regions is copied into the exercise, with
the namespace `solution` renamed `exercise` so that one binary can hold both.
"""
import re

BEGIN = re.compile(r"^(\s*)// BEGIN SOLUTION\s*$")
END = re.compile(r"^\s*// END SOLUTION\s*$")
TODO_START = re.compile(r"^\s*// TODO\b")
COMMENT = re.compile(r"^\s*//")
STEP_TAG = re.compile(r"//\s*TODO\s*\(step (\d+)\)")
STEP_FILE = re.compile(r"^step(\d+)_")
NAMESPACE = re.compile(r"\bnamespace ((?:\w+::)*)solution\b")
FUNCTION_NAME = re.compile(r"\b([A-Za-z_]\w*)\s*\(")


class RegionError(Exception):
    """A solution file whose markers cannot be read; the message names file and line."""


class Region:
    """Lines begin..end (0-based, the marker lines) of a file; `step` owns it; `todo` is the
    number of TODO comment lines after the opening marker."""

    def __init__(self, begin, end, step, todo):
        self.begin, self.end, self.step, self.todo = begin, end, step, todo


def regions(text, name="<text>"):
    """Every region of a solution file, in order, with the step that owns it."""
    lines = text.splitlines()
    file_step = STEP_FILE.match(name.rsplit("/", 1)[-1])
    found, start = [], None
    for i, line in enumerate(lines):
        if BEGIN.match(line):
            if start is not None:
                raise RegionError(f"{name}:{i + 1}: BEGIN SOLUTION inside another one (opened "
                                  f"at line {start + 1})")
            if i + 1 >= len(lines) or not TODO_START.match(lines[i + 1]):
                raise RegionError(f"{name}:{i + 1}: BEGIN SOLUTION must be followed by a "
                                  "'// TODO: ...' line saying what the learner writes here")
            start = i
        elif END.match(line):
            if start is None:
                raise RegionError(f"{name}:{i + 1}: END SOLUTION without BEGIN SOLUTION")
            todo = 0
            while start + 1 + todo < i and COMMENT.match(lines[start + 1 + todo]):
                todo += 1
            tag = next((STEP_TAG.search(l) for l in lines[start + 1:start + 1 + todo]
                        if STEP_TAG.search(l)), None)
            if tag is None and file_step is None:
                raise RegionError(f"{name}:{start + 2}: whose TODO is this? Tag it "
                                  "'// TODO (step N): ...', or name the file stepN_...")
            found.append(Region(start, i, int((tag or file_step).group(1)), todo))
            start = None
    if start is not None:
        raise RegionError(f"{name}:{start + 1}: BEGIN SOLUTION is never closed")
    return found


def steps_of(text, name="<text>"):
    """The steps whose TODOs a file holds, in increasing order."""
    return sorted({region.step for region in regions(text, name)})


def rename_namespace(text, namespace):
    """`namespace x::solution` -> `namespace x::<namespace>`."""
    return NAMESPACE.sub(lambda m: f"namespace {m.group(1)}{namespace}", text)


def banner(chapter, steps):
    """The first lines of an exercise file: the learner's command for the file's step(s) first,
    then the Meson command that prints the messages too."""
    ids = [f"{chapter[:2]}.{s}" for s in steps]
    command = f"./course test {ids[0] if ids else chapter[:2]}"
    if len(ids) > 1:
        command += f"   (and {', '.join(ids[1:])}: this file's steps, one at a time)"
    return (f"// Exercise file: replace every TODO below with your code. Check it with\n"
            f"//   {command}\n"
            f"// (or: meson test -C build --suite {chapter}:exercise --print-errorlogs)\n"
            f"// (generated from solutions/{chapter}/ by python3 -m tools.sync_exercises)\n")


def filled_text(solution_text, chapter, name, codes):
    """The exercise file with some regions filled: `codes` maps a region's index (in file
    order) to the code under its TODO (None: the reference code); every other region keeps
    only its TODO. With codes == {} this is the shipped exercise."""
    lines = solution_text.splitlines(keepends=True)
    found = regions(solution_text, name)
    out, i = [], 0
    for index, region in enumerate(found):
        out += lines[i:region.begin]
        body = lines[region.begin + 1:region.end]
        out += body[:region.todo]  # the TODO comment stays
        if index in codes:
            code = codes[index]
            out += body[region.todo:] if code is None else [code if code.endswith("\n")
                                                             else code + "\n"]
        i = region.end + 1
    out += lines[i:]
    steps = sorted({region.step for region in found})
    return banner(chapter, steps) + rename_namespace("".join(out), "exercise")


def exercise_text(solution_text, chapter, name="<text>"):
    """The exercise version of one solution file: every region reduced to its TODO."""
    return filled_text(solution_text, chapter, name, {})


def planted_text(solution_text, edits, namespace, name="<text>"):
    """The solution with each (old, new) edit made (each old text must occur exactly once) and
    its namespace renamed: a known mistake or a contrast."""
    text = solution_text
    for old, new in edits:
        if text.count(old) != 1:
            raise RegionError(f"{name}: this edit no longer matches exactly once (update it in "
                              f"the manifest): {old.strip()[:70]!r}")
        text = text.replace(old, new)
    return rename_namespace(text, namespace)


def enclosing_function(text, region):
    """The name of the function whose body holds `region` (its first identifier followed by
    '(' on the last line above the region that starts at column 0, leaving out __macros__)."""
    lines = text.splitlines()
    for line in reversed(lines[:region.begin]):
        if line[:1].strip() and not line.startswith(("}", "//", "#", "namespace")):
            names = [n for n in FUNCTION_NAME.findall(line) if not n.startswith("__")]
            if names:
                return names[0]
    return ""


def function_around(lines, region):
    """(first, last) line of the function whose body holds `region`, its comment included: up
    from the region to the signature's first line at column 0 and the comment above it, down to
    the first line that is a lone '}' at column 0."""
    first = region.begin
    while first > 0 and not (lines[first - 1][:1].strip() and
                             not lines[first - 1].startswith(("}", "#", "//"))):
        first -= 1
    while first > 0 and lines[first - 1][:1].strip() and \
            not lines[first - 1].startswith(("}", "#", "namespace")):
        first -= 1  # the rest of the signature (a template line) and the comment above it
    last = next(i for i in range(region.end, len(lines)) if lines[i].rstrip() == "}")
    return first, last


def ready_made_functions(text, name="<text>"):
    """The device functions that hold a region, with the reference code in place of the TODO:
    what the tests of the other steps use ready-made. Kernels and host functions stay out (a
    step whose region is in one cannot be used ready-made)."""
    lines = text.splitlines()
    out, seen = [], set()
    for region in regions(text, name):
        first, last = function_around(lines, region)
        signature = "\n".join(lines[first:region.begin])
        if first in seen or "__device__" not in signature or "__global__" in signature:
            continue
        seen.add(first)
        inner = [r for r in regions(text, name) if first < r.begin < last]
        keep = [i for i in range(first, last + 1)
                if not any(r.begin <= i <= r.begin + r.todo or i == r.end for r in inner)]
        out.append("\n".join(lines[i] for i in keep))
    return out
