"""Every ``--json`` output against its JSON Schema (docs/schemas/, linked from docs/json.md).

Each schema file names the command lines that produce its output in the annotation
``x-cuatrola-runs`` (a list of argument lists, run in order; ``{examples}`` is the examples
folder, ``{run}`` a small seeded selfplay run, ``{tmp}`` a scratch folder). The output of
the lines with ``--json`` (or ``solve --batch``) is validated; the others prepare (e.g. a
``history import``). So adding the schema of a new output is one file (and its link in
docs/json.md): this module finds it, checks it is valid and linked, runs its command lines,
validates what they print and that mutated outputs are rejected; a command whose module
takes ``--json`` without a schema file fails here.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cuatrola_cli.main import COMMANDS
from helpers import run

ROOT = Path(__file__).resolve().parent.parent
SCHEMAS = ROOT / "docs" / "schemas"
JSON_MD = ROOT / "docs" / "json.md"
RUNS_KEY = "x-cuatrola-runs"
SCHEMA_FILES = sorted(SCHEMAS.glob("*.schema.json"))
NAMES = [p.name.removesuffix(".schema.json") for p in SCHEMA_FILES]


def schema_of(name: str) -> dict:
    return json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))


def prints_json(args: list[str]) -> bool:
    return "--json" in args or args[:2] == ["solve", "--batch"]


def instances(stdout: str) -> list:
    """The JSON values printed: one object, or one object a line (JSON lines)."""
    text = stdout.strip()
    try:
        return [json.loads(text)]
    except json.JSONDecodeError:
        return [json.loads(line) for line in text.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def places(tmp_path_factory) -> dict[str, str]:
    """The placeholders of the command lines: a small seeded selfplay run and a scratch folder."""
    tmp = tmp_path_factory.mktemp("schemas")
    path = tmp / "run.jsonl"
    r = run("selfplay", "--a", "random", "--b", "heuristic", "--hands", "6", "--odds-samples",
            "20", "--seed", "8", "--out", str(path))
    assert r.exit_code == 0, r.stderr
    return {"examples": str(ROOT / "examples"), "run": str(path), "tmp": str(tmp)}


_outputs: dict[str, list] = {}


@pytest.fixture
def outputs(places):
    """name -> every JSON value its command lines print (each command run once per module)."""
    def of(name: str) -> list:
        if name not in _outputs:
            got = []
            for args in schema_of(name)[RUNS_KEY]:
                argv = [a.format(**places) for a in args]
                r = run(*argv)
                assert r.exit_code == 0, (argv, r.stderr)
                if prints_json(args):
                    got += instances(r.stdout)
            _outputs[name] = got
        return _outputs[name]
    return of


def test_there_are_schemas():
    assert len(NAMES) >= 14, NAMES


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_is_a_valid_draft_2020_12_schema_with_command_lines(name):
    schema = schema_of(name)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    runs = schema[RUNS_KEY]
    assert all(isinstance(a, list) and all(isinstance(x, str) for x in a) for a in runs), runs
    assert any(prints_json(a) for a in runs), runs


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_is_linked_from_json_md(name):
    assert f"(schemas/{name}.schema.json)" in JSON_MD.read_text(encoding="utf-8")


def json_commands() -> list[str]:
    """The commands whose module takes ``--json``."""
    found = []
    for command, (module, _help) in COMMANDS.items():
        source = (ROOT / "cli" / f"{module}.py").read_text(encoding="utf-8")
        if re.search(r"\bJsonOption\b|\"--json\"", source):
            found.append(command)
    return found


def test_every_json_command_has_a_schema():
    commands = json_commands()
    assert {"solve", "advise", "hint", "analyze", "check", "deal"} <= set(commands), commands
    missing = [c for c in commands if c not in NAMES]
    assert not missing, f"--json without docs/schemas/NAME.schema.json: {missing}"


@pytest.mark.parametrize("name", NAMES)
def test_the_output_matches_its_schema(name, outputs):
    validator = Draft202012Validator(schema_of(name))
    got = outputs(name)
    assert got
    for value in got:
        errors = sorted(validator.iter_errors(value), key=lambda e: list(e.path))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])


def required_of(schema: dict, value: dict) -> list[str]:
    """The top-level fields ``schema`` requires of ``value``: its own, and those of the one
    ``oneOf`` branch ``value`` is valid under (an output with several forms)."""
    required = list(schema.get("required", []))
    for branch in schema.get("oneOf", []):
        if Draft202012Validator({**branch, "$defs": schema.get("$defs", {})}).is_valid(value):
            required += [k for k in branch.get("required", []) if k not in required]
    return required


def wrong_type(value):
    """A value of another JSON type than ``value``'s."""
    if isinstance(value, str):
        return 12345
    if isinstance(value, (bool, int, float)) or value is None:
        return "wrong"
    if isinstance(value, list):
        return {"wrong": True}
    return ["wrong"]


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_rejects_a_missing_field_a_wrong_type_and_an_unknown_field(name, outputs):
    schema = schema_of(name)
    validator = Draft202012Validator(schema)
    value = outputs(name)[0]
    required = required_of(schema, value)
    assert "schema" in required and len(required) >= 2
    for key in required:
        mutated = copy.deepcopy(value)
        del mutated[key]
        assert not validator.is_valid(mutated), f"{name}: accepted without {key!r}"
    for key in value:
        mutated = copy.deepcopy(value)
        mutated[key] = wrong_type(value[key])
        assert not validator.is_valid(mutated), f"{name}: accepted {key!r} = {mutated[key]!r}"
    if schema.get("additionalProperties") is False:
        assert not validator.is_valid({**value, "no_such_field": 1})


def first_nested_object(value, path=()):
    """The path to the first object inside an array of ``value`` (depth first), or None."""
    items = value.items() if isinstance(value, dict) else enumerate(value)
    for key, x in items:
        if isinstance(value, list) and isinstance(x, dict) and x:
            return path + (key,)
        if isinstance(x, (dict, list)):
            found = first_nested_object(x, path + (key,))
            if found is not None:
                return found
    return None


@pytest.mark.parametrize("name", NAMES)
def test_the_schema_checks_inside_arrays(name, outputs):
    """An object inside an array given a field of a wrong type is rejected too."""
    validator = Draft202012Validator(schema_of(name))
    found = [(v, first_nested_object(v)) for v in outputs(name)]
    found = [(v, path) for v, path in found if path is not None]
    if not found:
        pytest.skip(f"{name}: no object inside an array")
    value, path = found[0]
    mutated = copy.deepcopy(value)
    target = mutated
    for key in path:
        target = target[key]
    key = next(iter(target))
    target[key] = wrong_type(target[key])
    assert not validator.is_valid(mutated), f"{name}: accepted {path} {key!r} = {target[key]!r}"
