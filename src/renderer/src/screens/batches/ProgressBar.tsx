import type { BatchProgress } from '@renderer/stores/batch-progress';
import { progressText } from '@renderer/components/batch-labels';

/** The batch's progress: created, rejected and held-back orders as coloured shares of the bar. */
export function ProgressBar({ progress, label }: { progress: BatchProgress; label: string }) {
  const total = Math.max(progress.total, 1);
  const share = (n: number) => `${(100 * n) / total}%`;
  return (
    <div
      className="batch-bar"
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={progress.total}
      aria-valuenow={progress.created + progress.rejected}
      aria-valuetext={progressText(progress)}
    >
      <span className="batch-bar-created" style={{ width: share(progress.created) }} />
      <span
        className="batch-bar-rejected"
        style={{ width: share(progress.rejected - progress.held) }}
      />
      <span className="batch-bar-held" style={{ width: share(progress.held) }} />
    </div>
  );
}
