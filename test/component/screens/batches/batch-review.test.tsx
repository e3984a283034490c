import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { beforeEach, describe, expect, it } from 'vitest';
import { BatchReviewView, type ReviewItemView } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import { ReviewView } from '@renderer/screens/batches/ReviewView';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import { installOrderDesk } from '@test/support/component/fake-order-desk';

/** Four protocols chosen on the Protocols screen, by what the review makes of each. */
const SENT = '0b6a4c1e-8f2d-4c3a-9e71-5d2f8a6b3c01';
const BROKEN = '1c7b5d2f-9a3e-4d4b-8f82-6e3a9b7c4d02';
const REPEATS_ORDER = '2d8c6e3a-ab4f-4e5c-a093-7f4bac8d5e03';
const TWIN = '3e9d7f4b-bc5a-4f6d-b1a4-8a5cbd9e6f04';
const BATCH_ID = '4fae8a5c-cd6b-4a7e-82b5-9b6dcea07a05';

const item = (over: Partial<ReviewItemView> & Pick<ReviewItemView, 'localId'>) => ({
  customerName: 'Ada Lovelace',
  sourceId: 'PAT-ADA-1',
  estimatedTotal: '26.35',
  detail: null,
  warnings: [],
  problems: [],
  refusals: [],
  repeats: [],
  sameAs: null,
  refill: null,
  ...over,
});

/** main's review: one to send, one left out, two held back as possible duplicates. */
const REVIEW = BatchReviewView.parse({
  items: [
    item({ localId: SENT }),
    item({
      localId: BROKEN,
      customerName: 'Grace Hopper',
      sourceId: 'PAT-GH-2',
      estimatedTotal: null,
      problems: ['Product 99999 is not in the catalog on this computer.'],
    }),
    item({
      localId: REPEATS_ORDER,
      customerName: 'Alan Turing',
      sourceId: 'PAT-AT-3',
      estimatedTotal: '31.20',
      repeats: [{ orderId: 'ord_1001', createdAt: '2026-11-20T09:30:00.000Z', status: 'NEW' }],
    }),
    item({ localId: TWIN, sameAs: SENT }),
  ],
  // The held ones are not in the total until they are included.
  estimatedTotal: '26.35',
  totalUnknown: null,
  exact: true,
  duplicateCheck: { checked: true, message: null },
});

function renderReview() {
  // Set without a hashchange event, which would come a task later and meet the screen mounted.
  window.history.replaceState(null, '', '#/batches/review');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/batches" nest>
        <Route path="/review">
          <ReviewView />
        </Route>
      </Route>
    </Router>,
  );
}

const figure = (testId: string) => screen.getByTestId(testId).textContent;

beforeEach(() => {
  useBatchDraftStore.getState().choose([SENT, BROKEN, REPEATS_ORDER, TWIN], '/protocols');
});

