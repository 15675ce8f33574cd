"""User interfaces: the ``dealer-assist`` command line and the PySide6 dealer console."""
