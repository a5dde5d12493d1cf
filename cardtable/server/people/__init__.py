"""People's services: what a name, a username and a password may be, the word list, the
reset mail and the retention sweep (their rows are in ``store``, their routes in ``web``)."""
