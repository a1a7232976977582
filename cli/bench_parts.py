"""The parts of `skald bench` and the reading of `--only`: light enough for the command's
definition (cli/serve.py), which imports the measuring code (cli/bench_run.py) only when
a run starts."""

from __future__ import annotations

from skald.core.errors import InvalidOption

BENCH_PARTS = ("engine", "long", "peer", "http", "memory", "knowledge", "channel")
"""The parts of `skald bench`, in the order a run measures them (`--only`)."""


def parse_parts(only: str | None) -> set[str] | None:
    """The parts `--only` names (None: all); InvalidOption for a name that is not one."""
    if only is None:
        return None
    parts = {part.strip() for part in only.split(",")}
    unknown = sorted(parts - set(BENCH_PARTS))
    if unknown:
        raise InvalidOption(
            f"--only: unknown part(s) {', '.join(map(repr, unknown))}; "
            f"valid parts: {', '.join(BENCH_PARTS)}"
        )
    return parts
