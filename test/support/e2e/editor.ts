import { expect, type Locator, type Page } from '@playwright/test';
import { escapeRegExp, expectConnected, expectFirstRunConnect } from './app';
import type { BrowserHost } from './fixtures';

/** The protocol editor's parts, by role and accessible name. */
export const editor = {
  form: (page: Page) => page.locator('form.editor-form'),
  field: (page: Page, label: string) => editor.form(page).getByLabel(label, { exact: true }),
  line: (page: Page, product: string) =>
    editor.form(page).getByRole('group', { name: product, exact: true }),
  dose: (page: Page, product: string, label: 'Morning' | 'Afternoon' | 'Evening' | 'Bedtime') =>
    editor.line(page, product).getByLabel(label, { exact: true }),
  sum: (page: Page, product: string) =>
    editor.line(page, product).getByRole('status', { name: `Quantity of ${product}: pills a day` }),
  picker: (page: Page) => page.getByRole('combobox', { name: 'Add a product' }),
  preview: (page: Page) => page.getByRole('complementary', { name: 'Price' }),
  total: (page: Page) => page.getByTestId('price-total'),
  syncStatus: (page: Page) => page.locator('.editor-sync'),
  save: (page: Page) => page.getByRole('button', { name: /^(Save protocol|Save changes)$/ }),
};

/** The confirmation of one order (Order now, Place order): a batch of one. */
export const orderDialog = (page: Page) => page.getByRole('dialog', { name: 'Send 1 order?' });

/** Goes to a route of the app (the hash), as a link would. */
export async function goTo(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => {
    (globalThis as unknown as { location: { hash: string } }).location.hash = h;
  }, hash);
}

export interface PatientInput {
  firstName: string;
  lastName: string;
  sourceId: string;
  email?: string;
  line1?: string;
  city?: string;
  state?: string;
  zipCode?: string;
}

/** Fills the patient and address fields inside `scope` (the editor or the duplicate dialog). */
export async function fillPatient(scope: Locator, p: PatientInput): Promise<void> {
  await scope.getByLabel('First name', { exact: true }).fill(p.firstName);
  await scope.getByLabel('Last name', { exact: true }).fill(p.lastName);
  await scope.getByLabel('Patient ID', { exact: true }).fill(p.sourceId);
  await scope.getByLabel('Email (optional)', { exact: true }).fill(p.email ?? '');
  await scope.getByLabel('Address line 1', { exact: true }).fill(p.line1 ?? '12 Cedar Lane');
  await scope.getByLabel('City', { exact: true }).fill(p.city ?? 'Portland');
  await scope.getByLabel('State', { exact: true }).selectOption(p.state ?? 'OR');
  await scope.getByLabel('ZIP code', { exact: true }).fill(p.zipCode ?? '97201');
}

/** Searches the catalog in the editor and adds the product with this exact name. */
export async function addProduct(page: Page, name: string): Promise<void> {
  const picker = editor.picker(page);
  await picker.fill(name);
  const option = page
    .getByRole('listbox', { name: 'Products' })
    .getByRole('option', { name: new RegExp(`^${escapeRegExp(name)}\\b`) });
  await expect(option).toBeVisible();
  await option.click();
  await expect(editor.line(page, name)).toBeVisible();
}

/**
 * The product's entry in the picker: a product the server refuses (draft, discontinued) is listed
 * disabled, with the reason.
 */
export async function pickerOption(page: Page, name: string): Promise<Locator> {
  await editor.picker(page).fill(name);
  const option = page
    .getByRole('listbox', { name: 'Products' })
    .getByRole('option', { name: new RegExp(`^${escapeRegExp(name)}\\b`) });
  await expect(option).toBeVisible();
  return option;
}

/**
 * The local catalog falls behind the server: it still says the product is active (the server
 * changed it since the last sync), so the picker offers it and the server's refusal is the answer.
 */
export function catalogSaysActive(host: BrowserHost, productId: number): void {
  const store = host.core.store;
  const product = store.products.get(productId);
  if (!product) throw new Error(`No product ${productId} in the local catalog`);
  store.products.upsertMany([{ ...product, status: 'ACTIVE' }]);
}

export async function setDoses(
  page: Page,
  product: string,
  [morning, afternoon, evening, bedtime]: [number, number, number, number],
): Promise<void> {
  await editor.dose(page, product, 'Morning').fill(String(morning));
  await editor.dose(page, product, 'Afternoon').fill(String(afternoon));
  await editor.dose(page, product, 'Evening').fill(String(evening));
  await editor.dose(page, product, 'Bedtime').fill(String(bedtime));
}

/** The editor's localId, from the address of a saved protocol. */
export async function savedLocalId(page: Page): Promise<string> {
  await expect(page).toHaveURL(/#\/protocols\/[0-9a-f-]{36}$/);
  return /#\/protocols\/([0-9a-f-]{36})$/.exec(page.url())![1]!;
}

/** Calls main as the renderer does (window.orderDesk), for checks the screen does not show. */
export function ipc<T>(page: Page, channel: string, args: unknown): Promise<T> {
  return page.evaluate(
    ([c, a]) =>
      (
        globalThis as unknown as {
          orderDesk: { call(channel: string, args: unknown): Promise<unknown> };
        }
      ).orderDesk.call(c as string, a) as Promise<T>,
    [channel, args] as const,
  );
}

/**
 * From the first-run Connect screen to the built-in sandbox, whatever screen the app then lands
 * on (the editor tests go to their own route next).
 */
export async function connectEmbedded(page: Page): Promise<void> {
  await expectFirstRunConnect(page);
  await page.getByRole('radio', { name: 'Local sandbox (built in)' }).check();
  await page.getByRole('button', { name: 'Use the local sandbox' }).click();
  await expectConnected(page, 'Local sandbox');
}
