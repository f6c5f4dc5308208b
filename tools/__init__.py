"""The maintainers' tools, run from the repository root as `python3 -m tools.NAME` (each
module's docstring says what it does and how to call it). They may use course_tool and
common.scripts; neither of those uses them."""
