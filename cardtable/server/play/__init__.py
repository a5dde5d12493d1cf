"""Live play's services: the tables and their one owner, seats, bots, clocks, chat and
quick play (their rows are in ``store``, their routes in ``web``)."""
