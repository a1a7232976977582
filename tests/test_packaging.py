"""The distribution installs beside other packages: it claims only the `skald` import
package, never the generic top-level names of its folders (`core`, `api`, ...).

A wheel is built from this checkout and installed without dependencies into a fresh
virtual environment that already holds another distribution's top-level `core` and `api`
packages; both must still import as they were, and Skald's modules as `skald.*`."""

from __future__ import annotations

import sys
import tomllib
import venv
import zipfile
from pathlib import Path

import pytest

from tests.processes import run as run_process

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("core", "events", "projections", "api", "cli")


def run(*args: str | Path, cwd: Path | None = None) -> str:
    done = run_process(
        [str(a) for a in args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=cwd,  # never this checkout: its folders would shadow what is installed
    )
    assert done.returncode == 0, (args, done.stdout[-2000:], done.stderr[-2000:])
    return done.stdout


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, ROOT)
    return next(out.glob("skald_gamelog-*.whl"))


def test_the_wheel_holds_only_the_skald_package(wheel: Path) -> None:
    tops = {name.split("/")[0] for name in zipfile.ZipFile(wheel).namelist()}
    assert {top for top in tops if not top.endswith(".dist-info")} == {"skald"}
    names = zipfile.ZipFile(wheel).namelist()
    assert "skald/core/beowulf/tiles.toml" in names  # game data ships with its rules


@pytest.mark.slow
def test_installs_beside_a_package_with_top_level_core_and_api(wheel: Path, tmp_path: Path) -> None:
    env = tmp_path / "env"
    venv.create(env, with_pip=True)
    python = env / "bin" / "python"
    site = Path(run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))").strip())
    for name in ("core", "api"):  # another distribution's generic top-level packages
        (site / name).mkdir()
        (site / name / "__init__.py").write_text(f"OWNER = 'another package ({name})'\n")
    run(python, "-m", "pip", "install", "-q", "--no-deps", "--no-index", wheel)
    probe = (
        "import importlib.util, core, api\n"
        "print(core.OWNER, '|', api.OWNER)\n"
        "for name in ('skald.core.engine', 'skald.api.main', 'skald.cli.main'):\n"
        "    print(name, importlib.util.find_spec(name).origin)\n"
    )
    out = run(python, "-c", probe, cwd=tmp_path)
    assert "another package (core) | another package (api)" in out
    for name in ("skald.core.engine", "skald.api.main", "skald.cli.main"):
        assert f"{name} {site}/skald/" in out
    run(python, "-m", "pip", "uninstall", "-q", "-y", "skald-gamelog")
    assert (site / "core" / "__init__.py").read_text().startswith("OWNER")
    assert not [path for path in (site / "skald").rglob("*") if path.is_file()]


def test_every_package_folder_is_listed_for_installation() -> None:
    """A new subpackage (a new game) must be added to pyproject's package list."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    listed = set(config["tool"]["setuptools"]["packages"])
    found = {
        "skald." + ".".join(init.parent.relative_to(ROOT).parts)
        for folder in FOLDERS
        for init in (ROOT / folder).rglob("__init__.py")
    }
    assert found == listed
