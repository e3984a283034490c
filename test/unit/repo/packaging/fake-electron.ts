/**
 * A stand-in for an Electron binary, as far as fuses go: filler bytes around the fuse wire that
 * Electron compiles in, in the layout @electron/fuses reads and writes (its dist/index.js):
 *
 *   SENTINEL (32 ASCII bytes) | version (byte 1) | length n (byte) | n fuse bytes | ...
 *
 * where each fuse byte is '0' (off), '1' (on) or 'r' (removed). A universal macOS binary holds
 * two wires, one per slice.
 */
export const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';

/**
 * Electron's defaults (41 and 42: the nine fuses that @electron/fuses 2.1.3, published after 42,
 * still names), by wire index: RunAsNode on, cookie encryption off, NODE_OPTIONS on, --inspect on,
 * asar integrity off, only-load-from-asar off, browser V8 snapshot off, file:// extra privileges
 * on, WebAssembly trap handlers on (index 8: newer than @electron/fuses 1.8 knows, so it must pass
 * through untouched).
 */
export const ELECTRON_DEFAULT_WIRE = '101100011';

const FILLER = Buffer.alloc(4096, 0x90);

export function fakeElectronBinary(wire = ELECTRON_DEFAULT_WIRE, slices = 1): Buffer {
  const slice = Buffer.concat([
    FILLER,
    Buffer.from(SENTINEL, 'latin1'),
    Buffer.from([1, wire.length]),
    Buffer.from(wire, 'latin1'),
  ]);
  return Buffer.concat([...Array.from({ length: slices }, () => slice), FILLER]);
}

/** Every fuse wire in `binary`, as strings of '0'/'1'/'r' (one per slice). */
export function readWires(binary: Buffer): string[] {
  const wires: string[] = [];
  for (let at = binary.indexOf(SENTINEL); at !== -1; at = binary.indexOf(SENTINEL, at + 1)) {
    const start = at + SENTINEL.length;
    if (binary[start] !== 1) throw new Error(`fuse wire version ${binary[start]}, not 1`);
    const length = binary[start + 1] ?? 0;
    wires.push(binary.toString('latin1', start + 2, start + 2 + length));
  }
  return wires;
}

/** `binary` with its fuse wires blanked, to compare everything else byte for byte. */
export function withoutWires(binary: Buffer): Buffer {
  const copy = Buffer.from(binary);
  for (let at = copy.indexOf(SENTINEL); at !== -1; at = copy.indexOf(SENTINEL, at + 1)) {
    const start = at + SENTINEL.length;
    copy.fill(0, start + 2, start + 2 + (copy[start + 1] ?? 0));
  }
  return copy;
}
