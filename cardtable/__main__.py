"""``python -m cardtable``: the ``cardtable`` command."""

from .cli import main

main()
