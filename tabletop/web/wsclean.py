"""uvicorn's websocket protocol with one log line, not a traceback, for a client's text
frame that is not UTF-8 (closed 1007 as before)."""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class CleanWebSockets(WebSocketsSansIOProtocol):
    def send_receive_event_to_app(self) -> None:
        if self.curr_msg_data_type == "text" and not self.close_sent:
            try:
                b"".join(self.frames).decode()
            except UnicodeDecodeError:
                self.frames = []
                self.logger.warning("a client sent a text frame that is not UTF-8: closed (1007)")
                self.conn.send_close(1007)
                self.handle_parser_exception()
                return
        super().send_receive_event_to_app()
