"""The composition root: the only package that knows table, vision, firmware_bridge and
web together. The CLI (``tablesight``) and the runtime wiring live here."""
