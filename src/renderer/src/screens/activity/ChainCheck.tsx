import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { Failed } from '@renderer/components/States';
import { plural } from '@renderer/lib/format';
import { useChainCheck } from './use-activity';

/**
 * What the check of the record's hash chain says: intact with how many entries (and where the
 * record starts after a retention purge), or the entry where it breaks and why.
 */
export function ChainCheck() {
  const check = useChainCheck();
  // A re-read that failed keeps the last result shown; only a first read that failed says so.
  if (check.status === 'failed' && !check.data)
    return (
      <Failed what="The record could not be checked." error={check.error} onRetry={check.refresh} />
    );
  const result = check.data;
  return (
    <div className="activity-check" data-testid="activity-check">
      {!result ? (
        <p className="muted" role="status">
          Checking the record…
        </p>
      ) : result.intact ? (
        <p className="notice notice-success" role="status">
          <ShieldCheck aria-hidden="true" size={18} /> Record intact:{' '}
          {plural(result.entries, 'entry', 'entries')}
          {result.first !== null && result.first > 1
            ? ` (from #${result.first}; older ones were removed after the retention period)`
            : ''}
        </p>
      ) : (
        <p className="notice notice-error" role="alert">
          <ShieldAlert aria-hidden="true" size={18} /> Record broken at entry #{result.brokenAt}:{' '}
          {result.message}
        </p>
      )}
      <button type="button" className="button button-small" onClick={check.refresh}>
        Check again
      </button>
    </div>
  );
}
