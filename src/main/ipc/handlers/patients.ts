import { z } from 'zod';
import { listPatients, patientView } from '@main/patients/patient-queries';
import { listSharedIds } from '@main/patients/shared-ids';
import { IpcFailure, describeFieldErrors, fieldErrorsOf } from '../errors';
import { catalogNames, toSummaryView } from '../views';
import { sessionWrapper, type AreaHandlers, type IpcHandlerDeps } from './context';

/** patients.*: the patient list (search, pages) and one patient's protocols, orders and supply. */
export function patientsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'patients'> {
  const withSession = sessionWrapper(core);
  return {
    'patients.list': withSession(async ({ search, limit, offset }) =>
      listPatients(core.store, { search, limit, offset }),
    ),
    'patients.get': withSession(async ({ sourceId, person }, s) => {
      // Days left count from the server's time, as the orders' dates and refills due do.
      const patient = patientView(core.store, sourceId, s.serverTime.now(), person);
      if (!patient)
        throw new IpcFailure(
          'not-found',
          `No protocol or order here has the Patient ID ${sourceId}.`,
        );
      const { supply } = patient;
      return {
        ...patient,
        protocols: patient.protocols.map((p) => ({
          ...p,
          protocol: toSummaryView(p.protocol, catalogNames(core.store)),
        })),
        supply: supply && { ...supply, runsOutAt: new Date(supply.runsOutAt).toISOString() },
      };
    }),
    'patients.sharedIds': withSession(async () => listSharedIds(core.store)),
    'patients.untangle': withSession(async (args, s) => {
      try {
        const changed =
          args.choice === 'same-person'
            ? s.protocols.keepOnePerson(args.sourceId, args.keep)
            : s.protocols.moveToNewId(args.sourceId, args.person, args.newSourceId);
        return { changed };
      } catch (error) {
        if (!(error instanceof z.ZodError)) throw error;
        // A protocol's stored details that are not valid now (a state pulled from elsewhere).
        const fieldErrors = fieldErrorsOf(error.issues);
        throw new IpcFailure(
          'validation',
          `A protocol of this Patient ID needs its details fixed in the editor first: ${describeFieldErrors(fieldErrors)}.`,
        );
      }
    }),
  };
}
