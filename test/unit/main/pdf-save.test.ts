import { describe, expect, it } from 'vitest';
import { savePageAsPdf, type PdfSaveDeps } from '@main/pdf-save';

function fakes(chosen: string | null, failWrite = false) {
  const calls: string[] = [];
  const deps: PdfSaveDeps = {
    chooseFile: async (name) => {
      calls.push(`choose ${name}`);
      return chosen;
    },
    printPage: async () => {
      calls.push('print');
      return new Uint8Array([0x25, 0x50, 0x44, 0x46]);
    },
    writeFile: async (path, data) => {
      if (failWrite) throw new Error('EACCES: permission denied');
      calls.push(`write ${path} ${data.length}`);
    },
  };
  return { deps, calls };
}

describe('saving the page as a PDF (Electron collaborators faked)', () => {
  it('asks where first, then prints the page and writes it there', async () => {
    const { deps, calls } = fakes('/home/ada/Documents/schedule.pdf');
    expect(await savePageAsPdf(deps, 'dosing-schedule-ada-2026-11-26.pdf')).toEqual({
      saved: true,
    });
    expect(calls).toEqual([
      'choose dosing-schedule-ada-2026-11-26.pdf',
      'print',
      'write /home/ada/Documents/schedule.pdf 4',
    ]);
  });

  it('prints nothing when the dialog is closed', async () => {
    const { deps, calls } = fakes(null);
    expect(await savePageAsPdf(deps, 'a.pdf')).toEqual({ saved: false });
    expect(calls).toEqual(['choose a.pdf']);
  });

  it('fails when the file cannot be written', async () => {
    const { deps } = fakes('/read-only/a.pdf', true);
    await expect(savePageAsPdf(deps, 'a.pdf')).rejects.toThrow(/permission denied/);
  });
});
