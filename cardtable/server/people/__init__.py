"""People: accounts, players, ratings and lesson progress."""
