/**
 * Where a patient's screen is (#/patients/:sourceId), the Patient ID escaped; with `person` (a
 * name key) when the ID names several people, so the screen shows that one only.
 */
export const patientHref = (sourceId: string, person?: string | null): string =>
  `/patients/${encodeURIComponent(sourceId)}${person ? `/${encodeURIComponent(person)}` : ''}`;
