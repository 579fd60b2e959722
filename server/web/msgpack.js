// msgpack, the part the uno-lan protocol allows (docs/protocol.md section 1): nil,
// booleans, integers, UTF-8 strings, arrays and maps with string keys. Written for this
// page; the encoder uses the smallest encoding, as the protocol asks of senders.

const utf8Encoder = new TextEncoder();
const utf8Decoder = new TextDecoder("utf-8", { fatal: true });

export class MsgpackError extends Error {}

export function encode(value) {
  const out = [];
  write(out, value, 0);
  return Uint8Array.from(out);
}

function pushUint(out, value, bytes) {
  for (let shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
    out.push(Math.floor(value / 2 ** shift) & 0xff);
  }
}

function writeInt(out, n) {
  if (!Number.isSafeInteger(n)) throw new MsgpackError(`not an integer: ${n}`);
  if (n >= 0) {
    if (n < 0x80) out.push(n);
    else if (n < 0x100) out.push(0xcc, n);
    else if (n < 0x10000) { out.push(0xcd); pushUint(out, n, 2); }
    else if (n < 0x100000000) { out.push(0xce); pushUint(out, n, 4); }
    else { out.push(0xcf); pushUint(out, n, 8); }
  } else if (n >= -32) out.push(0x100 + n);
  else if (n >= -0x80) out.push(0xd0, 0x100 + n);
  else if (n >= -0x8000) { out.push(0xd1); pushUint(out, 0x10000 + n, 2); }
  else if (n >= -0x80000000) { out.push(0xd2); pushUint(out, 0x100000000 + n, 4); }
  else throw new MsgpackError(`integer too small: ${n}`);
}

function writeLength(out, length, fix, fixMax, small, medium, large) {
  if (length <= fixMax && fix !== null) out.push(fix + length);
  else if (small !== null && length < 0x100) out.push(small, length);
  else if (length < 0x10000) { out.push(medium); pushUint(out, length, 2); }
  else { out.push(large); pushUint(out, length, 4); }
}

function write(out, value, depth) {
  if (depth > 20) throw new MsgpackError("nested too deep");
  if (value === null || value === undefined) out.push(0xc0);
  else if (value === false) out.push(0xc2);
  else if (value === true) out.push(0xc3);
  else if (typeof value === "number") writeInt(out, value);
  else if (typeof value === "string") {
    const bytes = utf8Encoder.encode(value);
    writeLength(out, bytes.length, 0xa0, 31, 0xd9, 0xda, 0xdb);
    for (const byte of bytes) out.push(byte);
  } else if (Array.isArray(value)) {
    writeLength(out, value.length, 0x90, 15, null, 0xdc, 0xdd);
    for (const item of value) write(out, item, depth + 1);
  } else if (typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    writeLength(out, entries.length, 0x80, 15, null, 0xde, 0xdf);
    for (const [key, item] of entries) {
      write(out, key, depth + 1);
      write(out, item, depth + 1);
    }
  } else throw new MsgpackError(`cannot encode ${typeof value}`);
}

export function decode(bytes) {
  const reader = new Reader(bytes);
  const value = reader.value(0);
  if (reader.at !== bytes.length) throw new MsgpackError("bytes left over");
  return value;
}

class Reader {
  constructor(bytes) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.at = 0;
  }

  need(n) {
    if (this.at + n > this.bytes.length) throw new MsgpackError("value cut short");
    const start = this.at;
    this.at += n;
    return start;
  }

  uint(n) {
    const start = this.need(n);
    let value = 0;
    for (let i = 0; i < n; i += 1) value = value * 256 + this.bytes[start + i];
    return value;
  }

  int(n) {
    const start = this.need(n);
    if (n === 1) return this.view.getInt8(start);
    if (n === 2) return this.view.getInt16(start);
    if (n === 4) return this.view.getInt32(start);
    return Number(this.view.getBigInt64(start));
  }

  str(n) {
    const start = this.need(n);
    return utf8Decoder.decode(this.bytes.subarray(start, start + n));
  }

  array(n, depth) {
    const items = [];
    for (let i = 0; i < n; i += 1) items.push(this.value(depth + 1));
    return items;
  }

  map(n, depth) {
    const result = {};
    for (let i = 0; i < n; i += 1) {
      const key = this.value(depth + 1);
      if (typeof key !== "string") throw new MsgpackError("a map key that is not a string");
      result[key] = this.value(depth + 1);
    }
    return result;
  }

  value(depth) {
    if (depth > 20) throw new MsgpackError("nested too deep");
    const byte = this.bytes[this.need(1)];
    if (byte < 0x80) return byte;
    if (byte < 0x90) return this.map(byte - 0x80, depth);
    if (byte < 0xa0) return this.array(byte - 0x90, depth);
    if (byte < 0xc0) return this.str(byte - 0xa0);
    if (byte >= 0xe0) return byte - 0x100;
    switch (byte) {
      case 0xc0: return null;
      case 0xc2: return false;
      case 0xc3: return true;
      case 0xcc: return this.uint(1);
      case 0xcd: return this.uint(2);
      case 0xce: return this.uint(4);
      case 0xcf: return this.uint(8);
      case 0xd0: return this.int(1);
      case 0xd1: return this.int(2);
      case 0xd2: return this.int(4);
      case 0xd3: return this.int(8);
      case 0xd9: return this.str(this.uint(1));
      case 0xda: return this.str(this.uint(2));
      case 0xdb: return this.str(this.uint(4));
      case 0xdc: return this.array(this.uint(2), depth);
      case 0xdd: return this.array(this.uint(4), depth);
      case 0xde: return this.map(this.uint(2), depth);
      case 0xdf: return this.map(this.uint(4), depth);
      default: throw new MsgpackError(`a msgpack type the protocol does not allow: 0x${byte.toString(16)}`);
    }
  }
}
