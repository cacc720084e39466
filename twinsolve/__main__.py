"""`python -m twinsolve` is the `twinsolve` command."""

from .cli import main

raise SystemExit(main())
