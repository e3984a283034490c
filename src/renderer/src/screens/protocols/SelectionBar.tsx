import { ListChecks, X } from 'lucide-react';
import { useLocation } from 'wouter';
import { useScreenCommands } from '@renderer/stores/palette-store';
import type { ProtocolSummaryView } from '@shared/protocol-views';
import { formatCount } from '@renderer/lib/format';
import { errorMessage } from '@renderer/lib/ipc';
import type { PagedState } from '@renderer/lib/paged-query';
import { useBatchDraftStore } from '@renderer/stores/batch-draft-store';
import { BATCH_MAX, isFiltered, useProtocolsStore } from '@renderer/stores/protocols-store';
import { useSelectedShown } from './use-selected-shown';

/**
 * The selection for a batch: how many are selected (and how many of them the current search
 * hides: they stay selected), select all that match, clear, and the hand-off to the review.
 */
export function SelectionBar({ list }: { list: PagedState<ProtocolSummaryView> }) {
  const selected = useProtocolsStore((s) => s.selected);
  const shown = useSelectedShown(selected);
  const { total } = list;
  const ready = list.status === 'ready' && !list.stale && list.counted;
  const all = ready ? `Select all ${formatCount(total)}` : 'Select all';
  const filtered = useProtocolsStore(isFiltered);
  const selectingAll = useProtocolsStore((s) => s.selectingAll);
  const selectError = useProtocolsStore((s) => s.selectError);
  const selectAll = useProtocolsStore((s) => s.selectAllMatching);
  const clear = useProtocolsStore((s) => s.clearSelection);
  const [, navigate] = useLocation();
  const n = selected.size;
  const empty = ready && total === 0 && !filtered && n === 0;
  const hidden = shown === null ? 0 : n - shown;
  const tooMany = n > BATCH_MAX;

  const review = () => {
    useBatchDraftStore.getState().choose([...selected], '/protocols');
    navigate('/batches/review');
  };
  useScreenCommands(
    'protocol-selection',
    n === 0
      ? []
      : [
          ...(tooMany
            ? []
            : [
                {
                  id: 'protocols-review',
                  label: `Review batch (${formatCount(n)} selected)`,
                  keywords: ['order', 'submit', 'send'],
                  run: review,
                },
              ]),
          { id: 'protocols-clear', label: 'Clear selection', run: clear },
        ],
  );

  // No protocols at all: the empty state says what to do, a selection bar would only be noise.
  if (empty) return null;
  return (
    <div className="selection-bar" role="group" aria-label="Selection for a batch">
      <p className="selection-count" role="status">
        {n === 0 ? (
          <span className="muted">No protocol selected</span>
        ) : (
          <>
            <strong>{formatCount(n)} selected</strong>
            {hidden > 0 && (
              <span className="muted">
                {' '}
                · {hidden === n
                  ? n === 1
                    ? 'it is'
                    : 'all are'
                  : `${formatCount(hidden)} are`}{' '}
                hidden by the search or filters, still selected
              </span>
            )}
          </>
        )}
        {tooMany && (
          <span id="batch-too-big" className="field-error">
            {' '}
            A batch takes at most {formatCount(BATCH_MAX)} protocols: narrow the selection.
          </span>
        )}
        {selectError && (
          <span className="field-error" role="alert">
            {' '}
            Could not select them: {errorMessage(selectError)}
          </span>
        )}
      </p>
      <div className="selection-actions">
        <button
          type="button"
          className="button"
          disabled={!ready || total === 0 || selectingAll || (shown !== null && shown >= total)}
          aria-busy={selectingAll || undefined}
          onClick={() => void selectAll()}
        >
          <ListChecks aria-hidden="true" size={16} />
          {filtered ? `${all} matching` : all}
        </button>
        <button type="button" className="button" disabled={n === 0} onClick={clear}>
          <X aria-hidden="true" size={16} />
          Clear selection
        </button>
        <button
          type="button"
          className="button button-primary"
          disabled={n === 0 || tooMany}
          aria-describedby={tooMany ? 'batch-too-big' : undefined}
          onClick={review}
        >
          Review batch ({formatCount(n)})
        </button>
      </div>
    </div>
  );
}
