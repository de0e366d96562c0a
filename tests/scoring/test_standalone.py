"""The rules engine is pure Python: importing it in a fresh interpreter loads no Django."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
{imports}
print(json.dumps(sorted(
    name for name in sys.modules if name == "django" or name.startswith("django.")
)))
"""


def django_modules_loaded_by(imports: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(imports=imports)],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
        timeout=60,
        check=True,
    )
    return json.loads(result.stdout)


@pytest.mark.parametrize(
    "imports",
    [
        "import scoring",
        "import scoring.cli, scoring.settle, scoring.rules, scoring.cards, scoring.errors",
        "import scoring.__main__",
        "import scoring.game, scoring.stats",
        "import scoring.evenings",
    ],
)
def test_importing_scoring_loads_no_django_module(imports: str) -> None:
    assert django_modules_loaded_by(imports + "\nassert 'scoring.settle' in sys.modules") == []


def test_the_probe_sees_django_when_something_imports_it() -> None:
    assert "django" in django_modules_loaded_by("import django.utils.text")
