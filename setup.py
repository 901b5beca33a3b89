"""Build: the compiled solver core ``cuatrola_solver.dd._solver`` and the unranking of
deals ``cuatrola_solver.hidden._deals`` from ``ext/``, the message catalogs
``cuatrola_solver/locale/*/LC_MESSAGES/cuatrola.mo`` compiled from their ``.po``
(docs/i18n.md), and the command line in ``cli/`` installed as the package
``cuatrola_cli``."""

import platform
from pathlib import Path

import numpy
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_py import build_py

#: x86-64 processors have had a popcount instruction since 2008 (x86-64-v2); without the
#: flag gcc calls a library routine for every count of a hand's cards
MACHINE_FLAGS = ["-mpopcnt"] if platform.machine().lower() in ("x86_64", "amd64") else []

extensions = [
    Extension(
        "cuatrola_solver.dd._solver",
        ["ext/solver.pyx"],
        include_dirs=[numpy.get_include()],
        extra_compile_args=["-O3", *MACHINE_FLAGS],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    ),
    Extension("cuatrola_solver.hidden._deals", ["ext/deals.pyx"], extra_compile_args=["-O3"]),
]


def compile_catalogs(root: Path = Path(__file__).resolve().parent) -> None:
    """Each ``cuatrola_solver/locale/LANG/LC_MESSAGES/*.po`` compiled to its ``.mo`` beside
    it (fuzzy messages left out), as ``pybabel compile`` does."""
    for po in sorted((root / "cuatrola_solver" / "locale").glob("*/LC_MESSAGES/*.po")):
        with open(po, "rb") as f:
            catalog = read_po(f, locale=po.parent.parent.name, domain=po.stem)
        with open(po.with_suffix(".mo"), "wb") as f:
            write_mo(f, catalog, use_fuzzy=False)


class BuildWithCatalogs(build_py):
    """``build_py`` (run by ``pip install``, ``-e`` too, and by a wheel's build) that
    compiles the message catalogs first, so the installed package has its ``.mo``."""

    def run(self) -> None:
        compile_catalogs()
        super().run()


setup(
    cmdclass={"build_py": BuildWithCatalogs},
    packages=find_packages(include=["cuatrola_solver", "cuatrola_solver.*"]) + ["cuatrola_cli"],
    package_dir={"cuatrola_solver": "cuatrola_solver", "cuatrola_cli": "cli"},
    package_data={"cuatrola_solver": ["py.typed", "locale/*/LC_MESSAGES/*.po",
                                       "locale/*/LC_MESSAGES/*.mo", "locale/*.pot"],
                  "cuatrola_solver.dd": ["_solver.pyi"], "cuatrola_solver.models": ["data/*.json"],
                  "cuatrola_solver.web": ["static/*"]},
    ext_modules=cythonize(extensions, language_level=3,
                          compiler_directives={"boundscheck": False, "wraparound": False,
                                               "cdivision": True, "initializedcheck": False}),
)
