import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Router } from 'wouter';
import { describe, expect, it } from 'vitest';
import { localDay } from '@shared/dashboard-views';
import { RefillsView, type RefillView } from '@shared/work-views';
import { useGuardedHashLocation } from '@renderer/lib/navigation-guard';
import RefillsScreen from '@renderer/screens/refills/RefillsScreen';
import { installOrderDesk, later, pass } from '@test/support/component/fake-order-desk';

const DAY = 86_400_000;
const NOW = Date.parse('2026-11-29T09:00:00.000Z');

/** A due protocol of `name` whose last order runs out in `daysLeft` days. */
function due(n: number, name: string, daysLeft: number): RefillView {
  return {
    protocol: {
      localId: `00000000-0000-4000-8000-00000000000${n}`,
      serverId: `prot_${n}`,
      customerName: name,
      sourceId: `PAT-${n}`,
      email: null,
      syncState: 'synced',
      deleted: false,
      localUpdatedAt: NOW - 40 * DAY,
      change: null,
    },
    lastOrderId: `ord_${n}`,
    lastOrderedAt: new Date(NOW - (30 - daysLeft) * DAY).toISOString(),
    daysSupply: 30,
    runsOutAt: new Date(NOW + daysLeft * DAY).toISOString(),
    daysLeft,
    daysEarly: Math.max(0, daysLeft - 7),
  };
}

const ADA = due(1, 'Ada Lovelace', 3);
const GRACE = due(2, 'Grace Hopper', 12);
const ALAN = due(3, 'Alan Turing', 25);

/** What main answers for each window: who runs out within it. */
const ANSWERS: Record<number, RefillView[]> = {
  30: [ADA, GRACE, ALAN],
  14: [ADA, GRACE],
  7: [ADA],
};

function renderRefills() {
  window.history.replaceState(null, '', '#/refills');
  return render(
    <Router hook={useGuardedHashLocation}>
      <Route path="/refills">
        <RefillsScreen />
      </Route>
    </Router>,
  );
}

/** What the due section shows: its heading's days, its count, and the patients in its rows. */
function dueSection() {
  const heading = screen.getByRole('heading', { level: 2, name: /^Due within/ });
  const section = heading.closest('section')!;
  const rows = within(section)
    .queryAllByRole('row')
    .slice(1)
    .map((r) => within(r).getByRole('rowheader').textContent);
  const count = heading.querySelector('.section-count')!;
  return {
    heading: heading.textContent!.slice(0, -count.textContent!.length).trim(),
    count: Number(count.textContent),
    rows,
    summary: screen.getByRole('status').textContent,
  };
}

describe('Refills due, when the window changes', () => {
  it('keeps the heading, the count and the rows one answer’s until the new answer is in', async () => {
    const held = later<RefillsView>();
    const desk = installOrderDesk({
      'refills.due': ({ withinDays }) =>
        withinDays === 7
          ? held.promise
          : RefillsView.parse({ due: ANSWERS[withinDays], neverOrdered: [] }),
    });
    renderRefills();
    await screen.findByRole('heading', { level: 2, name: /^Due within 30 days/ });
    expect(dueSection()).toMatchObject({
      heading: 'Due within 30 days',
      count: 3,
      rows: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'],
    });

    await userEvent.click(screen.getByRole('radio', { name: '7 days' }));
    await pass(0);
    expect(desk.argsOf('refills.due')).toContainEqual({ withinDays: 7 });
    // The answer for 7 days is held back: everything still says what the 30 days' answer holds.
    const waiting = dueSection();
    expect(waiting).toMatchObject({
      heading: 'Due within 30 days',
      count: 3,
      rows: ['Ada Lovelace', 'Grace Hopper', 'Alan Turing'],
    });
    expect(waiting.summary).toBe('Updating…');

    await held.resolve(RefillsView.parse({ due: ANSWERS[7], neverOrdered: [] }));
    const answered = dueSection();
    expect(answered).toMatchObject({
      heading: 'Due within 7 days',
      count: 1,
      rows: ['Ada Lovelace'],
    });
    expect(answered.summary).toBe('1 protocol due within 7 days; 0 not ordered yet.');
  });
});

describe('Refills due of one day (from the dashboard)', () => {
  it('lists only the supplies that run out that local day, with a way back to all', async () => {
    const desk = installOrderDesk({
      'refills.due': () => ({ due: ANSWERS[30]!, neverOrdered: [] }),
    });
    const day = localDay(Date.parse(GRACE.runsOutAt));
    window.history.replaceState(null, '', `#/refills/${day}`);
    render(
      <Router hook={useGuardedHashLocation}>
        <Route path="/refills/:day">{(p) => <RefillsScreen day={p.day} />}</Route>
      </Router>,
    );
    const heading = await screen.findByRole('heading', { level: 2, name: /^Running out that day/ });
    const rows = within(heading.closest('section')!)
      .getAllByRole('rowheader')
      .map((r) => r.textContent);
    expect(rows).toEqual(['Grace Hopper']);
    expect(desk.argsOf('refills.due')).toEqual([{ withinDays: 30 }]);
    expect(screen.getByRole('link', { name: 'Show every refill due' }).getAttribute('href')).toBe(
      '#/refills',
    );
    expect(screen.queryByRole('heading', { name: /^Not ordered yet/ })).toBeNull();
  });
});
