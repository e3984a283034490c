import { useRoute } from 'wouter';
import '@renderer/styles/batches.css';
import { BatchList } from './BatchList';
import { ReviewView } from './ReviewView';
import { RunView } from './RunView';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Bulk submission (routes under /batches): the review of the protocols chosen for a batch
 * (/review), a batch as it runs (/:batchId), and every batch, newest first (/).
 */
export default function BatchesScreen() {
  const [onReview] = useRoute('/review');
  const [onRun, params] = useRoute<{ batchId: string }>('/:batchId');
  if (onReview) return <ReviewView />;
  if (onRun) return <RunView batchId={params.batchId} valid={UUID.test(params.batchId)} />;
  return <BatchList />;
}
