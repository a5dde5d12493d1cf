"""The web edge: the FastAPI app, its routes, the page and its files."""
