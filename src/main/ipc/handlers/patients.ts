import { listPatients, patientView } from '@main/patients/patient-queries';
import { IpcFailure } from '../errors';
import { catalogNames, toSummaryView } from '../views';
import { requireSession, type AreaHandlers, type IpcHandlerDeps } from './context';

/** patients.*: the patient list (search, pages) and one patient's protocols, orders and supply. */
export function patientsHandlers({ core }: IpcHandlerDeps): AreaHandlers<'patients'> {
  const session = () => requireSession(core);
  return {
    'patients.list': async ({ search, limit, offset }) => {
      session();
      return listPatients(core.store, { search, limit, offset });
    },
    'patients.get': async ({ sourceId }) => {
      // Days left count from the server's time, as the orders' dates and refills due do.
      const patient = patientView(core.store, sourceId, session().serverTime.now());
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
    },
  };
}
