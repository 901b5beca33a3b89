"""Build: the compiled solver core ``cuatrola_solver.dd._solver`` and the unranking of
deals ``cuatrola_solver.hidden._deals`` from ``ext/``, and the
command line in ``cli/`` installed as the package ``cuatrola_cli``."""

import platform

import numpy
from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

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

setup(
    packages=find_packages(include=["cuatrola_solver", "cuatrola_solver.*"]) + ["cuatrola_cli"],
    package_dir={"cuatrola_solver": "cuatrola_solver", "cuatrola_cli": "cli"},
    package_data={"cuatrola_solver": ["py.typed"], "cuatrola_solver.dd": ["_solver.pyi"],
                  "cuatrola_solver.models": ["data/*.json"],
                  "cuatrola_solver.web": ["static/*"]},
    ext_modules=cythonize(extensions, language_level=3,
                          compiler_directives={"boundscheck": False, "wraparound": False,
                                               "cdivision": True, "initializedcheck": False}),
)
