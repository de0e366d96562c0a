"""The engine's JSON interface (docs/engine-json.md): ``python -m scoring judge|settle [FILE]``."""

from __future__ import annotations

import sys

from scoring.cli import main

if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
