import type { BatchProgress } from '@renderer/stores/batch-progress';

/**
 * The batch's items per state, and the total. Orders created and cancelled since are counted as
 * cancelled, not created (`cancelled`: as the order mirror says now).
 */
export function BatchCounts({
  progress: p,
  cancelled,
}: {
  progress: BatchProgress;
  cancelled: number;
}) {
  const counts = [
    { key: 'queued', label: 'Waiting', value: p.queued },
    { key: 'sending', label: 'Sending', value: p.sending },
    { key: 'in-doubt', label: 'Being checked', value: p.inDoubt },
    { key: 'created', label: 'Created', value: p.created - cancelled },
    ...(cancelled > 0 ? [{ key: 'cancelled', label: 'Cancelled', value: cancelled }] : []),
    { key: 'rejected', label: 'Rejected', value: p.rejected - p.held },
    ...(p.held > 0 ? [{ key: 'held', label: 'Held back', value: p.held }] : []),
    { key: 'total', label: 'Total', value: p.total },
  ];
  return (
    <dl className="batch-counts" aria-label="Orders per state">
      {counts.map((c) => (
        <div
          key={c.key}
          className={`batch-count batch-count-${c.key}`}
          data-testid={`count-${c.key}`}
        >
          <dt>{c.label}</dt>
          <dd>{c.value}</dd>
        </div>
      ))}
    </dl>
  );
}
