"""Colours, sizes and the style sheet of the console (dark room, felt table, gold accents).

Sizes are pixels on the target 1920x1080 touchscreen. ``TOUCH`` is the minimum side of anything
the dealer taps (at least 64 px); amounts use ``AMOUNT_PT`` and larger so they read from
a metre away.
"""

from __future__ import annotations

from PySide6.QtGui import QColor

TOUCH = 64
AMOUNT_PX = 26
FONT_FAMILY = "DejaVu Sans"

BG = "#0c1210"
PANEL = "#151d1a"
PANEL_2 = "#1c2723"
LINE = "#2c3a35"
TEXT = "#f2f5f3"
MUTED = "#9fb0a8"
GOLD = "#e3b94f"
GOLD_DARK = "#8a6a1d"
FELT = "#0b5d3b"
FELT_DARK = "#063a24"
RAIL = "#2a1c12"
RED = "#d32f2f"
RED_DARK = "#7f1d1d"
GREEN = "#2e9d57"
BLUE = "#2f80c9"
SLATE = "#4b5b63"
CARD_RED = QColor("#c8102e")
CARD_BLACK = QColor("#111111")

# Phase banner colours (background, text) by presenter step.
PHASE_COLORS: dict[str, tuple[str, str]] = {
    "connecting": (SLATE, TEXT),
    "bets": (GREEN, "#ffffff"),
    "dealing": (RED, "#ffffff"),
    "manual": ("#ff8f00", "#1a1406"),
    "identify": ("#ff8f00", "#1a1406"),
    "decisions": (BLUE, "#ffffff"),
    "showdown": (BLUE, "#ffffff"),
    "reveal": ("#7b4fc9", "#ffffff"),
    "settlement": (GOLD, "#1a1406"),
    "void": (RED, "#ffffff"),
    "idle": (SLATE, TEXT),
}

# Chip colours by value in minor units (common casino denominations), else grey.
CHIP_COLORS: dict[int, tuple[str, str]] = {
    100: ("#f4f4f4", "#1a1a1a"),
    500: ("#c62828", "#ffffff"),
    1000: ("#1565c0", "#ffffff"),
    2500: ("#2e7d32", "#ffffff"),
    10000: ("#212121", "#ffffff"),
    50000: ("#6a1b9a", "#ffffff"),
}

