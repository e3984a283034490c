/**
 * Hands a text file to the user: the browser's download in the browser host, Electron's save
 * dialog in the app (a download from the page asks where to save it). The text is already
 * complete (CSV made by main), so one Blob and one click are all it takes.
 */
export function saveTextFile(
  fileName: string,
  text: string,
  type = 'text/csv;charset=utf-8',
): void {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The click has started the download; the object URL can go once this task is done.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** A file name with today's local date: `order-desk-protocols-2026-11-25.csv`. */
export function datedFileName(stem: string, extension = 'csv', now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  const day = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
  return `${stem}-${day}.${extension}`;
}
