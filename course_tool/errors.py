"""The one exception ./course turns into a message (and exit status 2)."""


class CourseError(Exception):
    """A problem the learner can fix; the message says how."""
