import { z } from 'zod';
import { CsvFile } from '../csv-file';
import { ProtocolInput } from '../protocol-input';
import {
  ConflictChoice,
  ConflictView,
  DuplicateProtocol,
  LocalProtocolId,
  ProtocolListQuery,
  ProtocolMatch,
  ProtocolPageView,
  ProtocolView,
} from '../protocol-views';
import {
  CsvExportArgs,
  CsvImportArgs,
  CsvImportCommitArgs,
  CsvImportPreview,
  CsvImportResult,
} from '../protocol-csv-views';
import { PatientIdChoice } from '../patient-identity-views';
import { call, None, read, type AreaChannels } from './channel';

/** protocols.*: the list, one protocol, its commands, conflicts, CSV import and export. */
export const protocolsChannels = {
  /** Local protocols, a page at a time: the list, search, sort and filters work offline. */
  'protocols.list': read(ProtocolListQuery, ProtocolPageView, [
    'protocols',
    'jobs',
    'orders',
    'catalog',
  ]),
  /** How many protocols match the search and filters (every page of the list). */
  'protocols.count': read(ProtocolMatch, z.object({ total: z.int().min(0) }), [
    'protocols',
    'jobs',
    'orders',
    'catalog',
  ]),
  /** Every protocol matching the search and filters ("select all matching"). */
  'protocols.matchingIds': read(ProtocolMatch, z.object({ localIds: z.array(z.string()) }), [
    'protocols',
    'jobs',
    'orders',
  ]),
  'protocols.get': read(LocalProtocolId, ProtocolView, ['protocols', 'jobs']),
  /** Drafts a protocol locally; it is sent to the server when it can be. */
  /**
   * A Patient ID that already names another person stops these three with a 'conflict' carrying
   * patientIdClash; the same call with `patientId` (the user's answer) goes through.
   */
  'protocols.create': call(
    z.object({ draft: ProtocolInput, patientId: PatientIdChoice.optional() }),
    ProtocolView,
  ),
  'protocols.update': call(
    LocalProtocolId.extend({ draft: ProtocolInput, patientId: PatientIdChoice.optional() }),
    ProtocolView,
  ),
  /** A new local protocol with the same order for another patient. */
  'protocols.duplicate': call(
    DuplicateProtocol.extend({ patientId: PatientIdChoice.optional() }),
    ProtocolView,
  ),
  /** 'dropped': it never reached the server; 'queued': the delete waits to be sent. */
  'protocols.delete': call(
    LocalProtocolId,
    z.object({ effect: z.enum(['queued', 'dropped', 'deferred']) }),
  ),
  'protocols.conflicts': read(None, z.array(ConflictView), ['protocols', 'jobs', 'orders']),
  'protocols.resolveConflict': call(
    LocalProtocolId.extend({ choice: ConflictChoice }),
    z.object({
      localId: z.string().nullable(),
      copyLocalId: z.string().nullable(),
      /** Whether Undo can take it back: a resolution that changed nothing is no step. */
      undoable: z.boolean(),
    }),
  ),
  /** What importing this CSV text would do, writing nothing: the rows ready and those with problems. */
  'protocols.importPreview': call(CsvImportArgs, CsvImportPreview),
  /** Imports the good rows of the same text as local drafts, all in one transaction. */
  'protocols.importCommit': call(CsvImportCommitArgs, CsvImportResult),
  /** The protocols the list shows (search, filters, sort) as CSV text in the import's columns. */
  'protocols.exportCsv': call(CsvExportArgs, CsvFile),
  /** The import's columns with example rows from the synced catalog. */
  'protocols.csvTemplate': call(None, CsvFile),
} as const satisfies AreaChannels<'protocols'>;
