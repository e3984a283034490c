import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder, absolute and ending in a slash, wherever the asking test sits. */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** A file or folder of the repository, absolute: repoFile('package.json'), repoFile('docs', 'security.md'). */
export function repoFile(...parts: string[]): string {
  return join(REPO_ROOT, ...parts);
}
