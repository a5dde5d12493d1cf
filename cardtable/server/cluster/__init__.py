"""Several processes on one database, joined through Redis."""
