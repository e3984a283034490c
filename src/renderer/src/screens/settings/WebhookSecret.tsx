import { Copy, Eye, EyeOff, Loader2, RotateCw } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { ConfirmDialog } from '@renderer/components/Dialog';
import { describeError } from '@renderer/lib/ipc';
import { revealWebhookSecret, rotateWebhookSecret } from './webhook-commands';

type Message = { kind: 'success' | 'info' | 'error'; text: string };

/**
 * The webhook signing secret: hidden until asked for (each Reveal or Copy is one call), copied to
 * the clipboard, or rotated after a confirmation. Forgotten when the screen closes.
 */
export function WebhookSecret({ webhookUrl }: { webhookUrl: string | null }) {
  const [secret, setSecret] = useState<string | null>(null);
  const [revealed, setRevealed] = useState(false);
  const [busy, setBusy] = useState<'reveal' | 'copy' | 'rotate' | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    // A new webhook URL (or none) makes the secret held here stale.
    setSecret(null);
    setRevealed(false);
  }, [webhookUrl]);

  const fetchSecret = async (): Promise<string | null> => {
    if (secret) return secret;
    const result = await revealWebhookSecret();
    if (!result.ok) {
      const { title, detail } = describeError(result.error);
      setMessage({
        kind: 'error',
        text: `The secret could not be read. ${title}${detail ? ` ${detail}` : ''}`,
      });
      return null;
    }
    if (result.value.secret === null) {
      setMessage({ kind: 'info', text: 'There is no webhook secret: set a webhook URL first.' });
      return null;
    }
    setSecret(result.value.secret);
    return result.value.secret;
  };

  const reveal = async () => {
    if (revealed) {
      setRevealed(false);
      return;
    }
    setBusy('reveal');
    setMessage(null);
    const value = await fetchSecret();
    setBusy(null);
    if (value) setRevealed(true);
  };

  const copy = async () => {
    setBusy('copy');
    setMessage(null);
    const value = await fetchSecret();
    setBusy(null);
    if (!value) return;
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(value);
      setMessage({ kind: 'success', text: 'Webhook secret copied to the clipboard.' });
    } catch {
      setRevealed(true);
      requestAnimationFrame(() => {
        input.current?.focus();
        input.current?.select();
      });
      setMessage({
        kind: 'info',
        text: 'The clipboard is not available here. The secret is shown and selected: press Ctrl+C (⌘C on a Mac) to copy it.',
      });
    }
  };

  const rotate = async () => {
    setBusy('rotate');
    setMessage(null);
    const result = await rotateWebhookSecret();
    setBusy(null);
    setConfirming(false);
    if (!result.ok) {
      const { title, detail } = describeError(result.error);
      setMessage({
        kind: 'error',
        text: `The secret was not rotated. ${title}${detail ? ` ${detail}` : ''}`,
      });
      return;
    }
    setSecret(result.value.secret);
    setRevealed(true);
    setMessage({
      kind: 'success',
      text: 'New secret created. Update your webhook receiver now: signatures made with the old secret no longer verify.',
    });
  };

  return (
    <section className="card" aria-labelledby="webhook-secret-heading">
      <h2 id="webhook-secret-heading">Webhook secret</h2>
      {webhookUrl === null ? (
        <p className="muted">
          The webhook secret exists only while a webhook URL is set. Set a Webhook URL above and
          save to get one.
        </p>
      ) : (
        <>
          <p className="muted">
            Your webhook receiver uses this secret to check that order updates really come from the
            service. Keep it private.
          </p>
          <div className="secret-row">
            {revealed && secret ? (
              <>
                <label htmlFor="webhook-secret" className="visually-hidden">
                  Webhook secret
                </label>
                <input
                  ref={input}
                  id="webhook-secret"
                  className="input secret-value"
                  readOnly
                  value={secret}
                  spellCheck={false}
                />
              </>
            ) : (
              <span
                className="secret-value secret-hidden"
                aria-label="Webhook secret (hidden)"
                role="img"
              >
                ••••••••••••••••••••••••
              </span>
            )}
          </div>
          <div className="form-actions form-actions-start">
            <button
              type="button"
              className="button"
              onClick={() => void reveal()}
              disabled={busy !== null}
            >
              {busy === 'reveal' ? (
                <Loader2 aria-hidden="true" size={16} className="spin" />
              ) : revealed ? (
                <EyeOff aria-hidden="true" size={16} />
              ) : (
                <Eye aria-hidden="true" size={16} />
              )}
              {revealed ? 'Hide secret' : 'Reveal secret'}
            </button>
            <button
              type="button"
              className="button"
              onClick={() => void copy()}
              disabled={busy !== null}
            >
              <Copy aria-hidden="true" size={16} />
              Copy secret
            </button>
            <button
              type="button"
              className="button button-danger-outline"
              onClick={() => setConfirming(true)}
              disabled={busy !== null}
            >
              <RotateCw aria-hidden="true" size={16} />
              Rotate secret…
            </button>
          </div>
        </>
      )}
      <div role="status" className="form-status">
        {message && message.kind !== 'error' && (
          <p className={`notice notice-${message.kind}`}>{message.text}</p>
        )}
      </div>
      {message?.kind === 'error' && (
        <p className="notice notice-error" role="alert">
          {message.text}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        title="Rotate the webhook secret?"
        confirmLabel="Rotate secret"
        busy={busy === 'rotate'}
        onConfirm={() => void rotate()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          A new secret replaces the current one right away. Webhooks are signed with the new secret
          from then on, and signatures made with the old secret stop verifying: update your webhook
          receiver with the new secret at once.
        </p>
      </ConfirmDialog>
    </section>
  );
}
