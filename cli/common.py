"""What every command shares: reading inputs, the --rules option, JSON output and
turning the library's errors into exit code 2 with a one-line message."""

from __future__ import annotations

import errno
import dataclasses
import functools
import json
import os
import re
import sys
from pathlib import Path
import importlib
from typing import TYPE_CHECKING, Any, Callable, Mapping, NoReturn, ParamSpec, Sequence, TypeVar

import typer
import typer.main
from typer.core import TyperCommand, TyperGroup

from cuatrola_solver.errors import CuatrolaError, quote
from cuatrola_solver.game.rules import RuleSet, get_rules
from cuatrola_solver.i18n import (LANGUAGES, N_, _, count, language_from_environment,
                                  language_of, later, set_language)

from .helpnames import name_values

if TYPE_CHECKING:
    from matplotlib.figure import Figure
    from cuatrola_solver.advice.budget import Budget
    from cuatrola_solver.game.constraints import Constraints
    from cuatrola_solver.models.played import PlayedModel
    from cuatrola_solver.models.preset import Models
    from cuatrola_solver.notation.record import HandRecord

SCHEMA = 1
#: the most bytes read from a record file or stdin (a record is a few hundred bytes)
MAX_INPUT_BYTES = 64 << 20
#: the longest error message printed (tokens are cut long before; this is a backstop)
MAX_MESSAGE = 1000
#: the most solver threads a command may ask for
MAX_WORKERS = 64

RulesOption = typer.Option(
    "online", "--rules", "-r", metavar="PRESET",
    help=N_("Preset (online, app, narro, italiano), optionally with overrides: "
            "'narro,tie_break=mano'."))
JsonOption = typer.Option(False, "--json", help=N_("Machine output on stdout (schema 1)."))
SeedOption = typer.Option(None, "--seed", min=0, help=N_("Seed of the sampling (reported when "
                          "not given; unused with --exact)."))
#: Typer's own helps, translated where shown (:func:`plain_help`)
TYPER_HELPS = (N_("Show this message and exit."),
               N_("Install completion for the current shell."),
               N_("Show completion for the current shell, to copy it or customize the "
                  "installation."))



def help_text(template: str, **values: object) -> str:
    """An option's help made of a message and values, written where the option is
    declared (at import, before the language is known): the English now, translated by
    :func:`plain_help` when a help is drawn.  A value that is itself a message is given
    as ``later(...)``."""
    text = later(template, **values)
    HELP_MESSAGES[" ".join(text.split())] = text
    return text


#: the helps made by :func:`help_text`, by their English text as a paragraph
HELP_MESSAGES: dict[str, str] = {}


def samples_option(help: str) -> Any:
    return typer.Option(None, "--samples", "-n", min=1, help=help)


def exact_option(note: str = "") -> Any:
    return typer.Option(False, "--exact", help=(
        help_text("Every consistent deal instead of sampling ({note}).", note=later(note))
        if note else N_("Every consistent deal instead of sampling.")))


def workers_option(default: str, what: str | None = None) -> Any:
    return typer.Option(None, "--workers", "-w", min=1, max=MAX_WORKERS, metavar="N",
                        help=help_text("{what} (default: {default}).",
                                       what=later(N_("Threads of the solver") if what is None
                                                  else what),
                                       default=later(default)))


def model_option(what: str) -> Any:
    return typer.Option(
        "played", "--model", metavar="played|dd",
        help=help_text("played: {what} as the hand will be played by players who see only "
                       "their own cards (the preset's played-odds model, fitted in "
                       "self-play), beside the double-dummy ones; dd: double dummy only.",
                       what=later(what)))


def constrain_option(when: str | None = None) -> Any:
    return typer.Option(
        None, "--constrain", "-C", metavar="WHAT",
        help=help_text("What you believe the other seats hold {when}, beyond what the play "
                       "shows: '3: void o' (seat 3 has no oros), '2: has Ao', '2: not Ao', "
                       "'4: >=2 triunfo' (also <=N and =N, of a suit letter or triunfo); "
                       "several joined with ';' or the option given again. Only the "
                       "layouts that meet them are dealt, exactly or sampled.",
                       when=later(N_("now") if when is None else when)))


