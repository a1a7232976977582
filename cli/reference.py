"""The reference pages of the documentation site, generated from the code so they cannot
drift: every command from the Typer app, every route from the OpenAPI document, every event
type from the msgspec Structs, and the exit and error codes from the tables the CLI and the
API map errors with.

`docs/hooks/reference.py` (an MkDocs hook) replaces a page's `<!-- reference: NAME -->`
line with `reference(NAME)`; `skald docs` builds or serves the site.
"""

from __future__ import annotations

import inspect
import os
import tempfile
import types
from collections.abc import Callable, Iterator
from typing import Any, Union, get_args, get_origin

import msgspec
import typer

from skald.cli import bench_record
from skald.events.base import Event


def _first_paragraph(text: str | None) -> str:
    """A docstring's opening paragraph on one line."""
    if not text:
        return ""
    return " ".join(inspect.cleandoc(text).split("\n\n")[0].split())


def _cell(text: str) -> str:
    """Text that fits a Markdown table cell."""
    return " ".join(text.split()).replace("|", "\\|")


def _code_cell(text: str) -> str:
    """Code that fits a Markdown table cell: an escaped `|` would show its backslash inside
    code, so a union reads `X or None`."""
    return " ".join(text.split()).replace(" | ", " or ").replace("|", " or ")


# --- the command line ------------------------------------------------------------------


# Typer builds its commands on a click of its own; they are read by what they answer
# (`list_commands` for a group, `param_type_name` for a parameter), not by click's classes.
def _is_group(command: Any) -> bool:
    return hasattr(command, "list_commands")


def _commands(group: Any, prefix: str) -> Iterator[tuple[str, Any]]:
    context = typer.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        if command is None or command.hidden:
            continue
        path = f"{prefix} {name}"
        yield path, command
        if _is_group(command):
            yield from _commands(command, path)


def _usage(path: str, command: Any) -> str:
    context = typer.Context(command, info_name=path)
    pieces = command.collect_usage_pieces(context)
    return f"{path} {' '.join(pieces)}".strip()


def _option_rows(command: Any) -> Iterator[str]:
    """One table row per parameter, with the names and help `--help` prints."""
    context = typer.Context(command)
    for param in command.params:
        if param.hidden:
            continue
        record = param.get_help_record(context)
        if record is None:
            continue
        names, text = record
        kind = "argument" if param.param_type_name == "argument" else "option"
        yield f"| `{_cell(names)}` | {kind} | {_cell(text or '')} |"


def cli_reference() -> str:
    """Every command of `skald`, its usage, help and options."""
    from skald.cli.main import app

    root = typer.main.get_command(app)
    lines = [f"{_cell(root.help or '')}\n", f"{_cell(root.epilog or '')}\n"]
    for path, command in _commands(root, "skald"):
        lines += [f"## `{path}`\n", "```text", _usage(path, command), "```\n"]
        lines.append(inspect.cleandoc(command.help or "") + "\n")
        rows = list(_option_rows(command))
        if rows and not _is_group(command):
            lines += ["| name | kind | what it does |", "|---|---|---|", *rows, ""]
    return "\n".join(lines)


# --- the HTTP API ----------------------------------------------------------------------


def _schema_name(schema: dict[str, Any]) -> str:
    reference = schema.get("$ref")
    if reference:
        return str(reference).rsplit("/", 1)[-1]
    if "items" in schema:
        return f"list of {_schema_name(schema['items'])}"
    return str(schema.get("type", "object"))


def _body_schema(content: dict[str, Any] | None) -> str:
    if not content:
        return ""
    media, spec = next(iter(content.items()))
    return f"`{media}` {_schema_name(spec.get('schema', {}))}"


