"""cardtable: Pasur and Transfer Durak for people and for programs.

>>> from cardtable import pasur, durak  # doctest: +SKIP
"""

__version__ = "0.1.0"
