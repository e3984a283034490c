// Draws the app icon's one source image, resources/icon-source.png (1024x1024): a teal rounded
// square with a white and amber pill capsule, 4x4 supersampled so its edges are smooth at every
// size. Every platform icon is generated from it by `npm run icons` (scripts/make-icons.mjs).
// Run only to change the design: `node scripts/draw-icon-source.mjs && npm run icons`.
import { writeFileSync } from 'node:fs';
import { deflateSync } from 'node:zlib';

const size = 1024;
const samples = 4;
const TEAL = [26, 127, 100];
const WHITE = [255, 255, 255];
const AMBER = [244, 185, 66];

// All geometry in the unit square, so the design does not depend on the pixel size.
const inRoundedSquare = (x, y) => {
  const r = 0.1875;
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
};
// The capsule: two half-discs joined by a rectangle, rotated 45 degrees around the centre. u runs
// along the capsule, v across it; its upper-left half is white, the lower-right amber.
const capsuleColour = (x, y) => {
  const u = (x - 0.5 + (y - 0.5)) / Math.SQRT2;
  const v = (x - 0.5 - (y - 0.5)) / Math.SQRT2;
  const half = 0.293,
    radius = 0.137;
  const du = Math.max(Math.abs(u) - (half - radius), 0);
  if (du * du + v * v > radius * radius) return null;
  return u < 0 ? WHITE : AMBER;
};

const px = Buffer.alloc(size * size * 4);
for (let y = 0; y < size; y++) {
  for (let x = 0; x < size; x++) {
    // Average the colours of the samples that fall inside the icon (premultiplied by coverage).
    let r = 0,
      g = 0,
      b = 0,
      covered = 0;
    for (let sy = 0; sy < samples; sy++) {
      for (let sx = 0; sx < samples; sx++) {
        const ux = (x + (sx + 0.5) / samples) / size;
        const uy = (y + (sy + 0.5) / samples) / size;
        if (!inRoundedSquare(ux, uy)) continue;
        const [cr, cg, cb] = capsuleColour(ux, uy) ?? TEAL;
        r += cr;
        g += cg;
        b += cb;
        covered++;
      }
    }
    if (covered === 0) continue;
    const alpha = Math.round((covered / samples ** 2) * 255);
    px.set(
      [Math.round(r / covered), Math.round(g / covered), Math.round(b / covered), alpha],
      (y * size + x) * 4,
    );
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
  new URL('../resources/icon-source.png', import.meta.url),
  Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]),
);
