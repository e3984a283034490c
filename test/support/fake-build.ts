import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const FAKE_BUILD_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; connect-src 'self'";

/** A built renderer as vite writes it: index.html with the CSP meta, a module script, an asset. */
export function fakeBuild(dir: string): { rendererDir: string; bridgeFile: string } {
  const rendererDir = join(dir, 'renderer');
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(
    join(rendererDir, 'index.html'),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta http-equiv="Content-Security-Policy" content="${FAKE_BUILD_CSP}" />
    <title>Order Desk</title>
    <script type="module" crossorigin src="./assets/index-abc123.js"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`,
  );
  writeFileSync(join(rendererDir, 'assets', 'index-abc123.js'), 'console.log("renderer");\n');
  const bridgeFile = join(dir, 'bridge.js');
  writeFileSync(bridgeFile, '(function(){window.orderDesk={};})();\n');
  return { rendererDir, bridgeFile };
}
