import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { IpcError } from '@shared/ipc';
import { PagedList } from '@renderer/components/PagedList';
import { NOTHING_READ, type PagedState } from '@renderer/lib/paged-query';
import type { PagedQueryHook } from '@renderer/lib/use-query';

interface Item {
  id: number;
  name: string;
}

const PAGE = 10;
const WORDS = {
  failed: 'Items could not be listed.',
  loading: 'Loading items…',
  pageFailed: 'Some items could not be loaded.',
  pending: 'Loading item…',
};

/** A list of `total` items whose pages `read` are read (the others are not yet). */
function listOf(total: number, read: number[], more: Partial<PagedState<Item>> = {}) {
  const pages = new Map(
    read.map((k) => [
      k,
      Array.from({ length: Math.min(PAGE, total - k * PAGE) }, (_, i) => ({
        id: k * PAGE + i,
        name: `Item ${k * PAGE + i}`,
      })),
    ]),
  );
  const state: PagedState<Item> = {
    ...NOTHING_READ,
    status: 'ready',
    total,
    counted: true,
    pages,
    stale: false,
    ...more,
  };
  const list: PagedQueryHook<Item> = {
    state,
    setView: vi.fn(),
    retry: vi.fn(),
    restart: vi.fn(),
  };
  return list;
}

function renderList(list: PagedQueryHook<Item>) {
  return render(
    <PagedList
      list={list}
      pageSize={PAGE}
      rowHeight={60}
      label="Items"
      scrollerClass="item-scroller"
      words={WORDS}
      empty={<p>Nothing here.</p>}
      keyOf={(item) => item.id}
      renderRow={(item) => (
        <a href={`#/items/${item.id}`} className="row-link">
          {item.name}
        </a>
      )}
    />,
  );
}

const failure = IpcError.parse({ kind: 'internal', message: 'The disk is unreadable.' });

describe('a paged list', () => {
  it('places each row in the whole list, a row not read yet as a skeleton, and asks for the rows in view', () => {
    const list = listOf(25, [0, 2]);
    renderList(list);
    const rows = screen.getByRole('list', { name: 'Items' });
    expect(rows.closest('.list-scroller')?.classList).toContain('item-scroller');
    const first = screen.getByRole('link', { name: 'Item 0' }).closest('li')!;
    expect(first.getAttribute('aria-setsize')).toBe('25');
    expect(first.getAttribute('aria-posinset')).toBe('1');
    const later = screen.getByRole('link', { name: 'Item 21' }).closest('li')!;
    expect(later.getAttribute('aria-posinset')).toBe('22');
    // Page 1 (rows 10 to 19) is not read: skeletons that say so.
    expect(screen.getAllByText('Loading item…')).toHaveLength(10);
    expect(screen.queryByRole('link', { name: 'Item 10' })).toBeNull();
    // 800 px of 60 px rows, and 8 more below.
    expect(list.setView).toHaveBeenLastCalledWith(0, 21);
  });

  it('moves the focus between rows with the arrows, and not past the ends', () => {
    renderList(listOf(3, [0]));
    const [a, b, c] = ['Item 0', 'Item 1', 'Item 2'].map((name) =>
      screen.getByRole('link', { name }),
    );
    a!.focus();
    fireEvent.keyDown(a!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(b);
    fireEvent.keyDown(b!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(c);
    fireEvent.keyDown(c!, { key: 'ArrowDown' });
    expect(document.activeElement).toBe(c);
    fireEvent.keyDown(c!, { key: 'ArrowUp' });
    expect(document.activeElement).toBe(b);
  });

  it('says when the first page is loading, or failed, with a way to try again', () => {
    const failed = listOf(0, [], { status: 'failed', error: failure });
    const { unmount } = renderList(listOf(0, [], { status: 'loading' }));
    expect(screen.getByRole('status').textContent).toBe('Loading items…');
    unmount();

    renderList(failed);
    expect(screen.getByRole('alert').textContent).toContain('Items could not be listed.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(failed.retry).toHaveBeenCalledTimes(1);
  });

  it('shows what an empty list says', () => {
    renderList(listOf(0, []));
    expect(screen.getByText('Nothing here.')).toBeTruthy();
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('keeps the rows shown when a later page failed, saying so with a way to try again', () => {
    const list = listOf(5, [0], { pageError: failure });
    renderList(list);
    expect(screen.getByRole('alert').textContent).toContain('Some items could not be loaded.');
    expect(screen.getByRole('link', { name: 'Item 4' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(list.retry).toHaveBeenCalledTimes(1);
  });
});
