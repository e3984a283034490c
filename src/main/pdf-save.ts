import type { SavePdfResult } from '@shared/schedule-pdf';

/**
 * What saving the window's page as a PDF takes from Electron, as arguments so that plain Node
 * tests it: the page printed (webContents.printToPDF, which renders with the print styles), the
 * save dialog, and the file write.
 */
export interface PdfSaveDeps {
  /** The page as it prints, as PDF bytes. */
  printPage(): Promise<Uint8Array>;
  /** The file the user chose in the save dialog, proposed as `fileName`; null when closed. */
  chooseFile(fileName: string): Promise<string | null>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
}

/**
 * The page saved as a PDF: the dialog first (closing it prints nothing), then the page printed
 * and written where the user chose. A failure to print or write throws and crosses as an error.
 */
export async function savePageAsPdf(deps: PdfSaveDeps, fileName: string): Promise<SavePdfResult> {
  const path = await deps.chooseFile(fileName);
  if (path === null) return { saved: false };
  const data = await deps.printPage();
  await deps.writeFile(path, data);
  return { saved: true };
}
