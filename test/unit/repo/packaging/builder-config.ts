import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Configuration } from 'electron-builder';
import { REPO_ROOT } from '@test/support/repo-files';

/** The repository root: electron-builder's project directory. */
export const ROOT = REPO_ROOT;

const require = createRequire(import.meta.url);
// js-yaml is what electron-builder itself reads its YAML with (and a dependency of
// electron-updater, so always installed); it ships no types of its own.
const yaml = require('js-yaml') as { load(text: string): unknown };

/** electron-builder.yml as written, parsed. */
export function loadBuilderConfig(): Configuration {
  return yaml.load(readFileSync(`${ROOT}electron-builder.yml`, 'utf8')) as Configuration;
}

export const packageJson = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as {
  name: string;
  productName: string;
  main: string;
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
