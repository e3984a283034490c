import { BROWSER_HOST_PATHS } from '@shared/ipc';

const BRIDGE_TAG = `<script src="${BROWSER_HOST_PATHS.bridge}"></script>`;

/**
 * The built renderer's index.html with the bridge script placed before the renderer's first
 * module script, so that window.orderDesk exists when the renderer starts. A classic script from
 * the same origin, so the page's Content-Security-Policy (script-src 'self') allows it.
 */
export function injectBridge(html: string): string {
  const moduleScript = /<script\b[^>]*\btype=["']?module["']?[^>]*>/i.exec(html);
  if (moduleScript) {
    return `${html.slice(0, moduleScript.index)}${BRIDGE_TAG}\n    ${html.slice(moduleScript.index)}`;
  }
  const headEnd = html.search(/<\/head>/i);
  if (headEnd >= 0) return `${html.slice(0, headEnd)}${BRIDGE_TAG}\n  ${html.slice(headEnd)}`;
  throw new Error('The renderer index.html has neither a module script nor a </head>.');
}
