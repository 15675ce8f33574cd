"""Shipped table definitions and pay tables (TOML); see ``dealer_assist.config``."""
