"""tenbou completion bash|zsh|fish: scripts made from the parser, so every command, subcommand,
option and choice of the command line completes (checked for each of them in bash)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tenbou.cli import build_parser, main
from tenbou.cli.completion import commands, script
from tenbou.rules import presets

BASH = shutil.which("bash")


def _complete(script_path: Path, words: list[str]) -> list[str]:
    """What bash offers for the last word of ``words`` (the command line so far)."""
    quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
    program = (
        f"source {script_path}; COMP_WORDS=({quoted}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); "
        'COMPREPLY=(); _tenbou; printf "%s\\n" "${COMPREPLY[@]}"'
    )
    done = subprocess.run([BASH or "bash", "-c", program], capture_output=True, text=True, check=True)
    return [x for x in done.stdout.splitlines() if x]


def _cases() -> list[tuple[list[str], str]]:
    """(command line so far, a word that must be offered) for every command, option and choice."""
    cases: list[tuple[list[str], str]] = []
    for path, cmd in commands(build_parser(), {"rules": ("tenhou",)}).items():
        words = ["tenbou", *path.split()]
        for name in cmd.subcommands:
            cases.append(([*words, name[:2]], name))
        for opt, o in cmd.options.items():
            cases.append(([*words, opt[:-1]], opt))
            for choice in o.choices:
                cases.append(([*words, opt, ""], choice))
    return cases


@pytest.mark.skipif(BASH is None, reason="no bash")
def test_bash_completes_every_command_option_and_choice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["completion", "bash"]) == 0
    path = tmp_path / "tenbou.bash"
    path.write_text(capsys.readouterr().out)
    assert subprocess.run([BASH or "bash", "-n", str(path)]).returncode == 0
    cases = _cases()
    assert len(cases) > 100
    # one bash run for all the cases
    lines = []
    for words, _ in cases:
        quoted = " ".join("'" + w + "'" for w in words)
        lines.append(
            f"COMP_WORDS=({quoted}); COMP_CWORD=$((${{#COMP_WORDS[@]}}-1)); COMPREPLY=(); _tenbou; "
            'echo "${COMPREPLY[*]}"'
        )
    program = f"source {path}\n" + "\n".join(lines)
    out = subprocess.run([BASH or "bash", "-c", program], capture_output=True, text=True, check=True).stdout
    offered = out.split("\n")
    missing = [(w, want) for (w, want), got in zip(cases, offered, strict=False) if want not in got.split()]
    assert not missing, missing[:10]
    assert "mahjongsoul" in _complete(path, ["tenbou", "rules", "show", "mah"])
    assert _complete(path, ["tenbou", "score", "--winner", ""]) == []  # a number: nothing to offer
    files = _complete(path, ["tenbou", "verify", str(tmp_path) + "/"])
    assert str(path) in files


def test_fish_and_zsh(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "fish"]) == 0
    fish = capsys.readouterr().out
    assert "complete -c tenbou -n '__fish_use_subcommand' -a verify" in fish
    assert "-l seat-wind -xa 'E S W N'" in fish and "-l to -xa 'mjlog tenhou6 mjai'" in fish
    assert "-l expect-defects -rF" in fish
    for cmd in commands(build_parser()):
        for word in cmd.split():
            assert f"__fish_seen_subcommand_from {word}" in fish or cmd == ""
    assert main(["completion", "zsh"]) == 0
    zsh = capsys.readouterr().out
    assert zsh.startswith("#compdef tenbou") and "bashcompinit" in zsh and "complete -F _tenbou tenbou" in zsh
    ids = tuple(presets())
    assert all(i in script(build_parser(), "fish", {"rules": ids}) for i in ids)


def test_completion_needs_a_known_shell(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["completion", "powershell"])
    assert e.value.code == 2
