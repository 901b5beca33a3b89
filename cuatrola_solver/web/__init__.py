"""The table in the browser (``cuatrola serve``): a local web server on the library's
face -- ``advise``, ``hint``, ``analyze``, :class:`~cuatrola_solver.bots.table.Table`,
``View``, ``Budget`` -- and the page that uses it.

- :mod:`.app`: the Starlette application, its routes and what every request is checked
  against (docs/serve.md, "Limits");
- :mod:`.messages`: the shapes of the requests and answers, as typed values;
- :mod:`.pages`: each open page's state on the server, its one computation at a time
  (a worker thread, its progress, its cancel), the server's cores shared;
- :mod:`.store`: the games database (SQLite) in the records folder: each page's match;
- :mod:`.games`: a page's match as it is played and kept, rebuilt by replaying it, the
  takeback;
- :mod:`.forms`: the advise form read field by field, each error beside its field;
- :mod:`.play`: the table a page plays at, as the page draws it;
- :mod:`.events`: what happened in the hand at the table, as typed events, for its log;
- :mod:`.hints`: the table's hints (a call, the cards, a cante) as typed values;
- :mod:`.records`: the records folder, written atomically, read by name only;
- :mod:`.history`: the "Mis partidas" page and its API (a hand, its puzzles);
- :mod:`.anotar`: the Anotar page's API, a hand taken down as it is played;
- :mod:`.language`: the page's messages from the catalogs, each request in its language;
- :mod:`.server`: running the application on uvicorn;
- :mod:`.loadtest`: N pages playing and asking for hints at once, the latency reported;
- ``static/``: the page (plain HTML, CSS and JavaScript, the cards drawn in SVG).
"""