STYLE = f"""
QWidget {{ color: {TEXT}; font-family: "{FONT_FAMILY}"; font-size: 18px; }}
QMainWindow, #central {{ background: {BG}; }}
#topBar {{ background: #080c0b; border-bottom: 2px solid {GOLD_DARK}; }}
#phase {{ border-radius: 12px; padding: 6px 26px; font-size: 34px; font-weight: bold; }}
#tableInfo {{ font-size: 20px; color: {MUTED}; }}
#tableInfo[strong="true"] {{ font-size: 24px; color: {TEXT}; font-weight: bold; }}
#device {{ font-size: 17px; color: {MUTED}; }}
#deviceDot {{ font-size: 26px; }}
#side {{ background: {PANEL}; border-left: 2px solid {LINE}; }}
#sideTitle {{ font-size: 30px; font-weight: bold; }}
#sideHint {{ font-size: 20px; color: {MUTED}; }}
#message {{ font-size: 21px; font-weight: bold; color: #ffd54f; background: #2b2410;
            border: 2px solid #6d5a1e; border-radius: 10px; padding: 10px; }}
#message[compact="true"] {{ font-size: 18px; padding: 5px 8px; }}
#message[level="error"] {{ color: #ffcdd2; background: #3a1414; border-color: {RED_DARK}; }}
QPushButton {{ min-height: {TOUCH}px; min-width: {TOUCH}px; border-radius: 12px;
              background: {SLATE}; color: #ffffff; font-size: 21px; font-weight: bold;
              border: 2px solid rgba(255,255,255,0.12); padding: 0 10px; }}
QPushButton:pressed {{ background: #6b7d86; }}
QPushButton:disabled {{ background: #27302d; color: #6d7a74; border-color: #27302d; }}
#bigButton[compact="true"] {{ min-height: 80px; }}
#boxTab[compact="true"] {{ min-height: 64px; font-size: 19px; }}
#phase[compact="true"] {{ font-size: 26px; padding: 4px 16px; }}
#bigButton {{ min-height: 104px; font-size: 32px; background: {GOLD}; color: #1a1406;
             border: none; border-radius: 16px; }}
#bigButton:pressed {{ background: #f5d27a; }}
#bigButton[kind="rnvp"] {{ background: {RED}; color: #ffffff; }}
#bigButton[kind="ack"] {{ background: #ffffff; color: {RED_DARK}; }}
#bigButton:disabled {{ background: #2a3330; color: #6d7a74; }}
#voidButton {{ background: transparent; color: #ff8a80; border: 2px solid {RED_DARK}; }}
#voidButton[armed="true"] {{ background: {RED}; color: #ffffff; }}
#boxTab {{ font-size: 22px; background: {PANEL_2}; border: 2px solid {LINE}; }}
#boxTab[selected="true"] {{ background: {GOLD}; color: #1a1406; border-color: {GOLD}; }}
#seatTile {{ background: rgba(6, 20, 14, 0.82); border: 2px solid rgba(255,255,255,0.16);
            border-radius: 16px; }}
#seatTile[status="bet"] {{ border-color: rgba(227,185,79,0.65); }}
#seatTile[status="invalid"] {{ border-color: {RED}; }}
#seatTile[status="to_act"] {{ border: 3px solid #4fc3f7; background: rgba(8, 32, 48, 0.9); }}
#seatTile[status="folded"] {{ background: rgba(10, 12, 12, 0.7); }}
#seatTile[status="out"] {{ background: rgba(6, 20, 14, 0.45); border-style: dashed; }}
#seatTile[selected="true"] {{ border: 4px solid {GOLD}; background: rgba(60, 48, 14, 0.92); }}
#seatTile[highlighted="true"] {{ border: 5px solid {GOLD}; background: rgba(90, 70, 10, 0.95); }}
#seatNo {{ font-size: 34px; font-weight: bold; color: {GOLD}; }}
#seatBadge {{ font-size: 19px; font-weight: bold; border-radius: 8px; padding: 3px 8px;
             background: rgba(255,255,255,0.10); }}
#seatBadge[tone="act"] {{ background: #4fc3f7; color: #04121c; }}
#seatBadge[tone="win"] {{ background: {GREEN}; color: #ffffff; }}
#seatBadge[tone="lose"] {{ background: {RED_DARK}; color: #ffffff; }}
#seatBadge[tone="muted"] {{ color: {MUTED}; }}
#wallClock {{ font-size: 30px; font-weight: bold; color: {TEXT}; }}
#wallClock[compact="true"] {{ font-size: 22px; }}
#handTotals {{ font-size: 20px; font-weight: bold; color: {TEXT}; }}
#seatBadge[tone="paid"] {{ background: #eceff1; color: #12331f; }}
#seatHand {{ font-size: 18px; color: {TEXT}; font-weight: bold; }}
#seatHand[issue="true"] {{ font-size: 16px; color: #ffab91; }}
#box {{ background: rgba(0,0,0,0.28); border: 2px solid rgba(255,255,255,0.35);
       border-radius: 12px; padding: 0; min-width: 50px; min-height: 70px; }}
#box[filled="true"] {{ border-color: rgba(255,255,255,0.75); background: rgba(0,0,0,0.45); }}
#box[selected="true"] {{ border: 3px solid {GOLD}; background: rgba(227,185,79,0.22); }}
#box[outcome="win"] {{ border-color: #66d08a; background: rgba(46,157,87,0.45); }}
#box[outcome="lose"] {{ border-color: #ef7373; background: rgba(127,29,29,0.55); }}
#box[outcome="push"] {{ border-color: #b0bec5; background: rgba(96,110,118,0.45); }}
#boxLabel {{ font-size: 14px; font-weight: bold; color: {MUTED}; letter-spacing: 1px; }}
#boxAmount {{ font-size: {AMOUNT_PX}px; font-weight: bold; }}
#boxAmount[compact="true"] {{ font-size: 22px; }}
#boxNet[compact="true"] {{ font-size: 14px; }}
#boxLabel[compact="true"] {{ font-size: 13px; letter-spacing: 0px; }}
#box[compact="true"] {{ min-height: 52px; min-width: 44px; }}
#seatNo[compact="true"] {{ font-size: 26px; }}
#boxNet {{ font-size: 17px; font-weight: bold; }}
#decision {{ font-size: 19px; padding: 0 4px; }}
#decision[kind="stake"] {{ background: {GREEN}; }}
#decision[kind="check"] {{ background: {SLATE}; }}
#decision[kind="fold"] {{ background: #9b2c2c; }}
#areaLabel {{ font-size: 16px; font-weight: bold; color: rgba(255,255,255,0.55);
             letter-spacing: 2px; }}
#dealerHand {{ font-size: 26px; font-weight: bold; }}
#revealHand {{ font-size: 32px; font-weight: bold; margin-top: 30px; }}
#revealOrder {{ font-size: 24px; color: {MUTED}; margin-top: 16px; }}
#qualify {{ font-size: 26px; font-weight: bold; border-radius: 10px; padding: 6px 18px; }}
#revealHand[compact="true"] {{ font-size: 26px; margin-top: 6px; }}
#revealOrder[compact="true"] {{ font-size: 20px; margin-top: 2px; }}
#qualify[compact="true"] {{ font-size: 22px; padding: 4px 12px; }}
#qualify[tone="yes"] {{ background: {GREEN}; }}
#qualify[tone="no"] {{ background: #b26a00; }}
#row {{ background: {PANEL_2}; border-radius: 12px; border: 2px solid transparent; }}
#row[state="current"] {{ border: 3px solid {GOLD}; background: #2c2612; }}
#row[state="done"] {{ background: #121816; }}
#rowTitle {{ font-size: 22px; font-weight: bold; }}
#rowTotal {{ font-size: 24px; font-weight: bold; }}
#rowTotal[tone="pay"] {{ color: #7ee2a0; }}
#rowTotal[tone="collect"] {{ color: #ff9a9a; }}
#rowHand {{ font-size: 20px; color: {TEXT}; }}
#rowBox[outcome="win"] {{ color: #7ee2a0; font-weight: bold; }}
#rowBox[outcome="lose"] {{ color: #ff9a9a; font-weight: bold; }}
#rowBox[outcome="push"] {{ color: {MUTED}; }}
#rowBoxes {{ font-size: 17px; color: {MUTED}; }}
#rowBox {{ font-size: 22px; }}
#alarm {{ background: #8b0000; }}
#alarmTitle {{ font-size: 64px; font-weight: bold; color: #ffffff; }}
#alarmReason {{ font-size: 34px; font-weight: bold; color: #ffecb3; }}
#alarmText {{ font-size: 22px; color: #ffffff; }}
#alarmReturns {{ background: rgba(0,0,0,0.28); border-radius: 14px; }}
#alarmSeat {{ font-size: 30px; font-weight: bold; color: #ffffff; }}
#alarmBox {{ font-size: 28px; color: #ffecb3; }}
#alarmTotal {{ font-size: 36px; font-weight: bold; color: #ffffff; }}
#notReady {{ background: #5c0f0f; border-bottom: 2px solid {RED}; }}
#notReadyTitle {{ font-size: 28px; font-weight: bold; color: #ffffff; padding-right: 18px; }}
#notReadyText {{ font-size: 22px; font-weight: bold; color: #ffcdd2; }}
#notice {{ background: #4a3a08; border-bottom: 2px solid {GOLD}; }}
#noticeText {{ font-size: 21px; font-weight: bold; color: #ffe082; }}
#noticeReason {{ font-size: 17px; color: #e6d29a; }}
#noticeOk {{ background: {GOLD}; color: #1a1406; }}
#notReadyTitle[compact="true"] {{ font-size: 20px; padding-right: 10px; }}
#notReadyText[compact="true"], #noticeText[compact="true"] {{ font-size: 17px; }}
#noticeReason[compact="true"] {{ font-size: 15px; }}
#entryPosition {{ font-size: 34px; font-weight: bold; color: {GOLD}; background: {PANEL_2};
                  border-radius: 12px; padding: 10px; }}
#entryPosition[compact="true"] {{ font-size: 26px; padding: 4px; }}
#pinField {{ font-size: 22px; background: {PANEL_2}; border: 2px solid {LINE}; }}
#pinField[selected="true"] {{ border: 3px solid {GOLD}; }}
#pinKey {{ font-size: 26px; }}
#exposeButton {{ background: transparent; color: #ffe082; border: 2px solid {GOLD_DARK}; }}
#recordExposed {{ background: {GOLD}; color: #1a1406; }}
QScrollArea {{ background: transparent; border: none; }}
QScrollArea > QWidget > QWidget {{ background: transparent; }}
"""