describe('the batch review', () => {
  it('shows what is sent, what is left out and what is held, with their counts', async () => {
    const desk = installOrderDesk({ 'batches.review': () => REVIEW });
    renderReview();
    await screen.findByRole('region', { name: 'Possible duplicates' });
    expect(desk.argsOf('batches.review')).toEqual([
      { protocolLocalIds: [SENT, BROKEN, REPEATS_ORDER, TWIN] },
    ]);
    expect([figure('review-included'), figure('review-left-out'), figure('review-held')]).toEqual([
      '1',
      '1',
      '2',
    ]);
    expect(figure('review-total')).toBe('$26.35');

    const sent = screen.getByRole('list', { name: 'Orders to send' });
    expect(
      within(sent)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('Ada Lovelace')]);
    const leftOut = screen.getByRole('region', { name: 'Left out of the batch' });
    expect(
      within(leftOut).getByRole('list', { name: 'Why Grace Hopper is left out' }).textContent,
    ).toBe('Product 99999 is not in the catalog on this computer.');
    const held = screen.getByRole('region', { name: 'Possible duplicates' });
    // Its link (jsdom joins the hidden "Order " to the id without the space a browser keeps).
    const repeated = within(held).getByRole('link', { name: /ord_1001$/ });
    expect(repeated.getAttribute('href')).toBe('#/orders/ord_1001');
    expect(
      within(held).getByText('Same order as Ada Lovelace, earlier in this batch.'),
    ).toBeTruthy();
  });

  it('sends a held protocol the user includes, with the orders it repeats', async () => {
    const desk = installOrderDesk({
      'batches.review': () => REVIEW,
      'batches.submit': () => ({ batchId: BATCH_ID }),
    });
    const user = userEvent.setup();
    renderReview();
    const held = await screen.findByRole('region', { name: 'Possible duplicates' });
    const turing = within(held)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.includes('Alan Turing'))!;
    await user.click(within(turing).getByRole('checkbox', { name: /Order again anyway/ }));
    expect([figure('review-included'), figure('review-held')]).toEqual(['2', '1']);
    expect(figure('review-total')).toBe('$57.55');

    await user.click(screen.getByRole('button', { name: 'Submit 2 orders…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send 2 orders?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send 2 orders' }));

    expect(desk.argsOf('batches.submit')).toEqual([
      {
        protocolLocalIds: [SENT, REPEATS_ORDER],
        allowDuplicateOf: { [REPEATS_ORDER]: ['ord_1001'] },
      },
    ]);
    // Sent: the choice is used up, and the batch's own page follows.
    expect(useBatchDraftStore.getState().protocolLocalIds).toEqual([]);
    expect(window.location.hash).toBe(`#/batches/${BATCH_ID}`);
  });

  it('drops a protocol from the batch (and puts it back), and sends the rest under the name given', async () => {
    const desk = installOrderDesk({
      'batches.review': () => REVIEW,
      'batches.submit': () => ({ batchId: BATCH_ID }),
    });
    const user = userEvent.setup();
    renderReview();
    const held = await screen.findByRole('region', { name: 'Possible duplicates' });
    const turing = within(held)
      .getAllByRole('listitem')
      .find((li) => li.textContent?.includes('Alan Turing'))!;
    await user.click(within(turing).getByRole('checkbox', { name: /Order again anyway/ }));
    expect(figure('review-included')).toBe('2');

    await user.click(screen.getByRole('button', { name: 'Drop Ada Lovelace from the batch' }));
    expect([figure('review-included'), figure('review-dropped')]).toEqual(['1', '1']);
    expect(figure('review-total')).toBe('$31.20');
    const dropped = screen.getByRole('region', { name: 'Dropped from this batch' });
    const putBack = within(dropped).getByRole('button', {
      name: 'Put Ada Lovelace back in the batch',
    });
    expect(document.activeElement).toBe(putBack);
    await user.click(putBack);
    expect([figure('review-included'), figure('review-dropped')]).toEqual(['2', '0']);
    expect(screen.queryByRole('region', { name: 'Dropped from this batch' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Drop Ada Lovelace from the batch' }));

    await user.type(screen.getByLabelText('Batch name (optional)'), '  Turing only ');
    await user.click(screen.getByRole('button', { name: 'Submit 1 order…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send 1 order?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send 1 order' }));
    expect(desk.argsOf('batches.submit')).toEqual([
      {
        protocolLocalIds: [REPEATS_ORDER],
        allowDuplicateOf: { [REPEATS_ORDER]: ['ord_1001'] },
        name: 'Turing only',
      },
    ]);
  });

  it('leaves out what the server will refuse: not counted, not in the total, not sent, with a way to fix it', async () => {
    const REFUSED = '5a0b9c6d-de7c-4b8f-93c6-ac7edfb18b06';
    const review = BatchReviewView.parse({
      ...REVIEW,
      items: [
        ...REVIEW.items,
        item({
          localId: REFUSED,
          customerName: 'Mary Somerville',
          sourceId: 'PAT-MS-5',
          estimatedTotal: '40.00',
          refusals: ['Magnesium Glycinate is discontinued'],
        }),
      ],
    });
    useBatchDraftStore
      .getState()
      .choose([SENT, BROKEN, REPEATS_ORDER, TWIN, REFUSED], '/protocols');
    const desk = installOrderDesk({
      'batches.review': () => review,
      'batches.submit': () => ({ batchId: BATCH_ID }),
    });
    const user = userEvent.setup();
    renderReview();
    const refused = await screen.findByRole('region', { name: 'Will be refused' });
    expect([figure('review-included'), figure('review-refused'), figure('review-total')]).toEqual([
      '1',
      '1',
      '$26.35',
    ]);
    expect(
      within(refused).getByRole('list', { name: 'Why Mary Somerville will be refused' })
        .textContent,
    ).toBe('Magnesium Glycinate is discontinued');
    expect(
      within(refused)
        .getByRole('link', { name: 'Fix protocol of Mary Somerville in the editor' })
        .getAttribute('href'),
    ).toBe(`#/protocols/${REFUSED}`);
    const sent = screen.getByRole('list', { name: 'Orders to send' });
    expect(within(sent).queryByText('Mary Somerville')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Submit 1 order…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send 1 order?' });
    expect(dialog.textContent).toContain('$26.35');
    expect(dialog.textContent).not.toContain('$66.35');
    await user.click(within(dialog).getByRole('button', { name: 'Send 1 order' }));
    expect(desk.argsOf('batches.submit')).toEqual([{ protocolLocalIds: [SENT] }]);
  });
  it('sends refills chosen on Refills due beside the supply they follow, and includes all repeats at once', async () => {
    const supply = { orderId: 'ord_900', createdAt: '2026-11-09T10:00:00.000Z', status: 'SHIPPED' };
    const refills = BatchReviewView.parse({
      ...REVIEW,
      items: [
        item({ localId: SENT, refill: { of: [supply], daysEarly: 3 } }),
        item({
          localId: REPEATS_ORDER,
          customerName: 'Alan Turing',
          estimatedTotal: '31.20',
          refill: { of: [], daysEarly: 0 },
          repeats: [{ orderId: 'ord_1001', createdAt: '2026-11-20T09:30:00.000Z', status: 'NEW' }],
        }),
        item({ localId: TWIN, customerName: 'Grace Hopper', sameAs: SENT }),
      ],
    });
    useBatchDraftStore.getState().choose([SENT, REPEATS_ORDER, TWIN], '/refills', {
      [SENT]: 'ord_900',
      [REPEATS_ORDER]: 'ord_901',
    });
    const desk = installOrderDesk({
      'batches.review': () => refills,
      'batches.submit': () => ({ batchId: BATCH_ID }),
    });
    const user = userEvent.setup();
    renderReview();
    const held = await screen.findByRole('region', { name: 'Possible duplicates' });
    expect(desk.argsOf('batches.review')).toEqual([
      {
        protocolLocalIds: [SENT, REPEATS_ORDER, TWIN],
        refillOf: { [SENT]: 'ord_900', [REPEATS_ORDER]: 'ord_901' },
      },
    ]);
    // The refill is sent without a tick, and says how early it is.
    expect([figure('review-included'), figure('review-held')]).toEqual(['1', '2']);
    const sent = screen.getByRole('list', { name: 'Orders to send' });
    expect(within(sent).getByText('Refill 3 days early')).toBeTruthy();

    await user.click(within(held).getByRole('button', { name: 'Include all 2' }));
    expect([figure('review-included'), figure('review-held')]).toEqual(['3', '0']);
    await user.click(screen.getByRole('button', { name: 'Submit 3 orders…' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send 3 orders?' });
    await user.click(within(dialog).getByRole('button', { name: 'Send 3 orders' }));
    expect(desk.argsOf('batches.submit')).toEqual([
      {
        protocolLocalIds: [SENT, REPEATS_ORDER, TWIN],
        allowDuplicateOf: { [SENT]: ['ord_900'], [REPEATS_ORDER]: ['ord_1001'] },
      },
    ]);
  });
});
