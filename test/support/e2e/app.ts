import { expect, type Locator, type Page } from '@playwright/test';

/** The renderer's landmarks and controls, by role and accessible name. */
export const ui = {
  banner: (page: Page) => page.getByRole('banner'),
  sidebar: (page: Page) => page.getByRole('navigation', { name: 'Main' }),
  productList: (page: Page) => page.getByRole('list', { name: 'Products' }),
  productLink: (page: Page, name: string) =>
    ui.productList(page).getByRole('link', { name: new RegExp(`^${escapeRegExp(name)}\\b`) }),
  productDetails: (page: Page) => page.getByRole('region', { name: 'Product details' }),
  catalogSummary: (page: Page) => page.locator('.summary[role="status"]'),
  statusFilter: (page: Page, label: string) =>
    page.getByRole('group', { name: 'Filter by status' }).getByRole('checkbox', { name: label }),
  search: (page: Page) => page.getByRole('searchbox', { name: 'Search products' }),
};

export const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Opens a product from the list: the list is virtualised (only the rows in view exist), so the
 * product is found by searching for its name first.
 */
export async function openProduct(page: Page, name: string): Promise<void> {
  await ui.search(page).fill(name);
  await ui.productLink(page, name).click();
  await expect(
    ui.productDetails(page).getByRole('heading', { level: 2, name, exact: true }),
  ).toBeVisible();
}

/** The names of the product rows currently rendered (the list is virtualised: rows on screen). */
export async function productNames(page: Page): Promise<string[]> {
  return ui.productList(page).locator('.row-title').allTextContents();
}

/** First run: the Connect screen, waiting for its first control to be usable. */
export async function expectFirstRunConnect(page: Page): Promise<void> {
  await expect(
    page.getByRole('heading', { level: 1, name: 'Welcome to Order Desk' }),
  ).toBeVisible();
  await expect(page.getByRole('radio', { name: 'Local sandbox (built in)' })).toBeEnabled();
}

/** From the first-run Connect screen: choose the built-in sandbox and wait for the dashboard. */
export async function connectLocalSandbox(page: Page): Promise<void> {
  await expectFirstRunConnect(page);
  await page.getByRole('radio', { name: 'Local sandbox (built in)' }).check();
  await page.getByRole('button', { name: 'Use the local sandbox' }).click();
  await expectConnected(page, 'Local sandbox');
  await expectOnScreen(page, 'Dashboard');
}

/** The sidebar marks this screen as the current page (the app lands on the dashboard). */
export async function expectOnScreen(page: Page, label: string): Promise<void> {
  await expect(ui.sidebar(page).getByRole('link', { name: label, exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
}

/** Opens the catalog from the sidebar (the app no longer lands on it) unless it is open. */
export async function openCatalog(page: Page): Promise<void> {
  const link = ui.sidebar(page).getByRole('link', { name: 'Catalog', exact: true });
  if ((await link.getAttribute('aria-current')) !== 'page') await link.click();
  await expect(page.getByRole('heading', { level: 1, name: 'Catalog' })).toBeVisible();
}

/** The header names the active connection and says the app is online. */
export async function expectConnected(page: Page, label: string): Promise<void> {
  const banner = ui.banner(page);
  await expect(banner).toContainText(label, { timeout: 20_000 });
  await expect(banner.getByText('Online', { exact: true })).toBeVisible();
  await expect(ui.sidebar(page)).toBeVisible();
}

/**
 * Opens the catalog if another screen is shown, and waits until the product list shows rows (the
 * first sync has filled the mirror).
 */
export async function expectProductsListed(page: Page): Promise<Locator> {
  await expect(ui.sidebar(page)).toBeVisible({ timeout: 20_000 });
  await openCatalog(page);
  const rows = ui.productList(page).getByRole('listitem');
  await expect(rows.first()).toBeVisible({ timeout: 20_000 });
  return rows;
}

/** What the Connect screen asks for a partner sandbox. */
export interface PartnerTarget {
  baseUrl: string;
  authUrl: string;
  clientId: string;
  clientSecret: string;
}

export const partnerForm = (page: Page) =>
  page.getByRole('form', { name: 'Connect to a partner sandbox' });

/** Chooses "Partner sandbox" on the Connect screen and fills its form. */
export async function fillPartnerForm(
  page: Page,
  target: PartnerTarget,
  label = 'Clinic test server',
): Promise<void> {
  await page.getByRole('radio', { name: 'Partner sandbox' }).check();
  const form = partnerForm(page);
  await form.getByLabel('Label', { exact: true }).fill(label);
  await form.getByLabel('Base URL', { exact: true }).fill(target.baseUrl);
  await form.getByLabel('Auth URL', { exact: true }).fill(target.authUrl);
  await form.getByLabel('Client ID', { exact: true }).fill(target.clientId);
  await form.getByLabel('Client secret', { exact: true }).fill(target.clientSecret);
}

/**
 * The window itself never scrolls: the sidebar and the header stay in place and only the screen
 * scrolls inside them (nothing, e.g. a visually hidden label, pushes the page past the window).
 */
export async function expectWindowNotScrollable(page: Page): Promise<void> {
  const sizes = await page.evaluate(() => {
    const g = globalThis as unknown as {
      innerHeight: number;
      innerWidth: number;
      document: { documentElement: { scrollHeight: number; scrollWidth: number } };
    };
    return {
      height: g.document.documentElement.scrollHeight - g.innerHeight,
      width: g.document.documentElement.scrollWidth - g.innerWidth,
    };
  });
  expect(sizes, 'how far the page reaches past the window').toEqual({ height: 0, width: 0 });
}

/** The built-in partner settings form's fields. */
export const settingsField = (page: Page, label: string) =>
  page.getByRole('form', { name: 'Partner settings' }).getByLabel(label, { exact: true });
