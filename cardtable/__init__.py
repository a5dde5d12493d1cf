"""cardtable: Pasur and Transfer Durak for people and for programs.

The engines import nothing outside the standard library:

>>> from cardtable import pasur, durak
>>> pasur.SPEC.title, durak.SPEC.title
('Pasur', 'Transfer Durak')
"""

__version__ = "0.1.0"

__all__ = ["ENGINE", "__version__"]


def __getattr__(name: str) -> str:
    # ``cardtable.ENGINE``: "compiled" or "pure", found on first use (it imports the games)
    if name == "ENGINE":
        from ._engine import engine

        return engine()
    raise AttributeError(f"module 'cardtable' has no attribute {name!r}")
