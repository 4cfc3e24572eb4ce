"""`tabletop serve` as a real process, killed with SIGKILL mid-game and started again on
the same database: every match resumes at its last acknowledged action (an action in
flight at the kill is either wholly stored or not at all), computer seats carry on, the
move clock restarts with a full move_time for the person to act."""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

from tabletop.core.match import Match
from tabletop.core.registry import registry
from tests.web_support import Client, free_port, get, post, start_process

QUARTO_LINES = [
    "give LSRF", "place a1", "give LSRH", "place b1", "give LSQF", "place a2",
    "give LSQH", "place c1", "give DTRF", "place a3", "give LTRF", "place d1",
]  # fmt: skip


def kill(process: subprocess.Popen[str]) -> None:
    process.send_signal(signal.SIGKILL)
    process.wait(30)
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()


def test_sigkill_at_any_moment_then_restart_resumes_every_match(tmp_path: Path) -> None:
    db, port = tmp_path / "m.sqlite3", free_port()
    base = f"http://127.0.0.1:{port}/"
    server = start_process(db, port)
    try:
        status, made = post(base, "api/matches", {"game": "quarto", "move_time": 600})
        assert status == 201
        _, versus = post(base, "api/matches", {"game": "quarto", "seats": [{"seat": 2, "ai": "2"}]})
        tokens = [s["token"] for s in made["seats"]]
        acknowledged = 0
        sent = 0
        for kill_after in (3, 7, 12):  # three crashes during one game
            clients = [Client(base, made["id"], t) for t in tokens]
            for client in clients:
                assert client.at(0)["number"] == acknowledged  # resumed exactly there
            while sent < kill_after:
                actor = clients[sent % 4 in (1, 2)]  # 1 gives, 2 places and gives, 1 places...
                actor.at(sent)
                actor.act(QUARTO_LINES[sent])
                sent += 1
                if sent < kill_after:
                    acknowledged = actor.at(sent)["number"]
            kill(server)  # the last action is in flight: stored wholly or not at all
            server = start_process(db, port)
            check = Client(base, made["id"], tokens[0])
            number = check.at(0)["number"]
            assert number in (sent - 1, sent)
            if number == sent - 1:
                sent -= 1  # it was lost before being acknowledged: send it again
            acknowledged = number
            check.close()
        if acknowledged < len(QUARTO_LINES):  # the very last action was lost in the crash
            actor = Client(base, made["id"], tokens[0])
            actor.at(acknowledged)
            actor.act(QUARTO_LINES[acknowledged])
            acknowledged = actor.at(acknowledged + 1)["number"]
        game = registry().get("quarto")
        expected = Match(game, 2, game.info.options(), 0)
        expected.play_all(QUARTO_LINES[:acknowledged])
        watcher = Client(base, made["id"])
        position = watcher.at(0)
        assert position["view"] == game.view(expected.state, None)
        assert position["status"] == "over" and position["winners"] == [1]
        # the match against the computer: one action, a kill, a restart; it plays on
        me = Client(base, versus["id"], versus["seats"][0]["token"])
        me.act(me.at(0)["legal"][0])
        me.at(1)
        kill(server)
        server = start_process(db, port)
        me = Client(base, versus["id"], versus["seats"][0]["token"])
        resumed = me.until(lambda m: m["type"] == "position" and m["to_act"] == 1)
        assert resumed["number"] == 3 and len(resumed["legal"]) > 0
        # the clock of a match resumed: a full move_time for the person to act
        _, fresh = post(base, "api/matches", {"game": "quarto", "move_time": 600})
        kill(server)
        server = start_process(db, port)
        clock = Client(base, fresh["id"], fresh["seats"][0]["token"]).at(0)["clock"]
        assert clock["player"] == 1 and 590 < clock["left"] <= 600
        status, text = get(base, f"api/matches/{made['id']}/record?token={tokens[0]}")
        assert status == 200 and '"place d1"' in text
    finally:
        kill(server)


def test_serve_help_says_where_the_database_is_and_warns_off_loopback(tmp_path: Path) -> None:
    import sys

    help_text = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--help"],
        capture_output=True, text=True, check=True,
    ).stdout  # fmt: skip
    assert "~/.local/share/tabletop/matches.sqlite3" in " ".join(help_text.split())
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--host", "0.0.0.0", "--port", str(port),
         "--db", str(tmp_path / "m.sqlite3")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        assert process.stderr is not None and process.stdout is not None
        warning = process.stderr.readline()
        assert (
            warning.startswith("tabletop: warning: serving on 0.0.0.0") and "seat links" in warning
        )
        assert process.stdout.readline().startswith(f"tabletop: lobby at http://0.0.0.0:{port}/")
    finally:
        kill(process)
    bad = subprocess.run(
        [sys.executable, "-m", "tabletop", "serve", "--port", "70000"],
        capture_output=True, text=True,
    )  # fmt: skip
    assert bad.returncode == 2 and bad.stderr == "tabletop: --port must be 1-65535, not 70000\n"
