"""The table box, host side: wire protocol, serial bridge, simulator, emulator harness.

The firmware itself (C, for the ATmega328P) is in ``firmware/``; the protocol is
specified in ``PROTOCOL.md`` and the hardware in ``firmware/HARDWARE.md``.
"""
