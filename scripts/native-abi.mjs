#!/usr/bin/env node
// Makes the native modules (better-sqlite3, keytar) match the runtime about to load them.
//
//   node scripts/native-abi.mjs node       before tests, benchmarks, the sandbox, the browser host
//   node scripts/native-abi.mjs electron   before `npm start` (Electron has its own Node ABI)
//   node scripts/native-abi.mjs packaged   before electron-builder, which rebuilds them in place
//                                          for the platform and arch it packs (npmRebuild): no
//                                          rebuild here, but the next script, whichever runtime
//                                          it wants, rebuilds them for it
//
// `npm ci` builds them for Node. Electron needs them rebuilt against its headers, after which
// plain Node cannot load them, and the other way round. The target of the last build is kept in
// node_modules/.order-desk-native-abi.json, so a rebuild happens only when the target changes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const target = process.argv[2];
if (target !== 'node' && target !== 'electron' && target !== 'packaged') {
  console.error('usage: node scripts/native-abi.mjs node|electron|packaged');
  process.exit(2);
}

const require = createRequire(import.meta.url);
const MARKER = 'node_modules/.order-desk-native-abi.json';
if (target === 'packaged') {
  // Written before electron-builder starts, so even a packaging that fails half-way leaves a
  // marker that matches neither runtime.
  writeFileSync(MARKER, `${JSON.stringify({ target })}\n`);
  process.exit(0);
}
const MODULES = ['better-sqlite3', 'keytar'];
const wanted =
  target === 'node'
    ? { target, version: process.versions.modules }
    : { target, version: require('electron/package.json').version };

const current = existsSync(MARKER) ? JSON.parse(readFileSync(MARKER, 'utf8')) : null;
// No marker: the modules are as `npm ci` built them, for this Node.
const have = current ?? { target: 'node', version: process.versions.modules };
if (have.target === wanted.target && have.version === wanted.version) process.exit(0);

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
console.log(`Rebuilding ${MODULES.join(' and ')} for ${target} ${wanted.version} ...`);
try {
  if (target === 'node') execFileSync(npm, ['rebuild', ...MODULES], { stdio: 'inherit' });
  else execFileSync(npx, ['electron-builder', 'install-app-deps'], { stdio: 'inherit' });
} catch {
  console.error(
    `Could not rebuild the native modules for ${target}: see the output above (a C++ toolchain and Python are needed).`,
  );
  process.exit(1);
}
writeFileSync(MARKER, `${JSON.stringify(wanted)}\n`);