def command_constraints(values: Sequence[str] | None, *,
                        dealt: bool = False) -> "Constraints":
    """The constraints of ``--constrain`` (given once or more)."""
    from cuatrola_solver.game.constraints import Constraints     # on demand: start-up
    return Constraints.parse(";".join(values or ()), dealt=dealt)


def constraints_line(constraints: Sequence[str],
                     layouts: tuple[int, int] | None) -> str | None:
    """``assuming 3: void o; 4: >=2 triunfo: 72,072 of the 252,252 layouts remain``: an
    answer's what-if constraints and the layouts that meet them, of how many (None
    without constraints)."""
    if not constraints or layouts is None:
        return None
    return _("assuming {constraints}: {n} of the {total} layouts remain").format(
        constraints="; ".join(constraints), n=count(layouts[0]), total=count(layouts[1]))


def command_models(rules: RuleSet, model: str, inference: bool = True) -> "Models":
    """The models a command uses: the preset's played-odds model unless ``--model dd``,
    its bid model unless ``--no-inference``."""
    from cuatrola_solver.models.preset import Models      # numpy: on demand
    if model not in ("played", "dd"):
        fail(_("bad --model {value}: expected played or dd").format(value=quote(model)))
    return Models.of(rules, inference=inference, played=model == "played")


def command_budget(exact: bool, samples: int | None, seed: int | None,
                   workers: int | None) -> "Budget":
    """The search budget of ``--exact``, ``--samples``, ``--seed`` and ``--workers``
    (refusing --exact with --samples: they ask for two different things)."""
    from cuatrola_solver.advice.budget import Budget      # numpy: on demand
    check_sampling(exact, samples)
    return Budget(exact, samples, seed, workers)


def card_model_note(model: "PlayedModel | None", rules: RuleSet) -> str | None:
    """Why the cards are rated double dummy although --model played was asked (a model
    without card cells), for the human output."""
    if model is None or model.has_cards:
        return None
    return _("cards rated double dummy: the played-odds model of {rules} has no card "
             "cells (README, 'Odds as the hand will be played')").format(rules=rules.name)


def check_sampling(exact: bool, samples: int | None) -> None:
    """--samples and --exact ask for two different things: refuse both at once."""
    if exact and samples is not None:
        fail(_("give either --samples N or --exact, not both"))


def one_line(message: str) -> str:
    """``message`` as one line of reasonable length (the last guard of the contract)."""
    text = " ".join(str(message).split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE] + "…"


def fail(message: str) -> NoReturn:
    """Print a bad-input message on stderr and exit with code 2."""
    typer.echo(f"error: {one_line(message)}", err=True)
    raise typer.Exit(2)


Params = ParamSpec("Params")
Returned = TypeVar("Returned")


def user_errors(func: Callable[Params, Returned]) -> Callable[Params, Returned]:
    """Run a command, turning CuatrolaError (bad input) into exit code 2."""

    @functools.wraps(func)
    def wrapper(*args: Params.args, **kwargs: Params.kwargs) -> Returned:
        try:
            return func(*args, **kwargs)
        except CuatrolaError as e:
            fail(str(e))

    return wrapper


def load_rules(spec: str) -> RuleSet:
    return get_rules(spec)


