"""`python -m generators ...`: see generators.cli."""
from .cli import main

raise SystemExit(main())
