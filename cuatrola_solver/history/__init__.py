"""A player's history across every hand (``cuatrola history``, the "Mis partidas" page):
one SQLite database of the hands played, each analysed once and kept.

- :mod:`.database`: where the file lives, how it is opened (WAL, foreign keys, a busy
  timeout), its schema and the migrations from every older one;
- :mod:`.facts`: what a record says without search: its key, who sat where, the result,
  the renuncios and the cantes not sung;
- :mod:`.importing`: records found in files and folders, each hand kept once;
- :mod:`.stored`: each hand's analysis, made once, hand by hand, and kept;
- :mod:`.figures`: each player's figures, as typed values;
- :mod:`.rebuild`: the database made again from the records.

Imported explicitly: it is not part of the package's face."""
