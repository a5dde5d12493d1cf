"""Storage: the database, its migrations, the move writer, the analyses."""
