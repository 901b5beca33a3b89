"""The double-dummy solver: every card seen, the best play and its value.

- :mod:`.solver` -- the face: the compiled search (``ext/solver.pyx``, built as
  ``cuatrola_solver.dd._solver``) or, when it is not built, its plain twin;
- :mod:`.reference` -- the plain-Python minimax, written to be read: the test oracle;
- :mod:`.objectives` -- what a search measures and what a finished hand is worth;
- :mod:`.batch` -- the tables of a stream of records (``cuatrola solve --batch``);
- :mod:`.install_check` -- what to say when the compiled search cannot be imported.
"""
