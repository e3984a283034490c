import { z } from 'zod';
import type { SharedIdsView } from '@shared/patient-identity-views';
import { COLUMNS_SELECT, ProtocolColumnsRow } from '../protocols/list-columns';
import type { LocalStore } from '../stores';
import { parseRow, prepareCached } from '../db/rows';
import { peopleOfId, suggestFreeId } from '../protocols/patient-identity';
import { sharedIdCount } from './patient-queries';

/** The most shared IDs one review lists (the count says how many there are in all). */
const SHARED_IDS_MAX = 200;

const ProtocolRow = z.object({
  local_id: z.string(),
  sort_name: z.string(),
  from_server: z.union([z.literal(0), z.literal(1)]),
});

/**
 * The Patient IDs whose protocols (not deleted) give more than one name (old data, or another
 * desk's protocols pulled), each with its people, their stored details and protocols: what the
 * review lists to untangle (docs/decisions.md, "One person per Patient ID").
 */
export function listSharedIds(store: LocalStore): SharedIdsView {
  const ids = (
    prepareCached(
      store.db,
      `SELECT source_id FROM protocols WHERE deleted = 0 GROUP BY source_id
       HAVING COUNT(DISTINCT sort_name) > 1 ORDER BY source_id LIMIT ?`,
    ).all(SHARED_IDS_MAX) as { source_id: string }[]
  ).map((r) => r.source_id);
  return {
    total: ids.length < SHARED_IDS_MAX ? ids.length : sharedIdCount(store),
    ids: ids.map((sourceId) => {
      const rows = prepareCached(
        store.db,
        `SELECT p.local_id, p.sort_name,
           (p.origin = 'server' AND p.sync_state = 'synced') AS from_server, ${COLUMNS_SELECT}
         FROM protocols p LEFT JOIN protocol_columns c ON c.seq = p.seq
         WHERE p.source_id = ? AND p.deleted = 0 ORDER BY p.local_updated_at DESC, p.seq DESC`,
      ).all(sourceId) as { local_id: unknown }[];
      const protocols = rows.map((row) => {
        const key = `local_id=${String(row.local_id)}`;
        const r = parseRow(ProtocolRow, row, 'protocols', key);
        const columns = parseRow(ProtocolColumnsRow, row, 'protocol_columns', key);
        return {
          person: r.sort_name,
          view: {
            localId: r.local_id,
            products: columns.products,
            daysSupply: columns.daysSupply,
            fromServer: r.from_server === 1,
          },
        };
      });
      return {
        sourceId,
        people: peopleOfId(store.db, sourceId).map(({ localIds: _ids, ...person }) => ({
          ...person,
          protocolList: protocols.filter((p) => p.person === person.key).map((p) => p.view),
        })),
        suggestedId: suggestFreeId(store.db, sourceId),
      };
    }),
  };
}
