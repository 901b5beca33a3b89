"""The message when the compiled solver is missing (cuatrola_solver.dd.install_check)."""

from __future__ import annotations


# --- the message when the compiled solver is missing --------------------------------

def test_missing_compiled_solver_message_says_what_happened(tmp_path):
    from cuatrola_solver.dd.install_check import compiled_missing_message
    source = tmp_path / "repo" / "cuatrola_solver"
    source.mkdir(parents=True)
    site = tmp_path / "site-packages"
    (site / "cuatrola_solver" / "dd").mkdir(parents=True)
    (site / "cuatrola_solver" / "dd" / "_solver.cpython-311-x86_64-linux-gnu.so").write_bytes(b"")
    err = ImportError("cannot import name '_solver'")
    msg = compiled_missing_message(err, source, [str(tmp_path / "repo"), str(site)])
    assert "pure-Python reference solver" in msg and str(source) in msg
    assert str(site / "cuatrola_solver" / "dd") in msg and "repository's root" in msg
    assert "pip install -e ." in msg
    alone = compiled_missing_message(err, source, [str(tmp_path / "repo")])
    assert "No compiled module was found" in alone and "pip install -e ." in alone
