import { expect, type Page } from '@playwright/test';
import type { ProtocolRequest } from '@shared/api';
import { validOrderBody } from '@test/support/sandbox';
import { expectConnected, expectFirstRunConnect } from './app';
import type { BrowserHost } from './fixtures';

/** The protocol list's parts, by role and accessible name. */
export const protocolsUi = {
  list: (page: Page) => page.getByRole('list', { name: 'Protocols' }),
  rows: (page: Page) => protocolsUi.list(page).getByRole('listitem'),
  row: (page: Page, name: string) =>
    protocolsUi.list(page).getByRole('listitem').filter({ hasText: name }),
  names: (page: Page) => protocolsUi.list(page).locator('.row-title').allTextContents(),
  search: (page: Page) => page.getByRole('searchbox', { name: 'Search protocols' }),
  count: (page: Page) => page.getByTestId('protocol-count'),
  filter: (page: Page, label: string) =>
    page.getByRole('group', { name: 'Show only' }).getByRole('checkbox', { name: label }),
  /** A column's header button, which sorts the list by it (aria-pressed while it does). */
  sort: (page: Page, column: string) =>
    page
      .getByRole('group', { name: 'Sort protocols by' })
      .getByRole('button', { name: new RegExp(`^${column}(, sorted (ascending|descending))?$`) }),
  /** Sorts by a column in its usual direction (one click), unless it already does. */
  async sortBy(page: Page, column: string): Promise<void> {
    const button = protocolsUi.sort(page, column);
    if ((await button.getAttribute('aria-pressed')) !== 'true') await button.click();
    await expect(button).toHaveAttribute('aria-pressed', 'true');
  },
  selection: (page: Page) => page.getByRole('group', { name: 'Selection for a batch' }),
  checkbox: (page: Page, name: string) =>
    protocolsUi.list(page).getByRole('checkbox', { name: new RegExp(`^Select ${name} \\(`) }),
};

export const PATIENTS: readonly (readonly [string, string])[] = [
  ['Ada', 'Lovelace'],
  ['Grace', 'Hopper'],
  ['Alan', 'Turing'],
  ['Katherine', 'Johnson'],
  ['Edsger', 'Dijkstra'],
  ['Barbara', 'Liskov'],
  ['Donald', 'Knuth'],
  ['Margaret', 'Hamilton'],
  ['John', 'Backus'],
  ['Frances', 'Allen'],
  ['Dennis', 'Ritchie'],
  ['Radia', 'Perlman'],
];

/** A valid protocol for patient `i` of PATIENTS (wrapping, with a number after the name). */
export function patientDraft(i: number, overrides: Partial<ProtocolRequest> = {}): ProtocolRequest {
  const [first, last] = PATIENTS[i % PATIENTS.length]!;
  const round = Math.floor(i / PATIENTS.length);
  const lastName = round === 0 ? last : `${last} ${round + 1}`;
  const body = validOrderBody() as ProtocolRequest;
  return {
    ...body,
    customer: {
      ...body.customer,
      sourceId: `PAT-${String(1000 + i).padStart(5, '0')}`,
      firstName: first,
      lastName,
      email: `${first}.${lastName.replace(/ /g, '')}@clinic.example`.toLowerCase(),
    },
    ...overrides,
  };
}

export const fullName = (i: number) => {
  const d = patientDraft(i);
  return `${d.customer.firstName} ${d.customer.lastName}`;
};

/** Drafts protocols in the host's local store, as the editor would (each pending until sent). */
export function draftLocally(host: BrowserHost, indexes: Iterable<number>): string[] {
  const protocols = host.core.session!.protocols;
  return [...indexes].map((i) => protocols.create(patientDraft(i)).localId);
}

/** Opens #/protocols from anywhere (the sidebar link). */
export async function openProtocols(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Protocols' })
    .click();
  await expect(page.getByRole('heading', { level: 1, name: 'Protocols' })).toBeVisible();
}

/** Waits until the rows answer what is typed and chosen (the list is not busy). */
export async function expectSettled(page: Page): Promise<void> {
  await expect(page.locator('ul[aria-label="Protocols"][aria-busy="true"]')).toHaveCount(0);
}

/** The names of patients `indexes` in the list's 'name' order: last name, then first name. */
export function namesByName(indexes: Iterable<number>): string[] {
  const key = (i: number) => {
    const c = patientDraft(i).customer;
    return `${c.lastName.toLowerCase()}\u001f${c.firstName.toLowerCase()}`;
  };
  return [...indexes]
    .sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
    .map(fullName);
}

/** First run: connects to the built-in sandbox (wherever Connect lands) and opens #/protocols. */
export async function connectToProtocols(page: Page): Promise<void> {
  await expectFirstRunConnect(page);
  await page.getByRole('radio', { name: 'Local sandbox (built in)' }).check();
  await page.getByRole('button', { name: 'Use the local sandbox' }).click();
  await expectConnected(page, 'Local sandbox');
  await openProtocols(page);
}
