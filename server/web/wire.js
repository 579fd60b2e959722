// The connection to uno-server over its WebSocket (docs/protocol.md section 1): each
// binary message carries bytes of the same stream a TCP client reads, frames of a 4-byte
// big-endian length and one msgpack map. This module frames, says hello, answers pings,
// matches replies to commands, and reconnects after a lost connection.

import { coded } from "./sentences.js";
import { decode, encode } from "./msgpack.js";

const MAX_BODY = 65536;
const VERSIONS = ["1.3"];
const SILENT_MS = 20_000;

export function frame(message) {
  const body = encode(message);
  const out = new Uint8Array(4 + body.length);
  new DataView(out.buffer).setUint32(0, body.length);
  out.set(body, 4);
  return out;
}

export class FrameReader {
  constructor() {
    this.buffer = new Uint8Array(0);
  }

  push(bytes) {
    const joined = new Uint8Array(this.buffer.length + bytes.length);
    joined.set(this.buffer);
    joined.set(bytes, this.buffer.length);
    this.buffer = joined;
  }

  // Every whole frame received so far, decoded; throws on a frame the protocol refuses.
  *messages() {
    while (this.buffer.length >= 4) {
      const view = new DataView(this.buffer.buffer, this.buffer.byteOffset, 4);
      const length = view.getUint32(0);
      if (length < 1 || length > MAX_BODY) throw new Error(`frame of ${length} bytes`);
      if (this.buffer.length < 4 + length) return;
      const body = this.buffer.subarray(4, 4 + length);
      this.buffer = this.buffer.slice(4 + length);
      yield decode(body);
    }
  }
}

// status: "connecting", "online", "reconnecting" or "closed" (for good: the reason says why).
export class Connection {
  constructor({ name, onMessage, onStatus, onWelcome }) {
    this.name = name;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onWelcome = onWelcome;
    this.nextId = 1;
    this.pending = new Map();
    this.socket = null;
    this.retries = 0;
    this.finished = false;
    this.heardAt = Date.now();
    // A phone that slept may hold a socket that died meanwhile without a word: the
    // server pings every 15 s, so a page that heard nothing for longer starts afresh.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible" && Date.now() - this.heardAt > SILENT_MS) {
        this.restart();
      }
    });
  }

  // Close this socket and open a new one (the seat is resumed after the welcome).
  restart() {
    if (this.socket && this.socket.readyState <= WebSocket.OPEN) this.socket.close();
  }

  open() {
    this.onStatus(this.retries ? "reconnecting" : "connecting");
    const socket = new WebSocket(`ws://${location.host}/ws`);
    socket.binaryType = "arraybuffer";
    const reader = new FrameReader();
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.write({ type: "hello", versions: VERSIONS, name: this.name });
    });
    socket.addEventListener("message", (event) => {
      this.heardAt = Date.now();
      if (!(event.data instanceof ArrayBuffer)) return;
      reader.push(new Uint8Array(event.data));
      try {
        for (const message of reader.messages()) this.receive(message);
      } catch (error) {
        this.finish(`the server sent something unreadable: ${error.message}`);
      }
    });
    socket.addEventListener("close", () => this.lost(socket));
  }

  receive(message) {
    switch (message.type) {
      case "welcome":
        this.retries = 0;
        this.onStatus("online");
        this.onWelcome(message);
        return;
      case "ping":
        this.write({ type: "pong", nonce: message.nonce });
        return;
      case "ok":
      case "rejected": {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        this.onMessage(message);
        if (waiting) waiting(message);
        return;
      }
      case "error":
        this.onMessage(message);
        if (["replaced", "unsupported-version", "banned"].includes(message.code)) {
          this.finish(coded("error", message.code, message.message));
        }
        return;
      default:
        this.onMessage(message);
    }
  }

  // Send a command and wait for its ok or rejected (null when the connection is lost).
  request(type, fields = {}) {
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve) => {
      if (!this.write({ type, id, ...fields })) {
        resolve(null);
        return;
      }
      this.pending.set(id, resolve);
    });
  }

  write(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(frame(message));
    return true;
  }

  lost(socket) {
    if (socket !== this.socket) return;
    for (const resolve of this.pending.values()) resolve(null);
    this.pending.clear();
    if (this.finished) return;
    this.retries += 1;
    this.onStatus("reconnecting");
    const wait = Math.min(5000, 500 * this.retries);
    setTimeout(() => {
      if (!this.finished) this.open();
    }, wait);
  }

  finish(reason) {
    this.finished = true;
    this.onStatus("closed", reason);
    if (this.socket) this.socket.close();
  }
}
