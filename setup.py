"""Packaging beyond pyproject.toml: the wheel carries the repository's top-level `data/`,
`templates/`, `static/` and `translations/` inside the package, as `trainer/data` and so on, where
`trainer.shipped()` finds them once installed. The folders stay where they are in the repository.

It also builds the Russian poker advisor's draw kernel (`strategy/kernel.c`) as an extension module
beside `strategy/kernel.py`: `_kernel`, and on x86-64 `_kernel_v3` for processors with AVX2 and its
companions. Both are optional: where there is no C compiler, or it refuses a build, the install goes
on with a warning and the advisor values draws with NumPy alone (the same sums, slower; kernel.py says
so in a log line)."""

import hashlib
import os
import platform
import sys
from pathlib import Path

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

# Each shipped folder and the files of it the wheel carries (tests/test_packaging.py checks that no
# file of these folders is left out, and that this is `trainer.SHIPPED`).
SHIPPED = {
    "data": ["**/*.toml", "**/*.json", "**/*.txt.gz", "**/*.md"],  # .txt.gz: common passwords, confusables
    "templates": ["**/*.html", "**/*.js"],
    "static": ["**/*.css", "**/*.js", "**/*.md", "**/*.svg", "**/*.png", "**/*.ico", "**/*.webmanifest"],
    "translations": ["*.pot", "*/LC_MESSAGES/*.po"],
}

STRATEGY = "trainer/engine/russian_poker/strategy"
KERNEL = Path(__file__).resolve().parent / STRATEGY / "kernel.c"
# -O3 as Python's own flags may not say; -fno-wrapv undoes Python's -fwrapv (the kernel's sums never
# overflow, and without it the compiler may assume so, as the kernel was always built); -g0: no
# debugging tables in the installed module.
FLAGS = ["-O3", "-pthread", "-fno-wrapv", "-g0"]
# x86-64-v3 (AVX2, BMI2 and their companions): the margin passes and bit counts take wider and fewer
# instructions (callgrind, 3 CIS hands: 1,288 M -> 1,225 M). A second module, chosen at run time only
# where /proc/cpuinfo lists every flag of that level (kernel.py), so a wheel built here still runs on
# an older processor.
V3 = ["-march=x86-64-v3"]


def kernel(name: str, flags: list[str]) -> Extension:
    digest = hashlib.sha256(KERNEL.read_bytes()).hexdigest()
    return Extension(
        f"trainer.engine.russian_poker.strategy.{name}",
        sources=[f"{STRATEGY}/kernel_module.c"],
        depends=[f"{STRATEGY}/kernel.c"],
        define_macros=[("RP_MODULE", name), ("RP_SOURCE_SHA256", f'"{digest}"')],
        extra_compile_args=[*flags, *FLAGS],
        extra_link_args=["-pthread"],
    )


def kernels() -> list[Extension]:
    if sys.platform == "win32":  # the kernel's threads are POSIX threads
        return []
    built = [kernel("_kernel", [])]
    if platform.machine().lower() in ("x86_64", "amd64"):
        built.append(kernel("_kernel_v3", V3))
    return built


class OptionalBuildExt(build_ext):
    """Builds each kernel module it can; one the compiler cannot build is left out with a warning,
    and the install goes on (the advisor then uses the plain module, or NumPy)."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # no compiler at all (setuptools' PlatformError and the like)
            self._skip("every kernel module", error)
            self.extensions = []

    def build_extensions(self) -> None:
        built = []
        temp = self.build_temp
        for ext in self.extensions:
            # each module's objects apart: both are compiled from kernel_module.c
            self.build_temp = os.path.join(temp, ext.name.rsplit(".", 1)[-1])
            try:
                self.build_extension(ext)
            except Exception as error:  # CompileError, LinkError, a compiler that is not there
                self._skip(ext.name, error)
            else:
                built.append(ext)
        self.build_temp = temp
        # only what was built is copied into the source tree (editable installs) and recorded
        self.extensions = built

    def _skip(self, name: str, error: Exception) -> None:
        message = (
            f"WARNING: {name} not built ({error}); the Russian poker advisor values draws with NumPy "
            "where no kernel module is built (the same sums, slower)"
        )
        print(message, file=sys.stderr)


setup(
    packages=[*find_packages(include=["trainer", "trainer.*"]), *(f"trainer.{f}" for f in SHIPPED)],
    package_dir={f"trainer.{f}": f for f in SHIPPED},
    package_data={
        **{f"trainer.{f}": globs for f, globs in SHIPPED.items()},
        # the kernel's source: kernel.py checks the built module against it (a checkout that changed it)
        "trainer.engine.russian_poker.strategy": ["kernel.c"],
    },
    ext_modules=kernels(),
    cmdclass={"build_ext": OptionalBuildExt},
)