def decode_input(data: bytes, name: str) -> str:
    """Bytes read from a file or stdin as UTF-8 text; bad bytes are bad input."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        fail(_("{name}: not UTF-8 text: byte 0x{byte:02x} at offset {offset} cannot be read "
               "(save the file as UTF-8)").format(name=name, byte=data[e.start],
                                                  offset=e.start))
    raise AssertionError  # unreachable
#: ``--rules`` of the commands that read a record (check, analyze, hint)
RecordRulesOption = typer.Option(
    None, "--rules", "-r", metavar="PRESET",
    help=N_("Rules for a record without a Rules tag (default online): a preset, optionally "
            "with overrides, 'narro,tie_break=mano'. A record's own Rules tag wins (with a "
            "note on stderr when they differ)."))


def record_rules(rec: "HandRecord", spec: str | None) -> "HandRecord":
    """The record with ``--rules SPEC`` applied: it sets the rules of a record that names
    none; a record's own ``Rules`` tag wins, with a note on stderr when ``SPEC`` differs
    (the record says how the hand was played)."""
    if spec is None:
        return rec
    rules = get_rules(spec)
    if not rec.rules_given:
        return dataclasses.replace(rec, rules=rules)
    if rules != rec.rules:
        from cuatrola_solver.notation.record import format_rules   # on demand: start-up
        typer.echo(_("note: the record's Rules tag ({rules}) is used, not --rules {spec}")
                   .format(rules=format_rules(rec.rules), spec=repr(spec)), err=True)
    return rec


def read_input(path: str, what: str | None = None) -> tuple[str, str]:
    """The text of a file, or of stdin for '-'; and a name for messages (``what`` the
    input is, translated: the record by default)."""
    what = _("record") if what is None else what
    if path == "-":
        stream = getattr(sys.stdin, "buffer", None)
        if sys.stdin is None or stream is None or sys.stdin.closed:
            fail(_("cannot read the {what} from stdin: stdin is closed").format(what=what))
        try:
            data = stream.read(MAX_INPUT_BYTES + 1)
        except (OSError, ValueError) as e:  # EBADF, or ValueError: closed file
            if isinstance(e, ValueError) or e.errno == errno.EBADF:
                fail(_("cannot read the {what} from stdin: stdin is closed").format(what=what))
            fail(_("cannot read the {what} from stdin: {reason}").format(
                what=what, reason=e.strerror or e))
        name = "stdin"
    else:
        name = path
        try:
            with open(path, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
        except FileNotFoundError:
            fail(_("{what} file {path} not found").format(what=what, path=quote(path)))
        except (OSError, ValueError) as e:  # a directory, no permission, EIO, a NUL in the name
            fail(_("cannot read {what} file {path}: {reason}").format(
                what=what, path=quote(path), reason=getattr(e, "strerror", None) or e))
    if len(data) > MAX_INPUT_BYTES:
        fail(_("{what} {name} is too big: more than {mb} MB").format(
            what=what, name=quote(name), mb=MAX_INPUT_BYTES >> 20))
    text = decode_input(data, name)
    if not text.lstrip("\ufeff").strip():
        fail(_("empty input: stdin holds no {what}").format(what=what) if path == "-"
             else _("empty input: {what} file {path} holds nothing").format(
                 what=what, path=quote(path)))
    return text, name


def check_writable(path: Path, suffixes: tuple[str, ...] | None = None) -> None:
    """Exit 2, naming the path, when an output file cannot be written there (checked
    before a long computation) or has a suffix other than ``suffixes``."""
    if path.is_dir():
        fail(_("cannot write {path}: it is a directory").format(path=repr(str(path))))
    if suffixes and path.suffix.lower() not in suffixes:
        fail(_("cannot write {path}: expected a file name ending in {suffixes}").format(
            path=repr(str(path)), suffixes=_(" or ").join(suffixes)))
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        fail(_("cannot write {path}: no directory {parent}").format(
            path=repr(str(path)), parent=repr(str(parent))))
    if not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(_("cannot write {path}: permission denied").format(path=repr(str(path))))


def _same_file(a: str | Path, b: str | Path) -> bool:
    """Whether two paths name one file: the same file when both exist (links, ``./``,
    another spelling), else the same absolute path."""
    try:
        if os.path.exists(a) and os.path.exists(b):
            return os.path.samefile(a, b)
    except (OSError, ValueError):
        return False
    return os.path.abspath(a) == os.path.abspath(b)


def check_outputs(outputs: Sequence[tuple[str, str | Path | None]],
                  inputs: Sequence[tuple[str, str | Path | None]]) -> None:
    """Exit 2 before any work when an output file would be one of the inputs, or two
    outputs one file: ``outputs`` and ``inputs`` are ``(what, path)`` pairs, the path
    None when not given (``-`` is stdin or stdout, no file)."""
    given = [(w, p) for w, p in outputs if p is not None and str(p) != "-"]
    for i, (what, path) in enumerate(given):
        for source, other in inputs:
            if other is not None and str(other) != "-" and _same_file(path, other):
                fail(_("{what} {path} is {source}: the output would overwrite what is read "
                       "(give another file name)").format(what=what, path=quote(str(path)),
                                                          source=source))
        for later, other in given[i + 1:]:
            if _same_file(path, other):
                fail(_("{what} and {other} are the same file {path}: give each its own")
                     .format(what=what, other=later, path=quote(str(path))))


def write_output(path: Path, text: str, failure: str | None = None) -> None:
    """Write an output file; exit 2 naming the path when it cannot be written.
    ``failure``: the whole translated message then, with ``{path}`` and ``{reason}``
    (e.g. ``_("cannot write the model to {path}: {reason}")``)."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        message = failure if failure is not None else _("cannot write {path}: {reason}")
        fail(message.format(path=repr(str(path)), reason=e.strerror or e))


