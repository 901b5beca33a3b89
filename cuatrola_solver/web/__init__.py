"""The table in the browser (``cuatrola serve``): a local web server on the library's
face -- ``advise``, ``hint``, ``analyze``, :class:`~cuatrola_solver.bots.table.Table`,
``View``, ``Budget`` -- and the page that uses it.

- :mod:`.app`: the Starlette application, its routes and what every request is checked
  against (docs/serve.md, "Limits");
- :mod:`.pages`: each open page's state on the server, and its one computation at a time
  (a worker thread, its progress, its cancel);
- :mod:`.forms`: the advise form read field by field, each error beside its field;
- :mod:`.play`: the table a page plays at, as the page draws it;
- :mod:`.records`: the records folder, written atomically, read by name only;
- :mod:`.server`: running the application on uvicorn;
- :mod:`.loadtest`: N pages playing and asking for hints at once, the latency reported;
- ``static/``: the page (plain HTML, CSS and JavaScript, the cards drawn in SVG).
"""
