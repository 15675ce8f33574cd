"""Card-source drivers: byte transports, the TCRP/1 protocol device, the emulator, adapters.

Two layers: a transport moves bytes (serial, TCP, USB); a protocol device speaks TCRP/1 on top of
it and reports :mod:`dealer_assist.events`. ``drivers.factory.open_source`` builds any source from
a URL, simulators included.
"""
