import fuzzysort from 'fuzzysort';
import type { PaletteResults } from '@shared/palette-views';
import { orderStatusLabel } from '@renderer/lib/order-filters';
import { patientHref } from '@renderer/lib/patient-href';
import { DASHBOARD_SCREEN, MORE_SCREENS, SCREENS } from '@renderer/lib/shortcuts';
import type { PaletteCommand, PaletteRecent } from '@renderer/stores/palette-store';

/** One row of the palette: a place to go, or a command to run. */
export type PaletteItem =
  | { kind: 'go'; key: string; place: PaletteRecent }
  | { kind: 'run'; key: string; command: PaletteCommand };

export interface PaletteSection {
  heading: string;
  items: PaletteItem[];
}

const go = (place: PaletteRecent): PaletteItem => ({
  kind: 'go',
  key: `${place.kind}:${place.href}`,
  place,
});

const screenPlaces: PaletteRecent[] = [
  {
    kind: 'screen',
    href: DASHBOARD_SCREEN.path,
    label: DASHBOARD_SCREEN.label,
    detail: `Screen · Ctrl+${DASHBOARD_SCREEN.shortcut.shown}`,
  },
  ...[...SCREENS, ...MORE_SCREENS].map((s): PaletteRecent => ({
    kind: 'screen',
    href: s.path,
    label: s.label,
    detail: 'key' in s ? `Screen · Ctrl+${s.key}` : 'Screen',
  })),
];

/** Local items matching `text` (fuzzy: letters in order), best first, with the best score. */
function matching<T>(items: readonly T[], text: string, words: (item: T) => [string, string[]]) {
  if (text === '') return { items: [...items], best: 0 };
  const keys = [(item: T) => words(item)[0], (item: T) => words(item)[1].join(' ')];
  const found = fuzzysort.go(text, items, { keys, threshold: 0, limit: 0 });
  return { items: found.map((r) => r.obj), best: found[0]?.score ?? 0 };
}

/**
 * The palette's sections for `text`: recent places first, then the patients, protocols and orders
 * main found, the commands of the app and of the screen shown, and the screens.
 */
export function paletteSections(
  text: string,
  found: PaletteResults,
  commands: readonly PaletteCommand[],
  recents: readonly PaletteRecent[],
): PaletteSection[] {
  const t = text.trim();
  const place = (p: PaletteRecent): [string, string[]] => [p.label, [p.detail]];
  const commandMatches = matching(commands, t, (c) => [c.label, [...(c.keywords ?? [])]]);
  const commandSection = {
    heading: 'Commands',
    best: commandMatches.best,
    items: commandMatches.items.map((command): PaletteItem => ({
      kind: 'run',
      key: `command:${command.id}`,
      command,
    })),
  };
  const screenMatches = matching(screenPlaces, t, place);
  const screenSection = {
    heading: 'Screens',
    best: screenMatches.best,
    items: screenMatches.items.map(go),
  };
  const sections: PaletteSection[] = [
    { heading: 'Recent', items: matching(recents, t, place).items.map(go) },
    {
      heading: 'Patients',
      items: found.patients.map((p) =>
        go({
          kind: 'patient',
          href: patientHref(p.sourceId),
          label: p.name,
          detail: `Patient · ${p.sourceId}`,
        }),
      ),
    },
    {
      heading: 'Protocols',
      items: found.protocols.map((p) =>
        go({
          kind: 'protocol',
          href: `/protocols/${encodeURIComponent(p.localId)}`,
          label: p.customerName,
          detail: `Protocol · ${p.sourceId}`,
        }),
      ),
    },
    {
      heading: 'Orders',
      items: found.orders.map((o) =>
        go({
          kind: 'order',
          href: `/orders/${encodeURIComponent(o.id)}`,
          label: `${o.id} · ${o.customerName}`,
          detail: `Order · ${orderStatusLabel(o.status)} · ${o.sourceId}`,
        }),
      ),
    },
    // Of commands and screens, the section with the better match comes first.
    ...[commandSection, screenSection].sort((a, b) => b.best - a.best),
  ];
  // A place listed under Recent is not listed again below it.
  const recentKeys = new Set(sections[0]!.items.map((i) => i.key));
  return sections
    .map((s, i) => (i === 0 ? s : { ...s, items: s.items.filter((x) => !recentKeys.has(x.key)) }))
    .filter((s) => s.items.length > 0);
}
