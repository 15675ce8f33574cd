"""The console kit: what the banked dealer console (:mod:`ui.console`), the poker-room console
(:mod:`ui.poker`) and the tournament screens share. Neither console imports the other; the kit
imports neither.

Qt-free (the services' side): :mod:`~ui.kit.table_link` (what each console's service owns as
``link``: the journal, the card source of :mod:`~ui.kit.card_source`, the device watch of
:mod:`~ui.kit.device_watch`, the storage fault of :mod:`~ui.kit.storage_faults`, the floor relay
of :mod:`~ui.kit.floor_relay`, the signers, the stop signal), :mod:`~ui.kit.commands` (the
commands every table shares), :mod:`~ui.kit.status` (device status, source notice, refusal,
storage banner), :mod:`~ui.kit.sources` (card source kind, failover notice, the pit boss's
confirmation of an unreadable card), :mod:`~ui.kit.refusals`, :mod:`~ui.kit.pitboss` (roster),
:mod:`~ui.kit.signers` (who signs a large payout or pot), :mod:`~ui.kit.dealer_change`,
:mod:`~ui.kit.storage_notice`, :mod:`~ui.kit.cards` (a card slot's face, the keypad's job),
:mod:`~ui.kit.format` (money, chips, seconds).

Qt: :mod:`~ui.kit.boot` (application, paths, signals), :mod:`~ui.kit.worker` (the service's
thread), :mod:`~ui.kit.theme`, :mod:`~ui.kit.translate` and :mod:`~ui.kit.i18n`, the texts of
cards and faults (:mod:`~ui.kit.card_texts`, :mod:`~ui.kit.fault_texts`), and the widgets: card
face (:mod:`~ui.kit.card_view`), card keypad (:mod:`~ui.kit.card_keypad`, the entry page
:mod:`~ui.kit.entry`), PIN pad (:mod:`~ui.kit.pin_pad`), chip (:mod:`~ui.kit.chip`), tap guard
(:mod:`~ui.kit.tap_guard`), fault banner (:mod:`~ui.kit.banner`), storage notice
(:mod:`~ui.kit.storage_bar`), top bar, dealer control, page stack and labels.
"""
