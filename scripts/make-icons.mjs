#!/usr/bin/env node
// Generates every platform's app icon from the one source image, resources/icon-source.png:
//
//   resources/icon.icns            macOS (PNG chunks 16..1024 px, as iconutil writes them)
//   resources/icon.ico             Windows (PNG from 64 px up, bitmaps below, as an .exe embeds)
//   resources/icons/NxN.png        Linux, N = 16 24 32 48 64 128 256 512 (electron-builder reads
//                                  the size from the file name)
//
//   npm run icons                  writes them into resources/ (they are committed: a build
//                                  needs nothing but what is in the repository)
//   node scripts/make-icons.mjs --out DIR    writes the same files under DIR instead
//
// png2icons is pure JavaScript and deterministic, so the same source always gives the same bytes
// (the packaging test regenerates them and compares). It resizes only into ICNS and ICO; the
// Linux PNGs are the PNG images those containers hold, taken out unchanged.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import png2icons from 'png2icons';

const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

const args = process.argv.slice(2);
const outIndex = args.indexOf('--out');
if (args.length !== 0 && (outIndex !== 0 || args.length !== 2)) {
  console.error('usage: node scripts/make-icons.mjs [--out DIR]');
  process.exit(2);
}
const root = resolve(import.meta.dirname, '..');
const outDir = outIndex === 0 ? resolve(args[1]) : join(root, 'resources');
const sourcePath = join(root, 'resources', 'icon-source.png');

function fail(message) {
  console.error(`make-icons: ${message}`);
  process.exit(1);
}

/** Width and height from a PNG's IHDR chunk, or null when the bytes are not a PNG. */
function pngSize(buffer) {
  if (buffer.length < 24 || !buffer.subarray(0, 8).equals(PNG_SIGNATURE)) return null;
  if (buffer.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: buffer.readUInt32BE(16), height: buffer.readUInt32BE(20) };
}

/** The PNG images inside an ICO file, by pixel size (a 0 in the directory means 256). */
function pngsInIco(ico) {
  const found = new Map();
  const count = ico.readUInt16LE(4);
  for (let i = 0; i < count; i++) {
    const entry = 6 + i * 16;
    const length = ico.readUInt32LE(entry + 8);
    const offset = ico.readUInt32LE(entry + 12);
    const image = ico.subarray(offset, offset + length);
    const size = pngSize(image);
    if (size) found.set(size.width, image);
  }
  return found;
}

/** The PNG images inside an ICNS file, by pixel size. */
function pngsInIcns(icns) {
  const found = new Map();
  for (let offset = 8; offset + 8 <= icns.length;) {
    const length = icns.readUInt32BE(offset + 4);
    if (length < 8) break;
    const image = icns.subarray(offset + 8, offset + length);
    const size = pngSize(image);
    if (size && !found.has(size.width)) found.set(size.width, image);
    offset += length;
  }
  return found;
}

let source;
try {
  source = readFileSync(sourcePath);
} catch (error) {
  fail(`cannot read the source image ${sourcePath}: ${error.message}`);
}
const sourceSize = pngSize(source);
if (!sourceSize) fail(`${sourcePath} is not a PNG file`);
if (sourceSize.width !== sourceSize.height || sourceSize.width < 1024) {
  fail(
    `the source image must be square and at least 1024 px (macOS wants 1024), not ${sourceSize.width}x${sourceSize.height}`,
  );
}

const icns = png2icons.createICNS(source, png2icons.BICUBIC, 0);
const ico = png2icons.createICO(source, png2icons.BICUBIC, 0, false, true);
// Only to take the PNG sizes out: every image of this ICO is a PNG.
const pngIco = png2icons.createICO(source, png2icons.BICUBIC, 0, true);
if (!icns || !ico || !pngIco) fail('png2icons could not convert the source image');

const pngs = new Map([...pngsInIcns(icns), ...pngsInIco(pngIco)]);
const linux = LINUX_SIZES.map((size) => {
  const image = pngs.get(size);
  if (!image) fail(`png2icons made no ${size} px image`);
  return [`icons/${size}x${size}.png`, image];
});

mkdirSync(outDir, { recursive: true });
// The Linux set is exactly these files: a size dropped from the list must not linger.
rmSync(join(outDir, 'icons'), { recursive: true, force: true });
mkdirSync(join(outDir, 'icons'));
for (const [name, data] of [['icon.icns', icns], ['icon.ico', ico], ...linux]) {
  writeFileSync(join(outDir, name), data);
}
console.log(`make-icons: wrote icon.icns, icon.ico and ${linux.length} Linux PNGs into ${outDir}`);
