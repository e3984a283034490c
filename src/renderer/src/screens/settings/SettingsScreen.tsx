import { useEffect } from 'react';
import { Failed, Loading } from '@renderer/components/States';
import { useSettingsStore } from '@renderer/stores/settings-store';
import { PartnerSettingsForm } from './PartnerSettingsForm';
import { NotificationsChoice } from './NotificationsChoice';
import { StartScreenChoice } from './StartScreenChoice';
import { RetentionSection } from './RetentionSection';
import { StaffSection } from './StaffSection';
import { ThemeChoice } from './ThemeChoice';
import { UpdatesSection } from './UpdatesSection';
import { WebhookSecret } from './WebhookSecret';

function PartnerSettingsSection() {
  const state = useSettingsStore((s) => s.state);
  const settings = useSettingsStore((s) => s.settings);
  const error = useSettingsStore((s) => s.error);
  const load = useSettingsStore((s) => s.load);
  useEffect(() => {
    if (useSettingsStore.getState().state !== 'ready') void load();
  }, [load]);

  if (state === 'failed' && error) {
    return (
      <section className="card">
        <Failed
          what="Partner settings could not be loaded."
          error={error}
          onRetry={() => void load()}
        />
      </section>
    );
  }
  if (!settings) return <Loading label="Loading partner settings…" />;
  return (
    <>
      <section className="card" aria-labelledby="partner-heading">
        <h2 id="partner-heading">Partner</h2>
        <dl className="facts-list">
          <div>
            <dt>Name</dt>
            <dd>{settings.name}</dd>
          </div>
          <div>
            <dt>Partner ID</dt>
            <dd className="code">{settings.id}</dd>
          </div>
          <div>
            <dt>Discount</dt>
            <dd>
              {settings.discount ??
                (settings.discountValue !== null
                  ? `${Math.round(settings.discountValue * 100)}%`
                  : 'None')}
            </dd>
          </div>
          {settings.description && (
            <div className="facts-list-wide">
              <dt>Description</dt>
              <dd>{settings.description}</dd>
            </div>
          )}
        </dl>
        <p className="muted">
          These are set by the fulfillment partner and cannot be changed here.
        </p>
      </section>
      <section className="card">
        <PartnerSettingsForm settings={settings} />
      </section>
      <WebhookSecret webhookUrl={settings.webhookUrl} />
    </>
  );
}

/**
 * Partner settings, the webhook secret, the app's appearance, notifications and updates, the
 * people at this desk and how long the activity record is kept.
 */
export default function SettingsScreen() {
  return (
    <div className="screen screen-narrow">
      <h1>Settings</h1>
      <PartnerSettingsSection />
      <ThemeChoice />
      <NotificationsChoice />
      <StartScreenChoice />
      <UpdatesSection />
      <StaffSection />
      <RetentionSection />
    </div>
  );
}
