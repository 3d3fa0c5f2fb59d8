"""Invite players: the link of this table and its QR code, shown to the host."""
from __future__ import annotations

import flet as ft

from views import theme
from views.words.lang import _
from views.table.table import qr_src


def build(invite: str | None) -> ft.View:
    if invite is None:
        body = [ft.Icon(ft.Icons.WIFI_OFF, size=56),
                ft.Text(_("Only this computer can reach the app now."), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                        text_align=ft.TextAlign.CENTER),
                ft.Text(_("To play with every phone at the table, start it with {command}: it prints a link "
                          "and a QR code for the phones on the same Wi-Fi, and this screen shows them too.",
                          command="python main.py --lan"),
                        size=theme.BODY, text_align=ft.TextAlign.CENTER)]
    else:
        body = [ft.Text(_("Scan with each phone at the table"), size=theme.LARGE, weight=ft.FontWeight.BOLD,
                        text_align=ft.TextAlign.CENTER),
                ft.Container(ft.Image(src=qr_src(invite, scale=8), width=280, height=280,
                                      semantics_label=_("QR code of the table's link")),
                             bgcolor="#FFFFFF", padding=ft.Padding.all(8), border_radius=ft.BorderRadius.all(12)),
                ft.Text(_("or open this address:"), size=theme.BODY),
                ft.Text(invite, size=theme.BODY, selectable=True, weight=ft.FontWeight.BOLD,
                        text_align=ft.TextAlign.CENTER),
                ft.Text(_("Phones must be on the same Wi-Fi as this computer. If they cannot reach it, check "
                          "that the Wi-Fi does not keep devices apart (guest networks often do) and that this "
                          "computer's firewall lets the port in."), size=theme.SMALL, text_align=ft.TextAlign.CENTER)]
    return ft.View(route="/invite", padding=ft.Padding.all(16),
                   appbar=theme.titled_bar(_("Invite players")),
                   controls=[ft.Column(body, horizontal_alignment=ft.CrossAxisAlignment.CENTER, spacing=16,
                                       scroll=ft.ScrollMode.AUTO, expand=True)])
