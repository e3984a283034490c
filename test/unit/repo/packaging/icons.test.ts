import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from './builder-config';

/**
 * The app icons electron-builder.yml points at: each in its platform's format and sizes, and each
 * exactly what `npm run icons` makes from the one source image (so nobody edits one by hand and
 * the others drift).
 */
const resources = join(ROOT, 'resources');
const read = (name: string) => readFileSync(join(resources, name));
const LINUX_SIZES = [16, 24, 32, 48, 64, 128, 256, 512];
const PNG_SIGNATURE = Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]);

/** A PNG's size and colour type from its IHDR chunk; throws when the bytes are not a PNG. */
function png(buffer: Buffer) {
  expect(buffer.subarray(0, 8).equals(PNG_SIGNATURE), 'PNG signature').toBe(true);
  expect(buffer.toString('latin1', 12, 16)).toBe('IHDR');
  return {
    width: buffer.readUInt32BE(16),
    height: buffer.readUInt32BE(20),
    colourType: buffer[25],
  };
}

describe('app icons', () => {
  const generated = mkdtempSync(join(tmpdir(), 'order-desk-icons-'));
  afterAll(() => rmSync(generated, { recursive: true, force: true }));

  it('come from one square source image, large enough for the 1024 px macOS icon', () => {
    const source = png(read('icon-source.png'));
    expect(source).toEqual({ width: 1024, height: 1024, colourType: 6 });
  });

  it('macOS: an ICNS file whose PNG chunks run from 32 to 1024 px', () => {
    const icns = read('icon.icns');
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    // Each chunk: type, length (header included), data. The PNG ones must be the size their
    // type stands for (iconutil's table).
    const pngChunkSizes: Record<string, number> = {
      ic11: 32,
      ic12: 64,
      ic07: 128,
      ic13: 256,
      ic08: 256,
      ic14: 512,
      ic09: 512,
      ic10: 1024,
    };
    const seen: string[] = [];
    for (let offset = 8; offset < icns.length;) {
      const type = icns.toString('latin1', offset, offset + 4);
      const length = icns.readUInt32BE(offset + 4);
      expect(length, type).toBeGreaterThan(8);
      const size = pngChunkSizes[type];
      if (size != null) {
        const image = png(icns.subarray(offset + 8, offset + length));
        expect([image.width, image.height], type).toEqual([size, size]);
      }
      seen.push(type);
      offset += length;
    }
    expect(seen).toEqual(expect.arrayContaining(Object.keys(pngChunkSizes)));
  });

  it('Windows: an ICO file with every size from 16 to 256 px', () => {
    const ico = read('icon.ico');
    expect([ico.readUInt16LE(0), ico.readUInt16LE(2)]).toEqual([0, 1]); // reserved, type icon
    const count = ico.readUInt16LE(4);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const entry = 6 + i * 16;
      const size = ico[entry] === 0 ? 256 : (ico[entry] as number); // 0 stands for 256
      expect(ico[entry + 1] === 0 ? 256 : ico[entry + 1]).toBe(size);
      const length = ico.readUInt32LE(entry + 8);
      const offset = ico.readUInt32LE(entry + 12);
      expect(offset + length).toBeLessThanOrEqual(ico.length);
      const image = ico.subarray(offset, offset + length);
      // Large sizes are PNG (what Windows 10 shows best); small ones bitmaps of the same size.
      if (image.subarray(0, 8).equals(PNG_SIGNATURE)) {
        expect(png(image)).toMatchObject({ width: size, height: size });
      } else {
        expect(image.readUInt32LE(0)).toBe(40); // BITMAPINFOHEADER
        expect(image.readInt32LE(4)).toBe(size);
      }
      sizes.push(size);
    }
    expect(sizes.sort((a, b) => a - b)).toEqual([16, 24, 32, 48, 64, 72, 96, 128, 256]);
  });

  it('Linux: one PNG per size, named NxN.png as electron-builder reads them', () => {
    const files = readdirSync(join(resources, 'icons')).sort();
    expect(files).toEqual(LINUX_SIZES.map((size) => `${size}x${size}.png`).sort());
    for (const size of LINUX_SIZES) {
      expect(png(read(`icons/${size}x${size}.png`)), `${size}`).toMatchObject({
        width: size,
        height: size,
      });
    }
  });

  it('are exactly what `npm run icons` makes from the source image', () => {
    execFileSync(process.execPath, [join(ROOT, 'scripts/make-icons.mjs'), '--out', generated], {
      stdio: 'pipe',
    });
    const names = [
      'icon.icns',
      'icon.ico',
      ...readdirSync(join(generated, 'icons')).map((it) => `icons/${it}`),
    ];
    expect(names).toHaveLength(2 + LINUX_SIZES.length);
    for (const name of names) {
      const fresh = readFileSync(join(generated, name));
      expect(fresh.equals(read(name)), `${name} differs from a fresh npm run icons`).toBe(true);
    }
  });
});
