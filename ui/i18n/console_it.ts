<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="it_IT">
    <context>
        <name />
        <message>
            <location filename="../../dealer_assist/games/thb.py" line="92" />
            <location filename="../../dealer_assist/games/uth.py" line="98" />
            <source>Ante</source>
            <translation>Ante</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/uth.py" line="99" />
            <source>Blind</source>
            <translation>Blind</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/uth.py" line="100" />
            <source>Trips</source>
            <translation>Trips</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/uth.py" line="101" />
            <source>Play</source>
            <translation>Play</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/thb.py" line="93" />
            <source>Bonus</source>
            <translation>Bonus</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="34" />
            <location filename="../../dealer_assist/games/thb.py" line="94" />
            <location filename="../../dealer_assist/games/thb.py" line="100" />
            <location filename="../../dealer_assist/games/uth.py" line="105" />
            <source>Flop</source>
            <translation>Flop</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="35" />
            <location filename="../../dealer_assist/games/thb.py" line="95" />
            <location filename="../../dealer_assist/games/thb.py" line="100" />
            <source>Turn</source>
            <translation>Turn</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="36" />
            <location filename="../../dealer_assist/games/thb.py" line="96" />
            <location filename="../../dealer_assist/games/thb.py" line="102" />
            <location filename="../../dealer_assist/games/uth.py" line="105" />
            <location filename="../../dealer_assist/games/uth.py" line="107" />
            <source>River</source>
            <translation>River</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="33" />
            <location filename="../../dealer_assist/games/thb.py" line="100" />
            <location filename="../../dealer_assist/games/uth.py" line="105" />
            <source>Preflop</source>
            <translation>Preflop</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="18" />
            <source>Royal flush</source>
            <translation>Scala reale</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="19" />
            <source>Straight flush</source>
            <translation>Scala colore</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="20" />
            <source>Four of a kind</source>
            <translation>Poker</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="21" />
            <source>Full house</source>
            <translation>Full</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="22" />
            <source>Flush</source>
            <translation>Colore</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="23" />
            <source>Straight</source>
            <translation>Scala</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="24" />
            <source>Three of a kind</source>
            <translation>Tris</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="25" />
            <source>Two pair</source>
            <translation>Doppia coppia</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="26" />
            <source>Pair</source>
            <translation>Coppia</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="27" />
            <source>High card</source>
            <translation>Carta alta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="42" />
            <source>Wins</source>
            <translation>Vince</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="43" />
            <source>Loses</source>
            <translation>Perde</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="44" />
            <source>Tie</source>
            <translation>Parità</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="45" />
            <location filename="../console/widgets/seat.py" line="242" />
            <location filename="../console/widgets/seat.py" line="294" />
            <location filename="../poker/widgets/felt.py" line="153" />
            <source>Folded</source>
            <translation>Ha passato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="48" />
            <location filename="../poker/texts.py" line="48" />
            <source>Connecting</source>
            <translation>Collegamento</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="49" />
            <source>Bets open</source>
            <translation>Puntate aperte</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="50" />
            <location filename="../console/texts.py" line="125" />
            <source>Rien ne va plus</source>
            <translation>Rien ne va plus</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="51" />
            <location filename="../kit/entry.py" line="176" />
            <location filename="../poker/texts.py" line="55" />
            <source>Manual entry</source>
            <translation>Inserimento manuale</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="52" />
            <location filename="../kit/entry.py" line="181" />
            <location filename="../poker/texts.py" line="57" />
            <source>Unreadable card</source>
            <translation>Carta illeggibile</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="53" />
            <location filename="../console/widgets/settle.py" line="159" />
            <source>Reveal</source>
            <translation>Scopertura</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="54" />
            <location filename="../console/widgets/settle.py" line="171" />
            <source>Settlement</source>
            <translation>Pagamenti</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="55" />
            <location filename="../poker/texts.py" line="54" />
            <source>Hand void</source>
            <translation>Mano annullata</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="56" />
            <location filename="../console/widgets/panel.py" line="274" />
            <source>Hand over</source>
            <translation>Mano conclusa</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="32" />
            <source>spades</source>
            <translation>picche</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="33" />
            <source>hearts</source>
            <translation>cuori</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="34" />
            <source>diamonds</source>
            <translation>quadri</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="35" />
            <source>clubs</source>
            <translation>fiori</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="69" />
            <location filename="../tournament/clock_window.py" line="284" />
            <source>%1 of %2</source>
            <translation>%1 di %2</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/uth.py" line="113" />
            <source>Play %1x</source>
            <translation>Play %1x</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="62" />
            <location filename="../../dealer_assist/games/thb.py" line="112" />
            <location filename="../../dealer_assist/games/uth.py" line="113" />
            <source>Check</source>
            <translation>Check</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="61" />
            <location filename="../../dealer_assist/games/thb.py" line="112" />
            <location filename="../../dealer_assist/games/uth.py" line="113" />
            <source>Fold</source>
            <translation>Passa</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="31" />
            <source>Small blind</source>
            <translation>Small blind</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="32" />
            <source>Big blind</source>
            <translation>Big blind</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="39" />
            <source>3rd street</source>
            <translation>Terza strada</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="40" />
            <source>4th street</source>
            <translation>Quarta strada</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="41" />
            <source>5th street</source>
            <translation>Quinta strada</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="42" />
            <source>6th street</source>
            <translation>Sesta strada</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="43" />
            <source>7th street</source>
            <translation>Settima strada</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="44" />
            <location filename="../tournament/texts.py" line="21" />
            <source>Texas Hold'em</source>
            <translation>Texas Hold'em</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="45" />
            <location filename="../tournament/texts.py" line="20" />
            <source>Seven Card Stud</source>
            <translation>Seven Card Stud</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="49" />
            <location filename="../poker/widgets/panel.py" line="366" />
            <source>Between hands</source>
            <translation>Tra una mano e l'altra</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="51" />
            <source>Betting</source>
            <translation>Puntate</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="52" />
            <location filename="../poker/widgets/panel.py" line="343" />
            <source>Showdown</source>
            <translation>Showdown</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="53" />
            <source>Pots awarded</source>
            <translation>Piatti assegnati</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="56" />
            <location filename="../poker/widgets/panel.py" line="424" />
            <source>Deck short</source>
            <translation>Mazzo insufficiente</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="58" />
            <source>Pot sign-off</source>
            <translation>Convalida del piatto</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="63" />
            <source>Call</source>
            <translation>Chiama</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="64" />
            <location filename="../../dealer_assist/games/thb.py" line="112" />
            <source>Bet</source>
            <translation>Punta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="65" />
            <source>Raise</source>
            <translation>Rilancia</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="66" />
            <location filename="../poker/widgets/panel.py" line="143" />
            <location filename="../poker/widgets/panel.py" line="349" />
            <source>Show</source>
            <translation>Mostra</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="67" />
            <location filename="../poker/widgets/panel.py" line="146" />
            <location filename="../poker/widgets/panel.py" line="350" />
            <source>Muck</source>
            <translation>Scarta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="68" />
            <source>Bring-in</source>
            <translation>Bring-in</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="69" />
            <source>Complete</source>
            <translation>Completa</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="112" />
            <source>Main pot</source>
            <translation>Piatto principale</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="112" />
            <source>Side pot %1</source>
            <translation>Piatto laterale %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="117" />
            <source>Uncontested</source>
            <translation>Senza showdown</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="124" />
            <source>Below the minimum: at least %1</source>
            <translation>Sotto il minimo: almeno %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="126" />
            <source>Above the maximum: at most %1 (all-in)</source>
            <translation>Sopra il massimo: al più %1 (all-in)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="128" />
            <source>Amounts go in steps of %1 (or all-in %2)</source>
            <translation>Importi a multipli di %1 (o all-in %2)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="130" />
            <source>Above the limit: at most %1</source>
            <translation>Oltre il limite: al più %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="132" />
            <source>Amounts go in steps of %1 up to %2</source>
            <translation>Importi a multipli di %1 fino a %2</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="134" />
            <source>Key the amount first (at least %1)</source>
            <translation>Inserisci prima l'importo (almeno %1)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="136" />
            <source>No bet or raise is open now</source>
            <translation>Ora non si può puntare né rilanciare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="138" />
            <source>That action is not open to this seat now</source>
            <translation>Questa azione ora non è consentita a questo posto</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="140" />
            <source>The buy-in must be between %1 and %2</source>
            <translation>L'acquisto deve essere tra %1 e %2</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="142" />
            <source>Top-up: at most %1 more (stack at most %2)</source>
            <translation>Ricarica: al più %1 in più (stack al massimo %2)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="150" />
            <location filename="../poker/texts.py" line="276" />
            <location filename="../poker/texts.py" line="289" />
            <location filename="../tournament/director_window.py" line="421" />
            <location filename="../tournament/level_strip.py" line="317" />
            <source>Refused: %1</source>
            <translation>Rifiutato: %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="154" />
            <source>Unknown badge or wrong PIN: the pit boss enters them again</source>
            <translation>Badge sconosciuto o PIN errato: il capo tavolo li inserisce di nuovo</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="160" />
            <source>The pit boss's badge (and PIN) first, then the card</source>
            <translation>Prima il badge (e il PIN) del capo tavolo, poi la carta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="162" />
            <source>The pit boss saw another card: the dealer enters the card again</source>
            <translation>Il capo tavolo ha visto un'altra carta: il croupier inserisce di nuovo la carta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="176" />
            <source>Seat %1 is not in the hand</source>
            <translation>Il posto %1 non è nella mano</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="177" />
            <source>Seat %1 has folded and cannot act</source>
            <translation>Il posto %1 ha passato e non può agire</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="178" />
            <source>Seat %1 is all-in and cannot act</source>
            <translation>Il posto %1 è all-in e non può agire</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="179" />
            <source>The betting round is closed: nobody is to act</source>
            <translation>Il giro di puntate è chiuso: nessuno deve agire</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="180" />
            <source>Seat %1 acted out of turn: seat %2 is to act</source>
            <translation>Il posto %1 ha agito fuori turno: tocca al posto %2</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="182" />
            <source>Seat %1 has nothing to call: check</source>
            <translation>Il posto %1 non ha nulla da vedere: check</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="183" />
            <source>Seat %1 cannot check: %2 to call</source>
            <translation>Il posto %1 non può fare check: %2 da vedere</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="185" />
            <source>Unknown action: %1</source>
            <translation>Azione sconosciuta: %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="186" />
            <source>There is no forced bet to complete: %1</source>
            <translation>Non c'è una puntata obbligatoria da completare: %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="188" />
            <source>There is a forced bet of %1: complete, not bet</source>
            <translation>C'è una puntata obbligatoria di %1: completare, non puntare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="190" />
            <source>There is a bet of %1 already: raise, not bet</source>
            <translation>C'è già una puntata di %1: rilanciare, non puntare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="192" />
            <source>There is no bet to raise: bet, not raise</source>
            <translation>Non c'è una puntata da rilanciare: puntare, non rilanciare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="193" />
            <source>%1: key the amount first</source>
            <translation>%1: digitare prima l'importo</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="194" />
            <source>%1 to %2: more than seat %3's stack of %4</source>
            <translation>%1 a %2: più delle fiche del posto %3 (%4)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="196" />
            <source>%1 to %2: it does not raise the bet of %3</source>
            <translation>%1 a %2: non supera la puntata di %3</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="198" />
            <source>Seat %1 has no chips left to bet or raise after calling</source>
            <translation>Al posto %1 non restano fiche per puntare o rilanciare dopo aver visto</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="200" />
            <source>Nobody can answer a bet or raise: every other player is all-in</source>
            <translation>Nessuno può rispondere a una puntata o a un rilancio: tutti gli altri sono all-in</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="202" />
            <source>A short all-in does not reopen the betting for seat %1: call or fold</source>
            <translation>Un all-in incompleto non riapre le puntate per il posto %1: vedere o passare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="204" />
            <source>The betting is capped: a bet and %1 raises (fixed limit)</source>
            <translation>Le puntate sono al massimo: una puntata e %1 rilanci (limite fisso)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="206" />
            <source>%1 to %2: at fixed limit only to %3</source>
            <translation>%1 a %2: a limite fisso solo a %3</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="208" />
            <source>%1 to %2: at fixed limit only to %3 or %4</source>
            <translation>%1 a %2: a limite fisso solo a %3 o %4</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="210" />
            <source>%1 to %2: below the minimum, at least %3</source>
            <translation>%1 a %2: sotto il minimo, almeno %3</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="212" />
            <source>%1 to %2: above the pot, at most %3 (pot limit)</source>
            <translation>%1 a %2: sopra il piatto, al massimo %3 (pot limit)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="214" />
            <source>%1 to %2: not a multiple of the chip %3</source>
            <translation>%1 a %2: non è un multiplo della fiche da %3</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="217" />
            <source>This hand takes no such step</source>
            <translation>Questa mano non prevede questo passo</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="218" />
            <source>The hand is over: no more steps</source>
            <translation>La mano è finita: nessun altro passo</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="219" />
            <source>The hand is already open</source>
            <translation>La mano è già aperta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="220" />
            <source>No forced bet is due now</source>
            <translation>Nessuna puntata obbligatoria è dovuta ora</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="221" />
            <source>Seat %1 posts the %2 of %3 now</source>
            <translation>Ora il posto %1 mette %2 da %3</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="223" />
            <source>No card is expected now</source>
            <translation>Nessuna carta è attesa ora</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="224" />
            <source>An unreadable card must be identified before it is placed</source>
            <translation>Una carta illeggibile va identificata prima di essere assegnata</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="226" />
            <source>The new deck of the burns and the stub has not been shuffled yet</source>
            <translation>Il nuovo mazzo delle carte bruciate e del fondo non è ancora stato mescolato</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="228" />
            <source>No new deck is due: the hand deals from its deck</source>
            <translation>Nessun nuovo mazzo è dovuto: la mano si distribuisce dal suo mazzo</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="230" />
            <source>No exposed card can be recorded now</source>
            <translation>Ora non si può registrare una carta esposta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="231" />
            <source>No betting now</source>
            <translation>Ora non si punta</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="232" />
            <source>The hand's betting is over: no more actions</source>
            <translation>Le puntate della mano sono finite: nessun'altra azione</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="233" />
            <source>%1 is being dealt: no action before its cards</source>
            <translation>Si distribuisce %1: nessuna azione prima delle sue carte</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="235" />
            <source>Seat %1 acted out of turn: seat %2 posts the forced bet of %3 or folds</source>
            <translation>Il posto %1 ha agito fuori turno: il posto %2 mette la puntata obbligatoria di %3 o passa</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="238" />
            <source>Seat %1 posts the forced bet of %2 or folds</source>
            <translation>Il posto %1 mette la puntata obbligatoria di %2 o passa</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="240" />
            <source>There is no action to undo</source>
            <translation>Non c'è un'azione da annullare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="241" />
            <source>The last action is seat %1's, not seat %2's</source>
            <translation>L'ultima azione è del posto %1, non del posto %2</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="243" />
            <source>A card was dealt after that action: it cannot be undone</source>
            <translation>Dopo quell'azione è stata distribuita una carta: non si può annullare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="245" />
            <source>There is no showdown now</source>
            <translation>Ora non c'è uno showdown</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="246" />
            <source>Seat %1 shows out of turn: seat %2 shows now</source>
            <translation>Il posto %1 mostra fuori turno: ora mostra il posto %2</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="248" />
            <source>Seat %1 cannot muck: a player is all-in, every hand is turned up</source>
            <translation>Il posto %1 non può scartare: un giocatore è all-in, tutte le mani si scoprono</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="250" />
            <source>Seat %1 cannot muck: its hand is the last one left for a pot</source>
            <translation>Il posto %1 non può scartare: la sua è l'ultima mano rimasta per un piatto</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="252" />
            <source>No pot to award now</source>
            <translation>Ora non c'è un piatto da assegnare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="253" />
            <source>The award of pot %1 does not match the showdown</source>
            <translation>L'assegnazione del piatto %1 non corrisponde allo showdown</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="255" />
            <source>The pots are not all awarded yet</source>
            <translation>I piatti non sono ancora tutti assegnati</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="256" />
            <source>The hand cannot be voided now</source>
            <translation>Ora la mano non può essere annullata</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="258" />
            <source>No card entered</source>
            <translation>Nessuna carta inserita</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="259" />
            <source>Acknowledge the void first</source>
            <translation>Prima confermare l'annullamento</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="260" />
            <source>A hand is in progress: finish it first</source>
            <translation>Una mano è in corso: prima finirla</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="261" />
            <source>No hand in progress to void</source>
            <translation>Nessuna mano in corso da annullare</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="295" />
            <source>two</source>
            <translation>due</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="295" />
            <source>twos</source>
            <translation>due</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="296" />
            <source>three</source>
            <translation>tre</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="296" />
            <source>threes</source>
            <translation>tre</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="297" />
            <source>four</source>
            <translation>quattro</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="297" />
            <source>fours</source>
            <translation>quattro</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="298" />
            <source>five</source>
            <translation>cinque</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="298" />
            <source>fives</source>
            <translation>cinque</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="299" />
            <source>six</source>
            <translation>sei</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="299" />
            <source>sixes</source>
            <translation>sei</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="300" />
            <source>seven</source>
            <translation>sette</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="300" />
            <source>sevens</source>
            <translation>sette</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="301" />
            <source>eight</source>
            <translation>otto</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="301" />
            <source>eights</source>
            <translation>otto</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="302" />
            <source>nine</source>
            <translation>nove</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="302" />
            <source>nines</source>
            <translation>nove</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="303" />
            <source>ten</source>
            <translation>dieci</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="303" />
            <source>tens</source>
            <translation>dieci</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="304" />
            <source>jack</source>
            <translation>fante</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="304" />
            <source>jacks</source>
            <translation>fanti</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="305" />
            <source>queen</source>
            <translation>donna</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="305" />
            <source>queens</source>
            <translation>donne</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="306" />
            <source>king</source>
            <translation>re</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="306" />
            <source>kings</source>
            <translation>re</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="307" />
            <source>ace</source>
            <translation>asso</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="307" />
            <source>aces</source>
            <translation>assi</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="315" />
            <source>Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns and turn one community card</source>
            <translation>Mazzo %1 + bruciate %2 = %3 carte, %4 giocatori ne chiedono %5: mescola le bruciate e scopri una carta comune (vela)</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="318" />
            <source>Stub %1 + burns %2 = %3 cards, %4 players need %5: shuffle the burns with the stub and deal one card to each player</source>
            <translation>Mazzo %1 + bruciate %2 = %3 carte, %4 giocatori ne chiedono %5: mescola le bruciate con il mazzo e dai una carta a ogni giocatore</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="19" />
            <location filename="../poker/texts.py" line="343" />
            <source>pair of %1</source>
            <translation>coppia di %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="20" />
            <location filename="../poker/texts.py" line="345" />
            <source>two pair, %1 and %2</source>
            <translation>doppia coppia, %1 e %2</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="21" />
            <location filename="../poker/texts.py" line="347" />
            <source>three %1</source>
            <translation>tris di %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="22" />
            <source>straight, %1 high</source>
            <translation>scala, carta alta %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="23" />
            <source>flush, %1 high</source>
            <translation>colore, carta alta %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="24" />
            <source>%1 full of %2</source>
            <translation>full di %1 e %2</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="25" />
            <location filename="../poker/texts.py" line="349" />
            <source>four %1</source>
            <translation>poker di %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="26" />
            <source>straight flush, %1 high</source>
            <translation>scala colore, carta alta %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="45" />
            <source>Returned to %1: %2</source>
            <translation>Restituito a %1: %2</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="72" />
            <location filename="../poker/widgets/panel.py" line="485" />
            <source>%1 (seat %2)</source>
            <translation>%1 (posto %2)</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="18" />
            <location filename="../poker/texts.py" line="352" />
            <source>%1 high</source>
            <translation>carte alte %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="361" />
            <source>Lowest door card: %1</source>
            <translation>Carta scoperta più bassa: %1</translation>
        </message>
        <message>
            <location filename="../poker/texts.py" line="365" />
            <source>Highest board: %1</source>
            <translation>Mano scoperta più alta: %1</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="123" />
            <source>Connect the shuffler</source>
            <translation>Collega la miscelatrice</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/thb.py" line="106" />
            <location filename="../../dealer_assist/games/uth.py" line="110" />
            <source>Turn the flop</source>
            <translation>Scopri il Flop</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/thb.py" line="107" />
            <source>Turn the turn card</source>
            <translation>Scopri il Turn</translation>
        </message>
        <message>
            <location filename="../../dealer_assist/games/thb.py" line="108" />
            <location filename="../../dealer_assist/games/uth.py" line="110" />
            <source>Turn the river</source>
            <translation>Scopri il River</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="127" />
            <source>Turn the dealer's cards</source>
            <translation>Scopri le carte del Banco</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="129" />
            <source>Settle</source>
            <translation>Pagamenti</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="131" />
            <location filename="../kit/entry.py" line="86" />
            <location filename="../poker/widgets/panel.py" line="164" />
            <source>Next</source>
            <translation>Avanti</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="133" />
            <location filename="../poker/widgets/panel.py" line="201" />
            <source>New hand</source>
            <translation>Nuova mano</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="135" />
            <location filename="../poker/widgets/alarm.py" line="91" />
            <source>Acknowledged</source>
            <translation>Confermato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="142" />
            <location filename="../console/texts.py" line="151" />
            <source>Pay %1</source>
            <translation>Paga %1</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="144" />
            <location filename="../console/texts.py" line="153" />
            <source>Collect %1</source>
            <translation>Ritira %1</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="145" />
            <source>Push</source>
            <translation>Resta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="154" />
            <source>Net zero</source>
            <translation>Saldo zero</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="161" />
            <source>Dealer qualifies</source>
            <translation>Banco qualificato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="162" />
            <source>Dealer does not qualify — Ante pushes</source>
            <translation>Banco non qualificato — Ante restituita</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="169" />
            <location filename="../poker/facts.py" line="59" />
            <source>%1: minimum %2</source>
            <translation>%1: minimo %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="171" />
            <location filename="../poker/facts.py" line="63" />
            <source>%1: maximum %2</source>
            <translation>%1: massimo %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="173" />
            <source>%1 is required</source>
            <translation>%1 obbligatoria</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="181" />
            <location filename="../poker/widgets/panel.py" line="385" />
            <source>Seat %1 — %2</source>
            <translation>Posto %1 — %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="183" />
            <source>No bets on the table</source>
            <translation>Nessuna puntata sul tavolo</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="185" />
            <location filename="../poker/texts.py" line="144" />
            <source>Tap a seat first</source>
            <translation>Tocca prima un posto</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="187" />
            <source>Seat %1: last chip taken back from %2</source>
            <translation>Posto %1: ultima fiche tolta da %2</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="191" />
            <location filename="../kit/fault_texts.py" line="209" />
            <source>The shuffler is not ready: clear the fault, then start a new hand</source>
            <translation>La miscelatrice non è pronta: risolvi il guasto, poi inizia una nuova mano</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="44" />
            <source>That card is already in this deck: look again and enter the right card</source>
            <extracomment>a typed card refused as already in the deck, by the keypad or by the core, in both consoles: the same words for a face-up card and a face-down one, never which card or where (issue 17, 4)</extracomment>
            <translation>Questa carta è già uscita da questo mazzo: guarda di nuovo e inserisci quella giusta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="199" />
            <source>Pit boss not recognised: check the badge number and the PIN</source>
            <translation>Capo tavolo non riconosciuto: controlla numero di badge e PIN</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="201" />
            <source>No pit boss list at this table: a correction needs a badge and PIN</source>
            <translation>Nessun elenco di pit boss a questo tavolo: una correzione richiede badge e PIN</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="203" />
            <source>Pit boss: enter your badge number (and PIN) first</source>
            <translation>Capo tavolo: inserisci prima il numero di badge (e il PIN)</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="205" />
            <source>The pit boss entered a different card: the dealer enters the card again</source>
            <translation>Il capo tavolo ha inserito una carta diversa: il croupier inserisce di nuovo la carta</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="208" />
            <source>Seat %1: a large payout — a pit boss signs it off with badge and PIN first</source>
            <translation>Posto %1: vincita elevata — prima la convalida del capo tavolo con badge e PIN</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="212" />
            <source>This badge may not sign off this payout: it needs a higher role</source>
            <translation>Questo badge non può convalidare questa vincita: serve un ruolo superiore</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="214" />
            <source>No PIN list at this table: a large payout cannot be signed off here</source>
            <translation>Nessun elenco di PIN a questo tavolo: qui una vincita elevata non può essere convalidata</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="218" />
            <source>Exposed card recorded (%1). Play goes on.</source>
            <translation>Carta esposta registrata (%1). Il gioco continua.</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="227" />
            <source>That decision is not possible now: check the seat, then tap again</source>
            <translation>Decisione non possibile ora: controllare il posto, poi toccare di nuovo</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="230" />
            <source>Not possible at this point of the hand: follow the next step shown</source>
            <translation>Non possibile a questo punto della mano: seguire il passo indicato</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="233" />
            <source>That bet is refused: check it against the table limits</source>
            <translation>Puntata rifiutata: controllarla con i limiti del tavolo</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="234" />
            <source>Refused: the table cannot do that now; call the pit boss if it happens again</source>
            <translation>Rifiutato: il tavolo non può farlo ora; chiamare il capo tavolo se si ripete</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="79" />
            <source>Seat %1 — card %2</source>
            <translation>Posto %1 — carta %2</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="81" />
            <source>Dealer — card %1</source>
            <translation>Banco — carta %1</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="83" />
            <source>Board — card %1</source>
            <translation>Carte comuni — carta %1</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="84" />
            <source>Burn card %1</source>
            <translation>Carta bruciata %1</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="94" />
            <source>Dealer</source>
            <translation>Banco</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="96" />
            <source>Board</source>
            <translation>Carte comuni</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="103" />
            <source>Card source changed: %1 → %2.</source>
            <translation>Sorgente delle carte cambiata: %1 → %2.</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="27" />
            <source>The shuffler's port is in use by another program: close that program, then connect the shuffler again</source>
            <translation>La porta della miscelatrice è usata da un altro programma: chiudere quel programma, poi ricollegare la miscelatrice</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="30" />
            <source>This computer may not open the shuffler's port: call the technician</source>
            <translation>Questo computer non ha il permesso di aprire la porta della miscelatrice: chiamare il tecnico</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="32" />
            <source>Shuffler not found: check that its cable is plugged in and it is switched on</source>
            <translation>Miscelatrice non trovata: controllare che il cavo sia collegato e che sia accesa</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="34" />
            <source>Another shuffler answered: check which one is connected, then restart the console</source>
            <translation>Ha risposto un'altra miscelatrice: controllare quale è collegata, poi riavviare la console</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="37" />
            <source>The shuffler restarted by itself: wait until it is ready</source>
            <translation>La miscelatrice si è riavviata da sola: attendere che sia pronta</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="39" />
            <source>The shuffler does not answer: switch it off and on again</source>
            <translation>La miscelatrice non risponde: spegnerla e riaccenderla</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="44" />
            <source>Shuffler cable disconnected or shuffler switched off: plug the cable back in and switch it on</source>
            <translation>Cavo della miscelatrice scollegato o miscelatrice spenta: ricollegare il cavo e accenderla</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="47" />
            <source>Shuffler cable disconnected or shuffler switched off: plug the cable back in and switch it on. If it keeps happening, another program may be reading the shuffler's port: close it</source>
            <translation>Cavo della miscelatrice scollegato o miscelatrice spenta: ricollegare il cavo e accenderla. Se succede ancora, un altro programma potrebbe leggere la porta della miscelatrice: chiuderlo</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="51" />
            <source>Card source fault: call the technician (the details are in the log)</source>
            <translation>Guasto della sorgente delle carte: chiamare il tecnico (i dettagli sono nel registro)</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="55" />
            <source>Cards jammed in the shuffler: clear the jam on the shuffler</source>
            <translation>Carte inceppate nella miscelatrice: sbloccarle sulla miscelatrice</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="56" />
            <source>Shuffler door open: close it</source>
            <translation>Sportello della miscelatrice aperto: chiuderlo</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="57" />
            <source>A card is missing from the shuffler: find it and put it back</source>
            <translation>Manca una carta nella miscelatrice: trovarla e rimetterla</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="59" />
            <source>An extra card in the shuffler: take it out</source>
            <translation>Una carta in più nella miscelatrice: toglierla</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="60" />
            <source>The same card twice in the shuffler: check the deck</source>
            <translation>La stessa carta due volte nella miscelatrice: controllare il mazzo</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="62" />
            <source>The shuffler misread a card: check the deck, then clear the fault on the shuffler</source>
            <translation>La miscelatrice ha letto male una carta: controllare il mazzo, poi risolvere il guasto sulla miscelatrice</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="64" />
            <source>Shuffler elevator failure: call the technician</source>
            <translation>Guasto dell'elevatore della miscelatrice: chiamare il tecnico</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="65" />
            <source>Shuffler power failure: check its power cable</source>
            <translation>Guasto dell'alimentazione della miscelatrice: controllarne il cavo di alimentazione</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="66" />
            <source>Shuffler internal error: switch it off and on again; if it stays, call the technician</source>
            <translation>Errore interno della miscelatrice: spegnerla e riaccenderla; se resta, chiamare il tecnico</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="69" />
            <source>A card left the shuffler after the hand was settled: take it off the table</source>
            <translation>Una carta è uscita dalla miscelatrice dopo la chiusura della mano: toglierla dal tavolo</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="75" />
            <source>door open</source>
            <translation>sportello aperto</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="76" />
            <source>missing card</source>
            <translation>carta mancante</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="77" />
            <source>extra card</source>
            <translation>carta in più</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="78" />
            <source>duplicate card</source>
            <translation>carta doppia</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="79" />
            <source>misread</source>
            <translation>lettura errata</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="80" />
            <source>elevator</source>
            <translation>elevatore</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="81" />
            <source>power</source>
            <translation>alimentazione</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="83" />
            <source>late card</source>
            <translation>carta in ritardo</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="92" />
            <source>Another device or a forged message is on the shuffler's line: check that only the shuffler is connected to its cable, and call the technician</source>
            <translation>Sulla linea della miscelatrice c'è un altro dispositivo o un messaggio contraffatto: controllare che al cavo sia collegata solo la miscelatrice e chiamare il tecnico</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="125" />
            <source>Shuffler fault %1: see its display</source>
            <translation>Guasto della miscelatrice %1: vedere il suo display</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="140" />
            <source>Reason: %1</source>
            <translation>Motivo: %1</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="194" />
            <source>The shuffler is in fault: clear it on the shuffler</source>
            <translation>La miscelatrice è in guasto: risolverlo sulla miscelatrice</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="196" />
            <source>The shuffler is not ready (%1): wait until it is</source>
            <translation>La miscelatrice non è pronta (%1): attendere che lo sia</translation>
        </message>
        <message>
            <location filename="../kit/card_texts.py" line="105" />
            <source>From now on the dealer types every card on the keypad.</source>
            <translation>Da ora il croupier inserisce ogni carta con la tastiera.</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="41" />
            <source>Cards keep going missing on the way from the shuffler: another program may be reading the shuffler's port. Close it, or call the technician</source>
            <translation>Continuano a mancare carte in arrivo dalla miscelatrice: un altro programma potrebbe leggere la porta della miscelatrice. Chiuderlo, o chiamare il tecnico</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="74" />
            <source>jam</source>
            <translation>inceppo</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="82" />
            <source>internal</source>
            <translation>errore interno</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="84" />
            <source>other shuffler</source>
            <translation>altra miscelatrice</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="90" />
            <source>Wait until the shuffler is ready, then start a new hand</source>
            <extracomment>what the dealer does after a void, by its reason (the reason's own words come from the core)</extracomment>
            <translation>Attendere che la miscelatrice sia pronta, poi iniziare una nuova mano</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="179" />
            <location filename="../kit/topbar.py" line="139" />
            <source>next try in %1 s</source>
            <translation>prossimo tentativo tra %1 s</translation>
        </message>
        <message>
            <location filename="../console/texts.py" line="195" />
            <location filename="../poker/texts.py" line="146" />
            <source>Tap “Void hand” again to void the hand</source>
            <translation>Tocca di nuovo “Annulla mano” per annullarla</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="86" />
            <location filename="../poker/widgets/alarm.py" line="79" />
            <location filename="../poker/widgets/panel.py" line="441" />
            <source>HAND VOID</source>
            <translation>MANO ANNULLATA</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="88" />
            <source>Every wager is returned to the players. Nothing is paid or collected.</source>
            <translation>Tutte le puntate vengono restituite ai giocatori. Nulla viene pagato o ritirato.</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="95" />
            <source>This hand was voided before the console restarted: its wagers are in the journal.</source>
            <translation>Questa mano è stata annullata prima del riavvio della console: le sue puntate sono nel registro.</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="126" />
            <source>Return %1</source>
            <translation>Restituire %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="93" />
            <source>Total returned: %1</source>
            <translation>Totale restituito: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="98" />
            <source>Acknowledged — wagers returned</source>
            <translation>Confermo — puntate restituite</translation>
        </message>
        <message>
            <location filename="../kit/card_view.py" line="30" />
            <location filename="../kit/card_view.py" line="52" />
            <source>No card</source>
            <translation>Nessuna carta</translation>
        </message>
        <message>
            <location filename="../kit/card_view.py" line="50" />
            <source>Face-down card</source>
            <translation>Carta coperta</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="87" />
            <source>Chip %1</source>
            <translation>Fiche %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/alarm.py" line="122" />
            <location filename="../console/widgets/panel.py" line="138" />
            <location filename="../console/widgets/seat.py" line="265" />
            <location filename="../kit/card_texts.py" line="92" />
            <location filename="../poker/awards.py" line="72" />
            <location filename="../poker/widgets/felt.py" line="139" />
            <location filename="../poker/widgets/panel.py" line="348" />
            <location filename="../poker/widgets/panel.py" line="486" />
            <location filename="../tournament/level_strip.py" line="234" />
            <source>Seat %1</source>
            <translation>Posto %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="138" />
            <source>Bets</source>
            <translation>Puntate</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="139" />
            <source>Tap a seat to enter its bets.</source>
            <translation>Tocca un posto per inserire le sue puntate.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="149" />
            <source>Clear box</source>
            <translation>Azzera casella</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="150" />
            <source>Clear seat</source>
            <translation>Azzera posto</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="161" />
            <source>%1: %2 – %3</source>
            <translation>%1: %2 – %3</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="165" />
            <source>Repeat last bets</source>
            <translation>Ripeti ultime puntate</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="169" />
            <source>Undo the last chip of seat %1</source>
            <translation>Annulla l'ultima fiche del posto %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="179" />
            <location filename="../console/widgets/panel.py" line="235" />
            <source>On the table: %1</source>
            <translation>Sul tavolo: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="217" />
            <location filename="../poker/texts.py" line="50" />
            <location filename="../poker/widgets/panel.py" line="301" />
            <source>Dealing</source>
            <translation>Distribuzione</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="219" />
            <source>The shuffler is dealing. Bets are locked.</source>
            <translation>La miscelatrice sta distribuendo. Puntate bloccate.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="221" />
            <location filename="../console/widgets/seat.py" line="292" />
            <location filename="../poker/widgets/felt.py" line="151" />
            <source>To act</source>
            <translation>Da decidere</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="223" />
            <source>Tap each seat's decision on the table.</source>
            <translation>Tocca la decisione di ogni posto sul tavolo.</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="225" />
            <source>All seats have decided</source>
            <translation>Tutti i posti hanno deciso</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="230" />
            <source>Exposed cards recorded: %1</source>
            <translation>Carte esposte registrate: %1</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="91" />
            <location filename="../poker/widgets/signoff_page.py" line="77" />
            <source>Badge: %1</source>
            <translation>Badge: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/correct.py" line="52" />
            <source>Correct seat %1 (pit boss)</source>
            <translation>Correggi il posto %1 (pit boss)</translation>
        </message>
        <message>
            <location filename="../console/widgets/correct.py" line="69" />
            <source>What did the player decide?</source>
            <translation>Che cosa ha deciso il giocatore?</translation>
        </message>
        <message>
            <location filename="../console/widgets/correct.py" line="74" />
            <location filename="../console/widgets/history.py" line="115" />
            <location filename="../console/widgets/settle.py" line="151" />
            <location filename="../kit/entry.py" line="93" />
            <location filename="../poker/widgets/signoff_page.py" line="80" />
            <source>PIN: %1</source>
            <translation>PIN: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="236" />
            <location filename="../kit/entry.py" line="165" />
            <location filename="../poker/texts.py" line="107" />
            <source>Confirm: void the hand</source>
            <translation>Conferma: annulla la mano</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="236" />
            <location filename="../kit/entry.py" line="165" />
            <location filename="../poker/texts.py" line="107" />
            <location filename="../poker/widgets/action_bar.py" line="53" />
            <location filename="../poker/widgets/panel.py" line="153" />
            <location filename="../poker/widgets/panel.py" line="223" />
            <location filename="../poker/widgets/signoff_page.py" line="57" />
            <source>Void hand</source>
            <translation>Annulla mano</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="177" />
            <source>Card %1 of %2</source>
            <translation>Carta %1 di %2</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="178" />
            <source>Enter each card as you deal it. Entered cards are not shown.</source>
            <translation>Inserisci ogni carta mentre la distribuisci. Le carte inserite non vengono mostrate.</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="183" />
            <source>The reader could not read this card: look at it and enter it.</source>
            <translation>Il lettore non ha potuto leggere questa carta: guardala e inseriscila.</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="190" />
            <source>Pit boss: enter the card you see (the dealer's is not shown).</source>
            <translation>Capo tavolo: inserisci la carta che vedi (quella del croupier non è mostrata).</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="196" />
            <source>Pit boss: badge number and PIN, then Next.</source>
            <translation>Capo tavolo: badge e PIN, poi Avanti.</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="198" />
            <source>Pit boss: badge number, then Next.</source>
            <translation>Capo tavolo: badge, poi Avanti.</translation>
        </message>
        <message>
            <location filename="../console/widgets/exposed.py" line="25" />
            <location filename="../console/widgets/exposed.py" line="83" />
            <source>Exposed card</source>
            <translation>Carta esposta</translation>
        </message>
        <message>
            <location filename="../kit/entry.py" line="186" />
            <source>Pit boss confirmation</source>
            <translation>Conferma del capo tavolo</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="214" />
            <source>Card exposed by mistake</source>
            <translation>Carta esposta per errore</translation>
        </message>
        <message>
            <location filename="../console/widgets/exposed.py" line="32" />
            <location filename="../console/widgets/exposed.py" line="78" />
            <source>Which card? (optional)</source>
            <translation>Quale carta? (facoltativo)</translation>
        </message>
        <message>
            <location filename="../console/widgets/correct.py" line="48" />
            <location filename="../console/widgets/exposed.py" line="39" />
            <location filename="../tournament/director_window.py" line="226" />
            <source>Cancel</source>
            <translation>Annulla</translation>
        </message>
        <message>
            <location filename="../console/widgets/exposed.py" line="41" />
            <source>Record</source>
            <translation>Registra</translation>
        </message>
        <message>
            <location filename="../console/widgets/exposed.py" line="76" />
            <source>Not a misdeal: the card stays valid and play goes on. Where is it?</source>
            <translation>Non è un errore di distribuzione: la carta resta valida e il gioco continua. Dov'è?</translation>
        </message>
        <message>
            <location filename="../console/widgets/settle.py" line="160" />
            <source>Show the dealer's hand, then settle seat by seat.</source>
            <translation>Mostra la mano del Banco, poi paga posto per posto.</translation>
        </message>
        <message>
            <location filename="../console/widgets/settle.py" line="167" />
            <source>Seats in order: %1</source>
            <translation>Ordine dei posti: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/settle.py" line="172" />
            <source>From your right to your left. Pay or collect, then Next.</source>
            <translation>Da destra verso sinistra. Paga o ritira, poi Avanti.</translation>
        </message>
        <message>
            <location filename="../console/widgets/settle.py" line="175" />
            <source>To pay %1 · To collect %2</source>
            <translation>Da pagare %1 · Da ritirare %2</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="270" />
            <source>Shuffler</source>
            <translation>Miscelatrice</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="272" />
            <source>Not connected: %1</source>
            <translation>Non collegata: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="272" />
            <location filename="../poker/widgets/panel.py" line="370" />
            <source>Connecting…</source>
            <translation>Collegamento in corso…</translation>
        </message>
        <message>
            <location filename="../console/widgets/panel.py" line="275" />
            <source>Start a new hand when the shuffler is ready.</source>
            <translation>Inizia una nuova mano quando la miscelatrice è pronta.</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="244" />
            <source>No bet</source>
            <translation>Nessuna puntata</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="255" />
            <source>Change</source>
            <translation>Cambia</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="255" />
            <source>Correct</source>
            <translation>Correggi</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="256" />
            <source>Seat %1: change the decision</source>
            <translation>Posto %1: cambia la decisione</translation>
        </message>
        <message>
            <location filename="../console/widgets/seat.py" line="317" />
            <source>Seat %1: %2</source>
            <translation>Posto %1: %2</translation>
        </message>
        <message>
            <location filename="../console/widgets/table.py" line="98" />
            <source>BOARD</source>
            <translation>CARTE COMUNI</translation>
        </message>
        <message>
            <location filename="../console/widgets/table.py" line="99" />
            <source>DEALER</source>
            <translation>BANCO</translation>
        </message>
        <message>
            <location filename="../console/widgets/settle.py" line="162" />
            <location filename="../console/widgets/table.py" line="102" />
            <source>Dealer: %1</source>
            <translation>Banco: %1</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="23" />
            <source>no heartbeat yet</source>
            <translation>nessun battito</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="26" />
            <source>last heartbeat %1 s ago</source>
            <translation>ultimo battito %1 s fa</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="111" />
            <source>Hand %1</source>
            <translation>Mano %1</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="123" />
            <source>Source: %1 · cards typed on the keypad</source>
            <translation>Sorgente: %1 · carte inserite con la tastiera</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="124" />
            <source>no card reader in use</source>
            <translation>nessun lettore in uso</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="126" />
            <source>unknown device</source>
            <translation>dispositivo sconosciuto</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="127" />
            <source>none</source>
            <translation>nessuno</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="129" />
            <source>Connected · %1 · %2 · faults: %3</source>
            <translation>Collegata · %1 · %2 · guasti: %3</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="132" />
            <source>Card source not connected</source>
            <translation>Sorgente delle carte non collegata</translation>
        </message>
        <message>
            <location filename="../kit/topbar.py" line="133" />
            <location filename="../kit/topbar.py" line="136" />
            <source>no link</source>
            <translation>nessun collegamento</translation>
        </message>
        <message>
            <location filename="../kit/fault_texts.py" line="176" />
            <location filename="../kit/topbar.py" line="136" />
            <source>reconnecting… attempt %1</source>
            <translation>ricollegamento… tentativo %1</translation>
        </message>
        <message>
            <location filename="../console/window.py" line="49" />
            <location filename="../poker/window.py" line="85" />
            <source>Dealer console</source>
            <translation>Console del croupier</translation>
        </message>
        <message>
            <location filename="../kit/card_keypad.py" line="112" />
            <location filename="../poker/widgets/amount_keypad.py" line="40" />
            <source>Clear</source>
            <extracomment>the echo when turned on: body type, as the hint line, not the card's face in large type</extracomment>
            <translation>Cancella</translation>
        </message>
        <message>
            <location filename="../kit/card_keypad.py" line="114" />
            <location filename="../tournament/director_window.py" line="224" />
            <source>Confirm</source>
            <translation>Conferma</translation>
        </message>
        <message>
            <location filename="../kit/banner.py" line="82" />
            <source>DEVICE NOT READY</source>
            <translation>DISPOSITIVO NON PRONTO</translation>
        </message>
        <message>
            <location filename="../kit/banner.py" line="84" />
            <source>the next hand waits until it clears</source>
            <translation>la prossima mano attende che si risolva</translation>
        </message>
        <message>
            <location filename="../kit/banner.py" line="110" />
            <location filename="../kit/storage_bar.py" line="76" />
            <source>OK</source>
            <translation>OK</translation>
        </message>
        <message>
            <location filename="../poker/widgets/action_bar.py" line="50" />
            <source>Undo</source>
            <translation>Indietro</translation>
        </message>
        <message>
            <location filename="../poker/widgets/action_bar.py" line="79" />
            <source>Call %1</source>
            <translation>Chiama %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/action_bar.py" line="91" />
            <source>%1 to %2</source>
            <translation>%1 a %2</translation>
        </message>
        <message>
            <location filename="../poker/widgets/amount_keypad.py" line="63" />
            <source>Delete the last digit</source>
            <translation>Cancella l'ultima cifra</translation>
        </message>
        <message>
            <location filename="../poker/widgets/amount_keypad.py" line="70" />
            <source>Minimum</source>
            <translation>Minimo</translation>
        </message>
        <message>
            <location filename="../poker/widgets/amount_keypad.py" line="72" />
            <source>½ Pot</source>
            <translation>½ piatto</translation>
        </message>
        <message>
            <location filename="../poker/widgets/amount_keypad.py" line="74" />
            <source>Pot</source>
            <translation>Piatto</translation>
        </message>
        <message>
            <location filename="../poker/widgets/amount_keypad.py" line="76" />
            <location filename="../poker/widgets/amount_keypad.py" line="111" />
            <location filename="../poker/widgets/felt.py" line="157" />
            <source>All-in</source>
            <translation>All-in</translation>
        </message>
        <message>
            <location filename="../poker/widgets/amount_keypad.py" line="111" />
            <source>Maximum</source>
            <translation>Massimo</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="130" />
            <source>Empty</source>
            <translation>Libero</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="145" />
            <location filename="../tournament/director_window.py" line="67" />
            <source>Sitting out</source>
            <translation>Fuori gioco</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="147" />
            <source>No chips</source>
            <translation>Senza fiche</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="155" />
            <source>Mucked</source>
            <translation>Scartata</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="398" />
            <source>Community card</source>
            <translation>Carta comune</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="399" />
            <source>Community cards</source>
            <translation>Carte comuni</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="405" />
            <source>Pot total: %1</source>
            <translation>Piatto totale: %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/felt.py" line="409" />
            <source>seats %1</source>
            <translation>posti %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="176" />
            <source>Player name (optional)</source>
            <translation>Nome del giocatore (facoltativo)</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="182" />
            <source>Seat player</source>
            <translation>Fai sedere</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="184" />
            <source>Top up</source>
            <translation>Ricarica</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="192" />
            <source>Sit out</source>
            <translation>Fuori gioco</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="192" />
            <source>Sit in</source>
            <translation>Rientra</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="193" />
            <source>Leave</source>
            <translation>Lascia il tavolo</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="194" />
            <source>Button here</source>
            <translation>Bottone qui</translation>
        </message>
        <message>
            <location filename="../poker/widgets/alarm.py" line="81" />
            <source>Every chip each player put in goes back to them. Nothing is awarded.</source>
            <translation>Ogni fiche puntata torna al suo giocatore. Nessun piatto viene assegnato.</translation>
        </message>
        <message>
            <location filename="../poker/widgets/alarm.py" line="85" />
            <source>Seat %1: %2 back</source>
            <translation>Posto %1: %2 restituiti</translation>
        </message>
        <message>
            <location filename="../poker/widgets/alarm.py" line="89" />
            <source>This hand was voided before the console restarted: its chips are in the journal.</source>
            <translation>Questa mano è stata annullata prima del riavvio della console: le sue fiche sono nel registro.</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="265" />
            <source>Resumed after a restart: the hand goes on</source>
            <translation>Ripresa dopo un riavvio: la mano continua</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="302" />
            <source>The cards are being dealt: no action before they are out.</source>
            <translation>Le carte sono in distribuzione: nessuna azione prima che siano uscite.</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="303" />
            <source>Cards to come: %1</source>
            <translation>Carte da distribuire: %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="313" />
            <source>Seat %1 to act</source>
            <translation>Tocca al posto %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="318" />
            <source>Tap the player's action. Bet and raise go to the keyed total.</source>
            <translation>Tocca l'azione del giocatore. Punta e rilancia arrivano al totale inserito.</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="39" />
            <source>To call: %1</source>
            <translation>Per chiamare: %1</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="41" />
            <source>Stack: %1</source>
            <translation>Stack: %1</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="82" />
            <source>folded: seat %1</source>
            <translation>ha passato: posto %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="344" />
            <source>Seat %1: Show or Muck</source>
            <translation>Posto %1: mostra o scarta</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="346" />
            <source>Order: %1</source>
            <translation>Ordine: %1</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="53" />
            <source>Stacks after: %1</source>
            <translation>Stack dopo la mano: %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="357" />
            <source>Award the pots</source>
            <translation>Assegna i piatti</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="219" />
            <location filename="../poker/widgets/panel.py" line="429" />
            <source>Burns loaded: shuffle</source>
            <translation>Bruciate caricate: mescola</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="306" />
            <source>Seat %1: %2 or fold</source>
            <translation>Posto %1: %2 o passa</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="307" />
            <source>If the seat folds, the obligation passes to the next seat in line.</source>
            <translation>Se il posto passa, l'obbligo passa al posto successivo.</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="18" />
            <source>No raise: the short all-in did not reopen the betting (call or fold)</source>
            <translation>Niente rilancio: l'all-in incompleto non riapre le puntate (chiama o passa)</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="20" />
            <source>No raise: the betting is capped (fixed limit)</source>
            <translation>Niente rilancio: le puntate hanno raggiunto il limite (limite fisso)</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="21" />
            <source>No bet or raise: every other player is all-in</source>
            <translation>Niente puntata né rilancio: tutti gli altri giocatori sono all-in</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="22" />
            <source>No bet or raise: calling takes the whole stack</source>
            <translation>Niente puntata né rilancio: chiamare impegna tutto lo stack</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="30" />
            <source>No bet or raise: %1</source>
            <translation>Niente puntata né rilancio: %1</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="55" />
            <source>%1: %2 (fixed limit)</source>
            <translation>%1: %2 (limite fisso)</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="57" />
            <source>%1: all-in %2 only</source>
            <translation>%1: solo all-in %2</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="61" />
            <source>%1: maximum %2 (all-in)</source>
            <translation>%1: massimo %2 (all-in)</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="75" />
            <source>First: seat %1 · %2</source>
            <translation>Primo: posto %1 · %2</translation>
        </message>
        <message>
            <location filename="../poker/facts.py" line="79" />
            <source>%1: seat %2</source>
            <translation>%1: posto %2</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="358" />
            <source>Side pots first, the main pot last.</source>
            <translation>Prima i piatti laterali, per ultimo il principale.</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="60" />
            <source>(odd chip)</source>
            <translation>(fiche dispari)</translation>
        </message>
        <message>
            <location filename="../poker/awards.py" line="47" />
            <source>Rake: %1</source>
            <translation>Rake: %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="372" />
            <source>Tap a seat to seat a player, top up, sit out or in, leave, or place the button.</source>
            <translation>Tocca un posto per far sedere un giocatore, ricaricare, uscire o rientrare, lasciare il tavolo o mettere il bottone.</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="375" />
            <source>Tap a seat to seat a player, top up, sit out or in, or leave.</source>
            <translation>Tocca un posto per far sedere un giocatore, ricaricare, uscire o rientrare, o lasciare il tavolo.</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="378" />
            <source>Buy-in %1 – %2</source>
            <translation>Acquisto %1 – %2</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="382" />
            <source>Seat %1: empty</source>
            <translation>Posto %1: libero</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="405" />
            <source>New hand needs two players with chips who are not sitting out</source>
            <translation>Per una nuova mano servono due giocatori con fiche e non fuori gioco</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="407" />
            <source>Place the button first: tap a player's seat, then “Button here”</source>
            <translation>Prima il bottone: tocca il posto di un giocatore, poi “Bottone qui”</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="411" />
            <source>No chips: top up (rebuy) or leave</source>
            <translation>Senza fiche: ricarica (rebuy) o lascia il tavolo</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="425" />
            <source>Load the burns (with the stub) into the shuffler, then tap “Burns loaded: shuffle”.</source>
            <translation>Carica le bruciate (con il resto del mazzo) nella miscelatrice, poi tocca “Bruciate caricate: mescola”.</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="429" />
            <source>Shuffling the burns…</source>
            <translation>Bruciate in miscelazione…</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="487" />
            <source>%1 has no chips: tap the seat, then Top up (rebuy) or Leave</source>
            <translation>%1 è senza fiche: tocca il posto, poi Ricarica (rebuy) o Lascia il tavolo</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="493" />
            <source>Hand voided by the dealer</source>
            <translation>Mano annullata dal croupier</translation>
        </message>
        <message>
            <location filename="../poker/widgets/panel.py" line="494" />
            <source>Hand void: %1</source>
            <translation>Mano annullata: %1</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="19" />
            <source>Chips: %1</source>
            <translation>Fiche: %1</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="30" />
            <source>Cards read: %1</source>
            <translation>Carte lette: %1</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="36" />
            <source>Back</source>
            <translation>Indietro</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="37" />
            <source>Hand resumed after a restart</source>
            <translation>Mano ripresa dopo un riavvio</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="38" />
            <source>Undo last chip</source>
            <translation>Annulla l'ultima fiche</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="39" />
            <source>Hand history</source>
            <translation>Storico mani</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="40" />
            <source>Re-enter the last card</source>
            <translation>Reinserisci l'ultima carta</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="41" />
            <source>The last card was dropped: enter it again</source>
            <translation>L'ultima carta è stata scartata: inseriscila di nuovo</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="42" />
            <source>Close</source>
            <translation>Chiudi</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="43" />
            <source>Show hole cards (pit boss)</source>
            <translation>Mostra le carte dei giocatori (pit boss)</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="44" />
            <source>Tap “Confirm: void the hand” to void it. Any other tap cancels.</source>
            <translation>Tocca “Conferma: annulla la mano” per annullarla. Qualsiasi altro tocco rinuncia.</translation>
        </message>
        <message>
            <location filename="../console/walk_texts.py" line="45" />
            <source>Not the card the reader read there: look again at the card</source>
            <translation>Non è la carta letta dal lettore in quella posizione: guarda di nuovo la carta</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="43" />
            <source>Hand %1 · %2</source>
            <translation>Mano %1 · %2</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="46" />
            <source>Void: %1</source>
            <translation>Annullata: %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="48" />
            <source>Board %1 · Dealer %2</source>
            <translation>Carte comuni %1 · Banco %2</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="51" />
            <source>Seat %1 returned</source>
            <translation>Posto %1 restituito</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="54" />
            <source>pay %1</source>
            <translation>paga %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="55" />
            <source>collect %1</source>
            <translation>ritira %1</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="55" />
            <source>push</source>
            <translation>pari</translation>
        </message>
        <message>
            <location filename="../console/widgets/history.py" line="105" />
            <source>No hands yet</source>
            <translation>Nessuna mano ancora</translation>
        </message>
        <message>
            <location filename="../console/widgets/correct.py" line="71" />
            <location filename="../console/widgets/history.py" line="112" />
            <location filename="../console/widgets/settle.py" line="148" />
            <source>Pit boss badge: %1</source>
            <translation>Badge del pit boss: %1</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="29" />
            <source>The journal's disk is full: the hand stays pending. Free space, then resume the table.</source>
            <translation>Il disco del giornale è pieno: la mano resta in sospeso. Liberare spazio, poi riprendere il tavolo.</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="34" />
            <source>The journal is locked by another program: the hand stays pending. Close that program, then resume the table.</source>
            <translation>Il giornale è bloccato da un altro programma: la mano resta in sospeso. Chiudere quel programma, poi riprendere il tavolo.</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="41" />
            <source>The connection to the journal's database is lost: the hand stays pending. Check the database server, then resume the table.</source>
            <translation>Il collegamento con il database del giornale è perso: la mano resta in sospeso. Controllare il server del database, poi riprendere il tavolo.</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="48" />
            <source>The journal cannot be written: the hand stays pending. Call the floor supervisor.</source>
            <translation>Il giornale non può essere scritto: la mano resta in sospeso. Chiamare il capo sala.</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="53" />
            <source>No new hand: the journal's disk has only %1 MiB free (at least %2 MiB are needed).</source>
            <translation>Nessuna nuova mano: il disco del giornale ha solo %1 MiB liberi (ne servono almeno %2 MiB).</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="58" />
            <source>The journal's disk has only %1 MiB free: free space soon (below %2 MiB no new hand).</source>
            <translation>Il disco del giornale ha solo %1 MiB liberi: liberare spazio presto (sotto %2 MiB nessuna nuova mano).</translation>
        </message>
        <message>
            <location filename="../kit/storage_notice.py" line="62" />
            <source>The journal answers again: play goes on.</source>
            <translation>Il giornale risponde di nuovo: il gioco continua.</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="107" />
            <location filename="../tournament/clock_window.py" line="305" />
            <source>Tournament clock</source>
            <translation>Orologio del torneo</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="147" />
            <source>Players left</source>
            <translation>Giocatori in gara</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="147" />
            <source>Average stack</source>
            <translation>Stack medio</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="148" />
            <source>Prize pool</source>
            <translation>Montepremi</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="156" />
            <source>Payouts</source>
            <translation>Premi</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="205" />
            <source>No journal at %1</source>
            <translation>Nessun giornale in %1</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="207" />
            <source>No tournament in this journal yet (%1)</source>
            <translation>Ancora nessun torneo in questo giornale (%1)</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="209" />
            <source>The journal cannot be read: %1</source>
            <translation>Il giornale non si può leggere: %1</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="225" />
            <source>TOURNAMENT OVER</source>
            <translation>TORNEO CONCLUSO</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="227" />
            <source>Winner: %1 · thank you for playing</source>
            <translation>Vince %1 · grazie di aver giocato</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="228" />
            <source>Thank you for playing</source>
            <translation>Grazie per aver giocato</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="230" />
            <source>LEVEL %1 · PAUSED</source>
            <translation>LIVELLO %1 · OROLOGIO FERMO</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="233" />
            <source>The clock is stopped</source>
            <translation>L'orologio è fermo</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="235" />
            <source>BREAK</source>
            <translation>PAUSA</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="236" />
            <source>Play resumes in</source>
            <translation>Si riprende fra</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="238" />
            <location filename="../tournament/clock_window.py" line="246" />
            <source>LEVEL %1</source>
            <translation>LIVELLO %1</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="240" />
            <source>The tournament has not started</source>
            <translation>Il torneo non è ancora iniziato</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="242" />
            <source>LEVEL %1 · LAST MINUTE</source>
            <translation>LIVELLO %1 · ULTIMO MINUTO</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="256" />
            <source>Time left in the level</source>
            <translation>Tempo rimasto nel livello</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="258" />
            <source>Time left in the level · or %1 hands</source>
            <translation>Tempo rimasto nel livello · oppure %1 mani</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="261" />
            <source>Hands left in the level</source>
            <translation>Mani rimaste nel livello</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="263" />
            <source>Last level: played to the end</source>
            <translation>Ultimo livello: si gioca fino alla fine</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="268" />
            <source>After the break: level %1</source>
            <translation>Dopo la pausa: livello %1</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="272" />
            <source>Next level %1: %2</source>
            <translation>Prossimo livello %1: %2</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="273" />
            <source>This is the last level</source>
            <translation>Questo è l'ultimo livello</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="275" />
            <source>Break in %1 (%2 minutes)</source>
            <translation>Pausa fra %1 (%2 minuti)</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="278" />
            <source>Break after level %1 (%2 minutes)</source>
            <translation>Pausa dopo il livello %1 (%2 minuti)</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="294" />
            <source>Places %1–%2: %3</source>
            <translation>Posizioni %1–%2: %3</translation>
        </message>
        <message>
            <location filename="../tournament/clock_window.py" line="306" />
            <source>WAITING FOR THE JOURNAL</source>
            <translation>IN ATTESA DEL GIORNALE</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="65" />
            <source>Registered</source>
            <translation>Iscritto</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="66" />
            <source>Playing</source>
            <translation>In gioco</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="68" />
            <source>Moving</source>
            <translation>In spostamento</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="69" />
            <source>Out</source>
            <translation>Eliminato</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="147" />
            <location filename="../tournament/director_window.py" line="155" />
            <location filename="../tournament/director_window.py" line="425" />
            <source>Director's console</source>
            <translation>Console del direttore</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="158" />
            <source>Operator</source>
            <translation>Operatore</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="163" />
            <source>name or badge</source>
            <translation>nome o badge</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="173" />
            <source>Player's name</source>
            <translation>Nome del giocatore</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="176" />
            <source>Register</source>
            <translation>Iscrivi</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="187" />
            <location filename="../tournament/director_window.py" line="198" />
            <source>Player</source>
            <translation>Giocatore</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="188" />
            <location filename="../tournament/director_window.py" line="198" />
            <source>Table</source>
            <translation>Tavolo</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="189" />
            <location filename="../tournament/director_window.py" line="198" />
            <source>Seat</source>
            <translation>Posto</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="190" />
            <source>Chips</source>
            <translation>Fiches</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="191" />
            <source>Paid</source>
            <translation>Pagato</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="192" />
            <source>Rebuys</source>
            <translation>Rebuy</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="193" />
            <location filename="../tournament/director_window.py" line="208" />
            <source>Add-on</source>
            <translation>Add-on</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="194" />
            <source>Status</source>
            <translation>Stato</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="205" />
            <source>Draw the seats</source>
            <translation>Sorteggia i posti</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="205" />
            <source>Start the clock</source>
            <translation>Avvia l'orologio</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="206" />
            <source>Pause the clock</source>
            <translation>Ferma l'orologio</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="207" />
            <source>Resume the clock</source>
            <translation>Riavvia l'orologio</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="208" />
            <source>Rebuy</source>
            <translation>Rebuy</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="209" />
            <source>Undo bust</source>
            <translation>Annulla eliminazione</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="210" />
            <source>Undo rebuy or add-on</source>
            <translation>Annulla rebuy o add-on</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="217" />
            <source>Name the operator, then register the players.</source>
            <translation>Indica l'operatore, poi iscrivi i giocatori.</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="264" />
            <source>Name the operator first: every step is journaled with who authorised it.</source>
            <translation>Indica prima l'operatore: ogni passo è registrato con chi l'ha autorizzato.</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="273" />
            <source>Select a player in the list first.</source>
            <translation>Seleziona prima un giocatore nell'elenco.</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="279" />
            <source>Wait: the previous step is still being journaled.</source>
            <translation>Attendi: il passo precedente è ancora in registrazione.</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="290" />
            <source>Type the player's name first.</source>
            <translation>Scrivi prima il nome del giocatore.</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="295" />
            <source>%1 registered: entry fee %2 (authorised by %3)</source>
            <translation>%1 iscritto: quota d'iscrizione %2 (autorizzato da %3)</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="316" />
            <source>Seats drawn from the tournament's seed</source>
            <translation>Posti sorteggiati dal seme del torneo</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="322" />
            <source>The clock is running</source>
            <translation>L'orologio è in moto</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="327" />
            <source>Clock paused by %1</source>
            <translation>Orologio fermato da %1</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="332" />
            <source>Clock resumed by %1</source>
            <translation>Orologio riavviato da %1</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="365" />
            <source>Rebuy for %1 (authorised by %2)</source>
            <translation>Rebuy per %1 (autorizzato da %2)</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="368" />
            <source>Add-on for %1 (authorised by %2)</source>
            <translation>Add-on per %1 (autorizzato da %2)</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="373" />
            <source>Cancelled: nothing sold to %1</source>
            <translation>Annullato: niente venduto a %1</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="400" />
            <source>Bust of %1 undone (authorised by %2)</source>
            <translation>Eliminazione di %1 annullata (autorizzata da %2)</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="427" />
            <source>Entry fee %1</source>
            <translation>Quota d'iscrizione %1</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="430" />
            <source>yes</source>
            <translation>sì</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="462" />
            <source>Level %1 · %2 · the clock has not started</source>
            <translation>Livello %1 · %2 · l'orologio non è partito</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="464" />
            <source>Break · %1 left</source>
            <translation>Pausa · mancano %1</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="467" />
            <source>Level %1 · %2 · %3 left</source>
            <translation>Livello %1 · %2 · mancano %3</translation>
        </message>
        <message>
            <location filename="../tournament/director_window.py" line="469" />
            <source>%1 · PAUSED</source>
            <translation>%1 · OROLOGIO FERMO</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="24" />
            <source>Fixed limit</source>
            <translation>Limite fisso</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="25" />
            <source>Pot limit</source>
            <translation>Pot limit</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="26" />
            <source>No limit</source>
            <translation>No limit</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="59" />
            <source>Limits %1 / %2</source>
            <translation>Limiti %1 / %2</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="60" />
            <source>Blinds %1 / %2</source>
            <translation>Bui %1 / %2</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="65" />
            <source>Ante %1</source>
            <translation>Ante %1</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="65" />
            <source>No ante</source>
            <translation>Senza ante</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="67" />
            <source>Bring-in %1</source>
            <translation>Bring-in %1</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="78" />
            <location filename="../tournament/texts.py" line="81" />
            <source>%1st</source>
            <translation>%1°</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="85" />
            <source>Confirm the rebuy for %1: %2 for %3 chips?</source>
            <translation>Confermi il rebuy per %1: %2 per %3 fiches?</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="86" />
            <source>Confirm the add-on for %1: %2 for %3 chips?</source>
            <translation>Confermi l'add-on per %1: %2 per %3 fiches?</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="89" />
            <source>Rebuy of %1 taken back: %2 refunded, %3 chips off (authorised by %4)</source>
            <translation>Rebuy di %1 annullato: %2 restituiti, %3 fiches tolte (autorizzato da %4)</translation>
        </message>
        <message>
            <location filename="../tournament/texts.py" line="92" />
            <source>Add-on of %1 taken back: %2 refunded, %3 chips off (authorised by %4)</source>
            <translation>Add-on di %1 annullato: %2 restituiti, %3 fiches tolte (autorizzato da %4)</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="95" />
            <source>Time bank</source>
            <translation>Riserva di tempo</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="195" />
            <source>Time banks not read back: %1</source>
            <translation>Riserve di tempo non rilette: %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="197" />
            <source>Time bank not journaled: %1</source>
            <translation>Riserva di tempo non registrata: %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="330" />
            <source>Level %1</source>
            <translation>Livello %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="335" />
            <source>This hand: level %1, %2 · level %3 from the next hand</source>
            <translation>Questa mano: livello %1, %2 · livello %3 dalla prossima mano</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="340" />
            <source>Clock paused</source>
            <translation>Orologio fermo</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="342" />
            <source>Break: %1 left</source>
            <translation>Pausa: mancano %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="344" />
            <source>Last minute of the level: %1</source>
            <translation>Ultimo minuto del livello: %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="346" />
            <source>%1 left in the level</source>
            <translation>fine livello fra %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="348" />
            <source>%1 hands left in the level</source>
            <translation>fine livello fra %1 mani</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="350" />
            <source>Last level</source>
            <translation>Ultimo livello</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="369" />
            <source>%1 is back</source>
            <translation>%1 è tornato</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="371" />
            <source>Sitting out: %1</source>
            <translation>In sit-out: %1</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="400" />
            <source>Action clock %1 s · time bank %2 s</source>
            <translation>Tempo per agire %1 s · riserva di tempo %2 s</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="410" />
            <source>%1: time is up (check if possible, else fold)</source>
            <translation>%1: tempo scaduto (check se possibile, altrimenti passa)</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="416" />
            <source>%1: time bank %2</source>
            <translation>%1: riserva di tempo %2</translation>
        </message>
        <message>
            <location filename="../tournament/level_strip.py" line="422" />
            <source>%1: %2 · time bank %3</source>
            <translation>%1: %2 · riserva %3</translation>
        </message>
        <message>
            <location filename="../kit/storage_bar.py" line="76" />
            <source>Retry</source>
            <translation>Riprova</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="68" />
            <source>A dealer changes between hands only: finish the hand first</source>
            <translation>Il croupier si cambia solo tra una mano e l'altra: prima finisci la mano</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="70" />
            <source>Not a badge: 1 to %1 letters or digits</source>
            <translation>Non è un badge: da 1 a %1 lettere o cifre</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="72" />
            <source>Dealer %1 is on the box already</source>
            <translation>Il croupier %1 è già al tavolo</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="74" />
            <source>Badge %1 is not a dealer known to the pit boss's list</source>
            <translation>Il badge %1 non è di un croupier nell'elenco del capo tavolo</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="76" />
            <source>Not recorded: the journal did not take it. Try again</source>
            <translation>Non registrato: il registro non l'ha accettato. Riprova</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="77" />
            <source>Refused: the dealer change was not recorded</source>
            <translation>Rifiutato: il cambio croupier non è registrato</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="180" />
            <location filename="../kit/dealer_box.py" line="283" />
            <source>Dealer change</source>
            <translation>Cambio croupier</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="181" />
            <source>On the box now: %1</source>
            <translation>Al tavolo ora: %1</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="182" />
            <source>Nobody on the box yet</source>
            <translation>Ancora nessun croupier al tavolo</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="183" />
            <source>Incoming dealer: enter your badge</source>
            <translation>Croupier entrante: inserisci il tuo badge</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="184" />
            <source>Badge</source>
            <translation>Badge</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="185" />
            <source>Back to the table</source>
            <translation>Torna al tavolo</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="186" />
            <source>Take the box</source>
            <translation>Prendi il tavolo</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="281" />
            <source>Dealer %1</source>
            <translation>Croupier %1</translation>
        </message>
        <message>
            <location filename="../kit/dealer_box.py" line="281" />
            <source>No dealer logged in</source>
            <translation>Nessun croupier registrato</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="23" />
            <source>shift manager</source>
            <translation>responsabile di turno</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="25" />
            <source>pit boss</source>
            <translation>capo tavolo</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="32" />
            <source>This badge may not sign off this pot: a %1 must</source>
            <translation>Questo badge non può convalidare questo piatto: serve un %1</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="34" />
            <source>No PIN list at this table: a large pot cannot be signed off here</source>
            <translation>Nessun elenco di PIN a questo tavolo: qui un piatto elevato non può essere convalidato</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="73" />
            <source>→ seat %1: %2</source>
            <translation>→ posto %1: %2</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="86" />
            <source>A %1 signs it off with badge and PIN: the pot is pushed after that</source>
            <translation>Un %1 lo convalida con badge e PIN: solo dopo il piatto viene assegnato</translation>
        </message>
        <message>
            <location filename="../poker/widgets/signoff_page.py" line="88" />
            <source>Large pot: sign-off</source>
            <translation>Piatto elevato: convalida</translation>
        </message>
        <message>
            <location filename="../pitboss/search_model.py" line="61" />
            <location filename="../pitboss/texts.py" line="78" />
            <source>Open integrity alert: %1. These records are not proven as they stand</source>
            <extracomment>(header, the row's value, the sort key or None: not sortable)
----------
How an open integrity alert looks wherever it is shown (tile, rows, hand screen).</extracomment>
            <translation>Allarme di integrità aperto: %1. Queste registrazioni non sono provate così come sono</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="29" />
            <source>%1 has no chips: a rebuy is open (the director confirms it), else out</source>
            <translation>%1 è senza fiches: può fare un rebuy (lo conferma il direttore), altrimenti è eliminato</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="32" />
            <source>%1 has no chips and no rebuy now: out</source>
            <translation>%1 è senza fiches e non può fare rebuy: eliminato</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="35" />
            <source>%1 is out: %2 place</source>
            <translation>%1 è eliminato: %2 posto</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="36" />
            <source>%1 is out</source>
            <translation>%1 è eliminato</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="41" />
            <source>Table %1 is broken: its players move</source>
            <translation>Tavolo %1 chiuso: i suoi giocatori cambiano tavolo</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="43" />
            <source>Table %1 is broken: its players come here</source>
            <translation>Tavolo %1 chiuso: i suoi giocatori vengono qui</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="46" />
            <source>%1 comes from table %2: seat %3</source>
            <translation>%1 arriva dal tavolo %2: posto %3</translation>
        </message>
        <message>
            <location filename="../tournament/table_notes.py" line="48" />
            <source>%1 moves to table %2, seat %3</source>
            <translation>%1 passa al tavolo %2, posto %3</translation>
        </message>
    </context>
    <context>
        <name>FloorScreen</name>
        <message>
            <location filename="../pitboss/floor_view.py" line="54" />
            <location filename="../pitboss/floor_view.py" line="68" />
            <source>Table</source>
            <translation>Tavolo</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="55" />
            <source>Game</source>
            <translation>Gioco</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="56" />
            <source>Status</source>
            <translation>Stato</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="57" />
            <source>Hands last hour</source>
            <translation>Mani nell'ultima ora</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="58" />
            <source>Last record (UTC)</source>
            <translation>Ultima registrazione (UTC)</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="59" />
            <source>Open alerts</source>
            <translation>Allarmi aperti</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="66" />
            <source>Raised (UTC)</source>
            <translation>Sollevato (UTC)</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="67" />
            <source>Alert</source>
            <translation>Allarme</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="69" />
            <source>Hand</source>
            <translation>Mano</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="70" />
            <source>Detail</source>
            <translation>Dettaglio</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="71" />
            <source>Acknowledged</source>
            <translation>Confermato</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="78" />
            <source>Refresh</source>
            <translation>Aggiorna</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="79" />
            <source>Acknowledge</source>
            <translation>Conferma presa visione</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="110" />
            <source>Your role does not acknowledge alerts</source>
            <translation>Il tuo ruolo non conferma gli allarmi</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="120" />
            <source>%1 until %2 UTC</source>
            <translation>%1 fino alle %2 UTC</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="124" />
            <source>Locked after %1 wrong PINs: %2</source>
            <translation>Bloccati dopo %1 PIN errati: %2</translation>
        </message>
        <message>
            <location filename="../pitboss/floor_view.py" line="152" />
            <source>open</source>
            <translation>aperto</translation>
        </message>
    </context>
    <context>
        <name>HandScreen</name>
        <message>
            <location filename="../pitboss/hand_view.py" line="54" />
            <source>No hand open: search and open one</source>
            <extracomment>The record's fields that are amounts (minor units): shown with their unit.</extracomment>
            <translation>Nessuna mano aperta: cercane una e aprila</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="60" />
            <source>Show hole cards</source>
            <translation>Mostra le carte coperte</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="61" />
            <source>Recompute with today's rules</source>
            <translation>Ricalcola con le regole di oggi</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="64" />
            <source>Position</source>
            <translation>Posizione</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="64" />
            <source>Card</source>
            <translation>Carta</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="64" />
            <source>Source</source>
            <translation>Fonte</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="64" />
            <source>Device</source>
            <translation>Dispositivo</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="68" />
            <source>◀ Prev</source>
            <translation>◀ Indietro</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="69" />
            <source>Next ▶</source>
            <translation>Avanti ▶</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="75" />
            <source>Field</source>
            <translation>Campo</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="75" />
            <source>Recorded and paid</source>
            <translation>Registrato e pagato</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="75" />
            <source>Recomputed today</source>
            <translation>Ricalcolato oggi</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="144" />
            <source>%1 hand %2 (%3): %4</source>
            <translation>%1 mano %2 (%3): %4</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="175" />
            <source>Bets</source>
            <translation>Puntate</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="176" />
            <source>Decisions in order</source>
            <translation>Decisioni in ordine</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="177" />
            <source>Results</source>
            <translation>Risultati</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="178" />
            <source>Device events</source>
            <translation>Eventi del dispositivo</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="183" />
            <source>Corrections and undos</source>
            <translation>Correzioni e annullamenti</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="186" />
            <source>Void reason: %1</source>
            <translation>Motivo dell'annullamento: %1</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="201" />
            <source>Step %1 of %2</source>
            <translation>Passo %1 di %2</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="214" />
            <source>Board: %1</source>
            <translation>Carte comuni: %1</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="215" />
            <source>Dealer: %1</source>
            <translation>Banco: %1</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="225" />
            <source>Seat %1</source>
            <translation>Posto %1</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="228" />
            <source>Result as folded: settled</source>
            <translation>Risultato della riproduzione: liquidata</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="231" />
            <source>Replay stopped: %1</source>
            <translation>Riproduzione interrotta: %1</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="247" />
            <source>The recompute agrees with what was recorded and paid</source>
            <translation>Il ricalcolo concorda con quanto registrato e pagato</translation>
        </message>
        <message>
            <location filename="../pitboss/hand_view.py" line="249" />
            <source>Differences between the record and the recompute: %1</source>
            <translation>Differenze tra la registrazione e il ricalcolo: %1</translation>
        </message>
    </context>
    <context>
        <name>LoginDialog</name>
        <message>
            <location filename="../pitboss/app.py" line="48" />
            <source>Pit boss — log in</source>
            <translation>Pit boss — accesso</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="62" />
            <source>Badge</source>
            <translation>Badge</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="63" />
            <source>PIN</source>
            <translation>PIN</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="64" />
            <source>New PIN</source>
            <translation>Nuovo PIN</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="65" />
            <source>New PIN again</source>
            <translation>Ripeti il nuovo PIN</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="100" />
            <source>Your PIN is shorter than %1 digits: choose a new PIN of at least %1 digits</source>
            <translation>Il tuo PIN ha meno di %1 cifre: scegli un nuovo PIN di almeno %1 cifre</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="108" />
            <source>The two new PINs differ: type them again</source>
            <translation>I due nuovi PIN sono diversi: digitali di nuovo</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="132" />
            <source>Badge or PIN not recognised</source>
            <translation>Badge o PIN non riconosciuti</translation>
        </message>
    </context>
    <context>
        <name>PitBoss</name>
        <message>
            <location filename="../pitboss/texts.py" line="15" />
            <source>dealer</source>
            <translation>croupier</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="16" />
            <source>pit_boss</source>
            <translation>capo tavolo</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="17" />
            <source>shift_manager</source>
            <translation>capoturno</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="18" />
            <source>auditor</source>
            <translation>revisore</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="19" />
            <source>dealing</source>
            <translation>in gioco</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="20" />
            <source>faulted</source>
            <translation>in guasto</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="21" />
            <source>void_alarm</source>
            <translation>allarme annullamento</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="22" />
            <source>offline</source>
            <translation>non in linea</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="23" />
            <source>void</source>
            <translation>annullata</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="24" />
            <source>settled</source>
            <translation>liquidata</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="25" />
            <source>device_fault</source>
            <translation>guasto del dispositivo</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="26" />
            <source>link_lost</source>
            <translation>collegamento perso</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="27" />
            <source>identity_changed</source>
            <translation>identità cambiata</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="28" />
            <source>chain_break</source>
            <translation>catena interrotta</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="29" />
            <source>tampered</source>
            <translation>manomesso</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="30" />
            <source>gap</source>
            <translation>lacuna</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="31" />
            <source>tamper_alert</source>
            <translation>allarme manomissione</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="32" />
            <source>key_changed</source>
            <translation>chiave cambiata</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="33" />
            <source>foreign_record</source>
            <translation>registrazione estranea</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="34" />
            <source>journal_behind</source>
            <translation>giornale indietro</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="35" />
            <source>bad_checkpoint</source>
            <translation>punto di controllo non valido</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="36" />
            <source>signer_rewound</source>
            <translation>firmatario riavvolto</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="37" />
            <source>Integrity alert</source>
            <translation>Allarme di integrità</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="38" />
            <source>Open integrity alert: %1. These records are not proven as they stand</source>
            <translation>Allarme di integrità aperto: %1. Queste registrazioni non sono provate così come sono</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="41" />
            <source>reader</source>
            <translation>lettore</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="42" />
            <source>camera</source>
            <translation>telecamera</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="43" />
            <source>keypad</source>
            <translation>tastierino</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="44" />
            <source>manual_card</source>
            <translation>carta manuale</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="45" />
            <source>camera_card</source>
            <translation>carta da telecamera</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="46" />
            <source>Hand</source>
            <translation>Mano</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="47" />
            <source>Recorded (UTC)</source>
            <translation>Registrata (UTC)</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="48" />
            <source>Game</source>
            <translation>Gioco</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="49" />
            <source>Outcome</source>
            <translation>Esito</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="50" />
            <source>Top payout or pot</source>
            <translation>Vincita o piatto massimo</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="51" />
            <source>Wagered</source>
            <translation>Puntato</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="52" />
            <source>Seats</source>
            <translation>Posti</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="53" />
            <source>Flags</source>
            <translation>Indicatori</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="54" />
            <source>Void reason</source>
            <translation>Motivo dell'annullamento</translation>
        </message>
        <message>
            <location filename="../pitboss/texts.py" line="55" />
            <source>Table</source>
            <translation>Tavolo</translation>
        </message>
        <message>
            <location filename="../pitboss/search_model.py" line="25" />
            <source>Dealer badge</source>
            <translation>Badge croupier</translation>
        </message>
        <message>
            <location filename="../pitboss/search_model.py" line="26" />
            <source>Top payout or pot (EUR)</source>
            <translation>Vincita o piatto massimo (EUR)</translation>
        </message>
        <message>
            <location filename="../pitboss/search_model.py" line="27" />
            <source>Wagered (EUR)</source>
            <translation>Puntato (EUR)</translation>
        </message>
    </context>
    <context>
        <name>PitBossWindow</name>
        <message>
            <location filename="../pitboss/app.py" line="147" />
            <source>Floor and alerts</source>
            <translation>Sala e allarmi</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="148" />
            <source>Hand search</source>
            <translation>Ricerca mani</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="149" />
            <source>Hand</source>
            <translation>Mano</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="151" />
            <source>Statistics</source>
            <translation>Statistiche</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="154" />
            <location filename="../pitboss/app.py" line="286" />
            <source>Export</source>
            <translation>Esporta</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="156" />
            <source>Search results as CSV…</source>
            <translation>Risultati della ricerca in CSV…</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="157" />
            <source>Search results as PDF…</source>
            <translation>Risultati della ricerca in PDF…</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="158" />
            <source>Shift report as CSV…</source>
            <translation>Rapporto di turno in CSV…</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="159" />
            <source>Shift report as PDF…</source>
            <translation>Rapporto di turno in PDF…</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="182" />
            <source>Pit boss — %1 (%2)</source>
            <translation>Pit boss — %1 (%2)</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="194" />
            <source>journal verified: %1 entries, %2 signatures</source>
            <translation>giornale verificato: %1 voci, %2 firme</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="243" />
            <source>Sign-off confirmed: %1, the table pays</source>
            <translation>Vincita autorizzata: %1, il tavolo paga</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="246" />
            <source>Already signed off at the table: %1, nothing changed</source>
            <translation>Già autorizzata al tavolo: %1, nulla è cambiato</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="252" />
            <source>PIN not recognised: nothing confirmed</source>
            <translation>PIN non riconosciuto: nulla autorizzato</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="254" />
            <source>Your role may not confirm this sign-off: nothing confirmed</source>
            <translation>Il tuo ruolo non può autorizzare questa vincita: nulla autorizzato</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="298" />
            <source>Exported %1 hands to %2</source>
            <translation>Esportate %1 mani in %2</translation>
        </message>
        <message>
            <location filename="../pitboss/app.py" line="311" />
            <source>Shift report written to %1</source>
            <translation>Rapporto di turno scritto in %1</translation>
        </message>
    </context>
    <context>
        <name>SearchView</name>
        <message>
            <location filename="../pitboss/search_view.py" line="87" />
            <source>Between</source>
            <translation>Tra</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="96" />
            <location filename="../pitboss/search_view.py" line="98" />
            <location filename="../pitboss/search_view.py" line="103" />
            <source>any</source>
            <translation>qualsiasi</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="99" />
            <source>settled</source>
            <translation>liquidata</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="100" />
            <source>void</source>
            <translation>annullata</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="107" />
            <source>badge, exact</source>
            <translation>badge, esatto</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="108" />
            <source>Shift</source>
            <translation>Turno</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="119" />
            <source>Device fault</source>
            <translation>Guasto del dispositivo</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="120" />
            <source>Card typed on the keypad</source>
            <translation>Carta digitata sul tastierino</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="121" />
            <source>Card read by the camera</source>
            <translation>Carta letta dalla telecamera</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="122" />
            <source>Search</source>
            <translation>Cerca</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="126" />
            <source>Table</source>
            <translation>Tavolo</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="127" />
            <source>Game</source>
            <translation>Gioco</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="136" />
            <source>Seat</source>
            <translation>Posto</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="137" />
            <source>Dealer badge</source>
            <translation>Badge croupier</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="138" />
            <source>Outcome</source>
            <translation>Esito</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="139" />
            <source>Payout or pot at least (EUR)</source>
            <translation>Vincita o piatto almeno (EUR)</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="140" />
            <source>Void reason contains</source>
            <translation>Il motivo dell'annullamento contiene</translation>
        </message>
        <message>
            <location filename="../pitboss/search_view.py" line="164" />
            <source>Hands shown: %1</source>
            <translation>Mani mostrate: %1</translation>
        </message>
    </context>
    <context>
        <name>SignoffPanel</name>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="55" />
            <source>Requested (UTC)</source>
            <translation>Richiesta (UTC)</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="56" />
            <source>Table</source>
            <translation>Tavolo</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="57" />
            <source>Hand</source>
            <translation>Mano</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="58" />
            <source>Seat</source>
            <translation>Posto</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="59" />
            <source>Amount (EUR)</source>
            <translation>Importo (EUR)</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="60" />
            <source>Cards as read</source>
            <translation>Carte lette</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="61" />
            <source>Needs</source>
            <translation>Richiede</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="71" />
            <source>Your PIN again</source>
            <translation>Di nuovo il tuo PIN</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="75" />
            <source>Confirm sign-off</source>
            <translation>Autorizza la vincita</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="82" />
            <source>PIN</source>
            <translation>PIN</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="105" />
            <source>Your role does not confirm sign-offs</source>
            <translation>Il tuo ruolo non autorizza le vincite</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="107" />
            <source>This payout needs a %1</source>
            <translation>Questa vincita richiede un %1</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="129" />
            <source> and </source>
            <translation> e </translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="130" />
            <source>winners seat %1</source>
            <translation>vincitore al posto %1</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="130" />
            <source>winners seats %1</source>
            <translation>vincitori ai posti %1</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="133" />
            <source>Main pot, %1</source>
            <translation>Piatto principale, %1</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="134" />
            <source>Pot %1 (side pot), %2</source>
            <translation>Piatto %1 (piatto laterale), %2</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="138" />
            <source>%1 seat %2</source>
            <translation>%1 posto %2</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="138" />
            <source>%1 pot %2</source>
            <translation>%1 piatto %2</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="149" />
            <source>board</source>
            <translation>carte comuni</translation>
        </message>
        <message>
            <location filename="../pitboss/signoff_panel.py" line="162" />
            <source>Sign-offs waiting: %1</source>
            <translation>Autorizzazioni in attesa: %1</translation>
        </message>
    </context>
    <context>
        <name>StatsTab</name>
        <message>
            <location filename="../pitboss/stats_tab.py" line="141" />
            <source>Refresh</source>
            <translation>Aggiorna</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="146" />
            <source>Group</source>
            <translation>Gruppo</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="146" />
            <source>Games</source>
            <translation>Giochi</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="146" />
            <source>Hands</source>
            <translation>Mani</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="146" />
            <source>Hands/h</source>
            <translation>Mani/ora</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="147" />
            <source>Hold</source>
            <translation>Hold</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="147" />
            <source>Drop (EUR)</source>
            <translation>Drop (EUR)</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="147" />
            <source>Win (EUR)</source>
            <translation>Vincita (EUR)</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="148" />
            <source>Theoretical hold</source>
            <translation>Hold teorico</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="152" />
            <source>Hold % by day against the 95% band</source>
            <translation>Hold % per giorno rispetto alla banda al 95%</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="156" />
            <source>Hands per hour</source>
            <translation>Mani per ora</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="164" />
            <source>From</source>
            <translation>Dal</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="166" />
            <source>To</source>
            <translation>Al</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="168" />
            <source>By</source>
            <translation>Per</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="197" />
            <source>Table</source>
            <translation>Tavolo</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="197" />
            <source>Pit</source>
            <translation>Pit</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="197" />
            <source>Shift</source>
            <translation>Turno</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="198" />
            <source>Dealer</source>
            <translation>Croupier</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="198" />
            <source>Game</source>
            <translation>Gioco</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="214" />
            <source>Computing…</source>
            <translation>Calcolo in corso…</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="245" />
            <source>%1 hands, %2 groups</source>
            <translation>%1 mani, %2 gruppi</translation>
        </message>
        <message>
            <location filename="../pitboss/stats_tab.py" line="251" />
            <source>No hold outside its 95% band.</source>
            <translation>Nessun hold fuori dalla sua banda al 95%.</translation>
        </message>
    </context>
    <context>
        <name>poker</name>
        <message>
            <location filename="../poker/widgets/felt.py" line="227" />
            <source>DEALER</source>
            <translation>CROUPIER</translation>
        </message>
    </context>
    <context>
        <name>tab</name>
        <message>
            <location filename="../pitboss/stats_tab.py" line="338" />
            <source>Statistics</source>
            <translation>Statistiche</translation>
        </message>
    </context>
</TS>
