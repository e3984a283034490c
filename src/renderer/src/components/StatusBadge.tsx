import type { ProductStatus } from '../../../shared/api';
import { STATUS_LABELS } from '../lib/format';

export function StatusBadge({ status }: { status: ProductStatus }) {
  return <span className={`badge badge-${status.toLowerCase()}`}>{STATUS_LABELS[status]}</span>;
}
