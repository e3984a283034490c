/** Where a patient's screen is (#/patients/:sourceId), the Patient ID escaped. */
export const patientHref = (sourceId: string): string =>
  `/patients/${encodeURIComponent(sourceId)}`;
