import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export interface SizedFile {
  file: string;
  raw: number;
  gzip: number;
}

export interface BundleReport {
  /** The entry script of index.html, its modulepreloads, and the browser bridge. */
  initial: SizedFile[];
  /** Every other JS file of the build: loaded later, on demand. */
  lazy: SizedFile[];
  /** Stylesheets linked from index.html (not part of the JS goal; shown for completeness). */
  css: SizedFile[];
}

const sized = (file: string, label: string): SizedFile => {
  const bytes = readFileSync(file);
  return { file: label, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};

/** The local asset paths that index.html references with a given tag/attribute pattern. */
function references(html: string, pattern: RegExp): string[] {
  return [...html.matchAll(pattern)]
    .map((m) => m[1]!)
    .filter((ref) => !/^[a-z]+:/i.test(ref))
    .map((ref) => ref.replace(/^\.?\//, ''));
}

/** Measures the built renderer in `rendererDir` (out/renderer) and the bridge file. */
export function measureBundle(rendererDir: string, bridgeFile: string): BundleReport {
  const indexFile = path.join(rendererDir, 'index.html');
  if (!existsSync(indexFile)) throw new Error(`${indexFile} is missing: build the renderer first`);
  const html = readFileSync(indexFile, 'utf8');
  const entry = references(html, /<script[^>]*\bsrc="([^"]+)"/g);
  const preloads = references(html, /<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g);
  const styles = references(html, /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"/g);
  if (entry.length === 0) throw new Error(`${indexFile} has no entry script`);
  const initialRefs = new Set([...entry, ...preloads]);
  const initial = [...initialRefs].map((ref) => sized(path.join(rendererDir, ref), ref));
  if (!existsSync(bridgeFile)) throw new Error(`${bridgeFile} is missing: build the bridge first`);
  initial.push(sized(bridgeFile, path.relative(path.dirname(rendererDir), bridgeFile)));

  const assetsDir = path.join(rendererDir, 'assets');
  const lazy = (existsSync(assetsDir) ? readdirSync(assetsDir) : [])
    .filter((name) => name.endsWith('.js'))
    .map((name) => `assets/${name}`)
    .filter((ref) => !initialRefs.has(ref))
    .map((ref) => sized(path.join(rendererDir, ref), ref));
  const css = styles.map((ref) => sized(path.join(rendererDir, ref), ref));
  return { initial, lazy, css };
}

export const total = (files: SizedFile[]) =>
  files.reduce((sum, f) => ({ raw: sum.raw + f.raw, gzip: sum.gzip + f.gzip }), {
    raw: 0,
    gzip: 0,
  });

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
