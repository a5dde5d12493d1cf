"""cardtable: Pasur and Transfer Durak for people and for programs.

The engines import nothing outside the standard library:

>>> from cardtable import pasur, durak
>>> pasur.SPEC.title, durak.SPEC.title
('Pasur', 'Transfer Durak')
"""

__version__ = "0.1.0"