def need_matplotlib() -> None:
    """Exit 2 before any work when --plot is asked and matplotlib is not installed."""
    import importlib.util
    if importlib.util.find_spec("matplotlib") is None:
        fail(_("--plot needs matplotlib: pip install 'cuatrola-solver[lab]'"))


def save_figure(fig: "Figure", path: str) -> None:
    """Write a matplotlib figure to ``path`` and close it; a path that cannot be written
    is bad input (exit 2, naming the path)."""
    import matplotlib.pyplot as plt
    try:
        fig.savefig(path)
    except (OSError, ValueError) as e:
        fail(_("cannot write the plot to {path}: {reason}").format(
            path=repr(str(path)), reason=getattr(e, "strerror", None) or e))
    finally:
        plt.close(fig)


def emit_json(obj: Mapping[str, object]) -> None:
    typer.echo(json.dumps({"schema": SCHEMA, **obj}, ensure_ascii=False))


# --- the one error path of the command line ---------------------------------------------

def _raw_value(param: Any, args: Sequence[str]) -> str | None:
    """The text given on the command line for option ``param`` (its last occurrence)."""
    found = None
    names = list(getattr(param, "opts", [])) + list(getattr(param, "secondary_opts", []))
    for i, arg in enumerate(args):
        for name in names:
            if not name.startswith("-"):
                continue
            if arg == name and i + 1 < len(args):
                found = args[i + 1]
            elif arg.startswith(name + "=") and name.startswith("--"):
                found = arg[len(name) + 1:]
            elif len(name) == 2 and arg.startswith(name) and len(arg) > 2:  # -s3
                found = arg[2:]
    return found


def usage_message(e: typer.TyperException, args: Sequence[str]) -> str:
    """A usage error of the command line (Typer raises them all as
    :class:`typer.TyperException`) in one line: the option, the bad token quoted, the
    reason."""
    # a value not given at all is a BadParameter too (click's MissingParameter), the
    # one that carries a param_type ("missing option '--seat'" says it best as it is)
    if (isinstance(e, typer.BadParameter) and not hasattr(e, "param_type")
            and e.param):
        value = _raw_value(e.param, args)
        hint = " / ".join(e.param.opts) if e.param.opts else e.param.name
        message = e.message[:1].lower() + e.message[1:]
        return (_("bad value {value} for {option}: {reason}").format(
                    value=quote(value), option=hint, reason=message) if value is not None
                else _("bad value for {option}: {reason}").format(option=hint, reason=message))
    text = e.format_message().rstrip(".")
    return text[:1].lower() + text[1:]


def _silence_stdout() -> None:
    """After a broken pipe: send what is left for stdout nowhere, so that the final flush
    at exit does not fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


class _ReaderGone(Exception):
    """stdout's reader went away (EPIPE); typer would exit 1 on it, we exit 0."""


