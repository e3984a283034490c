import { Loader2, Save, Send, ShoppingCart } from 'lucide-react';
import type { EditorMode } from './editor-form';

interface Props {
  mode: EditorMode;
  /** A saved protocol that is not deleted: Order now is offered. */
  orderable: boolean;
  /** Saved before: the submit button says Save changes. */
  saved: boolean;
  isDirty: boolean;
  isSubmitting: boolean;
  /** Saved and unchanged: Save has nothing to send. */
  unchanged: boolean;
  locked: boolean;
  ordering: boolean;
  reviewingOrder: boolean;
  /** The order placed is being followed. */
  following: boolean;
  orderSettled: 'created' | 'rejected' | null;
  onOrderNow(): void;
  onStartAnother(): void;
}

/** The editor's buttons: Order now, and Save (or Place order, or Start another order). */
export function EditorActions(p: Props) {
  return (
    <div className="form-actions editor-actions">
      {p.orderable && (
        <button
          type="button"
          className="button"
          onClick={p.onOrderNow}
          // Not disabled while the order is reviewed: the focus stays here, to come back to.
          disabled={p.isDirty || p.ordering || p.following || p.orderSettled === 'created'}
          aria-busy={p.ordering || p.reviewingOrder}
          title={p.isDirty ? 'Save your changes first' : undefined}
        >
          {p.ordering || p.reviewingOrder ? (
            <Loader2 aria-hidden="true" size={16} className="spin" />
          ) : (
            <ShoppingCart aria-hidden="true" size={16} />
          )}
          Order now
        </button>
      )}
      {p.mode === 'order' && p.orderSettled === 'created' ? (
        <button type="button" className="button button-primary" onClick={p.onStartAnother}>
          Start another order
        </button>
      ) : (
        <button
          type="submit"
          className="button button-primary"
          // A new order keeps the focus while it is reviewed (askToOrder ignores a second click).
          disabled={(p.isSubmitting && p.mode !== 'order') || p.locked}
          // Unchanged, it stays focusable (the focus is not lost when a save ends) and
          // says why it does nothing.
          aria-disabled={p.unchanged || undefined}
          aria-busy={p.isSubmitting}
          title={p.unchanged ? 'No changes to save' : undefined}
        >
          {p.isSubmitting ? (
            <Loader2 aria-hidden="true" size={16} className="spin" />
          ) : p.mode === 'order' ? (
            <Send aria-hidden="true" size={16} />
          ) : (
            <Save aria-hidden="true" size={16} />
          )}
          {p.mode === 'order' ? 'Place order' : p.saved ? 'Save changes' : 'Save protocol'}
        </button>
      )}
    </div>
  );
}
