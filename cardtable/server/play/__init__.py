"""Live play: the tables, their seats, bots, clocks, chat and quick play."""
