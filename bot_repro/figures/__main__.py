"""``python -m bot_repro.figures``: see ``bot_repro.figures.cli``."""

from bot_repro.figures.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
