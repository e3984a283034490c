import { expect, test } from '@test/support/e2e/fixtures';
import type { Page } from '@playwright/test';
import { escapeRegExp } from '@test/support/e2e/app';
import { connectEmbedded, editor, goTo, ipc } from '@test/support/e2e/editor';

const PACK = 'Magnesium Glycinate 120 mg';

/** The names of the editor's product lines, in order. */
const lineNames = (page: Page) => page.locator('.line-item .line-item-name');
const options = (page: Page) => page.getByRole('listbox', { name: 'Products' }).getByRole('option');

/** The names the picker lists for `search`, as main answers it. */
async function found(page: Page, search: string): Promise<string[]> {
  const page1 = await ipc<{ ok: true; value: { products: { name: string }[] } }>(
    page,
    'catalog.products',
    { search, limit: 20, sort: 'orderable' },
  );
  return page1.value.products.map((p) => p.name);
}

test('Enter right after the last letter adds the product typed, not a row of the list before it', async ({
  app,
}) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  await editor.picker(app).focus();
  // The unfiltered catalog is read on focus; typing lists it at once, the search comes later.
  await expect(app.getByRole('img', { name: 'Searching' })).toHaveCount(0);
  await app.keyboard.type('Magnesium Glycinate');
  await app.keyboard.press('Enter');
  await expect(lineNames(app)).toHaveText([PACK]);
  await expect(editor.picker(app)).toBeFocused();
  await expect(editor.picker(app)).toHaveValue('');
});

test('with the pointer resting over the list, Enter adds what was typed, and only a real move of the pointer moves the highlight', async ({
  app,
}) => {
  await connectEmbedded(app);
  await goTo(app, '#/protocols/new');
  const vitamins = await found(app, 'vitamin');
  expect(vitamins.length).toBeGreaterThanOrEqual(4);
  await editor.picker(app).focus();
  await app.keyboard.press('ArrowDown');
  await expect(options(app)).toHaveCount(20);

  // Moved over the fourth row, the pointer highlights it, and stays there.
  const fourth = options(app).nth(3);
  const box = (await fourth.boundingBox())!;
  await app.mouse.move(box.x + box.width / 2, box.y - 60, { steps: 2 });
  await app.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 6 });
  await expect(fourth).toHaveAttribute('aria-selected', 'true');

  await app.keyboard.type('Magnesium Glycinate');
  await app.keyboard.press('Enter');
  await expect(lineNames(app)).toHaveText([PACK]);

  // The list comes back under the resting pointer with the new results: the highlight is their
  // first row, and Enter adds it.
  await app.keyboard.type('vitamin');
  await expect(options(app).first()).toHaveAccessibleName(
    new RegExp(`^${escapeRegExp(vitamins[0]!)}`),
  );
  await expect(options(app)).toHaveCount(vitamins.length);
  await expect(options(app).first()).toHaveAttribute('aria-selected', 'true');
  await app.keyboard.press('Enter');
  await expect(lineNames(app)).toHaveText([PACK, vitamins[0]!]);
});