def plain_help(text: str | None) -> str | None:
    """A help text as the help shows it: each paragraph one line (the terminal wraps it,
    not the source's line breaks) and square brackets shown as typed (``[lab]`` is not
    markup)."""
    if not text:
        return text
    import inspect
    # each paragraph in the language of the interface (its English the message)
    paragraphs = [_(HELP_MESSAGES.get(line, line))
                  for line in (" ".join(p.split())
                               for p in inspect.cleandoc(text).split("\n\n"))]
    text = "\n\n".join(p for p in paragraphs if p)
    if not _MARKUP.search(text) and not text.endswith("\\"):
        return text                     # nothing rich would read as markup
    try:
        from rich.markup import escape
    except ImportError:                                   # pragma: no cover - no rich
        return text
    return escape(text)


#: what rich's ``escape`` escapes: a tag such as ``[lab]`` (rich itself is imported only
#: for a text that has one, not for every command's start)
_MARKUP = re.compile(r"\[[a-z#/@][^[]*?]")


def plain_helps(group: Any) -> None:
    """Every help text of ``group``'s commands and options through :func:`plain_help`
    (once)."""
    if getattr(group, "_plain_help_done", False):
        return
    group._plain_help_done = True
    _plain_command(group)


def _plain_command(command: Any) -> None:
    """``command``'s help and its options' as the help shows them (:func:`plain_help`),
    each value by its name; and so for each command of a group (``history import``)."""
    name_values(command)
    command.help = plain_help(command.help)
    if getattr(command, "short_help", None):
        command.short_help = plain_help(command.short_help)
    for param in getattr(command, "params", ()):
        if getattr(param, "help", None):
            param.help = plain_help(param.help)
    for sub in getattr(command, "commands", {}).values():
        _plain_command(sub)


def translated_help_option(option: Any) -> Any:
    """A command's ``--help`` option with its text in the language of the interface."""
    if option is not None and option.help:
        option.help = _(option.help)
    return option


class HelpCommand(TyperCommand):
    """A command whose ``--help`` is drawn by cli/command_help.py: each value by its
    name, nothing after a flag, the ``--help`` option's text translated."""

    def get_help_option(self, ctx: Any) -> Any:
        return translated_help_option(super().get_help_option(ctx))

    def format_help(self, ctx: Any, formatter: Any) -> None:
        if self.rich_markup_mode is None:
            super().format_help(ctx, formatter)
            return
        from .command_help import print_command_help     # rich: only for a help
        print_command_help(self, ctx)


class _HelpTyper(typer.Typer):
    """A Typer whose commands are :class:`HelpCommand` unless they ask for another
    class."""

    def command(self, name: str | None = None, *, cls: Any = None,
                **kwargs: Any) -> Any:
        return super().command(name, cls=cls or HelpCommand, **kwargs)


def load_command(module: str) -> Any:
    """The click command that ``cuatrola_cli.<module>`` registers (its help plain)."""
    sub = _HelpTyper(add_completion=False, rich_markup_mode="rich")
    importlib.import_module(f".{module}", __package__).register(sub)
    command = typer.main.get_command(sub)
    if not sub.registered_commands and len(sub.registered_groups) == 1:
        command = next(iter(getattr(command, "commands").values()))  # a group of commands
    _plain_command(command)
    return command


def command_line_language(args: Sequence[str]) -> str:
    """The language of the interface for the arguments ``args``: the ``--lang`` given
    before the command (``cuatrola --lang es advise ...``), else the environment's
    (``CUATROLA_LANG``, then the locale); an unknown ``--lang`` is left to the option's
    own check."""
    for i, arg in enumerate(args):
        value = (args[i + 1] if arg == "--lang" and i + 1 < len(args)
                 else arg[len("--lang="):] if arg.startswith("--lang=") else None)
        if value is not None and value in LANGUAGES:
            return value
        if not arg.startswith("-") and (i == 0 or args[i - 1] != "--lang"):
            break                       # the command: its options are its own
    return language_from_environment()


def check_language(value: str | None) -> str | None:
    """The ``--lang`` option's check (the language itself is set before the arguments
    are parsed, by :meth:`CommandLine.main`, so that every help is in it)."""
    if value is not None and language_of(value) != value:
        raise typer.BadParameter(_("expected one of {languages}").format(
            languages=", ".join(LANGUAGES)))
    return value