def http_reference() -> str:
    """Every route of the HTTP API from its OpenAPI document, with its answers and errors."""
    from skald.api.main import create_app

    # The app is made only for its OpenAPI document: its signing key goes to a temporary
    # folder, never `skald-signing.key` in the folder the site is built from.
    with tempfile.TemporaryDirectory(prefix="skald-reference-") as folder:
        saved = os.environ.get("SKALD_SIGNING_KEY")
        os.environ["SKALD_SIGNING_KEY"] = os.path.join(folder, "signing.key")
        try:
            document = create_app("sqlite://").openapi()
        finally:
            if saved is None:
                os.environ.pop("SKALD_SIGNING_KEY", None)
            else:
                os.environ["SKALD_SIGNING_KEY"] = saved
    lines: list[str] = []
    for path, methods in document["paths"].items():
        for method, operation in methods.items():
            lines += [f"## `{method.upper()} {path}`\n", f"{operation.get('summary', '')}\n"]
            description = operation.get("description")
            if description:
                lines.append(inspect.cleandoc(description) + "\n")
            parameters = operation.get("parameters", [])
            if parameters:
                lines += ["| parameter | in | what it is |", "|---|---|---|"]
                for parameter in parameters:
                    text = parameter.get("description") or parameter.get("schema", {}).get(
                        "title", ""
                    )
                    lines.append(f"| `{parameter['name']}` | {parameter['in']} | {_cell(text)} |")
                lines.append("")
            body = operation.get("requestBody")
            if body:
                lines.append(f"Request body: {_body_schema(body.get('content'))}\n")
            lines += ["| status | meaning | body |", "|---|---|---|"]
            for status, answer in operation.get("responses", {}).items():
                shown = _body_schema(answer.get("content"))
                lines.append(f"| {status} | {_cell(answer.get('description', ''))} | {shown} |")
            lines.append("")
    lines += _channel_section()
    lines += _schemas_section(document.get("components", {}).get("schemas", {}))
    return "\n".join(lines)


def _channel_section() -> list[str]:
    """The live channel, which OpenAPI cannot describe: its protocol, from the module that
    speaks it (api/channel.py's docstring)."""
    from skald.api import channel

    text = inspect.cleandoc(channel.__doc__ or "")
    protocol = text.split("\n\n", 2)[1] if text.count("\n\n") >= 2 else text
    return [
        "## `WebSocket /games/{game_id}/play`\n",
        "A seat's live channel: one message per decision, one frame to every channel after "
        "every decision by anyone ([the how-to](../howto/http.md)).\n",
        protocol + "\n",
    ]


def _schemas_section(schemas: dict[str, Any]) -> list[str]:
    """Every body named above, with its fields."""
    lines = ["## Bodies\n", "The request and answer bodies the routes above name.\n"]
    for name, schema in sorted(schemas.items()):
        lines.append(f"### `{name}`\n")
        if schema.get("description"):
            lines.append(_cell(schema["description"]) + "\n")
        properties = schema.get("properties", {})
        if not properties:
            continue
        required = set(schema.get("required", ()))
        lines += ["| field | type | required | what it is |", "|---|---|---|---|"]
        for field, spec in properties.items():
            kinds = [_schema_name(option) for option in spec.get("anyOf", [spec])]
            kind = " or ".join(k if k != "null" else "null" for k in kinds)
            lines.append(
                f"| `{field}` | {_cell(kind)} | {'yes' if field in required else ''} "
                f"| {_cell(spec.get('description', ''))} |"
            )
        lines.append("")
    return lines


# --- event types -----------------------------------------------------------------------


def _type_name(annotation: Any) -> str:
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return " | ".join(_type_name(arg) for arg in get_args(annotation))
    if origin is not None:
        args = ", ".join(_type_name(arg) for arg in get_args(annotation))
        return f"{getattr(origin, '__name__', str(origin))}[{args}]"
    if annotation is type(None):
        return "None"
    return getattr(annotation, "__name__", str(annotation))


def _event_classes(module: types.ModuleType) -> Iterator[type[Event]]:
    for value in vars(module).values():
        if (
            isinstance(value, type)
            and issubclass(value, Event)
            and value.__module__ == module.__name__
            and value.__struct_config__.tag is not None
            and isinstance(value.__struct_config__.tag, str)
        ):
            yield value


