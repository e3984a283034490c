import { useState } from 'react';
import type { PracticeProtocolChange } from '@shared/practice-views';
import { shippingMethodLabel } from '@renderer/lib/order-format';
import { PracticeCard } from './PracticeCard';
import { PracticeSelect } from './PracticeSelect';
import { usePracticeCommand } from './use-practice-command';
import { changeProtocolElsewhere, usePracticeProtocols } from './use-practice-data';

/**
 * Changes a protocol on the server as another desk would: edited here too before the app hears
 * of it, it becomes a conflict to resolve.
 */
export function AnotherDesk() {
  const protocols = usePracticeProtocols();
  const choices = (protocols.data?.items ?? []).filter((p) => p.serverId !== null && !p.deleted);
  const [picked, setPicked] = useState('');
  const command = usePracticeCommand<PracticeProtocolChange & { name: string }>();
  const chosen = choices.find((p) => p.serverId === picked) ?? choices[0] ?? null;

  const submit = () => {
    if (!chosen?.serverId) return;
    const { serverId, customerName: name } = chosen;
    void command.run(async () => {
      const result = await changeProtocolElsewhere(serverId);
      return result.ok ? { ok: true, value: { ...result.value, name } } : result;
    });
  };

  const changed = command.done;
  return (
    <PracticeCard
      id="practice-desk"
      title="Another desk"
      hint="Changes a protocol's shipping method on the server, as a colleague at another desk would. To meet a conflict: take the server offline, change a protocol below, edit the same protocol in Order Desk, then bring the server back."
      formLabel="Change a protocol as another desk"
      submitLabel="Change it on the server"
      canSubmit={chosen !== null}
      command={command}
      result={
        changed &&
        `Another desk changed ${changed.name}'s protocol on the server: shipping is now ${shippingMethodLabel(changed.shippingMethod)}.`
      }
      onSubmit={submit}
    >
      <PracticeSelect
        label="Protocol"
        value={chosen?.serverId ?? ''}
        empty="No protocol on the server yet"
        options={choices.map((p) => ({
          value: p.serverId!,
          label: `${p.customerName} (${p.sourceId})`,
        }))}
        onChange={setPicked}
      />
    </PracticeCard>
  );
}
