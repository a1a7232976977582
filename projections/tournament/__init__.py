"""A tournament's read models (its stream and rules are in `core/tournament/`).

- `standings`: the standings table of a tournament, its tables and their evidence;
- `crosstable`: who met whom, with what result;
- `export`: standings and pairings as JSON lines, CSV and Markdown.
"""
