// Draws the app icon (resources/icon.png, 512x512): a teal rounded square with a white pill
// capsule. Run with `node scripts/make-icon.mjs`; the PNG is committed, so builds need nothing.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const size = 512;
const px = Buffer.alloc(size * size * 4);
const inRounded = (x, y, r) => {
  const cx = Math.min(Math.max(x, r), size - 1 - r);
  const cy = Math.min(Math.max(y, r), size - 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
// A capsule: two half-discs joined by a rectangle, rotated 45 degrees around the centre.
const inCapsule = (x, y) => {
  const c = size / 2;
  const u = (x - c + (y - c)) / Math.SQRT2;
  const v = (x - c - (y - c)) / Math.SQRT2;
  const half = 150,
    radius = 70;
  const du = Math.max(Math.abs(u) - (half - radius), 0);
  return du * du + v * v <= radius * radius;
};
for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    const i = (y * size + x) * 4;
    if (!inRounded(x, y, 96)) continue;
    let [r, g, b] = [26, 127, 100];
    if (inCapsule(x, y)) {
      const c = size / 2;
      const u = (x - c + (y - c)) / Math.SQRT2;
      [r, g, b] = u < 0 ? [255, 255, 255] : [244, 185, 66];
    }
    px.set([r, g, b, 255], i);
  }
}
const rows = Buffer.alloc((size * 4 + 1) * size);
for (let y = 0; y < size; y++)
  px.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buf) => {
  let c = 0xffffffff;
  for (const byte of buf) c = crcTable[(c ^ byte) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type, data) => {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
};
const ihdr = Buffer.alloc(13);
ihdr.writeUInt32BE(size, 0);
ihdr.writeUInt32BE(size, 4);
ihdr.set([8, 6, 0, 0, 0], 8);
writeFileSync(
  new URL('../resources/icon.png', import.meta.url),
  Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows)),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
