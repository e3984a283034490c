import { fieldPath } from '@shared/field-names';

/** The paths the form has a field for, as the server or main may name them. */
export function formPath(path: readonly (string | number)[]): string | null {
  const p = path.filter((s) => s !== 'body' && s !== 'draft').map(String);
  if (p.length === 0) return null;
  if (p[0] === 'lineItems' && p.length >= 3) {
    const field = p[2];
    if (field === 'administration')
      return p.length >= 4 ? p.slice(0, 4).join('.') : `lineItems.${p[1]}.quantity`;
    if (field === 'quantity' || field === 'productId') return `lineItems.${p[1]}.${field}`;
    if (field === 'packDescription') return `lineItems.${p[1]}.productId`;
    return `lineItems.${p[1]}.productId`;
  }
  if (p[0] === 'lineItems') return 'lineItems';
  return p.join('.');
}

export interface ServerIssue {
  path: string | null;
  message: string;
}

const REFUSED = 'The server refused it: ';

/**
 * A rejected change's message, as main words it ("The server refused it: Email: msg; Product 1
 * product: msg"), split back into the fields it names. A message of another kind
 * is one issue with no field.
 */
export function serverIssues(
  message: string | null,
  lines: readonly { id: number; name?: string | undefined }[] = [],
): ServerIssue[] {
  if (!message) return [];
  if (!message.startsWith(REFUSED)) return [{ path: null, message }];
  const issues: ServerIssue[] = [];
  for (const part of message.slice(REFUSED.length).split('; ')) {
    // Main names each field as the form labels it ("Patient ID: required"): back to its path.
    const m = /^([^:]+): (.*)$/.exec(part);
    const path = m?.[1] ? fieldPath(m[1]) : null;
    // A refused product is said in plain words ("Magnesium Glycinate is discontinued"): its line.
    const line = lines.findIndex(
      (l) =>
        part.startsWith(`${l.name ?? `Product ${l.id}`} `) || part.startsWith(`Product ${l.id} `),
    );
    if (path !== null && m?.[2] !== undefined) {
      issues.push({ path: formPath(path.split('.')), message: m[2] });
    } else if (line !== -1) issues.push({ path: `lineItems.${line}.productId`, message: part });
    else issues.push({ path: null, message: part });
  }
  return issues;
}

/** The reasons of a refusal without main's lead-in, for a place whose title already says it. */
export const refusalReasons = (message: string | null): string | null =>
  message?.startsWith(REFUSED) ? message.slice(REFUSED.length) : message;

/** The refusal in words: reasons that name a field are shown on that field instead. */
export function refusalText(message: string | null): string {
  const issues = serverIssues(message);
  if (issues.length === 0) return 'No reason was given.';
  const unplaced = issues.filter((i) => i.path === null).map((i) => i.message.replace(/\.?$/, '.'));
  const placed = issues.length - unplaced.length;
  return [
    ...unplaced,
    ...(placed > 0
      ? [
          `The reason${placed > 1 ? 's are' : ' is'} shown on the field${placed > 1 ? 's' : ''} below.`,
        ]
      : []),
  ].join(' ');
}
