"""What a learner writes, judged by the learner's own `./course test NN.S` (on a GPU, with a
configured build/; the exercise files are restored afterwards, whatever happens):

    python3 -m tools.learner steps [WHICH ...]         every step stands alone: the shipped
        exercise with ONLY step S's TODOs done (the reference code) passes ./course test NN.S,
        and the shipped exercise fails it
    python3 -m tools.learner alternatives [WHICH ...]  every correct alternative passes
    python3 -m tools.learner mistakes [WHICH ...]      every known mistake of the manifests, the
        solution with its edit in the learner's file, fails (the suites judge the same edits
        built into binaries of their own: the Meson test "known mistake NAME is rejected")
    python3 -m tools.learner check                     no GPU: every step's TODOs can be filled
                                                       alone, every alternative fits its step
    python3 -m tools.learner show 03.1|FILE            the exercise with a step's TODOs done, or
                                                       with an alternative
WHICH: a chapter (06), a step (06.3) or an alternative's or mistake's name (default: all).

An alternative, tests/NN-name/alternatives/<name>.cu, is a step's TODOs done in another style:

    // ALTERNATIVE 06.3 step3_warp_shuffle.cu
    // what style it is written in, and why it is correct
    // @top
    #include <cooperative_groups.h>      (optional: put after the file's last #include)
    // @region
    ...the code under the step's first TODO in that file...
    // @region
    ...the code under its second TODO, if it has two...
"""
import argparse
import re
import subprocess
import sys
import time
from pathlib import Path

from common.scripts import manifest, regions

ROOT = Path(__file__).resolve().parent.parent
HEADER = re.compile(r"^// ALTERNATIVE (\d+)\.(\d+) (\S+)\s*$")
INCLUDE = re.compile(r"^\s*#\s*include\b")


class FillError(Exception):
    pass


def chapter(number):
    """The chapter '03' or '3' names."""
    found = [c for c in manifest.chapters(ROOT / "chapters") if int(c.number) == int(number)]
    if not found:
        raise FillError(f"there is no chapter {number}")
    return found[0]


def filled_text(chapter, file_name, step, codes=None, top=()):
    """The exercise file as a learner who did only `step` would have it: each of the step's
    TODOs followed by codes[i] (None: the reference code), the other steps' TODOs left open,
    and the `top` lines after the file's last #include."""
    text = chapter.solution_text(file_name)
    name = f"solutions/{chapter.name}/{file_name}"
    mine = [i for i, r in enumerate(regions.regions(text, name)) if r.step == step]
    if not mine:
        raise FillError(f"{name} has no TODO of step {step}")
    if codes is not None and len(codes) != len(mine):
        raise FillError(f"step {step} has {len(mine)} TODO region(s) in {file_name}, the code "
                        f"fills {len(codes)}")
    filled = regions.filled_text(text, chapter.name, name,
                                 {index: None if codes is None else codes[k]
                                  for k, index in enumerate(mine)})
    if not top:
        return filled
    lines = filled.splitlines(keepends=True)
    last_include = max((n for n, line in enumerate(lines) if INCLUDE.match(line)), default=-1)
    lines[last_include + 1:last_include + 1] = [t + "\n" for t in top]
    return "".join(lines)


class Alternative:
    """A correct alternative: tests/NN-name/alternatives/<name>.cu."""

    def __init__(self, path):
        self.path = Path(path)
        lines = self.path.read_text().splitlines()
        header = HEADER.match(lines[0]) if lines else None
        if not header:
            raise FillError(f"{self.path}: the first line must be '// ALTERNATIVE NN.S file.cu'")
        self.chapter = chapter(header.group(1))
        self.step, self.file, self.name = int(header.group(2)), header.group(3), self.path.stem
        self.top, self.codes, section = [], [], None
        for line in lines[1:]:
            if line.strip() in ("// @top", "// @region"):
                section = line.strip()[4:]
                if section == "region":
                    self.codes.append("")
            elif section == "top":
                self.top.append(line)
            elif section == "region":
                self.codes[-1] += line + "\n"
        if not self.codes:
            raise FillError(f"{self.path}: no '// @region' section")
        self.about = next((l[2:].strip() for l in lines[1:2] if l.startswith("//")), "")

    @property
    def step_id(self):
        return f"{self.chapter.number}.{self.step}"

    def text(self):
        return filled_text(self.chapter, self.file, self.step, self.codes, self.top)


def alternatives(which=()):
    found = [Alternative(p) for p in sorted(ROOT.glob("tests/*/alternatives/*.cu"))]
    return [a for a in found if wanted(which, a.chapter, a.step_id, a.name)]


def judge(chapter, files, step_id):
    """Puts `files` ({exercise file name: text}) into exercises/<chapter>/, runs the learner's
    `./course test step_id` and restores the shipped files, whatever happens.
    Returns (exit code, output without the echoed commands, seconds)."""
    folder = ROOT / "exercises" / chapter.name
    before = {name: (folder / name).read_text() for name in files}
    begin = time.time()
    try:
        for name, text in files.items():
            (folder / name).write_text(text)
        done = subprocess.run([sys.executable, str(ROOT / "course"), "test", step_id], cwd=ROOT,
                              capture_output=True, text=True)
    finally:
        for name, text in before.items():
            (folder / name).write_text(text)
    output = "\n".join(l for l in (done.stdout + done.stderr).splitlines()
                       if not l.startswith("$ "))
    return done.returncode, output, time.time() - begin


