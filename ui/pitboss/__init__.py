"""The pit-boss application (``dealer-assist pitboss``; docs/PITBOSS.md): its own window, never
the dealer console's (an import-linter contract forbids ``ui.console`` and ``ui.poker`` here)."""
