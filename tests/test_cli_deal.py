"""``cuatrola deal``: reproducible and checkable."""

from __future__ import annotations

import json

from helpers import run


def test_deal_is_reproducible_and_checkable():
    a = run("deal", "--seed", "7", "--count", "3", "--json")
    b = run("deal", "--seed", "7", "--count", "3", "--json")
    assert a.exit_code == 0 and a.stdout == b.stdout
    lines = a.stdout.splitlines()
    assert len(lines) == 3 and len(set(lines)) == 3
    for line in lines:
        rec = json.loads(line)
        assert rec["schema"] == 1 and rec["muestra"] in rec["hands"][3].split()
        assert run("check", "-", "--json", input=line).exit_code == 0
    text = run("deal", "--seed", "7")
    assert text.exit_code == 0 and '[Muestra "' in text.stdout
    assert run("check", "-", input=text.stdout).exit_code == 0
