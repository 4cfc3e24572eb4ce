"""The transport's two places (docs/web.md, "adding a message"): every client message type
the protocol parses has its handler, and every handler a parser; a refusal names them all."""

from __future__ import annotations

import pytest

from tabletop.web import handlers, protocol


def test_every_parsed_client_message_has_a_handler_and_no_handler_is_unreachable() -> None:
    assert list(protocol.PARSERS) == list(handlers.HANDLERS)


@pytest.mark.parametrize("kind", list(protocol.PARSERS))
def test_each_type_is_named_where_an_unknown_one_is_refused(kind: str) -> None:
    with pytest.raises(protocol.ProtocolError) as refused:
        protocol.parse('{"type": "shuffle"}')
    assert kind in str(refused.value).split("allowed: ")[1].split(", ")
