import { zodResolver } from '@hookform/resolvers/zod';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useFieldArray, useForm, type FieldPath } from 'react-hook-form';
import type { PatientIdChoice, PatientIdClashView } from '@shared/patient-identity-views';
import type { ProtocolView } from '@shared/protocol-views';
import type { IpcError } from '@shared/ipc';
import { ConfirmDialog } from '@renderer/components/Dialog';
import { sentence } from '@renderer/components/Field';
import { describeError } from '@renderer/lib/ipc';
import { forceNavigate } from '@renderer/lib/navigation-guard';
import { useAppStore } from '@renderer/stores/app-store';
import { usePricing } from '@renderer/stores/catalog-reads';
import { usePendingDeleteStore } from '@renderer/stores/pending-delete-store';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { protocolTopic, toast, useToastStore } from '@renderer/stores/toast-store';
import { undoAction } from '@renderer/stores/undo-store';
import { ConfirmOneOrder } from '@renderer/components/ConfirmSubmit';
import { CustomerFieldset } from './CustomerFieldset';
import { DuplicateDialog } from './DuplicateDialog';
import { EditorActions } from './EditorActions';
import { EditorHeadActions } from './EditorHeadActions';
import { PatientIdDialog, type PatientIdAnswer } from './PatientIdDialog';
import {
  EditorForm,
  type EditorMode,
  emptyForm,
  formValues,
  newLine,
  type EditorFormInput,
  type EditorFormOutput,
} from './editor-form';
import { formPath, serverIssues } from '@renderer/lib/server-issues';
import { LineItemRow } from './LineItemRow';
import { OrderProgress } from '@renderer/components/OrderProgress';
import { OrderSettings } from './OrderSettings';
import { LivePrice } from './LivePrice';
import type { PreviewDiscount } from './price-preview';
import { ProductPicker } from './ProductPicker';
import { SyncStatus } from './SyncStatus';
import { useLineProducts } from '@renderer/stores/line-products';
import { useEditorCommands } from './use-editor-commands';
import { useLeaveGuard } from './use-leave-guard';
import { useOrderNow } from './use-order-now';
import { saveProtocol } from './protocol-commands';
import { useFollowedProtocol } from './use-protocol-editor';

interface Props {
  mode: EditorMode;
  /** The saved protocol (edit mode); null for a new protocol or a new order. */
  initial: ProtocolView | null;
}

type Feedback = { kind: 'error'; title: string; detail: string | null } | null;

const fullName = (v: { customer: { firstName: string; lastName: string } }) =>
  `${v.customer.firstName} ${v.customer.lastName}`.trim();

