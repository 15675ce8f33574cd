<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
    <context>
        <name />
        <message>
            <location filename="../console/texts.py" line="42" />
            <source>Ante</source>
            <translation>Ante</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="43" />
            <source>Blind</source>
            <translation>Blind</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="44" />
            <source>Trips</source>
            <translation>Trips</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="45" />
            <source>Play</source>
            <translation>Play</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="46" />
            <source>Bonus</source>
            <translation>Bonus</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="47" />
            <location filename="../console/texts.py" line="53" />
            <source>Flop</source>
            <translation>Flop</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="48" />
            <location filename="../console/texts.py" line="54" />
            <source>Turn</source>
            <translation>Turn</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="49" />
            <location filename="../console/texts.py" line="55" />
            <location filename="../console/texts.py" line="79" />
            <source>River</source>
            <translation>River</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="52" />
            <source>Preflop</source>
            <translation>Preflop</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="58" />
            <source>Royal flush</source>
            <translation>Scala reale</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="59" />
            <source>Straight flush</source>
            <translation>Scala colore</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="60" />
            <source>Four of a kind</source>
            <translation>Poker</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="61" />
            <source>Full house</source>
            <translation>Full</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="62" />
            <source>Flush</source>
            <translation>Colore</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="63" />
            <source>Straight</source>
            <translation>Scala</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="64" />
            <source>Three of a kind</source>
            <translation>Tris</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="65" />
            <source>Two pair</source>
            <translation>Doppia coppia</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="66" />
            <source>Pair</source>
            <translation>Coppia</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="67" />
            <source>High card</source>
            <translation>Carta alta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="70" />
            <source>Wins</source>
            <translation>Vince</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="71" />
            <source>Loses</source>
            <translation>Perde</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="72" />
            <source>Tie</source>
            <translation>Parità</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="73" />
            <location filename="../console/widgets/seat.py" line="251" />
            <source>Folded</source>
            <translation>Ha passato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="76" />
            <source>Connecting</source>
            <translation>Collegamento</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="77" />
            <source>Bets open</source>
            <translation>Puntate aperte</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="78" />
            <location filename="../console/texts.py" line="166" />
            <source>Rien ne va plus</source>
            <translation>Rien ne va plus</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="80" />
            <location filename="../console/widgets/panel.py" line="276" />
            <source>Reveal</source>
            <translation>Scopertura</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="81" />
            <location filename="../console/widgets/panel.py" line="288" />
            <source>Settlement</source>
            <translation>Pagamenti</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="82" />
            <source>Hand void</source>
            <translation>Mano annullata</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="83" />
            <location filename="../console/widgets/panel.py" line="327" />
            <source>Hand over</source>
            <translation>Mano conclusa</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="86" />
            <source>spades</source>
            <translation>picche</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="87" />
            <source>hearts</source>
            <translation>cuori</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="88" />
            <source>diamonds</source>
            <translation>quadri</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="89" />
            <source>clubs</source>
            <translation>fiori</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="134" />
            <source>%1 of %2</source>
            <translation>%1 di %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="140" />
            <source>Play %1x</source>
            <translation>Play %1x</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="142" />
            <source>Check</source>
            <translation>Check</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="144" />
            <source>Fold</source>
            <translation>Passa</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="146" />
            <source>Bet</source>
            <translation>Punta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="164" />
            <source>Connect the shuffler</source>
            <translation>Collega la miscelatrice</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="168" />
            <source>Turn the flop</source>
            <translation>Scopri il Flop</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="170" />
            <source>Turn the turn card</source>
            <translation>Scopri il Turn</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="172" />
            <source>Turn the river</source>
            <translation>Scopri il River</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="174" />
            <source>Turn the dealer's cards</source>
            <translation>Scopri le carte del Banco</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="176" />
            <source>Settle</source>
            <translation>Pagamenti</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="178" />
            <source>Next</source>
            <translation>Avanti</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="180" />
            <source>New hand</source>
            <translation>Nuova mano</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="182" />
            <source>Acknowledged</source>
            <translation>Confermato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="189" />
            <location filename="../console/texts.py" line="198" />
            <source>Pay %1</source>
            <translation>Paga %1</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="191" />
            <location filename="../console/texts.py" line="200" />
            <source>Collect %1</source>
            <translation>Ritira %1</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="192" />
            <source>Push</source>
            <translation>Resta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="201" />
            <source>Net zero</source>
            <translation>Saldo zero</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="208" />
            <source>Dealer qualifies</source>
            <translation>Banco qualificato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="209" />
            <source>Dealer does not qualify — Ante pushes</source>
            <translation>Banco non qualificato — Ante restituita</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="216" />
            <source>%1: minimum %2</source>
            <translation>%1: minimo %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="218" />
            <source>%1: maximum %2</source>
            <translation>%1: massimo %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="220" />
            <source>%1 is required</source>
            <translation>%1 obbligatoria</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="228" />
            <source>Seat %1 — %2</source>
            <translation>Posto %1 — %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="230" />
            <source>No bets on the table</source>
            <translation>Nessuna puntata sul tavolo</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="232" />
            <source>Tap a seat first</source>
            <translation>Tocca prima un posto</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="234" />
            <source>The shuffler is not ready: clear the fault, then start a new hand</source>
            <translation>La miscelatrice non è pronta: risolvi il guasto, poi inizia una nuova mano</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="236" />
            <source>Shuffler error: %1</source>
            <translation>Errore della miscelatrice: %1</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="238" />
            <source>Unreadable card: it must be identified by the dealer and a pit boss, which this console cannot do yet. Void the hand.</source>
            <translation>Carta illeggibile: va identificata dal dealer e da un capo tavolo, cosa che questa console non fa ancora. Annulla la mano.</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="241" />
            <source>Tap “Void hand” again to void the hand</source>
            <translation>Tocca di nuovo “Annulla mano” per annullarla</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="68" />
            <source>HAND VOID</source>
            <translation>MANO ANNULLATA</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="70" />
            <source>Every wager is returned to the players. Nothing is paid or collected.</source>
            <translation>Tutte le puntate vengono restituite ai giocatori. Nulla viene pagato o ritirato.</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="77" />
            <source>This hand was voided before the console restarted: its wagers are in the journal.</source>
            <translation>Questa mano è stata annullata prima del riavvio della console: le sue puntate sono nel registro.</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="103" />
            <source>Return %1</source>
            <translation>Restituire %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="75" />
            <source>Total returned: %1</source>
            <translation>Totale restituito: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="80" />
            <source>Acknowledged — wagers returned</source>
            <translation>Confermo — puntate restituite</translation>
        </message>
        <message>
            <location filename="../console/widgets/cards.py" line="29" />
            <location filename="../console/widgets/cards.py" line="51" />
            <source>No card</source>
            <translation>Nessuna carta</translation>
        </message>
        <message>
            <location filename="../console/widgets/cards.py" line="49" />
            <source>Face-down card</source>
            <translation>Carta coperta</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="89" />
            <source>Chip %1</source>
            <translation>Fiche %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="99" />
            <location filename="../console/widgets/panel.py" line="125" />
            <location filename="../console/widgets/seat.py" line="242" />
            <source>Seat %1</source>
            <translation>Posto %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="125" />
            <source>Bets</source>
            <translation>Puntate</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="126" />
            <source>Tap a seat to enter its bets.</source>
            <translation>Tocca un posto per inserire le sue puntate.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="136" />
            <source>Clear box</source>
            <translation>Azzera casella</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="137" />
            <source>Clear seat</source>
            <translation>Azzera posto</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="144" />
            <source>%1: %2 – %3</source>
            <translation>%1: %2 – %3</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="148" />
            <source>Repeat last bets</source>
            <translation>Ripeti ultime puntate</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="150" />
            <location filename="../console/widgets/panel.py" line="194" />
            <source>On the table: %1</source>
            <translation>Sul tavolo: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="182" />
            <source>Dealing</source>
            <translation>Distribuzione</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="184" />
            <source>The shuffler is dealing. Bets are locked.</source>
            <translation>La miscelatrice sta distribuendo. Puntate bloccate.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="186" />
            <location filename="../console/widgets/seat.py" line="249" />
            <source>To act</source>
            <translation>Da decidere</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="188" />
            <source>Tap each seat's decision on the table.</source>
            <translation>Tocca la decisione di ogni posto sul tavolo.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="190" />
            <source>All seats have decided</source>
            <translation>Tutti i posti hanno deciso</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="195" />
            <source>Confirm: void the hand</source>
            <translation>Conferma: annulla la mano</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="195" />
            <source>Void hand</source>
            <translation>Annulla mano</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="277" />
            <source>Show the dealer's hand, then settle seat by seat.</source>
            <translation>Mostra la mano del Banco, poi paga posto per posto.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="284" />
            <source>Seats in order: %1</source>
            <translation>Ordine dei posti: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="289" />
            <source>From your right to your left. Pay or collect, then Next.</source>
            <translation>Da destra verso sinistra. Paga o ritira, poi Avanti.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="323" />
            <source>Shuffler</source>
            <translation>Miscelatrice</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="325" />
            <source>Not connected: %1</source>
            <translation>Non collegata: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="325" />
            <source>Connecting…</source>
            <translation>Collegamento in corso…</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="328" />
            <source>Start a new hand when the shuffler is ready.</source>
            <translation>Inizia una nuova mano quando la miscelatrice è pronta.</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="226" />
            <source>No bet</source>
            <translation>Nessuna puntata</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="271" />
            <source>Seat %1: %2</source>
            <translation>Posto %1: %2</translation>
        </message>
        <message>
            <location filename="../console/widgets/table.py" line="84" />
            <source>BOARD</source>
            <translation>CARTE COMUNI</translation>
        </message>
        <message>
            <location filename="../console/widgets/table.py" line="85" />
            <source>DEALER</source>
            <translation>BANCO</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="279" />
            <location filename="../console/widgets/table.py" line="88" />
            <source>Dealer: %1</source>
            <translation>Banco: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="23" />
            <source>no heartbeat yet</source>
            <translation>nessun battito</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="26" />
            <source>last heartbeat %1 s ago</source>
            <translation>ultimo battito %1 s fa</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="82" />
            <source>Hand %1</source>
            <translation>Mano %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="90" />
            <source>unknown device</source>
            <translation>dispositivo sconosciuto</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="91" />
            <source>none</source>
            <translation>nessuno</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="92" />
            <source>Connected · %1 · faults: %2</source>
            <translation>Collegata · %1 · guasti: %2</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="95" />
            <source>Shuffler not connected</source>
            <translation>Miscelatrice non collegata</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="96" />
            <location filename="../console/widgets/topbar.py" line="99" />
            <source>no link</source>
            <translation>nessun collegamento</translation>
        </message>
        <message>
            <location filename="../console/widgets/topbar.py" line="99" />
            <source>reconnecting… attempt %1</source>
            <translation>ricollegamento… tentativo %1</translation>
        </message>
        <message>
            <location filename="../console/window.py" line="37" />
            <source>Dealer console</source>
            <translation>Console del dealer</translation>
        </message>
    </context>
</TS>
