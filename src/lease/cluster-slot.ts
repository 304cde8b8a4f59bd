// Redis Cluster hash slots (CRC16/XMODEM of the key or of its hash tag, mod 16384), so a
// companion key can be placed in the same slot as any lease key.

const CRC16_TABLE = (() => {
  const table = new Uint16Array(256);
  for (let i = 0; i < 256; i++) {
    let crc = i << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    table[i] = crc;
  }
  return table;
})();

function crc16(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) crc = ((crc << 8) & 0xffff) ^ (CRC16_TABLE[((crc >> 8) ^ byte) & 0xff] as number);
  return crc;
}

/** The part of `key` Redis Cluster hashes: the first non-empty `{…}`, else the whole key. */
export function hashTagOf(key: string): string | undefined {
  const open = key.indexOf('{');
  if (open === -1) return undefined;
  const close = key.indexOf('}', open + 1);
  return close > open + 1 ? key.slice(open + 1, close) : undefined;
}

export function clusterSlot(key: string): number {
  return crc16(Buffer.from(hashTagOf(key) ?? key, 'utf8')) % 16384;
}

const tagForSlot = new Map<number, string>();

/** A short brace-free hash tag whose slot is `slot` (found by counting; about 16k tries at most once per slot). */
export function hashTagForSlot(slot: number): string {
  let tag = tagForSlot.get(slot);
  if (tag !== undefined) return tag;
  for (let i = 0; ; i++) {
    const candidate = `rg${i.toString(36)}`;
    if (crc16(Buffer.from(candidate, 'latin1')) % 16384 === slot) {
      tag = candidate;
      break;
    }
  }
  tagForSlot.set(slot, tag);
  return tag;
}