/** The whole protocol (or a new order) in one form, with its live price and its sync state. */
export function ProtocolEditor({ mode, initial }: Props) {
  const online = useAppStore((s) => s.online);
  const exact = useAppStore((s) => s.connection?.kind === 'embedded');
  const connection = useAppStore((s) => s.connection);
  const pricing = usePricing();
  // The terms main keeps (read at connect and by every sync), never the Settings screen's copy.
  const discount = useMemo<PreviewDiscount>(
    () =>
      pricing.data?.known
        ? { known: true, value: pricing.data.discountValue }
        : { known: false, reading: pricing.status === 'loading' },
    [pricing.data, pricing.status],
  );
  const [view, setView] = useState<ProtocolView | null>(initial);
  const [feedback, setFeedback] = useState<Feedback>(null);
  const [duplicating, setDuplicating] = useState(false);
  /** The save stopped on a Patient ID that names another person, waiting for the answer. */
  const [asking, setAsking] = useState<{
    clash: PatientIdClashView;
    draft: EditorFormOutput;
  } | null>(null);
  const [answering, setAnswering] = useState(false);

  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    setValue,
    trigger,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<EditorFormInput, unknown, EditorFormOutput>({
    resolver: zodResolver(EditorForm),
    defaultValues: initial ? formValues(initial.draft, () => undefined) : emptyForm(),
    mode: 'onChange',
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'lineItems' });
  // A stored copy the app's rules now refuse (phone "abc", a ZIP code of another state) opens as
  // it is, with the problem on its field, rather than only once Save is pressed.
  const opened = useRef(initial !== null);
  useEffect(() => {
    if (!opened.current) return;
    opened.current = false;
    void trigger(['customer.phone', 'customer.address.state', 'customer.address.zipCode']);
  }, [trigger]);
  // Product ids change only when a line is added or removed: no watch of every keystroke here.
  const productIds = useMemo(() => fields.map((f) => f.productId), [fields]);
  const { productOf, remember: rememberProduct } = useLineProducts(productIds);
  const knownProduct = useCallback(
    (id: number) => {
      const p = productOf(id);
      return typeof p === 'object' ? p : undefined;
    },
    [productOf],
  );
  const chosen = useMemo(() => new Set(productIds), [productIds]);

  /** Puts each of the server's complaints on its field; returns those no field shows. */
  const placeIssues = useCallback(
    (issues: { path: string | null; message: string }[]): string[] => {
      const unplaced: string[] = [];
      for (const issue of issues) {
        if (issue.path) {
          setError(issue.path as FieldPath<EditorFormInput>, {
            type: 'server',
            message: issue.message,
          });
        } else unplaced.push(issue.message);
      }
      return unplaced;
    },
    [setError],
  );

  const failed = (what: string, error: IpcError) => {
    const unplaced = placeIssues(
      error.fieldErrors.map((fe) => ({ path: formPath(fe.path), message: fe.message })),
    );
    const placedAll = error.fieldErrors.length > 0 && unplaced.length === 0;
    const { title, detail } = describeError(error);
    setFeedback({
      kind: 'error',
      title: placedAll ? `${what}: some fields need attention.` : `${what}. ${title}`,
      detail: placedAll ? null : [detail, ...unplaced].filter(Boolean).join(' ') || null,
    });
  };

  const {
    batchId,
    ordering,
    reviewingOrder,
    confirming,
    closeConfirmation,
    orderSettled,
    setOrderSettled,
    askToOrder,
    placeOrder,
    startAnother,
  } = useOrderNow(failed, () => setFeedback(null));
  // A new order sent (or created) has nothing left to lose; one refused is the user's to fix.
  const orderSent = mode === 'order' && batchId !== null && orderSettled !== 'rejected';
  const guard = useLeaveGuard(isDirty && !isSubmitting && !orderSent);
  // A saved protocol as it was saved: Save changes has nothing to send.
  const unchanged = view !== null && !isDirty && !isSubmitting;

  // A change the server refused: its reasons go on the fields they name.
  const rejectedMessage = view?.change?.state === 'rejected' ? view.change.message : null;
  // Refused or in conflict: a "Protocol saved" toast beside the banner would say otherwise.
  const troubledId =
    view && (rejectedMessage !== null || view.syncState === 'conflict') ? view.localId : null;
  useEffect(() => {
    if (troubledId) useToastStore.getState().settle(protocolTopic(troubledId));
  }, [troubledId]);
  // The lines as a refusal may name them (a refused product in plain words names its product).
  const lineRefs = useMemo(
    () => productIds.map((id) => ({ id, name: knownProduct(id)?.name })),
    [productIds, knownProduct],
  );
  useEffect(() => {
    if (rejectedMessage) placeIssues(serverIssues(rejectedMessage, lineRefs));
  }, [rejectedMessage, placeIssues, lineRefs]);

  // The sync state follows the protocol and its job: read again whenever either changes.
  const localId = view?.localId ?? null;
  const saved = useFollowedProtocol(localId);
  // The draft the form was last filled from: a draft changed under a form with nothing typed in
  // it (an undo, a pull) fills the form again; typing is never overwritten.
  const formDraft = useRef(initial ? JSON.stringify(initial.draft) : null);
  const dirty = useRef(isDirty);
  dirty.current = isDirty;
  useEffect(() => {
    if (!saved.data) return;
    setView(saved.data);
    const draft = JSON.stringify(saved.data.draft);
    if (dirty.current || saved.data.deleted || draft === formDraft.current) return;
    formDraft.current = draft;
    reset(
      formValues(saved.data.draft, (id) => {
        const p = productOf(id);
        return typeof p === 'object' ? p.external : undefined;
      }),
    );
  }, [saved.data, reset, productOf]);

  /** Saves; a Patient ID that names another person asks first (PatientIdDialog). */
  const save = async (draft: EditorFormOutput, patientId?: PatientIdChoice): Promise<void> => {
    const result = await saveProtocol(view?.localId ?? null, draft, patientId);
    if (!result.ok) {
      const clash = result.error.patientIdClash;
      if (clash) {
        setAsking({ clash, draft });
        return;
      }
      setAsking(null);
      return failed('The protocol was not saved', result.error);
    }
    setAsking(null);
    const saved = result.value;
    reset(
      formValues(saved.draft, (id) => {
        const p = productOf(id);
        return typeof p === 'object' ? p.external : undefined;
      }),
    );
    setView(saved);
    formDraft.current = JSON.stringify(saved.draft);
    toast.success(
      online ? 'Protocol saved.' : 'Protocol saved on this computer.',
      online ? null : 'It will be sent to the server when the server is back.',
      {
        topic: protocolTopic(saved.localId),
        action: undoAction({ kind: view ? 'edit' : 'create', localId: saved.localId }),
      },
    );
    if (!view) forceNavigate(`/protocols/${saved.localId}`, { replace: true });
  };

  const onSave = handleSubmit(async (draft) => {
    setFeedback(null);
    if (mode === 'order') return askToOrder({ from: 'scratch', draft });
    await save(draft);
  });

  const answerPatientId = async (answer: PatientIdAnswer) => {
    if (!asking) return;
    setAnswering(true);
    if (answer.choice === 'new-id') {
      setValue('customer.sourceId', answer.sourceId, { shouldDirty: true });
      const draft = {
        ...asking.draft,
        customer: { ...asking.draft.customer, sourceId: answer.sourceId },
      };
      await save(draft);
    } else {
      await save(asking.draft, answer);
    }
    setAnswering(false);
  };

  const onKeyDown = (event: React.KeyboardEvent<HTMLFormElement>) => {
    if ((event.ctrlKey || event.metaKey) && event.key.toLowerCase() === 's') {
      event.preventDefault();
      if (!unchanged) void onSave();
    }
  };

  const orderNow = () => {
    if (view && !ordering) void askToOrder({ from: 'protocol', protocolLocalId: view.localId });
  };

  const onOrderRejected = useCallback(
    (message: string | null) => {
      setOrderSettled('rejected');
      placeIssues(serverIssues(message, lineRefs).filter((i) => i.path !== null));
    },
    [placeIssues, lineRefs],
  );

  const onOrderCreated = useCallback(() => setOrderSettled('created'), []);

  const deleteProtocol = () => {
    if (!view) return;
    const id = view.localId;
    const name = fullName(view.draft) || 'this patient';
    const undo = () => forceNavigate(`/protocols/${id}`);
    // Deleted protocols are not offered for a batch.
    if (usePendingDeleteStore.getState().schedule(id, name, undo))
      useProtocolsStore.getState().deselect([id]);
    forceNavigate('/protocols');
  };

  const title =
    mode === 'order'
      ? 'New order'
      : view
        ? `Protocol for ${fullName(view.draft) || 'a patient'}`
        : 'New protocol';
  const following = batchId !== null && orderSettled === null;
  // A placed order is kept on screen as it was sent; a deleted protocol cannot be edited.
  const locked = orderSent || view?.deleted === true;
  useEditorCommands({
    view,
    isDirty,
    locked,
    onOrderNow: orderNow,
    onDuplicate: () => setDuplicating(true),
  });
  const lineError = errors.lineItems?.root?.message ?? errors.lineItems?.message;

  return (
    <div className="screen editor-screen">
      <div className="screen-head">
        <h1>{title}</h1>
        {view && !view.deleted && (
          <EditorHeadActions
            view={view}
            isDirty={isDirty}
            onDuplicate={() => setDuplicating(true)}
            onDelete={deleteProtocol}
          />
        )}
      </div>
      {view?.deleted ? (
        <p className="notice notice-warn" role="status">
          This protocol is deleted here; the delete reaches the server when it can.
        </p>
      ) : (
        view && <SyncStatus view={view} online={online} />
      )}
      {mode === 'order' && (
        <p className="muted">
          One order from scratch, sent exactly once. Nothing is kept as a protocol.
        </p>
      )}
      {!online && !view && (
        <p className="notice notice-info" role="status">
          Offline: {mode === 'order' ? 'the order' : 'the protocol'} is kept on this computer and
          sent when the server is back.
        </p>
      )}
      <div className="editor-layout">
        <form
          className="form editor-form"
          onSubmit={(event) => {
            if (!unchanged) return onSave(event);
            event.preventDefault();
          }}
          onKeyDown={onKeyDown}
          noValidate
          aria-label={title}
        >
          <fieldset className="editor-fields" disabled={locked}>
            <CustomerFieldset
              bind={(name) => register(`customer.${name}`)}
              errors={errors.customer}
              idPrefix="editor"
              storedState={initial?.draft.customer.address.state}
            />
            <OrderSettings register={register} errors={errors} />
            <fieldset className="form-group">
              <legend>Products</legend>
              {fields.length === 0 ? (
                <p className="muted">No product yet: search the catalog below to add one.</p>
              ) : (
                <div className="line-items">
                  {fields.map((field, index) => (
                    <LineItemRow
                      key={field.id}
                      index={index}
                      productId={field.productId}
                      product={productOf(field.productId)}
                      control={control}
                      register={register}
                      errors={errors}
                      knownProduct={knownProduct}
                      discount={discount}
                      onRemove={() => remove(index)}
                    />
                  ))}
                </div>
              )}
              {lineError && <p className="field-error">{sentence(lineError)}</p>}
              <ProductPicker
                chosen={chosen}
                disabled={locked || fields.length >= 50}
                onPick={(product) => {
                  rememberProduct(product);
                  append(newLine(product), { shouldFocus: false });
                }}
              />
            </fieldset>
          </fieldset>
          {/* Kept in view at the bottom: what became of Save, Order now or Place order is shown
              where it was clicked, however far the form is scrolled. */}
          <div className="editor-footer">
            {feedback && (
              <div className="notice notice-error" role="alert">
                <p className="notice-title">{feedback.title}</p>
                {feedback.detail && <p>{feedback.detail}</p>}
              </div>
            )}
            {batchId && (
              <OrderProgress
                batchId={batchId}
                onRejected={onOrderRejected}
                onCreated={onOrderCreated}
              />
            )}
            <EditorActions
              mode={mode}
              orderable={view !== null && !view.deleted}
              saved={view !== null}
              isDirty={isDirty}
              isSubmitting={isSubmitting}
              unchanged={unchanged}
              locked={locked}
              ordering={ordering}
              reviewingOrder={reviewingOrder}
              following={following}
              orderSettled={orderSettled}
              onOrderNow={orderNow}
              onStartAnother={() => {
                reset(emptyForm());
                startAnother();
              }}
            />
          </div>
        </form>
        <aside className="editor-aside" aria-label="Price">
          <LivePrice control={control} product={knownProduct} discount={discount} exact={exact} />
        </aside>
      </div>
      {confirming && (
        <ConfirmOneOrder
          review={confirming.review}
          open={confirming.open}
          connection={connection}
          busy={ordering}
          onConfirm={() => void placeOrder()}
          onCancel={closeConfirmation}
        />
      )}
      <ConfirmDialog
        open={guard.pending !== null}
        title="Leave without saving?"
        confirmLabel="Leave and discard changes"
        onConfirm={guard.leave}
        onCancel={guard.stay}
      >
        <p>Your changes to this {mode === 'order' ? 'order' : 'protocol'} are not saved.</p>
      </ConfirmDialog>
      <PatientIdDialog
        clash={asking?.clash ?? null}
        busy={answering}
        onAnswer={(answer) => void answerPatientId(answer)}
        onCancel={() => setAsking(null)}
      />
      {view && (
        <DuplicateDialog
          open={duplicating}
          localId={view.localId}
          onClose={() => setDuplicating(false)}
          onDuplicated={(copy) => {
            setDuplicating(false);
            toast.success(`Copied for ${fullName(copy.draft)}.`, null, {
              action: undoAction({ kind: 'duplicate', localId: copy.localId }),
            });
            forceNavigate(`/protocols/${copy.localId}`);
          }}
        />
      )}
    </div>
  );
}
