"""The poker-room console's widgets."""
