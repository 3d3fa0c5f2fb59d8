"""Flet's own session and page without a browser: what the session sends is kept, packed as
Flet's socket packs it (flet_web's FletApp.send_message, flet's pyodide_connection), because the
packing is also where Flet snapshots what it sent, which its next diff compares with."""
from __future__ import annotations

import msgpack
from flet.controls.base_control import BaseControl
from flet.messaging.connection import Connection
from flet.messaging.protocol import (Message, MessageAction, PatchControlBody, RegisterClientResponseBody,
                                     configure_encode_object_for_msgpack)
from flet.messaging.session import Session
from flet.pubsub.pubsub_hub import PubSubHub


class Wired(Connection):
    """A page's connection whose messages are kept in a list instead of going down a socket."""

    def __init__(self, loop):
        super().__init__()
        self.loop = loop
        self.pubsubhub = PubSubHub(loop=loop)
        self.sent: list = []   # the messages, in order
        self.bytes: list[int] = []  # each one's size as packed

    def send_message(self, message):
        self.bytes.append(len(msgpack.packb([message.action, message.body],
                                            default=configure_encode_object_for_msgpack(BaseControl))))
        self.sent.append(message)

    def dispose(self):
        pass

    def patches(self, since: int = 0) -> list[PatchControlBody]:
        """The control patches sent, from the `since`-th message on."""
        return [m.body for m in self.sent[since:] if m.action == MessageAction.PATCH_CONTROL]


def phone_page(loop) -> tuple[Session, Wired]:
    """A session with its phone connected (nothing shown yet)."""
    wire = Wired(loop)
    session = Session(wire)
    session.attach_connection(wire)
    return session, wire


def shown(session: Session) -> None:
    """The page as the phone's client first gets it (its register answer): what is on it now
    is on the phone's screen, and later updates are diffs from it."""
    session.connection.send_message(Message(MessageAction.REGISTER_CLIENT, RegisterClientResponseBody(
        session_id=session.id, page_patch=session.get_page_patch(), error=None)))