def check():
    problems, count = [], 0
    for path in sorted(ROOT.glob("tests/*/alternatives/*.cu")):
        try:
            Alternative(path).text()
            count += 1
        except (FillError, OSError, regions.RegionError) as error:
            problems.append(str(error))
    for each in manifest.chapters(ROOT / "chapters"):
        for step in each.steps:
            for file_name in step.files or ["(none)"]:
                try:
                    filled_text(each, file_name, step.number)
                except (FillError, OSError, regions.RegionError) as error:
                    problems.append(str(error))
    print("\n".join(problems) or f"ok: every step's TODOs can be filled alone, and all "
          f"{count} alternatives fit their steps")
    return 1 if problems else 0


def wanted(which, chapter, *names):
    return not which or any(w in (chapter.number, *names) for w in which)


def verdict_of(rc, output, step_id):
    """./course test's verdict on the step: 'pass' (exit status 0, a 'PASS NN.S' line), 'fail'
    (exit status 1, a 'FAIL NN.S' line), or 'not judged here': a failed build or no GPU (exit
    status 2), or a step this GPU cannot run (its '---- NN.S' line)."""
    for verdict, status in (("pass", 0), ("fail", 1)):
        line = rf"^\s*{verdict.upper()} {re.escape(step_id)}\b"
        if rc == status and re.search(line, output, re.M):
            return verdict
    return "not judged here"


def nothing_selected(which, count):
    if count == 0:
        print(f"error: nothing matches {' '.join(which)}", file=sys.stderr)
        return True
    return False


def check_steps(which):
    """Each step with only its own TODOs done passes; as shipped it fails."""
    print(f"{'step':<6} {'alone':<6} {'':8}   {'shipped':<6} {'':8}")
    bad = good = 0
    for chapter in manifest.chapters(ROOT / "chapters"):
        for step in [s for s in chapter.steps if wanted(which, chapter, s.id)]:
            shipped_rc, shipped_out, shipped_s = judge(chapter, {}, step.id)
            alone_rc, alone_out, alone_s = judge(chapter, {
                f: filled_text(chapter, f, step.number) for f in step.files}, step.id)
            alone = verdict_of(alone_rc, alone_out, step.id)
            shipped = verdict_of(shipped_rc, shipped_out, step.id)
            ok = alone == "pass" and shipped == "fail"
            good, bad = good + ok, bad + (not ok)
            first = next((l.strip() for l in shipped_out.splitlines()
                          if l.strip().startswith(("FAIL", "PASS", "course:"))), "")
            print(f"{step.id:<6} {alone.upper()[:4]:<6} ({alone_s:4.0f} s)   "
                  f"{shipped.upper()[:4]:<6} ({shipped_s:4.0f} s)   "
                  f"{'ok' if ok else 'DOES NOT STAND ALONE'}   shipped: {first[:80]}", flush=True)
            if alone != "pass":
                print("   --- with only its own TODOs done:\n   " + alone_out.replace("\n", "\n   "))
            if shipped != "fail":
                print("   --- as shipped:\n   " + shipped_out.replace("\n", "\n   "))
    print(f"{good} steps stand alone, {bad} do not")
    return 1 if bad or nothing_selected(which, good + bad) else 0


def check_alternatives(which):
    """Every correct alternative passes: a check that rejects correct code teaches wrong."""
    accepted = rejected = 0
    for alternative in alternatives(which):
        rc, output, seconds = judge(alternative.chapter, {alternative.file: alternative.text()},
                                    alternative.step_id)
        verdict = verdict_of(rc, output, alternative.step_id)
        accepted, rejected = accepted + (verdict == "pass"), rejected + (verdict != "pass")
        what = {"pass": "accepted", "fail": "REJECTED"}.get(verdict, "NOT JUDGED HERE")
        print(f"===== {alternative.step_id} {alternative.name}: {what} ({seconds:.0f} s)  "
              f"{alternative.about}")
        print(output, flush=True)
    print(f"{accepted} alternatives accepted, {rejected} rejected")
    return 1 if rejected or nothing_selected(which, accepted + rejected) else 0


def check_mistakes(which):
    """Every known mistake fails, with what a learner who made it sees."""
    caught = missed = unjudged = 0
    for chapter in manifest.chapters(ROOT / "chapters"):
        for mistake in chapter.mistakes:
            step_id = chapter.step(mistake.step).id
            if not wanted(which, chapter, mistake.name, step_id):
                continue
            # The whole solution with the bug: the step's tests run its own piece alone.
            rc, output, seconds = judge(chapter, {mistake.file: mistake.text()}, step_id)
            verdict = {"fail": "rejected", "pass": "NOT CAUGHT"}.get(
                verdict_of(rc, output, step_id), "NOT JUDGED HERE")
            caught += verdict == "rejected"
            missed += verdict == "NOT CAUGHT"
            unjudged += verdict == "NOT JUDGED HERE"
            print(f"===== {step_id} {mistake.name}: {verdict} ({seconds:.0f} s)")
            print(output, flush=True)
    print(f"{caught} planted mistakes rejected, {missed} not caught, {unjudged} not judged here "
          "(./course test gave no verdict: a failed build, no GPU, or a step this GPU cannot run)")
    return 1 if missed or unjudged or nothing_selected(which, caught + missed + unjudged) else 0


def show(what):
    match = re.fullmatch(r"(\d+)\.(\d+)", what)
    if not match:
        print(Alternative(what).text(), end="")
        return 0
    found = chapter(match.group(1))
    for file_name in found.step(int(match.group(2))).files:
        print(filled_text(found, file_name, int(match.group(2))), end="")
    return 0


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("steps", "alternatives", "mistakes", "check", "show"))
    parser.add_argument("which", nargs="*")
    args = parser.parse_args(argv)
    commands = {"steps": check_steps, "alternatives": check_alternatives,
                "mistakes": check_mistakes, "check": lambda which: check(),
                "show": lambda which: show(which[0])}
    try:
        return commands[args.command](args.which)
    except (FillError, manifest.ManifestError, IndexError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
