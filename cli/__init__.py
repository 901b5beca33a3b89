"""The ``cuatrola`` command line (installed as the package ``cuatrola_cli``)."""
