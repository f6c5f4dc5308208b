"""build/course-state.json: each step's last verdict and the mtimes of the files it judged, so
that ./course list is instant (no build, no GPU) and ./course solution reuses a pass."""
import json
import os
import re
import time

from . import manifest, paths
from .paths import rel

STATE_FILE = "course-state.json"  # in the build folder
# The state of a step that this GPU cannot run: it does not block ./course list's "Next:" or
# ./course solution.
NEEDS_ANOTHER_GPU = "needs other GPU"


def state_path():
    return paths.BUILD / STATE_FILE


def read_state():
    """{step id: {"verdict": "pass"|"fail"|NEEDS_ANOTHER_GPU, "time": seconds,
    "files": {path: mtime_ns}, "needs": what this GPU lacks (with NEEDS_ANOTHER_GPU)}}."""
    try:
        data = json.loads(state_path().read_text())
    except (OSError, ValueError):
        return {}
    return data.get("steps", {}) if isinstance(data, dict) else {}


def file_stamps(step):
    """{repository path: mtime in ns} of the step's exercise files (None: missing)."""
    stamps = {}
    for path in manifest.exercise_paths(step):
        try:
            stamps[str(rel(path))] = path.stat().st_mtime_ns
        except OSError:
            stamps[str(rel(path))] = None
    return stamps


def record_verdict(step, passed, stamps, needs=""):
    """Keeps the verdict of `step` (stamps: its files' mtimes when they were judged; needs: what
    the step needs that this GPU lacks, judge.needs_another_gpu)."""
    steps = read_state()
    steps[step.id] = {"verdict": NEEDS_ANOTHER_GPU if needs else "pass" if passed else "fail",
                      "time": round(time.time(), 3), "files": stamps}
    if needs:
        steps[step.id]["needs"] = needs
    path = state_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps({"steps": steps}, indent=1, sort_keys=True) + "\n")
    os.replace(temporary, path)


def verdict_as_is(step):
    """The step's last verdict ('pass', 'fail', NEEDS_ANOTHER_GPU) when none of its files changed
    since; None when there is none or they did."""
    record = read_state().get(step.id)
    return record.get("verdict") if record and record.get("files") == file_stamps(step) else None


def step_state(started, record, stamps=None):
    """(state, note) for ./course list, from the edit state and the step's last recorded
    verdict: 'not started', 'not tested yet', 'passing', 'failing' or NEEDS_ANOTHER_GPU (the note
    then says what it needs); the note names a judged file that changed after that verdict
    ('' when none did). `stamps`: the files' mtimes now."""
    if not started:
        return "not started", ""
    if not record:
        return "not tested yet", ""
    if record.get("verdict") == NEEDS_ANOTHER_GPU:
        # "step 4 needs compute capability 9.0 exactly (why); this GPU, name, is 8.6" -> short
        needs = re.sub(r"\s*\([^)]*\)", "", record.get("needs", ""))
        return NEEDS_ANOTHER_GPU, "(" + re.sub(r"^step \d+ ", "", needs) + ")"
    state = "passing" if record.get("verdict") == "pass" else "failing"
    changed = [name for name, stamp in record.get("files", {}).items()
               if stamps is None or stamps.get(name) != stamp]
    return state, (f"(older than {changed[0]})" if changed else "")


def command_list():
    """Instant and without a GPU: the verdicts ./course test recorded, never a new run."""
    recorded = read_state()
    next_step, elsewhere = None, []
    for chapter in manifest.chapters():
        print(f"{chapter.number} {chapter.title}")
        for step in chapter.steps:
            state, note = step_state(manifest.is_started(step), recorded.get(step.id),
                                     file_stamps(step))
            if state == NEEDS_ANOTHER_GPU:
                elsewhere.append(step.id)
            elif state != "passing" and next_step is None:
                next_step = step
            print(f"   {step.id:<6}{state:<16}{step.title}" + (f"  {note}" if note else ""))
    if next_step:
        print(f"\nNext: {next_step.id} {next_step.title}. "
              f"./course hint {next_step.id}, then ./course test {next_step.id}")
    elif elsewhere:
        print(f"\nEverything this GPU can run passes ({', '.join(elsewhere)} need another GPU). "
              "./course compare NN shows how fast.")
    else:
        print("\nEverything passes. ./course compare NN shows how fast.")
    return 0
