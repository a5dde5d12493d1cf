"""Builds the games' compiled cores where a C compiler is present (pyproject.toml has the rest).

A core that cannot be built is left out with one line saying so: the pure-Python engine
then runs alone, as it does anywhere with ``CARDTABLE_PURE=1``.
"""

from __future__ import annotations

import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

FLAGS = ["-O2", "-Wall", "-Wextra", "-std=c11"]


class OptionalBuild(build_ext):
    """Build each core if possible; where not, say so once and install the pure engine."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all (distutils raises several kinds)
            self._skip(error)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as error:  # the compiler or the Python headers are missing
            self._skip(error)

    def _skip(self, error: Exception) -> None:
        if not getattr(self, "_told", False):
            self._told = True
            print(f"cardtable: no C compiler or Python headers ({type(error).__name__}): "
                  "installing the pure-Python engine alone", file=sys.stderr)


setup(
    ext_modules=[
        Extension("cardtable.pasur._core", ["cardtable/pasur/_core.c"],
                  depends=["cardtable/_native.h"], extra_compile_args=FLAGS, optional=True),
        Extension("cardtable.durak._core", ["cardtable/durak/_core.c"],
                  depends=["cardtable/_native.h"], extra_compile_args=FLAGS, optional=True),
        # the research adapters' tensor writer (cardtable/adapters/tensors.py)
        Extension("cardtable.adapters._tensor", ["cardtable/adapters/_tensor.c"],
                  extra_compile_args=FLAGS, optional=True),
    ],
    cmdclass={"build_ext": OptionalBuild},
)
