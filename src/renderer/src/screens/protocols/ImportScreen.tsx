import { formatCount, plural } from '@renderer/lib/format';
import { Download, FileUp, Upload } from 'lucide-react';
import { useEffect, useRef, useState, type DragEvent } from 'react';
import { useLocation } from 'wouter';
import { Loading } from '@renderer/components/States';
import { describeError } from '@renderer/lib/ipc';
import { useProtocolImportStore } from '@renderer/stores/protocol-import-store';
import { useProtocolsStore } from '@renderer/stores/protocols-store';
import { toast } from '@renderer/stores/toast-store';
import { undoAction } from '@renderer/stores/undo-store';
import '@renderer/styles/batches.css';
import '@renderer/styles/protocols.css';
import { downloadTemplate } from './csv-actions';
import { BadRows, GoodRows, PatientIdSummary } from './ImportRows';

/** Choosing the file: a file input, and a drop zone around it. */
function FileChooser({ onFile }: { onFile: (file: File) => void }) {
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <div
      className={over ? 'import-drop import-drop-over' : 'import-drop'}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
    >
      <FileUp aria-hidden="true" size={28} />
      <p>Drop a CSV file here, or</p>
      <input
        id="import-file"
        className="visually-hidden import-file-input"
        type="file"
        accept=".csv,text/csv"
        onChange={(event) => {
          const file = event.target.files?.[0];
          // The same file may be chosen again after it was fixed.
          event.target.value = '';
          if (file) onFile(file);
        }}
      />
      <label className="button button-primary" htmlFor="import-file">
        <Upload aria-hidden="true" size={16} />
        Choose a CSV file…
      </label>
      <p className="muted">
        UTF-8 text with commas between the columns; one row per patient and protocol.
      </p>
    </div>
  );
}

/** The whole file could not be read as protocols (or the import failed): every reason. */
function FileProblems() {
  const error = useProtocolImportStore((s) => s.error);
  const fileName = useProtocolImportStore((s) => s.fileName);
  if (!error) return null;
  const problems = error.fieldErrors.map((f) => f.message);
  const { title, detail } = describeError(error);
  return (
    <div className="notice notice-error" role="alert">
      <p className="notice-title">
        {problems.length > 0
          ? `${fileName ?? 'The file'} cannot be imported.`
          : `Nothing was imported. ${title}`}
      </p>
      {problems.length > 0 ? (
        <ul className="problem-list">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      ) : (
        detail && <p>{detail}</p>
      )}
    </div>
  );
}

/**
 * CSV import of protocols (#/protocols/import): choose a file, see main's preview (every bad
 * row with its reasons, the ready rows), then import the ready rows as drafts. Nothing is written
 * before "Import". Leaving drops the preview only: the file is still on disk.
 */
export default function ImportScreen() {
  const phase = useProtocolImportStore((s) => s.phase);
  const preview = useProtocolImportStore((s) => s.preview);
  const fileName = useProtocolImportStore((s) => s.fileName);
  const choose = useProtocolImportStore((s) => s.choose);
  const commit = useProtocolImportStore((s) => s.commit);
  const reset = useProtocolImportStore((s) => s.reset);
  const unanswered = useProtocolImportStore(
    (s) =>
      s.preview?.good.filter((g) => g.patientIdClash && s.patientIds[String(g.row)] === undefined)
        .length ?? 0,
  );
  const [, navigate] = useLocation();
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => reset, [reset]);
  useEffect(() => {
    if (phase === 'preview') heading.current?.focus();
  }, [phase]);

  const importNow = async () => {
    const result = await commit();
    if (!result) return;
    toast.success(
      `${plural(result.created, 'protocol')} imported as drafts`,
      'They sync when the server can be reached.',
      { action: undoAction({ kind: 'import' }) },
    );
    // The app shows the rows imported: no step of its own (Ctrl+Z takes back the import).
    useProtocolsStore.getState().clearFilters(false);
    navigate('/protocols');
  };

  const showPreview = preview && (phase === 'preview' || phase === 'importing');
  const warned = preview?.good.filter((g) => g.warnings.length > 0).length ?? 0;
  return (
    <div className="screen protocols-import batch-screen">
      <div className="screen-head">
        <div>
          <h1>Import protocols from CSV</h1>
          <p className="lead">
            One row per patient and protocol. Nothing is imported until you choose Import.
          </p>
        </div>
        <div className="screen-actions">
          <button type="button" className="button" onClick={() => void downloadTemplate()}>
            <Download aria-hidden="true" size={16} />
            Download template
          </button>
          <a href="#/protocols" className="button">
            {showPreview ? 'Cancel' : 'Back to the protocols'}
          </a>
        </div>
      </div>

      <FileProblems />

      {phase === 'reading' ? (
        <Loading label={`Checking ${fileName ?? 'the file'}…`} />
      ) : showPreview ? (
        <>
          <section className="card review-summary" aria-labelledby="import-summary-heading">
            <h2 id="import-summary-heading" ref={heading} tabIndex={-1}>
              {fileName}
            </h2>
            <dl className="review-figures">
              <div>
                <dt>Rows read</dt>
                <dd>{formatCount(preview.total)}</dd>
              </div>
              <div>
                <dt>Ready to import</dt>
                <dd data-testid="import-ready">{formatCount(preview.ready)}</dd>
              </div>
              <div>
                <dt>With problems</dt>
                <dd data-testid="import-bad">{formatCount(preview.bad.length)}</dd>
              </div>
              <div>
                <dt>With warnings</dt>
                <dd>{formatCount(warned)}</dd>
              </div>
            </dl>
            {!preview.catalogChecked && (
              <p className="notice notice-warn">
                The catalog has not been synced to this computer yet, so product IDs were not
                checked. The server checks them when the protocols sync; a protocol it refuses is
                shown in the list with the reason.
              </p>
            )}
            <div className="form-actions form-actions-start">
              <button
                type="button"
                className="button button-primary"
                disabled={preview.ready === 0 || phase === 'importing' || unanswered > 0}
                aria-describedby={unanswered > 0 ? 'import-unanswered' : undefined}
                onClick={() => void importNow()}
              >
                <Upload aria-hidden="true" size={16} />
                {phase === 'importing'
                  ? 'Importing…'
                  : `Import ${plural(preview.ready, 'protocol')}`}
              </button>
              <button
                type="button"
                className="button"
                disabled={phase === 'importing'}
                onClick={reset}
              >
                Choose another file
              </button>
            </div>
            {unanswered > 0 && (
              <p id="import-unanswered" className="muted">
                {plural(unanswered, 'row')} with a Patient ID of another name{' '}
                {unanswered === 1 ? 'needs' : 'need'} an answer first.
              </p>
            )}
          </section>
          <PatientIdSummary rows={preview.good} />
          {preview.bad.length > 0 && <BadRows rows={preview.bad} />}
          {preview.good.length > 0 && <GoodRows rows={preview.good} />}
        </>
      ) : (
        <section className="card" aria-label="Choose a file">
          <FileChooser onFile={(file) => void choose(file)} />
          <p className="muted import-help">
            Start from the template: it has every column, and two example rows made of products from
            your catalog (delete them before importing). A product in the daily packs takes its
            pills in the morning, afternoon, evening and bedtime columns; any other product takes a
            quantity.
          </p>
        </section>
      )}
    </div>
  );
}