EVENT_MODULES = {
    "Every game": "skald.events.common",
    "Beowulf": "skald.events.beowulf",
    "Beast": "skald.events.beast",
    "Hägar": "skald.events.hagar",
    "Annotations and variations": "skald.events.history",
    "Tournaments": "skald.events.tournament",
}


def events_reference() -> str:
    """Every event type: its stable tag, what it records, its fields."""
    import importlib

    lines: list[str] = []
    for title, name in EVENT_MODULES.items():
        module = importlib.import_module(name)
        lines += [f"## {title}\n", _first_paragraph(module.__doc__) + "\n"]
        for event in sorted(
            _event_classes(module), key=lambda kind: str(kind.__struct_config__.tag)
        ):
            tag = event.__struct_config__.tag
            barrier = " An undo barrier." if event.barrier else ""
            lines += [f"### `{tag}`\n", f"{_first_paragraph(event.__doc__)}{barrier}\n"]
            fields = msgspec.structs.fields(event)
            if fields:
                lines += ["| field | type | default |", "|---|---|---|"]
                for field in fields:
                    default = "" if field.default is msgspec.NODEFAULT else f"`{field.default!r}`"
                    kind = _code_cell(_type_name(field.type))
                    lines.append(f"| `{field.encode_name}` | `{kind}` | {default} |")
                lines.append("")
    return "\n".join(lines)


# --- exit and error codes --------------------------------------------------------------


def codes_reference() -> str:
    """The CLI's exit codes and the API's statuses and error codes, by error; then the
    answers to a failed database and the live channel's close codes."""
    from skald.api.channel import CLOSE_CODES
    from skald.api.errors import STATUS, store_failure_codes
    from skald.cli.app import EXIT_CODES

    exits = {kind: code for kind, code in EXIT_CODES}
    lines = [
        "| error | what it means | CLI exit | HTTP status | `error` code |",
        "|---|---|---|---|---|",
    ]
    for kind, status, code in STATUS:
        exit_code = next((c for k, c in EXIT_CODES if issubclass(kind, k)), exits.get(kind, 1))
        lines.append(
            f"| `{kind.__name__}` | {_cell(_first_paragraph(kind.__doc__))} | {exit_code} "
            f"| {status} | `{code}` |"
        )
    lines += [
        "",
        "When the database itself fails, every route (and the live channel's error frame)"
        " answers with one of these; `retry` says whether trying again can help (a passing"
        " failure also carries `Retry-After`):",
        "",
        "| HTTP status | `error` code | `retry` | message |",
        "|---|---|---|---|",
    ]
    for status, code, retry, message in store_failure_codes():
        lines.append(f"| {status} | `{code}` | {str(retry).lower()} | {_cell(message)} |")
    lines += [
        "",
        "The live channel (`/games/ID/play`) answers a refused decision with an error frame"
        " carrying the codes above (and `bad_message` for a message that does not parse),"
        " and closes with these codes:",
        "",
        "| close code | when |",
        "|---|---|",
    ]
    lines += [f"| {code} | {_cell(when)} |" for code, when in CLOSE_CODES.items()]
    return "\n".join(lines) + "\n"


def text_format_reference() -> str:
    """The text export's grammar and tags, from the module that writes and reads it (its
    docstring), so the page cannot drift from the parser."""
    from skald.projections.export import text

    body = inspect.cleandoc(text.__doc__ or "").split("\n", 1)[1]
    return body.strip() + "\n"


REFERENCES: dict[str, Callable[[], str]] = {
    "cli": cli_reference,
    "http": http_reference,
    "events": events_reference,
    "codes": codes_reference,
    "bench": lambda: bench_record.table(bench_record.read()),
    "text_format": text_format_reference,
}


def reference(name: str) -> str:
    """The generated Markdown for one reference page."""
    return REFERENCES[name]()