class CommandLine(TyperGroup):
    """The app's click group: every way a command can fail ends here, as one line on
    stderr and an exit code -- 2 for bad input (options, records, files, stdin), 0 when
    the reader of stdout goes away (``| head``), 1 for anything else."""

    #: name -> (module of ``cuatrola_cli`` that registers it, the line the help lists it
    #: with): commands loaded on first use, so that the help and ``rules`` start without
    #: the solver, the models or numpy (set by ``main``; the help's order)
    lazy: dict[str, tuple[str, str]] = {}
    _listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        return list(dict.fromkeys([*self.lazy, *self.commands]))

    def get_command(self, ctx: Any, name: str) -> Any:
        if name not in self.commands and name in self.lazy:
            module, line = self.lazy[name]
            if self._listing:           # the help's list of commands: the line alone
                return TyperCommand(name, help=plain_help(line))
            self.commands[name] = load_command(module)
        return self.commands.get(name)

    def get_help_option(self, ctx: Any) -> Any:
        return translated_help_option(super().get_help_option(ctx))

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            typer.echo(ctx.get_help())
            _error(_("no command given: expected one of {commands}").format(
                commands=", ".join(self.list_commands(ctx))))
            raise typer.Exit(2)
        return super().parse_args(ctx, args)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        try:
            return super().resolve_command(ctx, args)
        except typer.TyperException as e:
            # typer suggests among the commands loaded; these are not, yet
            if args and "Did you mean" not in e.message:
                import difflib
                matches = difflib.get_close_matches(args[0], self.list_commands(ctx))
                if matches:
                    e.message = _("{message}. Did you mean {names}?").format(
                        message=e.message.rstrip("."),
                        names=", ".join(repr(m) for m in matches))
            raise

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self._listing = True
        try:
            if ctx.parent is None and self.rich_markup_mode is not None:
                from .group_help import print_group_help       # rich, without Typer's
                print_group_help(self, ctx, [(name, self.get_command(ctx, name).help or "")
                                             for name in self.list_commands(ctx)])
            else:
                super().format_help(ctx, formatter)
        finally:
            self._listing = False

    # **extra takes the other arguments of the installed Typer's main (its versions differ)
    def main(self, args: Sequence[str] | None = None,  # type: ignore[override]
             prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True,
             **extra: Any) -> Any:
        argv = list(sys.argv[1:] if args is None else args)
        set_language(command_line_language(argv))
        plain_helps(self)
        try:
            code = super().main(argv, prog_name, complete_var, standalone_mode=False,
                                **extra)
            code = code if isinstance(code, int) else 0
        except typer.TyperException as e:
            code = _error(usage_message(e, argv), e.exit_code)
        except CuatrolaError as e:
            code = _error(str(e))
        except UnicodeError as e:
            code = _error(_("cannot read the input as UTF-8 text: {reason}").format(reason=e))
        except _ReaderGone:
            _silence_stdout()
            code = 0
        except OSError as e:
            if e.errno == errno.EPIPE:
                _silence_stdout()
                code = 0
            else:
                code = _error(f"{e.strerror or e}"
                              + (f": {quote(e.filename)}" if e.filename else ""))
        except (typer.Abort, KeyboardInterrupt):
            code = _error(_("interrupted"), 130)
        except MemoryError:
            code = _error(_("out of memory"), 1)
        except Exception as e:  # a bug: one line too, and the way to see it in full
            if os.environ.get("CUATROLA_TRACEBACK"):
                raise
            code = _error(_("internal error ({kind}: {reason}); run with CUATROLA_TRACEBACK=1 "
                            "to see where").format(kind=type(e).__name__, reason=e), 1)
        if standalone_mode:
            sys.exit(code)
        return code

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except OSError as e:
            if e.errno == errno.EPIPE:
                raise _ReaderGone() from None
            raise


def _error(message: str, code: int = 2) -> int:
    try:
        typer.echo(f"error: {one_line(message)}", err=True)
    except OSError:
        pass
    return code
