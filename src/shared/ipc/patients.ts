import { PatientId, PatientListQuery, PatientPageView, PatientView } from '../patient-views';
import { SharedIdsView, UntangleArgs, UntangleResult } from '../patient-identity-views';
import { call, None, read, type AreaChannels } from './channel';

/** patients.*: the patient list, one patient whole, the Patient IDs shared and untangling one. */
export const patientsChannels = {
  /** Patients (the customers' sourceIds of protocols and orders), a page at a time, searched. */
  'patients.list': read(PatientListQuery, PatientPageView, ['protocols', 'orders']),
  /** One patient: protocols, every order with its status, tracking and protocol, the supply. */
  'patients.get': read(PatientId, PatientView, ['protocols', 'orders', 'jobs']),
  /** The Patient IDs that name more than one person, each with its people and their protocols. */
  'patients.sharedIds': read(None, SharedIdsView, ['protocols', 'orders']),
  /** Untangles one shared ID: the same person everywhere, or a person's protocols to a new ID. */
  'patients.untangle': call(UntangleArgs, UntangleResult),
} as const satisfies AreaChannels<'patients'>;
