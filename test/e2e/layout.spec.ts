import { expect, test } from '@test/support/e2e/fixtures';
import {
  ALL_SIZES,
  LAYOUT_SIZES,
  pageErrors,
  pastContainer,
  sidewaysOverflow,
} from '@test/support/e2e/layout';
import { saveScreen } from '@test/support/e2e/screens';
import { tourEveryScreen } from '@test/support/e2e/tour';

/**
 * Every screen, with data, at the smallest supported window and at a large one: nothing in the
 * main region scrolls or is cut sideways, and each screen has one h1. A screenshot of each
 * screen as the window shows it is kept (test-results/screens/layout-<size>-<screen>.png);
 * ORDER_DESK_ALL_SIZES=1 adds 1280×800 and 2560×1440 for a reviewer's look.
 */
test.describe.configure({ timeout: 180_000 });

const sizes = process.env.ORDER_DESK_ALL_SIZES ? ALL_SIZES : LAYOUT_SIZES;

for (const size of sizes) {
  const label = `${size.width}x${size.height}`;
  test(`every screen fits a ${label} window`, async ({ app, host, partnerSandbox }, testInfo) => {
    const errors = pageErrors(app);
    await app.setViewportSize(size);
    await tourEveryScreen(app, host, partnerSandbox, async (screen) => {
      await saveScreen(app, testInfo, `layout-${label}-${screen}`, { fullPage: false });
      await expect.soft(app.locator('main h1'), `the h1 of ${screen}`).toHaveCount(1);
      expect.soft(await sidewaysOverflow(app), `sideways overflow on ${screen}`).toEqual([]);
      if (screen === 'refills') {
        const headers = app.locator('.refills-table').first().getByRole('columnheader');
        for (const column of ['Runs out on', 'Days left'])
          await expect.soft(headers.filter({ hasText: column })).toBeInViewport({ ratio: 1 });
        const cells = await pastContainer(app, '.refills-table th', '.refills-table-wrap');
        expect
          .soft(
            cells.filter((px) => px > 0),
            'refill headers past their card',
          )
          .toEqual([]);
      }
      if (screen === 'editor') {
        for (const field of ['Email (optional)', 'Phone (optional)']) {
          const input = app.getByLabel(field, { exact: true });
          await expect.soft(input).toBeInViewport({ ratio: 1 });
        }
        const inputs = await pastContainer(app, 'form.editor-form .input', '.form-group');
        expect
          .soft(
            inputs.filter((px) => px > 0),
            'editor inputs past their fieldset',
          )
          .toEqual([]);
      }
    });
    expect(errors, 'uncaught errors and console errors').toEqual([]);
  });
}
