import { useLocation } from 'wouter';
import type { ProtocolView } from '@shared/protocol-views';
import { patientHref } from '@renderer/lib/patient-href';
import { useScreenCommands, type PaletteCommand } from '@renderer/stores/palette-store';

/** What the command palette offers while a saved protocol is open, as its buttons do. */
export function useEditorCommands(options: {
  view: ProtocolView | null;
  isDirty: boolean;
  locked: boolean;
  onOrderNow(): void;
  onDuplicate(): void;
}): void {
  const [, navigate] = useLocation();
  const { view, isDirty, locked } = options;
  const commands: PaletteCommand[] = [];
  if (view && !view.deleted) {
    const name = view.customerName;
    commands.push({
      id: 'editor-patient',
      label: `Open the patient ${name}`,
      run: () => navigate(patientHref(view.sourceId)),
    });
    // As the buttons: the schedule and the copy wait for unsaved changes to be saved.
    if (!isDirty) {
      commands.push(
        {
          id: 'editor-schedule',
          label: `Print the dosing schedule of ${name}`,
          keywords: ['pdf', 'save'],
          run: () => navigate(`/protocols/${view.localId}/schedule`),
        },
        {
          id: 'editor-duplicate',
          label: 'Duplicate for another patient',
          keywords: ['copy'],
          run: options.onDuplicate,
        },
      );
    }
    if (!isDirty && !locked)
      commands.push({
        id: 'editor-order-now',
        label: `Order now for ${name}`,
        keywords: ['send', 'place'],
        run: options.onOrderNow,
      });
  }
  useScreenCommands('editor', commands);
}
