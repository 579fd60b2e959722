"""The page's own msgpack and framing, run in the browser, against Python's msgpack."""

from __future__ import annotations

import msgpack
from e2e_server import ServerProcess
from playwright.sync_api import Browser

VALUES = [
    None,
    True,
    False,
    0,
    127,
    128,
    255,
    256,
    65535,
    65536,
    2**32 - 1,
    2**32,
    2**53 - 1,
    -1,
    -32,
    -33,
    -128,
    -129,
    -32768,
    -32769,
    -(2**31),
    "",
    "a" * 31,
    "a" * 32,
    "é✱♪" * 100,
    "x" * 70_000,
    [],
    list(range(16)),
    list(range(70_000)),
    {},
    {f"k{n}": n for n in range(16)},
    {"type": "play", "card": "W+4", "color": "R", "uno": True, "nested": [[{"a": [None]}]]},
]

ROUND_TRIP = """async (values) => {
  const m = await import("/msgpack.js");
  const w = await import("/wire.js");
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  const encoded = values.map((v) => hex(m.encode(v)));
  const framed = hex(w.frame({ type: "ping", nonce: 7 }));
  return { encoded, framed };
}"""

DECODE = """async (hexes) => {
  const m = await import("/msgpack.js");
  const w = await import("/wire.js");
  const bytes = (h) => Uint8Array.from(h.match(/../g) ?? [], (b) => parseInt(b, 16));
  const decoded = hexes.map((h) => m.decode(bytes(h)));
  const reader = new w.FrameReader();
  const stream = bytes("00000001" + "80" + "00000002" + "9100");
  for (const b of stream) reader.push(Uint8Array.of(b)); // a byte at a time
  const frames = [...reader.messages()];
  let refused = "";
  try { m.decode(bytes("ca00000000")); } catch (e) { refused = String(e.message); }
  return { decoded, frames, refused };
}"""


def test_the_pages_msgpack_agrees_with_pythons(
    web_server: tuple[ServerProcess, str], browser: Browser
) -> None:
    _server, url = web_server
    page = browser.new_page()
    page.goto(url)
    sent = page.evaluate(ROUND_TRIP, VALUES)
    # The smallest encoding of each value, byte for byte what msgpack (Python) packs.
    assert sent["encoded"] == [msgpack.packb(v).hex() for v in VALUES]
    body = msgpack.packb({"type": "ping", "nonce": 7})
    assert sent["framed"] == len(body).to_bytes(4, "big").hex() + body.hex()
    got = page.evaluate(DECODE, [msgpack.packb(v).hex() for v in VALUES])
    assert got["decoded"] == VALUES
    assert got["frames"] == [{}, [0]]
    assert "does not allow" in got["refused"]  # a float is not a protocol value
    page.close()
