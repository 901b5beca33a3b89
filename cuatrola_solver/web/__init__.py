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
- :mod:`.records`: the records folder, written atomically, read by name only;
- :mod:`.server`: running the application on uvicorn;
- :mod:`.loadtest`: N pages playing and asking for hints at once, the latency reported;
- ``static/``: the page (plain HTML, CSS and JavaScript, the cards drawn in SVG).
"""
