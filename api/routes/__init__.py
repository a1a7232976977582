"""One router per resource: games (and what callers read of them), moves, live events."""
