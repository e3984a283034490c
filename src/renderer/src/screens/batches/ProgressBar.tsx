import type { BatchProgress } from '../../stores/batch-progress';
import { progressText } from './batch-labels';

/** The batch's progress: created and rejected orders as two coloured shares of the bar. */
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
      <span className="batch-bar-rejected" style={{ width: share(progress.rejected) }} />
    </div>
  );
}
