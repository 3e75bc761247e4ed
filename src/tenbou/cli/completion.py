"""Shell completion for the ``tenbou`` command: bash, zsh and fish scripts made from its parser.

``tenbou completion bash`` prints a script that completes the commands, their subcommands, their
options, the choices an option takes (``--to mjlog|tenhou6|mjai``, ``--seat-wind E|S|W|N``) and
file names where an argument is a file. The scripts are written from the command's ``argparse``
parser (:func:`tenbou.cli.build_parser`), so an option a command group adds completes without
further work.

>>> import argparse
>>> p = argparse.ArgumentParser(prog="t")
>>> sub = p.add_subparsers(dest="command")
>>> s = sub.add_parser("score")
>>> _ = s.add_argument("--round", choices=("E", "S"))
>>> commands(p)["score"].options["--round"].choices
('E', 'S')
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..rules import presets
from .common import Commands

__all__ = ["SHELLS", "add_parsers", "commands", "script"]

SHELLS = ("bash", "zsh", "fish")


@dataclass(frozen=True)
class Option:
    """An option: whether it takes a value, the choices of that value, whether it names a file."""

    takes: bool
    choices: tuple[str, ...] = ()
    file: bool = False
    help: str = ""


@dataclass
class Command:
    """What completes after a command path (``"rules show"``): its subcommands (with their
    help), its options, and whether its arguments are file names."""

    subcommands: dict[str, str] = field(default_factory=dict)
    options: dict[str, Option] = field(default_factory=dict)
    files: bool = False
    words: tuple[str, ...] = ()


def _names_files(action: argparse.Action) -> bool:
    return any(word in str(action.metavar or action.dest).upper() for word in ("FILE", "PATH", "ADDRESS"))


def commands(
    parser: argparse.ArgumentParser, values: dict[str, tuple[str, ...]] | None = None
) -> dict[str, Command]:
    """Every command path of ``parser`` (``""`` the top level) and what completes there;
    ``values`` gives the words an argument or option takes by its ``dest`` (the preset ids
    of ``--rules`` and of ``rules show ID``)."""
    out: dict[str, Command] = {}
    known = values or {}

    def walk(p: argparse.ArgumentParser, path: str) -> None:
        cmd = Command()
        out[path] = cmd
        for action in p._actions:
            if isinstance(action, argparse._SubParsersAction):
                helps = {c.dest: c.help or "" for c in action._choices_actions}
                for name, child in action.choices.items():
                    cmd.subcommands[name] = helps.get(name, "")
                    walk(child, f"{path} {name}".strip())
            elif action.option_strings:
                takes = action.nargs != 0
                option = Option(
                    takes,
                    tuple(str(c) for c in action.choices) if action.choices else known.get(action.dest, ()),
                    takes
                    and not action.choices
                    and _names_files(action)
                    and "ADDRESS" not in str(action.metavar),
                    "" if action.help is argparse.SUPPRESS else (action.help or "").replace("%%", "%"),
                )
                for opt in action.option_strings:
                    if opt.startswith("--"):
                        cmd.options[opt] = option
            elif action.dest in known or action.choices:
                cmd.words += tuple(str(c) for c in action.choices) if action.choices else known[action.dest]
            elif _names_files(action):
                cmd.files = True

    walk(parser, "")
    return out


def _words(values: Iterable[object]) -> str:
    return " ".join(str(v) for v in values)


def _bash(cmds: dict[str, Command]) -> str:
    lines = [
        '# bash completion for tenbou: eval "$(tenbou completion bash)" (or save it under',
        "# ~/.local/share/bash-completion/completions/tenbou)",
        "_tenbou() {",
        '    local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" w i',
        "    for ((i = 1; i < COMP_CWORD; i++)); do",
        '        w="${COMP_WORDS[i]}"',
        '        case "$path|$w" in',
    ]
    for path, cmd in cmds.items():
        for name in cmd.subcommands:
            lines.append(f'            "{path}|{name}") path="{(path + " " + name).strip()}" ;;')
    lines += [
        "        esac",
        "    done",
        '    case "$path|$prev" in',
    ]
    for path, cmd in cmds.items():
        for opt, o in cmd.options.items():
            if o.choices:
                words = _words(o.choices)
                lines.append(
                    f'        "{path}|{opt}") COMPREPLY=($(compgen -W "{words}" -- "$cur")); return ;;'
                )
            elif o.file:
                lines.append(f'        "{path}|{opt}") COMPREPLY=($(compgen -f -- "$cur")); return ;;')
            elif o.takes:
                lines.append(f'        "{path}|{opt}") COMPREPLY=(); return ;;')
    lines += [
        "    esac",
        '    case "$path" in',
    ]
    for path, cmd in cmds.items():
        opts = _words(cmd.options)
        subs = _words(cmd.subcommands)
        if cmd.subcommands:
            action = (
                f'if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "{opts}" -- "$cur")); '
                f'else COMPREPLY=($(compgen -W "{subs}" -- "$cur")); fi'
            )
        else:
            rest = (
                f' else COMPREPLY=($(compgen -W "{_words(cmd.words)}" -- "$cur"));'
                if cmd.words
                else ' else COMPREPLY=($(compgen -f -- "$cur"));'
                if cmd.files
                else ""
            )
            action = f'if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "{opts}" -- "$cur"));{rest} fi'
        lines.append(f'        "{path}") {action} ;;')
    lines += [
        "    esac",
        "}",
        "complete -F _tenbou tenbou",
        "",
    ]
    return "\n".join(lines)


def _zsh(cmds: dict[str, Command]) -> str:
    return (
        "#compdef tenbou\n"
        '# zsh completion for tenbou: eval "$(tenbou completion zsh)" in ~/.zshrc (zsh\'s bash completion)\n'
        "autoload -U +X bashcompinit && bashcompinit\n" + _bash(cmds).split("\n", 2)[2]
    )


def _fish_text(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def _fish(cmds: dict[str, Command]) -> str:
    lines = [
        "# fish completion for tenbou: tenbou completion fish > ~/.config/fish/completions/tenbou.fish",
        "complete -c tenbou -f",
    ]
    for path, cmd in cmds.items():
        words = path.split()
        if not words:
            cond = "__fish_use_subcommand"
        else:
            cond = " && ".join(
                [f"__fish_seen_subcommand_from {w}" for w in words]
                + ([f"not __fish_seen_subcommand_from {_words(cmd.subcommands)}"] if cmd.subcommands else [])
            )
        for name, help_text in cmd.subcommands.items():
            lines.append(f"complete -c tenbou -n {_fish_text(cond)} -a {name} -d {_fish_text(help_text)}")
        for opt, o in cmd.options.items():
            value = (
                f" -xa {_fish_text(_words(o.choices))}"
                if o.choices
                else " -rF"
                if o.file
                else " -x"
                if o.takes
                else ""
            )
            lines.append(
                f"complete -c tenbou -n {_fish_text(cond)} -l {opt[2:]}{value} -d {_fish_text(o.help)}"
            )
        if cmd.words:
            lines.append(f"complete -c tenbou -n {_fish_text(cond)} -xa {_fish_text(_words(cmd.words))}")
        elif cmd.files and words:
            lines.append(f"complete -c tenbou -n {_fish_text(cond)} -F")
    return "\n".join(lines) + "\n"


def script(
    parser: argparse.ArgumentParser, shell: str, values: dict[str, tuple[str, ...]] | None = None
) -> str:
    """The completion script of ``parser``'s command for ``shell`` (one of :data:`SHELLS`)."""
    cmds = commands(parser, values)
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](cmds)


def add_parsers(sub: Commands, parser: argparse.ArgumentParser) -> None:
    """``tenbou completion SHELL``: the script of ``parser``, the whole ``tenbou`` command."""
    comp = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh, fish)",
        description="Print the completion script of tenbou for a shell: commands, options, their "
        'choices and file names. bash: eval "$(tenbou completion bash)" (in ~/.bashrc); zsh: the same '
        "with zsh, in ~/.zshrc; fish: tenbou completion fish > ~/.config/fish/completions/tenbou.fish.",
    )
    comp.add_argument("shell", choices=SHELLS, help="the shell")

    def print_script(args: argparse.Namespace) -> int:
        ids = tuple(presets())
        sys.stdout.write(script(parser, args.shell, {"rules": ids, "id": ids, "a": ids, "b": ids}))
        return 0

    comp.set_defaults(func=print_script)
