// The match page's "Replay move by move" link: this match's replay, for this link's viewer
// (a seat's token, or none for a spectator) (tabletop/web/playback.py).
const link = document.querySelector("#replay-link");
const token = new URLSearchParams(location.search).get("token");
link.href = `${location.pathname.replace(/\/$/, "")}/replay${token ? `?token=${encodeURIComponent(token)}` : ""}`;
